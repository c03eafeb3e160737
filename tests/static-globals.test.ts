// The least used globals as words of low static memory (scripts/static-globals.mjs, run by
// scripts/reoptimize.mjs on the controller's release image): same behaviour, fewer globals.
import { test } from "node:test";
import assert from "node:assert/strict";
import binaryen from "binaryen";

// (a build script without type declarations, imported by path)
const script: string = "../scripts/static-globals.mjs";
const { staticGlobals } = (await import(script)) as {
  staticGlobals: (m: binaryen.Module, maxUses: number, features: number) => { module: binaryen.Module; moved: number };
};

const WAT = `(module
 (memory (export "memory") 1 1)
 (global $hot (mut i32) (i32.const 0))
 (global $rare (mut i32) (i32.const 7))
 (global $wide (mut f64) (f64.const 1.5))
 (func (export "bump") (result i32)
  (global.set $hot (i32.add (global.get $hot) (i32.const 1)))
  (global.set $hot (i32.add (global.get $hot) (i32.const 1)))
  (global.set $rare (i32.add (global.get $rare) (global.get $hot)))
  (global.set $wide (f64.mul (global.get $wide) (f64.const 2)))
  (i32.add (global.get $rare) (i32.trunc_f64_s (global.get $wide))))
)`;

test("globals with few accesses move to low memory, keep their initial values and behave the same", () => {
  const F = binaryen.Features;
  const features = F.MutableGlobals | F.SignExt | F.NontrappingFPToInt | F.BulkMemory;
  const original = binaryen.parseText(WAT);
  original.setFeatures(features);
  const before = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(original.emitBinary())));
  const { module, moved } = staticGlobals(original, 3, features);
  assert.equal(moved, 2, "$rare and $wide (3 accesses each), not $hot (4)");
  assert.ok(module.validate());
  const binary = Buffer.from(module.emitBinary());
  module.dispose();
  const after = new WebAssembly.Instance(new WebAssembly.Module(binary));
  const run = (i: WebAssembly.Instance) => [1, 2, 3].map(() => (i.exports.bump as () => number)());
  assert.deepEqual(run(after), run(before));
  const memory = new DataView((after.exports.memory as WebAssembly.Memory).buffer);
  const words = [8, 16].map((a) => [memory.getInt32(a, true), memory.getFloat64(a, true)]);
  assert.ok(
    words.some(([i]) => i === 7 + 2 + 4 + 6),
    "$rare's word below 1024",
  );
  assert.ok(
    words.some(([, f]) => f === 12),
    "$wide's word, 8-aligned",
  );
});
