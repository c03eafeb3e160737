// The controller's static data (docs/decisions.md, "Static objects have no block"; "Messages with
// arguments are formatted from the table"): scripts/static-data-transform.mjs lays static objects out
// back to back, each starting at its rtId, so the data section is a few long segments; an ArrayBuffer
// keeps AssemblyScript's layout, because an Array whose buffer is static renews it when it grows.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import asc from "assemblyscript/asc";
import { ROOT } from "./helpers/host.js";
import { readWasmInfo } from "../bench/wasm-info.js";

test("the release image's static data is a few segments (static objects touch; scripts/pack-data.mjs merges)", () => {
  const segments = readWasmInfo(path.join(ROOT, "build/controller.wasm")).dataSegments;
  // 536 when each static object had its own block header; about 30 with the layout
  assert.ok(segments <= 64, `${segments} data segments`);
});

test("the message table holds a failing site's concatenation as one entry with holes", () => {
  const messages = fs
    .readFileSync(path.join(ROOT, "build/messages.txt"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as string);
  assert.ok(messages.includes("must be an integer \u0001-\u0002"), "json/validate.ts expectInt's rule");
  assert.ok(!messages.includes("must be an integer "), "its text is not a message of its own");
});

// A program compiled with the transform: two strings, a StaticArray, and an Array of constants that
// grows (its static buffer renewed by the stub runtime, which reads the buffer's mmInfo).
const PROGRAM = `
const A = "first";
const B = "second, longer";
const T: StaticArray<u32> = [7, 8, 9];
const G: i32[] = [1, 2, 3];
export function a(): usize { return changetype<usize>(A); }
export function b(): usize { return changetype<usize>(B); }
export function t(): usize { return changetype<usize>(T); }
export function lengths(): i32 { return A.length * 10000 + B.length * 100 + T.length; }
export function sum(): i32 { return T[0] + T[1] + T[2]; }
export function grow(): i32 {
  for (let i = 4; i <= 40; i++) G.push(i);
  let s = 0;
  for (let i = 0; i < G.length; i++) s += G[i];
  return s;
}
`;

test("a program built with the transform: objects touch, each read by its rtId and rtSize; a static Array grows", async () => {
  const files: Record<string, Uint8Array | string> = {};
  const result = await asc.main(
    [
      "static.ts",
      "--outFile",
      "static.wasm",
      "--runtime",
      "stub",
      "--optimizeLevel",
      "3",
      "--shrinkLevel",
      "2",
      "--noAssert",
      "--transform",
      path.join(ROOT, "scripts/static-data-transform.mjs"),
    ],
    {
      readFile: (name: string) => (name === "static.ts" ? PROGRAM : null),
      writeFile: (name: string, contents: Uint8Array | string) => {
        files[name] = contents;
      },
      listFiles: () => [],
    },
  );
  assert.equal(result.error, null, String(result.stderr));
  const module = await WebAssembly.compile(Buffer.from(files["static.wasm"] as Uint8Array));
  const instance = await WebAssembly.instantiate(module, {
    env: { abort: () => assert.fail("abort") },
  });
  const e = instance.exports as Record<string, any>;
  assert.equal(e.lengths(), 5 * 10000 + 14 * 100 + 3);
  assert.equal(e.sum(), 24);
  assert.equal(e.grow(), (40 * 41) / 2);
  // A, B and T follow each other: each object's rtId lies right after the previous object's bytes
  // (aligned to 4), where AssemblyScript's layout left 12 header bytes and padding to 16
  const view = new DataView((e.memory as WebAssembly.Memory).buffer);
  const [a, b, t] = [e.a(), e.b(), e.t()].map(Number).sort((x, y) => x - y);
  for (const [prev, next] of [
    [a, b],
    [b, t],
  ]) {
    const end = prev + view.getUint32(prev - 4, true);
    assert.equal(next - 8, (end + 3) & ~3, `the object at ${next} starts where the one at ${prev} ends`);
  }
});
