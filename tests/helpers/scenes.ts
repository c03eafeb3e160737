// Scene documents for the scene tests and the bench, and an in-process core (no server, no
// panels) for checks on the core's memory.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Core } from "../../host/src/core.js";
import { FileStore } from "../../host/src/store.js";
import { METHOD_CODES } from "../../host/src/abi.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Scene = { [key: string]: any };

/** A small valid scene (schemaVersion 8) touching each part of the format. */
export function baseScene(): Scene {
  return {
    schemaVersion: 8,
    name: "base",
    loop: true,
    speed: 1.5,
    colors: { primary: "#FFFFFF", secondary: "#102030", tertiary: "#000000" },
    background: "#000000",
    palette: "Rainbow",
    layers: [
      {
        group: "ambient",
        panels: "all",
        blend: "opaque",
        palette: "Ocean",
        sequence: [
          { id: "in", type: "FADE", colorFrom: "#000000", colorTo: { palette: 40 }, duration: 1000 },
          { id: "hold", type: "BREATHE", color: { useColor: 1 }, colorFrom: { r: 10 }, duration: 2000, loop: true },
        ],
      },
      {
        group: "sweep",
        panels: { any: ["leaves", [1, 2, 3]] },
        fallback: "root",
        startAfter: "ambient:in",
        blend: "max",
        sequence: [
          { runner: "WAVE", color: "#FF8000", duration: 1500, source: "root", waveWidth: 3, count: 2 },
          { duration: 500 },
          { runner: "RIPPLE", color: { r: 0, g: 0, b: 255 }, duration: 1500, directionality: "geometric" },
        ],
      },
      {
        group: "sparkle",
        async: "free",
        sequence: [{ runner: "SPARKLE", color: "#FFFFFF", duration: 0, waves: 5, width: 40 }],
      },
    ],
  };
}

const RUNNERS = ["WAVE", "RIPPLE", "CHASE", "WHEEL", "BOUNCE", "RAIN", "SPARKLE", "MATRIX"];

/** Eight runner layers starting at once on every panel, 51 pulses a panel (count, at most 8; BOUNCE
 * and WHEEL one each, in this order: 2, 8, 8, 1, 1, 8, 8, 8): the scene-start bound for runners
 * (tests/runners-table.test.ts, bench/playback.ts). */
export function runnerLayersScene(): Scene {
  const runners = [
    { runner: "WAVE", count: 2 },
    { runner: "RIPPLE", directionality: "geometric", source: "leaves", count: 8 },
    { runner: "CHASE", directionality: "geometric", angle: 40, count: 8 },
    { runner: "WHEEL", lines: 3, thickness: 10 },
    { runner: "BOUNCE", directionality: "geometric", angle: 90 },
    { runner: "WAVE", repeat: true, repeatCount: 3, count: 8 },
    { runner: "RIPPLE", directionality: "geometric", source: "panel:50", count: 8 },
    { runner: "WAVE", directionality: "geometric", angle: 30, count: 8 },
  ];
  return {
    schemaVersion: 7,
    layers: runners.map((r, l) => ({ group: l + 1, sequence: [{ ...r, color: "#00FF00", duration: 3000 }] })),
  };
}

/** The largest scene the limits allow in spirit: 8 layers x 12 steps, 32 explicit panels per layer,
 * every layer field, and steps carrying every field that applies to their kind. */
export function maximalScene(): Scene {
  const layers: Scene[] = [];
  for (let l = 0; l < 8; l++) {
    const sequence: Scene[] = [];
    for (let s = 0; s < 12; s++) {
      const id = `s${s}`;
      if (s % 2 === 0) {
        sequence.push({
          id,
          type: "PULSE",
          colorFrom: { r: 1, g: 2, b: 3 },
          colorTo: "#A0B0C0",
          duration: 1000 + s,
          loop: true,
          pingpong: false,
          params: [10, 20, 30, 40],
          animates: "dim",
          from: 0,
          to: 255,
        });
      } else {
        const runner = RUNNERS[(l + s) % 3];
        sequence.push({
          id,
          runner,
          color: { palette: 128 },
          colorFrom: { useColor: 2 },
          duration: 2000 + s,
          params: [1, 2],
          animates: "hue",
          amount: 200,
          source: `panel:${s + 1}`,
          directionality: "topology",
          angle: 90,
          reverse: true,
          waveWidth: 3,
          count: 2,
          repeat: true,
          repeatCount: 3,
        });
      }
    }
    const layer: Scene = {
      group: `layer${l + 1}`,
      panels: Array.from({ length: 32 }, (_, i) => 1 + ((i * 7 + l) % 100)),
      blend: "screen",
      async: false,
      palette: "Sunset",
      disabled: false,
      fallback: { not: "leaves" },
      sequence,
    };
    if (l > 0) layer.startAfter = `layer${l}:s3`;
    layers.push(layer);
  }
  return {
    schemaVersion: 8,
    name: "maximal",
    loop: true,
    speed: 1,
    colors: { primary: "#FFFFFF", secondary: "#FF0000", tertiary: "#0000FF" },
    background: "#000000",
    palette: "Aurora",
    layers,
  };
}

/** JSON tokens (values, plus one per object key) of a document, as the core's reader counts them. */
/** A stored scene file (docs/scenes.md): the summary header, when it has one, and the canonical JSON. */
export function readStoredScene(file: string): {
  json: string;
  summary: { schemaVersion: number; layerCount: number; duration: number; name: string } | null;
} {
  const b = fs.readFileSync(file);
  if (b.length === 0 || b[0] !== 0) return { json: b.toString("utf8"), summary: null };
  assert(b[1] === 1, "header version 1");
  const n = b.readUInt16LE(2);
  const summary = {
    schemaVersion: b[4],
    layerCount: b[5],
    duration: b.readUInt32LE(6),
    name: b.subarray(10, n).toString("utf8"),
  };
  return { json: b.subarray(n).toString("utf8"), summary };
}

export function tokenCount(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, e) => n + tokenCount(e), 0);
  if (v !== null && typeof v === "object")
    return 1 + Object.values(v).reduce((n: number, e) => n + 1 + tokenCount(e), 0);
  return 1;
}

export interface CoreResponse {
  status: number;
  /** -1 when the response was chunked. */
  length: number;
  text: string;
  body: any;
}

/** The controller core in this process with a file store and no panels: requests go straight to
 * core_http_begin/core_http_dispatch and are answered synchronously. `image`: build/controller.wasm,
 * or build/controller.debug.wasm, whose arena reports its high-water mark (arenaPeak). */
export class InProcessCore {
  readonly core: Core;
  readonly store: FileStore;
  private head = { status: 0, length: 0 };
  private chunks: Buffer[] = [];
  private ended = false;
  private next = 1;
  readonly logs: string[] = [];

  constructor(
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-scenes-")),
    store?: FileStore,
    image = "controller.wasm",
  ) {
    this.store = store ?? new FileStore(dataDir);
    const wasm = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../build", image);
    this.core = new Core(wasm, 100, {
      busSend() {},
      httpHead: (_r, status, length) => (this.head = { status, length }),
      httpBody: (_r, bytes) => this.chunks.push(Buffer.from(bytes)),
      httpEnd: () => (this.ended = true),
      wsSend() {},
      wsBroadcast() {},
      store: this.store,
      clockMs: () => performance.now(),
      log: (level, message) => this.logs.push(`[${level}] ${message}`),
      restarted: (reason) => {
        throw new Error(`core restarted: ${reason}`);
      },
    });
  }

  request(method: string, url: string, body?: string | Uint8Array | object): CoreResponse {
    const bytes =
      body === undefined
        ? Buffer.alloc(0)
        : typeof body === "string"
          ? Buffer.from(body)
          : body instanceof Uint8Array
            ? Buffer.from(body)
            : Buffer.from(JSON.stringify(body));
    this.chunks = [];
    this.ended = false;
    this.core.http(this.next++, METHOD_CODES[method], Buffer.from(url), bytes, bytes.length);
    if (!this.ended) throw new Error(`${method} ${url} was not answered`);
    const text = Buffer.concat(this.chunks).toString("utf8");
    let parsed: any = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: this.head.status, length: this.head.length, text, body: parsed };
  }

  get memoryBytes(): number {
    return this.core.memoryBytes;
  }

  /** The arena's high-water mark so far, bytes above start-up's, as an image with asserts reports each
   * new one (assembly/rt/arena.ts reportPeak: "arena peak N B, start-up S B, static D B"); with the
   * start-up and static bytes. */
  get arenaPeak(): { peak: number; startUp: number; static: number } {
    for (let i = this.logs.length - 1; i >= 0; i--) {
      const m = /arena peak (\d+) B, start-up (\d+) B, static (\d+) B/.exec(this.logs[i]);
      if (m) return { peak: Number(m[1]), startUp: Number(m[2]), static: Number(m[3]) };
    }
    throw new Error("no arena peak reported: an image with asserts reports it (build/controller.debug.wasm)");
  }
}
