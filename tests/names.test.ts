// Name lists (assembly/util/names.ts) are packed at build time by scripts/messages-transform.mjs:
// the transform's bytes are the ones the run-time packer gives (assembly/tests/names.spec.ts), and the
// release image's static memory holds a packed list, not UTF-16 strings.
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

test("the release image's static memory holds the setup form's key list packed, as the transform packs it", async () => {
  // instantiated with every import a no-op: its start function unpacks the data section
  // (scripts/pack-statics.mjs) and runs the core's start-up, no export is called
  const image = fs.readFileSync(path.join(ROOT, "build/controller.wasm"));
  const noop = new Proxy({}, { get: () => () => 0 });
  const { instance } = await WebAssembly.instantiate(image, new Proxy({}, { get: () => noop }));
  const memory = Buffer.from((instance.exports.memory as WebAssembly.Memory).buffer);
  const packed = Buffer.from(packNames("ssid password mqtt"));
  assert.ok(memory.includes(packed), "static memory should hold the packed list");
});
