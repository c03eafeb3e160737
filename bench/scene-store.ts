// Bench: the scene library in the core. A maximal scene (8 layers x 12 steps, 32 explicit panels per
// layer, every field; tests/helpers/scenes.ts maximalScene) is validated and stored by a core
// instantiated in this process (host/src/core.ts + a FileStore on a temporary directory, no panels).
// Reports the core's time (the host's file write timed separately and subtracted), the peak linear
// memory, and the size of controller.wasm.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Core } from "../host/src/core.js";
import { FileStore } from "../host/src/store.js";
import { METHOD_CODES } from "../host/src/abi.js";
import { maximalScene, tokenCount } from "../tests/helpers/scenes.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const WASM = path.join(ROOT, "build/controller.wasm");
/** controller.wasm before the scene and palette documents (commit 5c69efe, the foundation). */
const FOUNDATION_WASM_BYTES = 29428;
const ROUNDS = 200;

/** A FileStore that times its writes, so the host's I/O can be told apart from the core's work. */
class TimedStore extends FileStore {
  writeMs = 0;
  write(key: string, data: Uint8Array): number {
    const t = performance.now();
    const rc = super.write(key, data);
    this.writeMs += performance.now() - t;
    return rc;
  }
}

interface Bench {
  core: Core;
  store: TimedStore;
  request(method: string, url: string, body: string): { status: number; text: string };
}

function instantiate(): Bench {
  const store = new TimedStore(fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-scenes-")));
  let status = 0;
  let chunks: Buffer[] = [];
  let next = 1;
  const core = new Core(WASM, 100, {
    busSend() {},
    httpHead: (_r, s) => (status = s),
    httpBody: (_r, b) => chunks.push(Buffer.from(b)),
    httpEnd() {},
    wsSend() {},
    wsBroadcast() {},
    store,
    clockMs: () => performance.now(),
    log() {},
    restarted(reason) {
      throw new Error(`core restarted: ${reason}`);
    },
  });
  return {
    core,
    store,
    request(method, url, body) {
      chunks = [];
      const bytes = Buffer.from(body);
      core.http(next++, METHOD_CODES[method], Buffer.from(url), bytes, bytes.length);
      return { status, text: Buffer.concat(chunks).toString("utf8") };
    },
  };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const us = (ms: number) => Math.round(ms * 1000);

export async function benchSceneStore(): Promise<Record<string, string | number>> {
  const doc = maximalScene();
  const text = JSON.stringify(doc);
  const padded = text + " ".repeat(32768 - text.length);
  const legacyDoc = maximalScene();
  for (const layer of legacyDoc.layers)
    for (const step of layer.sequence)
      if (step.runner) {
        delete step.directionality;
        step.source = "geometric";
      }
  const legacy = JSON.stringify(legacyDoc);
  const invalidDoc = maximalScene();
  invalidDoc.layers[7].sequence[11].duration = 70000; // the very last field: everything else is checked
  const invalid = JSON.stringify(invalidDoc);

  // peak linear memory: a fresh core per case, since wasm memory never shrinks
  const peak = (body: string): number => {
    const b = instantiate();
    const res = b.request("POST", "/api/scenes", body);
    if (res.status !== 200) throw new Error(`maximal scene refused: ${res.text}`);
    b.request("GET", "/api/scenes", "");
    return b.core.memoryBytes;
  };
  const fresh = instantiate().core.memoryBytes;
  const peakCompact = peak(text);
  const peakPadded = peak(padded);
  const peakLegacy = peak(legacy);

  // time: PATCH the same scene again and again (validate, canonical form, atomic write)
  const b = instantiate();
  const created = b.request("POST", "/api/scenes", text);
  const id = JSON.parse(created.text).id as string;
  const store: number[] = [];
  const write: number[] = [];
  const validate: number[] = [];
  const get: number[] = [];
  const list: number[] = [];
  for (let i = 0; i < ROUNDS + 20; i++) {
    b.store.writeMs = 0;
    let t = performance.now();
    const res = b.request("PATCH", `/api/scenes/${id}`, text);
    const total = performance.now() - t;
    if (res.status !== 200) throw new Error(res.text);
    t = performance.now();
    const rejected = b.request("POST", "/api/scenes", invalid);
    const v = performance.now() - t;
    if (rejected.status !== 422) throw new Error(rejected.text);
    t = performance.now();
    b.request("GET", `/api/scenes/${id}`, "");
    const g = performance.now() - t;
    t = performance.now();
    b.request("GET", "/api/scenes", "");
    const l = performance.now() - t;
    if (i < 20) continue; // warm-up
    store.push(total - b.store.writeMs);
    write.push(b.store.writeMs);
    validate.push(v);
    get.push(g);
    list.push(l);
  }
  const wasmBytes = fs.statSync(WASM).size;
  return {
    "scene maximal document (bytes)": text.length,
    "scene maximal document (JSON tokens)": tokenCount(doc),
    "scene parse + validate, rejected at the last field (µs, median)": us(median(validate)),
    "scene validate + canonical form + store, core only (µs, median)": us(median(store)),
    "scene store write by the host, atomic + fsync (µs, median)": us(median(write)),
    "scene GET /api/scenes/{id} chunked, incl. host reads (µs, median)": us(median(get)),
    "scene GET /api/scenes of one maximal scene (µs, median)": us(median(list)),
    "scene linear memory, fresh core (KiB)": fresh / 1024,
    "scene peak linear memory, maximal scene (KiB)": peakCompact / 1024,
    "scene peak linear memory, maximal scene padded to the 32 KiB body limit (KiB)": peakPadded / 1024,
    "scene peak linear memory, maximal scene in legacy forms (KiB)": peakLegacy / 1024,
    "scene memory budget (KiB)": 128,
    "controller.wasm (bytes)": wasmBytes,
    "controller.wasm growth since the foundation, 29428 B at 5c69efe (bytes)": wasmBytes - FOUNDATION_WASM_BYTES,
  };
}

// run directly: npx tsx bench/scene-store.ts
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [k, v] of Object.entries(await benchSceneStore())) console.log(`${k}: ${v}`);
}
