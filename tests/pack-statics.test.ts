// The controller's data section as one packed stream (scripts/pack-statics.mjs): the tokens unpack to
// the bytes they were made from, and the release image starts with the memory its segments describe.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers/host.js";
import { readWasmInfo } from "../bench/wasm-info.js";

// (a build script without type declarations, imported by path)
const script: string = "../scripts/pack-statics.mjs";
const { packTokens, unpack } = (await import(script)) as {
  packTokens: (m: Uint8Array) => Uint8Array;
  unpack: (memory: Uint8Array, at: number, length: number, start: number) => void;
};

/** Packs `data` as if it started at `start`, unpacks it in a page from the top, returns the page. */
function roundTrip(data: Uint8Array, start = 1024): { page: Uint8Array; stream: Uint8Array } {
  const stream = packTokens(data);
  const page = new Uint8Array(65536);
  const at = page.length - stream.length;
  page.set(stream, at);
  unpack(page, at, stream.length, start);
  return { page, stream };
}

test("tokens unpack to the bytes: UTF-16 text, zero runs, repeats and plain bytes", () => {
  const parts: number[] = [];
  for (const ch of "messages, and messages again: é") parts.push(ch.charCodeAt(0) & 0xff, 0);
  parts.push(...new Array(20000).fill(0)); // a zero run longer than one token's 16 KiB
  for (let i = 0; i < 300; i++) parts.push((i * 37) & 0xff);
  parts.push(...parts.slice(0, 64)); // a repeat
  parts.push(0x40, 0x80, 0xc0, 0xff, 1);
  const data = Uint8Array.from(parts);
  const { page, stream } = roundTrip(data);
  const expected = new Uint8Array(65536);
  expected.set(data, 1024);
  assert.deepEqual(Buffer.from(page), Buffer.from(expected), "the page is the data at its place, zero elsewhere");
  assert.ok(stream.length < data.length / 2, `${stream.length} B for ${data.length}`);
});

test("random bytes survive packing (at most one byte a 64 more)", () => {
  let seed = 12345;
  const data = Uint8Array.from({ length: 5000 }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) & 0xff);
  const { page, stream } = roundTrip(data, 100);
  assert.deepEqual(Buffer.from(page.subarray(100, 5100)), Buffer.from(data));
  assert.ok(stream.length <= data.length + Math.ceil(data.length / 64));
});

test("the release image has one data segment, at the top of its page", () => {
  const image = fs.readFileSync(path.join(ROOT, "build/controller.wasm"));
  const module = new WebAssembly.Module(image);
  assert.ok(WebAssembly.Module.exports(module).some((e) => e.name === "memory"));
  assert.equal(readWasmInfo(path.join(ROOT, "build/controller.wasm")).dataSegments, 1);
});
