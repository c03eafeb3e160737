// The bench's report: one printed section per measurement, with the targets.
import path from "node:path";
import { ROOT } from "../host/src/controller.js";
import { readWasmInfo } from "./wasm-info.js";
import type { MemorySample } from "./memory.js";
import type { CoreOpResult } from "./core-ops.js";
import { THROUGHPUT_SETTINGS, type ThroughputRow } from "./throughput.js";
import type { LoadResult } from "./http-load.js";
import { table, int, fixed, kib, verdict } from "./table.js";
import { NATIVE_SETTINGS, type NativeBench } from "./native.js";
import { IMAGE_BUDGET } from "./budgets.js";

const PAGE = 64 * 1024;
const TARGETS = { controllerWasm: IMAGE_BUDGET, memory: 128 * 1024 };

function section(title: string, body: string): void {
  console.log(`\n${title}\n\n${body}`);
}

export function reportSizes(): void {
  const file = (name: string) => path.join(ROOT, "build", name);
  const controller = readWasmInfo(file("controller.wasm"));
  const panel = readWasmInfo(file("panel.wasm"));
  const debug = readWasmInfo(file("controller.debug.wasm"));
  const rows = [
    [
      "build/controller.wasm",
      int(controller.bytes),
      kib(controller.bytes),
      `<= ${int(IMAGE_BUDGET)} B`,
      verdict(controller.bytes <= TARGETS.controllerWasm),
    ],
    ["build/panel.wasm", int(panel.bytes), kib(panel.bytes), "-", ""],
  ];
  const heapBase = debug.heapBase === null ? "not found" : `${int(debug.heapBase)} B (${kib(debug.heapBase)})`;
  section(
    "1. WebAssembly sizes",
    table(["file", "bytes", "KiB", "target", "result"], rows, "lrrll") +
      `\n\ncontroller.wasm static data: ${controller.dataSegments} active segments, ${int(controller.dataBytes)} B ` +
      `initialised, the last ending at ${int(controller.dataEnd)} B (${kib(controller.dataEnd)}); ` +
      `initial memory ${controller.initialPages} page(s) of 64 KiB` +
      `\n__heap_base (start of the heap, from the debug build's name section): ${heapBase}`,
  );
}

export function reportMemory(panels: number, samples: MemorySample[]): void {
  const rows = samples.map((s) => [s.step, s.result || "-", int(s.bytes), kib(s.bytes), String(s.bytes / PAGE)]);
  const peak = Math.max(...samples.map((s) => s.bytes));
  section(
    `2. Core linear memory with ${panels} panels (controller.core.memoryBytes after each step)`,
    table(["step", "answer", "bytes", "KiB", "pages"], rows, "llrrr") +
      `\n\npeak: ${int(peak)} B = ${kib(peak)} (${peak / PAGE} pages of 64 KiB); ` +
      `target: within 128 KiB (2 pages, the most the core can grow to): ${verdict(peak <= TARGETS.memory)}`,
  );
}

export function reportCoreOps(results: CoreOpResult[]): void {
  const rows = results.map((r) => [
    r.name,
    int(r.iterations),
    int(r.nsPerOp),
    String(r.unexpected),
    fixed(r.busPacketsPerOp, 2),
    r.note,
  ]);
  section(
    "3. Cost per operation inside the core (direct calls, outputs discarded, store in memory)",
    table(["operation", "iterations", "ns/op", "unexpected", "bus pkts/op", "includes"], rows, "lrrrrl"),
  );
}

function statuses(r: LoadResult): string {
  return [...r.statuses].map(([status, n]) => `${status} x${n}`).join(", ") || "-";
}

export function reportThroughput(panels: number, rows: ThroughputRow[]): void {
  const { HTTP_REQUESTS, CONCURRENCY, WS_FRAMES } = THROUGHPUT_SETTINGS;
  const lines = rows.map((r) => [
    r.name,
    `${int(r.controller.perSecond)} ${r.unit}`,
    `${int(r.bare.perSecond)} ${r.unit}`,
    `${fixed(r.controller.perSecond / r.bare.perSecond, 2)}`,
    statuses(r.controller),
    statuses(r.bare),
  ]);
  section(
    "4. Throughput over loopback: the controller vs a bare Node http/ws server answering the same bytes\n" +
      `   HTTP: ${int(HTTP_REQUESTS)} requests on ${CONCURRENCY} keep-alive connections; ` +
      `WS: ${int(WS_FRAMES)} frames then PING/PONG on one connection`,
    table(
      ["request", "controller", "bare node", "ctrl/bare", "controller statuses", "bare statuses"],
      lines,
      "lrrrll",
    ) +
      `\n\nThe controller's figures include its whole host: a PATCH is applied on the next tick, written to the` +
      `\nstore (temp file, fsync, rename) and broadcast to ${panels} emulated panels; a SET_COLOR travels the virtual` +
      `\nbus to panel 1. The bare server does none of that.`,
  );
}

/** A section of name/value figures from a bench module (panel engine, scene store). */
export function reportFigures(title: string, figures: Record<string, string | number>): void {
  const rows = Object.entries(figures).map(([k, v]) => [k, typeof v === "number" ? fixedOrInt(v) : v]);
  section(title, table(["measure", "value"], rows, "lr"));
}

function fixedOrInt(v: number): string {
  return Number.isInteger(v) ? int(v) : fixed(v, 2);
}

/** Section 8: the native POSIX host (bench/native.ts). */
export function reportNative(panels: number, bench: NativeBench): void {
  const { HTTP_REQUESTS, CONCURRENCY, WS_FRAMES } = NATIVE_SETTINGS;
  const HOST_TARGET = 256 * 1024;
  const rows = bench.runs.map((r) => [
    r.runtime,
    `${int(r.getState.perSecond)} req/s`,
    statuses(r.getState),
    `${int(r.setColor.perSecond)} frames/s`,
    `${fixed(r.loaded.rssKiB / 1024)} MiB`,
    kib(Math.max(r.idle.hostHeap, r.loaded.hostHeap)),
    verdict(Math.max(r.idle.hostHeap, r.loaded.hostHeap) < HOST_TARGET),
  ]);
  const detail = bench.runs.map((r) => [
    r.runtime,
    kib(r.loaded.coreHeap),
    kib(r.loaded.coreLinear),
    kib(r.loaded.panelsHeap + r.loaded.panelsStatic),
    `${kib(r.idle.hostHeap)} / ${kib(r.loaded.hostHeap)}`,
    String(r.loaded.threads),
  ]);
  const body = bench.runs.length
    ? table(
        ["runtime", "GET /api/state", "statuses", "WS SET_COLOR", "RSS", "host's own heap", "< 256 KiB"],
        rows,
        "lrlrrrl",
      ) +
      "\n\n" +
      table(
        [
          "runtime",
          "core (runtime + memory)",
          "of it linear memory",
          "emulated panels",
          "host heap idle / after load",
          "threads",
        ],
        detail,
        "lrrrrr",
      ) +
      `\n\nHTTP: ${int(HTTP_REQUESTS)} requests on ${CONCURRENCY} keep-alive connections; WS: ${int(WS_FRAMES)} frames then ` +
      `PING/PONG on one connection. RSS is the whole process: libc, the worker threads' stacks and the ${panels}` +
      `\nemulated panels (64 KiB of linear memory each). The host's own heap is what the process has malloc'd minus` +
      `\nthe panels and the core (glibc mallinfo2 samples; native/port/posix/memory.c, docs/porting.md).`
    : "";
  section(
    `8. The native POSIX host (native/) with ${panels} panels`,
    [body, ...bench.skipped.map((s) => `skipped: ${s}`)].filter(Boolean).join("\n\n"),
  );
}
