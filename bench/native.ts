// The native POSIX host (native/, scripts/native-test.mjs builds it the same way) under the bench's
// load: GET /api/state and WebSocket SET_COLOR on loopback, and its memory with 100 panels, once with
// the core translated by wasm2c and, when WAMR_ROOT names a WAMR source tree, once under WAMR's fast
// interpreter. The host reports who holds its heap on SIGUSR1 (native/port/posix/memory.c).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../host/src/controller.js";
import { GET_STATE, SET_COLOR_FRAME } from "./requests.js";
import { httpLoad, type LoadResult } from "./http-load.js";
import { wsLoad } from "./ws-load.js";
import { waitForDiscovery } from "./controller.js";

const HTTP_REQUESTS = 5000;
const CONCURRENCY = 16;
const WS_FRAMES = 20000;

/** What native/port/posix/memory.c prints (bytes, except rssKiB). */
export interface NativeMemory {
  hostHeap: number;
  coreHeap: number;
  coreLinear: number;
  panelsHeap: number;
  panelsStatic: number;
  heapInUse: number;
  rssKiB: number;
  threads: number;
}

export interface NativeRun {
  runtime: string;
  getState: LoadResult;
  setColor: LoadResult;
  /** Right after discovery, and after the load. */
  idle: NativeMemory;
  loaded: NativeMemory;
}

export interface NativeBench {
  runs: NativeRun[];
  /** Why a runtime was not measured. */
  skipped: string[];
}

function have(cmd: string): boolean {
  return spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;
}

export function missingTools(): string[] {
  const missing: string[] = [];
  if (!have("cmake")) missing.push("cmake");
  if (!have("wasm2c")) missing.push("wasm2c (wabt)");
  if (!have("cc")) missing.push("a C compiler");
  return missing;
}

/** Configures and builds one flavour of the host; the path of the binary, or an error message. */
export function build(dir: string, extra: string[]): string | Error {
  const steps = [
    ["-S", "native", "-B", dir, "-DCMAKE_BUILD_TYPE=Release", ...extra],
    ["--build", dir, "--parallel", "2"],
  ];
  for (const args of steps) {
    const r = spawnSync("cmake", args, { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) return new Error(`cmake ${args.join(" ")} failed:\n${(r.stdout + r.stderr).slice(-2000)}`);
  }
  return path.join(ROOT, dir, "tessera-host");
}

function lines(child: ChildProcess, onLine: (line: string) => void): void {
  let pending = "";
  child.stdout!.on("data", (d: Buffer) => {
    pending += d.toString();
    let i;
    while ((i = pending.indexOf("\n")) >= 0) {
      onLine(pending.slice(0, i));
      pending = pending.slice(i + 1);
    }
  });
}

async function measure(runtime: string, binary: string, panels: number): Promise<NativeRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-native-"));
  const args = ["--port", "0", "--data-dir", dataDir, "--panels", String(panels), "--log-level", "error"];
  args.push("--ota-port", "0");
  const child = spawn(binary, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const waiting: ((m: NativeMemory) => void)[] = [];
  const port = new Promise<number>((resolve, reject) => {
    lines(child, (line) => {
      const listening = /listening on http:\/\/localhost:(\d+)/.exec(line);
      if (listening) resolve(Number(listening[1]));
      if (line.startsWith("memory ")) waiting.shift()?.(JSON.parse(line.slice(7)) as NativeMemory);
    });
    child.once("exit", (code) => reject(new Error(`${binary} exited (${code}) before listening`)));
  });
  const memory = () =>
    new Promise<NativeMemory>((resolve) => {
      waiting.push(resolve);
      child.kill("SIGUSR1");
    });
  try {
    const url = `http://localhost:${await port}`;
    await waitForDiscovery(url, panels);
    const idle = await memory();
    const getState = await httpLoad(url, GET_STATE, HTTP_REQUESTS, CONCURRENCY);
    const setColor = await wsLoad(`ws://localhost:${await port}/ws`, SET_COLOR_FRAME, WS_FRAMES);
    const loaded = await memory();
    return { runtime, getState, setColor, idle, loaded };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchNative(panels: number): Promise<NativeBench> {
  const missing = missingTools();
  if (missing.length) return { runs: [], skipped: [`native host not built: missing ${missing.join(", ")}`] };
  const runs: NativeRun[] = [];
  const skipped: string[] = [];
  const flavours: [string, string, string[]][] = [["wasm2c", "native/build-posix", []]];
  const wamr = process.env.WAMR_ROOT;
  if (wamr)
    flavours.push([
      "WAMR classic interpreter",
      "native/build-wamr",
      ["-DTESSERA_RUNTIME=wamr", `-DWAMR_ROOT=${wamr}`, "-DTESSERA_WAMR_INTERP=classic"],
    ]);
  else skipped.push("WAMR: not measured (set WAMR_ROOT to a WAMR source tree outside this repository)");
  for (const [runtime, dir, extra] of flavours) {
    const binary = build(dir, extra);
    if (binary instanceof Error) skipped.push(`${runtime}: ${binary.message}`);
    else runs.push(await measure(runtime, binary, panels));
  }
  return { runs, skipped };
}

export const NATIVE_SETTINGS = { HTTP_REQUESTS, CONCURRENCY, WS_FRAMES };
