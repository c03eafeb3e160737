// The device-fit bench (issue 12): the core under WAMR built for 32-bit x86 (gcc -m32) from the WAMR
// tree WAMR_ROOT names (outside this repository), with the project's own native/src and
// native/runtime/wamr/runtime.c, in both interpreter flavours (classic, the device default, and fast),
// driving the native bench port (native/port/bench/bench.c, TESSERA_PORT=bench): 100 emulated panels
// (large) or 32 (small), a library of 100 scenes with 64-character names, MQTT connected (Home
// Assistant discovery), the mirror on, the maximal scene saved and played, 8 runner layers, the library
// renamed to names sharing long prefixes and listed again; every export called as the ESP32 port calls
// it (bench.c: the Host/Origin check before each request, the job's tick after it). The figures are also
// written to build/bench-wamr.json (BenchJson below).
//   - memory: WAMR's allocations through a counting allocator (TESSERA_WAMR_COUNT_ALLOC: exact bytes
//     and peak), step by step (image copy, module, instance, exec env), plus linear memory; one more
//     classic build with WAMR's own pool (Alloc_With_Pool) for its statistics (highmark);
//   - time: valgrind --tool=callgrind on the same binaries, counting only inside the tessera_* driver
//     calls (the emulated panels are not counted), one dump per operation; the ESP32-C3 estimate is
//     10 ns per counted instruction.
// With WASM3_ROOT (a wasm3 tree outside this repository) the same workload also runs under wasm3
// (native/runtime/wasm3/runtime.c), built the same way, with every allocation it makes counted (its runtime
// and stack, module, compiled code, linear memory), once compiling on first call (its default) and once
// compiling every function at load, printed beside WAMR; without it, one line says it was skipped.
// `--profile` adds the top wasm functions per operation, from a 64-bit wasm2c build of the core compiled
// with names (WAMR's interpreter shows callgrind no wasm function names). `--quick` measures only the
// classic and fast interpreters (no pool build, no wasm3); `--wasm-dir=DIR` takes the images from DIR
// instead of build/ (a copy, so build/ can be rebuilt while it runs).
// Run: WAMR_ROOT=/path/to/wasm-micro-runtime npm run bench:wamr [-- --profile]; also the last section of
// `npm run bench`. Figures are reported, never asserted.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { maximalScene, runnerLayersScene } from "../tests/helpers/scenes.js";
import { frame, T } from "../tests/helpers/frames.js";
import { readWasmInfo } from "./wasm-info.js";
import { recordWamrFigures, writeWamrFigures } from "./wamr-figures.js";
import { table, int, kib, verdict } from "./table.js";
import { DEVICE_HEAP_BUDGET, DEVICE_HEAP_GOAL, INSTRUCTION_BUDGETS } from "./budgets.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PAGE = 64 * 1024;
/** Issue 12's targets. */
const HEAP_TARGET = DEVICE_HEAP_BUDGET;
const HEAP_GOAL = DEVICE_HEAP_GOAL;
const NS_PER_INSTRUCTION = 10; // ESP32-C3 at 160 MHz, interpreted
/** The driver functions whose insides are counted (native/include/tessera_driver.h). A name before
 * another it is the start of (tessera_http before tessera_http_allow): in the other order valgrind
 * 3.19's callgrind never toggles on the longer one, and its cost is silently left out. */
const DRIVER = [
  "tessera_start",
  "tessera_tick",
  "tessera_http",
  "tessera_http_allow",
  "tessera_http_stream",
  "tessera_http_more",
  "tessera_serial_receive",
  "tessera_ws_open",
  "tessera_ws_frame",
  "tessera_ws_close",
  "tessera_bus_receive",
  "tessera_mqtt_event",
  "tessera_mqtt_message",
  "tessera_mdns_result",
  "tessera_mdns_done",
  "tessera_datagram",
];
/** The measured operations (CALLGRIND_DUMP_STATS_AT names in bench.c) and their budgets. */
const OPERATIONS: [string, string, number | null][] = [
  ["get-state", "GET /api/state (Host check + request)", INSTRUCTION_BUDGETS.getState],
  ["get-state-tick", "the tick the HTTP job runs after it (a scene playing)", null],
  ["ws-set-color", "WebSocket SET_COLOR frame", INSTRUCTION_BUDGETS.wsSetColor],
  ["ws-set-color-tick", "the tick the loop runs at once after a frame", null],
  ["idle-tick", "idle tick", INSTRUCTION_BUDGETS.idleTick],
  ["play-maximal", "play the stored maximal scene by id (request + start ticks)", INSTRUCTION_BUDGETS.playMaximal],
  ["save-maximal", "save the maximal scene (POST /api/scenes)", INSTRUCTION_BUDGETS.saveMaximal],
  ["save-maximal-tick", "the tick the HTTP job runs after it (the select republished)", null],
  ["runners-8", "start 8 runner layers (one-shot + start ticks)", INSTRUCTION_BUDGETS.runners8],
  ["get-scenes", "GET /api/scenes (100 scenes)", INSTRUCTION_BUDGETS.getScenes],
  ["get-scenes-prefix", "GET /api/scenes, names alike in 61 ASCII characters", INSTRUCTION_BUDGETS.getScenes],
  ["get-scenes-utf8", "GET /api/scenes, names alike in 180 UTF-8 bytes", INSTRUCTION_BUDGETS.getScenes],
  ["mqtt-connect", "MQTT connected: discovery and states published (large)", null],
  ...streamOperations(),
];

/** Issue 35's live stream: one DDP frame for every panel, every colour changed (bench.c ddp_frames). */
function streamOperations(): [string, string, number | null][] {
  return [["ddp-frame", "a DDP frame, every panel's colour changed", INSTRUCTION_BUDGETS.ddpFrame]];
}

interface Variant {
  name: "large" | "small";
  panels: number;
}
const VARIANTS: Variant[] = [
  { name: "large", panels: 100 },
  { name: "small", panels: 32 },
];

interface Flavour {
  name: string;
  dir: string;
  cmake: string[];
  /** WAMR's pool instead of the counting allocator: memory only. */
  pool?: boolean;
  /** wasm3 instead of WAMR (native/runtime/wasm3). */
  wasm3?: boolean;
}

/** One `memory ...` or `step ...` line of bench.c, as key=value pairs. */
type Fields = Record<string, string>;

interface Run {
  memory: Map<string, Fields>;
  steps: Map<string, Fields>;
  done: Fields;
  stderr: string;
}

export interface WamrReport {
  text: string;
}

function have(cmd: string, args = ["--version"]): boolean {
  return spawnSync(cmd, args, { stdio: "ignore" }).status === 0;
}

/** gcc -m32 works (gcc-multilib): a tiny program compiles and links. */
function canBuild32(): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-m32-"));
  try {
    fs.writeFileSync(path.join(dir, "t.c"), "#include <stdio.h>\nint main(void) { return 0; }\n");
    return have("cc", ["-m32", "-o", path.join(dir, "t"), path.join(dir, "t.c")]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function build(flavour: Flavour, wasmDir: string): string {
  const dir = path.join(ROOT, flavour.dir);
  const steps = [
    ["-S", "native", "-B", dir, "-DCMAKE_BUILD_TYPE=Release", "-DTESSERA_PORT=bench", `-DTESSERA_WASM_DIR=${wasmDir}`],
    ["--build", dir, "--parallel", "2"],
  ];
  steps[0].push(...flavour.cmake);
  for (const args of steps) {
    const r = spawnSync("cmake", args, { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`cmake ${args.join(" ")} failed:\n${(r.stdout + r.stderr).slice(-3000)}`);
  }
  return path.join(dir, "tessera-bench");
}

/** The inputs bench.c reads: the same maximal and runner scenes and frames as the other benches. */
function writeFixtures(dir: string): void {
  fs.writeFileSync(path.join(dir, "maximal.json"), JSON.stringify(maximalScene()));
  fs.writeFileSync(path.join(dir, "runners.json"), JSON.stringify(runnerLayersScene()));
  fs.writeFileSync(path.join(dir, "set-color.bin"), frame(T.SET_COLOR, [1, 0xff, 0x80, 0x00]));
  fs.writeFileSync(path.join(dir, "set-mirror.bin"), frame(T.SET_MIRROR, [1]));
}

function fields(line: string): Fields {
  const out: Fields = {};
  for (const m of line.matchAll(/(\w+)=("[^"]*"|\S+)/g)) out[m[1]] = m[2].replace(/^"|"$/g, "");
  return out;
}

/** Runs the harness (optionally under a wrapper such as valgrind); parses its report lines. */
function runHarness(binary: string, variant: Variant, fixtures: string, wrapper: string[] = []): Run {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-wamr-"));
  try {
    const args = [String(variant.panels), String(variant.panels), fixtures, data];
    const [cmd, ...pre] = wrapper.length ? wrapper : [binary];
    const r = spawnSync(cmd, wrapper.length ? [...pre, binary, ...args] : args, {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status !== 0)
      throw new Error(`${binary} failed (${r.status ?? r.signal}):\n${(r.stderr ?? "").slice(-2000)}`);
    const run: Run = { memory: new Map(), steps: new Map(), done: {}, stderr: r.stderr };
    for (const line of r.stdout.split("\n")) {
      const [kind, name] = line.split(" ");
      if (kind === "memory") run.memory.set(name, fields(line));
      else if (kind === "step") run.steps.set(name, fields(line));
      else if (kind === "done") run.done = fields(line);
    }
    return run;
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }
}

interface Dump {
  name: string;
  instructions: number;
  file: string;
}

/** The same run under callgrind, one dump per operation (bench.c's client requests). */
function callgrind(binary: string, variant: Variant, fixtures: string, outDir: string, extra: string[] = []): Dump[] {
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, "callgrind.out");
  const wrapper = [
    "valgrind",
    "--tool=callgrind",
    "--collect-atstart=no",
    ...DRIVER.map((f) => `--toggle-collect=${f}`),
    `--callgrind-out-file=${out}`,
    ...extra,
  ];
  runHarness(binary, variant, fixtures, wrapper);
  const dumps = fs
    .readdirSync(outDir)
    .filter((f) => /^callgrind\.out\.\d+$/.test(f))
    .sort((a, b) => Number(a.split(".").pop()) - Number(b.split(".").pop()));
  return dumps.map((f) => {
    const head = fs.readFileSync(path.join(outDir, f), "utf8").slice(0, 4000);
    const name = /^desc: Trigger: Client Request: (\S+)/m.exec(head)?.[1] ?? "?";
    const instructions = Number(/^summary: (\d+)/m.exec(head)?.[1] ?? NaN);
    return { name, instructions, file: path.join(outDir, f) };
  });
}

const n = (f: Fields | undefined, k: string) => Number(f?.[k] ?? NaN);

/** What ESP-IDF's heap adds to each block WAMR holds, at most: runtime/wamr/runtime.c gives WAMR the heap's
 * malloc on ESP-IDF, and TLSF (32-bit) adds a 4-byte header and rounds the size up to 4 bytes. (WAMR's
 * own esp-idf os_malloc, which the adapter no longer uses, would add 12 bytes more.) */
const ESP_IDF_BLOCK_OVERHEAD = 8;

/** The figures of the last run, for other scripts: build/bench-wamr.json, shaped as
 * BenchJson. runs is keyed "<interpreter>/<variant>" ("classic/large", "fast/small", ...), each with
 * memory (CoreHeap: the core's blocks in bytes), mqttConnect (MqttConnect, null on the small variant)
 * and instructions (by operation name, OPERATIONS' first column; absent without valgrind). A focused run
 * (--only, --variant) writes only what it measured. */
export const JSON_FILE = path.join(ROOT, "build", "bench-wamr.json");

export interface BenchJson {
  source: string;
  wamr: string;
  core: { bytes: number; initialPages: number };
  instructionUnit: string;
  runs: Record<string, { memory: CoreHeap; mqttConnect: MqttConnect | null; instructions: Record<string, number> }>;
}

/** What the core holds on a device, from a counted run: WAMR's peak (RAM image, module, instance,
 * exec env and whatever it allocated later) plus linear memory (plus the old block while it grows: on
 * ESP-IDF WAMR grows it by allocating the new size and copying), then the same with the ESP-IDF
 * allocator's headers, which budget and goal are checked on. */
function coreHeap(run: Run, initialPages: number): CoreHeap {
  const loaded = run.memory.get("loaded");
  const end = run.memory.get("end");
  const all = [...run.memory.values()];
  const linear = Math.max(...all.map((m) => n(m, "linear")));
  const grown = linear > initialPages * PAGE;
  const wamrPeak = n(end, "peak");
  const total = wamrPeak + linear + (grown ? initialPages * PAGE : 0);
  const blocks = Math.max(...all.map((m) => n(m, "blocks")));
  return {
    imageInRam: n(loaded, "image_copy"),
    imageSplit: n(loaded, "image_split") === 1,
    module: n(loaded, "module"),
    instance: n(loaded, "instance"),
    execEnv: n(loaded, "exec_env"),
    stackSize: n(end, "stack_size"),
    stackUsed: n(end, "stack_used"),
    wamrPeak,
    linearMemory: linear,
    linearGrown: grown,
    total,
    blocks,
    blockOverhead: ESP_IDF_BLOCK_OVERHEAD,
    withHeaders: total + blocks * ESP_IDF_BLOCK_OVERHEAD,
  };
}

/** The core's heap blocks on a device (bytes), as build/bench-wamr.json gives them (see JSON_FILE). */
interface CoreHeap {
  imageInRam: number;
  imageSplit: boolean;
  module: number;
  instance: number;
  execEnv: number;
  stackSize: number;
  stackUsed: number;
  wamrPeak: number;
  linearMemory: number;
  linearGrown: boolean;
  total: number;
  blocks: number;
  blockOverhead: number;
  withHeaders: number;
}

/** An MQTT connect with Home Assistant discovery (large variant): what it holds at its peak. */
interface MqttConnect {
  /** The core's heap then (WAMR's blocks live then, linear memory, ESP-IDF's headers). */
  coreHeap: number;
  /** The native hosts' MQTT outbox (static, tessera_mqtt_outbox.h), and the most of it the connect's
   * burst used, all of it waiting at once (the stand-in's worker takes nothing until the call returns). */
  outboxCap: number;
  outboxPeak: number;
  /** Heap the C layer allocates for MQTT payloads: none (pieces go straight into the outbox). */
  cLayerHeap: number;
  largestPayload: number;
  published: number;
  publishedBytes: number;
  dropped: number;
  /** coreHeap + outboxCap + cLayerHeap. */
  peak: number;
}

function mqttConnect(run: Run, heap: CoreHeap): MqttConnect | null {
  const step = run.steps.get("mqtt");
  const at = run.memory.get("mqtt");
  if (!step || !at) return null;
  const coreNow = n(at, "live") + heap.linearMemory + n(at, "blocks") * ESP_IDF_BLOCK_OVERHEAD;
  const outboxCap = n(step, "outbox_cap");
  return {
    coreHeap: coreNow,
    outboxCap,
    outboxPeak: n(step, "connect_outbox_peak"),
    cLayerHeap: 0,
    largestPayload: n(step, "largest_payload"),
    published: n(step, "published"),
    publishedBytes: n(step, "published_bytes"),
    dropped: n(step, "dropped"),
    peak: coreNow + outboxCap,
  };
}

function memoryRow(flavour: string, variant: Variant, h: CoreHeap): string[] {
  const { wamrPeak, linearMemory: linear, linearGrown: grown, total, blocks, withHeaders: device } = h;
  return [
    `${flavour}, ${variant.name}`,
    `${int(h.imageInRam)}${h.imageSplit ? " (split)" : ""}`,
    int(h.module),
    int(h.instance),
    int(h.execEnv),
    `${int(h.stackUsed)} / ${int(h.stackSize)}`,
    int(wamrPeak),
    `${int(linear)} (${linear / PAGE} p${grown ? ", grown" : ""})`,
    int(total),
    int(blocks),
    int(device),
    verdict(device <= HEAP_TARGET),
    verdict(device <= HEAP_GOAL),
  ];
}

/** The same for wasm3 (counted: everything it allocates, linear memory included): the image stays in
 * flash, so no copy; compiled code is what its code pages hold beyond what loading took. */
function wasm3MemoryRow(flavour: string, variant: Variant, run: Run): string[] {
  const loaded = run.memory.get("loaded");
  const end = run.memory.get("end");
  const linear = Math.max(...[...run.memory.values()].map((m) => n(m, "linear")));
  const peak = n(end, "peak");
  const fixed = n(loaded, "runtime") + n(loaded, "module") + n(loaded, "instance") + n(end, "linear");
  return [
    `${flavour}, ${variant.name}`,
    "0",
    int(n(loaded, "runtime")),
    int(n(loaded, "module")),
    int(n(loaded, "instance")),
    int(n(loaded, "code")),
    int(n(end, "live") - fixed),
    int(peak - linear),
    `${int(linear)} (${linear / PAGE} p)`,
    int(peak),
    `${verdict(peak <= HEAP_TARGET)}${peak <= HEAP_GOAL ? " (goal too)" : ""}`,
  ];
}

function stepLines(label: string, run: Run): string[] {
  const out: string[] = [];
  for (const [name, f] of run.steps) {
    const status = f.status !== "0" ? ` ${f.status}` : "";
    const traps = f.traps ? ` TRAPPED x${f.traps} (${f.trap})` : "";
    const rest = Object.entries(f)
      .filter(([k]) => !["status", "bytes", "traps", "trap", "answer"].includes(k))
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const answer = f.answer ? ` ${f.answer}` : "";
    out.push(`  ${label} ${name}:${status}${traps}${answer}${rest ? ` ${rest}` : ""}`);
  }
  out.push(`  ${label} total: restarts=${run.done.restarts} errors=${run.done.errors}`);
  return out;
}

/** A callgrind dump's top wasm functions by inclusive count (wasm2c names: w2c_<module path>_<name>). */
function topFunctions(file: string, top: number): string[] {
  const r = spawnSync("callgrind_annotate", ["--inclusive=yes", file], { encoding: "utf8", maxBuffer: 1 << 26 });
  const rows: string[] = [];
  const seen = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    if (line.includes("=>")) continue;
    const m = /^\s*([\d,]+) \(\s*([\d.]+)%\)\s+\S*controller\.c:w2c_(\S+)/.exec(line);
    if (!m || seen.has(m[3])) continue;
    seen.add(m[3]);
    rows.push(`${m[1].padStart(14)} ${m[2].padStart(6)}%  ${m[3]}`);
    if (rows.length >= top) break;
  }
  return rows;
}

/** The release core compiled once more with a name section (scripts/size-report.mjs does the same). */
function namedCore(dir: string): void {
  const out = path.join(dir, "controller.wasm");
  const asc = path.join(ROOT, "node_modules/assemblyscript/bin/asc.js");
  const args = ["--config", "asconfig.json", "--target", "release", "--transform", "./scripts/messages-transform.mjs"];
  const r = spawnSync(process.execPath, [asc, ...args, "--debug", "-o", out], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`asc (named release) failed:\n${r.stderr}`);
  const re = spawnSync(
    process.execPath,
    ["-e", `import("./scripts/reoptimize.mjs").then((m) => m.reoptimize(${JSON.stringify(out)}, true))`],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (re.status !== 0) throw new Error(`reoptimize failed:\n${re.stderr}`);
  fs.copyFileSync(path.join(ROOT, "build/panel.wasm"), path.join(dir, "panel.wasm"));
  // native/CMakeLists.txt wants the web app's assets beside the wasm files
  fs.mkdirSync(path.join(dir, "web"), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "build/web/web_assets.c"), path.join(dir, "web/web_assets.c"));
}

export interface WamrOptions {
  profile?: boolean;
  /** Memory only: no pool build, no wasm3 (a quicker run). */
  quick?: boolean;
  /** The directory holding controller.wasm (default build/). */
  wasmDir?: string;
  /** Only these flavours (by name, e.g. "classic"), for a quicker focused run. */
  only?: string[];
  /** Only this variant ("large" or "small"). */
  variant?: string;
  /** Keep the callgrind dumps in this directory (callgrind_annotate them for WAMR's own paths). */
  keep?: string;
}

export async function benchWamr(options: WamrOptions = {}): Promise<WamrReport> {
  const title = "11. Device fit: the core under WAMR 32-bit (gcc -m32), classic and fast interpreter (and wasm3)";
  const skip = (why: string) => ({ text: `\n${title}\n\nskipped: ${why}` });
  const wamr = process.env.WAMR_ROOT;
  if (!wamr) return skip("set WAMR_ROOT=<a WAMR tree> (a wasm-micro-runtime source tree outside this repository)");
  if (!fs.existsSync(path.join(wamr, "build-scripts/runtime_lib.cmake")))
    return skip(`WAMR_ROOT=${wamr} is not a WAMR source tree (no build-scripts/runtime_lib.cmake)`);
  const missing = ["cmake", "wasm2c"].filter((c) => !have(c));
  if (missing.length) return skip(`missing ${missing.join(", ")}`);
  if (!canBuild32()) return skip("gcc -m32 cannot link (install gcc-multilib)");
  const valgrind = have("valgrind");
  const wasm3 = process.env.WASM3_ROOT;
  const wasm3Skip = options.quick
    ? "--quick"
    : !wasm3
      ? "set WASM3_ROOT=<a wasm3 tree> (a wasm3 source tree outside this repository) to measure it beside WAMR"
      : !fs.existsSync(path.join(wasm3, "source/wasm3.h"))
        ? `WASM3_ROOT=${wasm3} is not a wasm3 source tree (no source/wasm3.h)`
        : null;

  const wasmDir = path.resolve(options.wasmDir ?? path.join(ROOT, "build"));
  const controller = path.join(wasmDir, "controller.wasm");
  const initialPages = readWasmInfo(controller).initialPages;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-wamr-"));
  const lines: string[] = [];
  const json: BenchJson = {
    source: "npm run bench:wamr (bench/wamr.ts)",
    wamr,
    core: { bytes: fs.statSync(controller).size, initialPages },
    instructionUnit: "x86-32 instructions under callgrind, inside the tessera_* driver calls",
    runs: {},
  };
  try {
    const fixtures = path.join(work, "fixtures");
    fs.mkdirSync(fixtures);
    writeFixtures(fixtures);
    const m32 = ["-DCMAKE_C_FLAGS=-m32", "-DCMAKE_ASM_FLAGS=-m32", "-DTESSERA_RUNTIME=wamr", `-DWAMR_ROOT=${wamr}`];
    const m32wasm3 = [
      "-DCMAKE_C_FLAGS=-m32",
      "-DTESSERA_RUNTIME=wasm3",
      `-DWASM3_ROOT=${wasm3}`,
      "-DTESSERA_WASM3_COUNT_ALLOC=ON",
    ];
    const flavours: Flavour[] = [
      {
        name: "classic",
        dir: "native/build-bench-classic",
        cmake: [...m32, "-DTESSERA_WAMR_INTERP=classic", "-DTESSERA_WAMR_COUNT_ALLOC=ON"],
      },
      {
        name: "fast",
        dir: "native/build-bench-fast",
        cmake: [...m32, "-DTESSERA_WAMR_INTERP=fast", "-DTESSERA_WAMR_COUNT_ALLOC=ON"],
      },
      {
        name: "classic, WAMR pool",
        dir: "native/build-bench-pool",
        cmake: [...m32, "-DTESSERA_WAMR_INTERP=classic", "-DTESSERA_WAMR_POOL_KIB=1024"],
        pool: true,
      },
    ];
    if (options.quick) flavours.pop(); // the pool build: memory only
    if (!wasm3Skip)
      flavours.push(
        {
          name: "wasm3",
          dir: "native/build-bench-wasm3",
          cmake: [...m32wasm3, "-DTESSERA_WASM3_COMPILE_ALL=OFF"],
          wasm3: true,
        },
        {
          name: "wasm3, all compiled",
          dir: "native/build-bench-wasm3-all",
          cmake: [...m32wasm3, "-DTESSERA_WASM3_COMPILE_ALL=ON"],
          wasm3: true,
        },
      );
    if (options.only) flavours.splice(0, flavours.length, ...flavours.filter((f) => options.only!.includes(f.name)));
    const variants = options.variant ? VARIANTS.filter((v) => v.name === options.variant) : VARIANTS;
    const binaries = new Map(flavours.map((f) => [f.name, build(f, wasmDir)]));

    // Memory, and what each step answered.
    const memoryRows: string[][] = [];
    const mqttRows: string[][] = [];
    const steps: string[] = [];
    const poolRows: string[][] = [];
    const wasm3Rows: string[][] = [];
    for (const flavour of flavours)
      for (const variant of variants) {
        const run = runHarness(binaries.get(flavour.name)!, variant, fixtures);
        if (flavour.pool) {
          const first = run.memory.get("loaded");
          const end = run.memory.get("end");
          poolRows.push([
            `${flavour.name}, ${variant.name}`,
            int(n(first, "pool_used")),
            int(n(end, "pool_used")),
            int(n(end, "pool_highmark")),
            run.done.restarts,
          ]);
          continue;
        }
        if (flavour.wasm3) wasm3Rows.push(wasm3MemoryRow(flavour.name, variant, run));
        else {
          const heap = coreHeap(run, initialPages);
          memoryRows.push(memoryRow(flavour.name, variant, heap));
          recordWamrFigures(flavour.name, variant.name, heap); // for npm run bench:ram
          const key = `${flavour.name}/${variant.name}`;
          const mqtt = mqttConnect(run, heap);
          json.runs[key] = { memory: heap, mqttConnect: mqtt, instructions: {} };
          if (mqtt)
            mqttRows.push([
              key,
              int(mqtt.coreHeap),
              `${int(mqtt.outboxPeak)} / ${int(mqtt.outboxCap)}`,
              int(mqtt.cLayerHeap),
              int(mqtt.peak),
              int(mqtt.largestPayload),
              `${mqtt.published} (${int(mqtt.publishedBytes)} B)`,
              String(mqtt.dropped),
            ]);
        }
        steps.push(...stepLines(`${flavour.name}/${variant.name}`, run));
      }
    writeWamrFigures(controller, path.join(ROOT, "native/build-bench-classic/libvmlib.a"));
    lines.push(
      `WAMR: ${wamr}; core: build/controller.wasm, ${int(fs.statSync(controller).size)} B, ${initialPages} initial page(s)`,
      "",
      `Device heap of the core (bytes; budget ${int(HEAP_TARGET)}, goal ${int(HEAP_GOAL)}, both checked with the ESP-IDF headers):`,
      table(
        [
          "build, variant",
          "image in RAM",
          "module",
          "instance",
          "exec env",
          "stack used / size",
          "WAMR peak",
          "linear memory",
          "total",
          "blocks",
          "+ ESP-IDF headers",
          "budget",
          "goal",
        ],
        memoryRows,
        "lrrrrrrrrrrll",
      ),
      "",
      "WAMR's allocations through a counting allocator, step by step; linear memory is WAMR's os_mmap (heap_caps_malloc",
      "on ESP-IDF). image in RAM: classic keeps only what it runs (split: the sections up to the code, the data segments",
      "copied from flash into linear memory; runtime/wamr/ram_image.c); fast loads from flash. stack used: the most of",
      "the exec env's stack written over the run (painted), against its size. WAMR peak: the most WAMR held at once.",
      "total: WAMR peak + linear memory (+ the old block while linear memory grows, if it did). + ESP-IDF headers: total",
      `+ ${ESP_IDF_BLOCK_OVERHEAD} B per block WAMR holds, at most (TLSF's 4-byte header and rounding to 4 on ESP-IDF).`,
      "",
      "WAMR's own pool statistics (Alloc_With_Pool, 1 MiB; wasm_runtime_get_mem_alloc_info), classic:",
      table(["build, variant", "used after load", "used at end", "highmark", "restarts"], poolRows, "lrrrr"),
      "(WAMR 2.4's pool statistics miss a realloc that grows a block in place, which its loader does: after a",
      "reload they drift, and the highmark may undercount. Allocator headers are included, unlike the counted figures.)",
      "",
      ...(wasm3Skip
        ? [`wasm3: skipped: ${wasm3Skip}`, ""]
        : [
            `wasm3 (${wasm3}), the same 32-bit build and workload; everything wasm3 allocates, counted (bytes):`,
            table(
              [
                "build, variant",
                "image copy",
                "runtime + stack",
                "module",
                "instance",
                "code at load",
                "code at end",
                "wasm3 peak",
                "linear memory",
                "total",
                "<= 192 KB",
              ],
              wasm3Rows,
              "lrrrrrrrrrl",
            ),
            "image copy: none, wasm3 reads the image in place (flash). runtime + stack: environment, runtime and its",
            "16 KiB wasm stack. code: wasm3's compiled code pages (1 KiB pages, its ESP32 setting), after loading (the",
            "exports, compiled when looked up) and at the end of the workload; it compiles a function on its first call,",
            "so what it holds grows with the paths taken, up to the 'all compiled' row. wasm3 peak: without linear memory.",
            "",
          ]),
      "MQTT connect with Home Assistant discovery (large variant; bytes):",
      table(
        [
          "build, variant",
          "core heap then",
          "outbox used / size",
          "C heap for payloads",
          "peak",
          "largest payload",
          "published",
          "dropped",
        ],
        mqttRows,
        "lrrrrrrr",
      ),
      "core heap then: WAMR's blocks live after the connect + linear memory + ESP-IDF's headers. outbox: the native",
      "hosts' one MQTT buffer (native/include/tessera_mqtt_outbox.h, static), where the core's pieces are written as",
      "they come; used: the most the connect's burst held, all of it waiting at once (the stand-in's worker takes",
      "nothing until the core's call returns). peak: core heap + the whole outbox (no payload is held anywhere else).",
      "",
      "Steps (status, traps, what the harness saw):",
      ...steps,
    );

    // Instructions.
    if (!valgrind) lines.push("", "instructions: skipped (valgrind not installed)");
    else {
      const counts = new Map<string, Map<string, Dump[]>>();
      for (const flavour of flavours.filter((f) => !f.pool))
        for (const variant of variants) {
          const dumps = callgrind(
            binaries.get(flavour.name)!,
            variant,
            fixtures,
            path.join(options.keep ?? work, `cg-${flavour.name}-${variant.name}`),
          );
          const byName = new Map<string, Dump[]>();
          for (const d of dumps) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
          counts.set(`${flavour.name}/${variant.name}`, byName);
        }
      const last = (key: string, op: string) => counts.get(key)?.get(op)?.at(-1)?.instructions ?? NaN;
      for (const [key, run] of Object.entries(json.runs))
        for (const [op] of OPERATIONS) if (counts.get(key)?.get(op)) run.instructions[op] = last(key, op);
      const rows = OPERATIONS.map(([op, label, budget]) => {
        const c = last("classic/large", op);
        return [
          label,
          int(c),
          int(last("fast/large", op)),
          int(last("classic/small", op)),
          int(last("fast/small", op)),
          budget === null ? "-" : int(budget),
          budget === null ? "" : verdict(c <= budget),
          `${((c * NS_PER_INSTRUCTION) / 1e6).toFixed(2)} ms`,
        ];
      });
      lines.push(
        "",
        "Instructions (x86-32, callgrind; only inside the tessera_* driver calls, so not the emulated panels):",
        table(
          [
            "operation",
            "classic large",
            "fast large",
            "classic small",
            "fast small",
            "budget",
            "classic",
            "ESP32-C3, classic",
          ],
          rows,
          "lrrrrrlr",
        ),
        "",
        `ESP32-C3 estimate: ${NS_PER_INSTRUCTION} ns per counted instruction (160 MHz, interpreted). Repeated operations show`,
        "the last of their runs. play = POST /api/scenes/{id}/play and the ticks until one puts nothing on the bus.",
      );
      if (!wasm3Skip) {
        const w3rows = OPERATIONS.map(([op, label]) => {
          const lazy = last("wasm3/large", op);
          const all = last("wasm3, all compiled/large", op);
          return [
            label,
            int(last("classic/large", op)),
            int(last("fast/large", op)),
            int(lazy),
            int(all),
            int(last("wasm3/small", op)),
            `${((all * NS_PER_INSTRUCTION) / 1e6).toFixed(2)} ms`,
          ];
        });
        lines.push(
          "",
          "wasm3 beside WAMR (instructions, large variant unless named; counted the same way):",
          table(
            ["operation", "classic", "fast", "wasm3", "wasm3, all compiled", "wasm3 small", "ESP32-C3, wasm3 all"],
            w3rows,
            "lrrrrrr",
          ),
          "",
          "wasm3: compiling on first call, so a one-shot operation (save, play, runners) includes compiling what it",
          "runs for the first time; 'all compiled' compiled everything at load, as WAMR prepares its code at load.",
        );
      }
    }

    if (options.profile && valgrind) {
      const named = path.join(work, "named");
      fs.mkdirSync(named);
      namedCore(named);
      const binary = build(
        {
          name: "wasm2c",
          dir: "native/build-bench-profile",
          cmake: ["-DTESSERA_RUNTIME=wasm2c", "-DCMAKE_C_FLAGS=-g -fno-inline -fno-reorder-blocks-and-partition"],
        },
        named,
      );
      const dumps = callgrind(binary, VARIANTS[0], fixtures, path.join(options.keep ?? work, "cg-profile"), [
        "--separate-recs=1",
      ]);
      lines.push(
        "",
        "Top wasm functions by inclusive instructions (64-bit wasm2c build of the release core with names, -fno-inline;",
        "large variant; recursive functions count once per level, so they can pass 100%):",
      );
      for (const [op, label] of OPERATIONS) {
        const d = dumps.filter((x) => x.name === op).at(-1);
        if (!d) continue;
        lines.push("", `${label}: ${int(d.instructions)} instructions under wasm2c`, ...topFunctions(d.file, 25));
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  fs.mkdirSync(path.dirname(JSON_FILE), { recursive: true });
  fs.writeFileSync(JSON_FILE, JSON.stringify(json, null, 2) + "\n");
  lines.push("", `figures: ${path.relative(ROOT, JSON_FILE)}`);
  return { text: `\n${title}\n\n${lines.join("\n")}` };
}

// run directly: WAMR_ROOT=... npx tsx bench/wamr.ts [--profile] [--quick] [--wasm-dir=DIR]
// [--only=classic,fast] [--variant=large] [--keep=<dir>] (a focused run takes a fraction of the time;
// --keep leaves the callgrind dumps there)
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const report = await benchWamr({
    profile: process.argv.includes("--profile"),
    quick: process.argv.includes("--quick"),
    wasmDir: arg("wasm-dir"),
    only: arg("only")?.split(","),
    variant: arg("variant"),
    keep: arg("keep") && path.resolve(arg("keep")!),
  });
  console.log(report.text);
}
