// Name lists (assembly/util/names.ts) are packed at build time by scripts/messages-transform.mjs:
// the transform's bytes are the ones the run-time packer gives (assembly/tests/names.spec.ts), and the
// release image holds a packed list, not UTF-16 strings.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers/host.js";

// (a build script without type declarations, imported by path)
const transform: string = "../scripts/messages-transform.mjs";
const { packNames } = (await import(transform)) as { packNames: (list: string) => number[] };

test("a name list is each name's byte length, then its UTF-8 bytes, ended by a 0", () => {
  assert.deepEqual(packNames("ab c é"), [2, 0x61, 0x62, 1, 0x63, 2, 0xc3, 0xa9, 0]);
  assert.throws(() => packNames("a  b"), /a name of 0 bytes/);
  assert.throws(() => packNames("x".repeat(256)), /a name of 256 bytes/);
});

test("the release image holds the setup form's key list packed, as the transform packs it", () => {
  const image = fs.readFileSync(path.join(ROOT, "build/controller.wasm"));
  const packed = Buffer.from(packNames("ssid password mqtt"));
  assert.ok(image.includes(packed), "build/controller.wasm should hold the packed list");
});
