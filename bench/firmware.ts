// Panel firmware updates (issue 14): a 64 KiB image flashed to 100 emulated panels through the
// desktop host, the clock driven by the test hook so the run takes as long as the emulation, not the
// pacing. Reported: the emulation's own time; the time on a real bus at the port's 115,200 baud,
// modelled from the bytes and the wiring depth of each panel; the bytes on the wires; and the
// upload's memory in the core and the host for a 64 KiB and a 256 KiB image (it must not grow),
// on the desktop host in process and on the POSIX host (its peak resident memory, when it is built).
import fs from "node:fs";
import os from "node:os";
import { spawn } from "node:child_process";
import path from "node:path";
import http from "node:http";
import { startBenchController, waitForDiscovery } from "./controller.js";
import { generateTopology } from "../host/src/bus/topology.js";
import { makeImage } from "../host/src/bus/image.js";
import { ROOT } from "../host/src/controller.js";

const PANELS = 100;
const BAUD = 115200; // CONFIG_TESSERA_BUS_BAUD, the ESP32 port's bus
const PAGE = 128;
const WINDOW = 16; // assembly/firmware/flash.ts
const TICK_PAGES_MS = 10 / WINDOW; // the core sends at most one window a 10 ms tick

/** An image whose payload is panel.wasm and a custom section padding it to `size` bytes. */
function imageOf(size: number): Buffer {
  const wasm = fs.readFileSync(path.join(ROOT, "build/panel.wasm"));
  const name = Buffer.from("pad");
  const extra = size - wasm.length - 1 - 3 - 1 - name.length; // id, 3-byte LEB size, name
  const len = 1 + name.length + extra;
  const leb = [0x80 | (len & 0x7f), 0x80 | ((len >> 7) & 0x7f), (len >> 14) & 0x7f];
  const section = Buffer.concat([Buffer.from([0, ...leb, name.length]), name, Buffer.alloc(extra)]);
  return makeImage(Buffer.concat([wasm, section]));
}

function post(url: string, body: Uint8Array): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/firmware/panels`,
      { method: "POST", headers: { "Content-Length": body.length } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Wiring depth (hops from the controller) of each panel of the generated topology. */
function depths(n: number): number[] {
  const wires = generateTopology(n);
  const d: number[] = [];
  wires.forEach((w, i) => (d[i] = w.parent === 0 ? 1 : d[w.parent - 1] + 1));
  return d;
}

/** Seconds on a real bus: each page's write (137 B down, 11 B up) and read-back (8 B down, 11 B up)
 * per hop, relays forwarding whole packets; WINDOW pages in flight, so a page costs the larger of
 * its slowest link's time and the round trip over the window, and at least the core's pace. */
export function modelSeconds(imageBytes: number, n = PANELS, baud = BAUD): number {
  const byteMs = 10_000 / baud;
  const pages = Math.ceil(imageBytes / PAGE);
  let ms = 0;
  for (const d of depths(n)) {
    const write = Math.max((PAGE + 9) * byteMs, (d * (PAGE + 9 + 11) * byteMs) / WINDOW, TICK_PAGES_MS);
    const read = Math.max(11 * byteMs, (d * (8 + 11) * byteMs) / WINDOW, TICK_PAGES_MS);
    const handshakes = 2 * d * (9 + 11) * byteMs + 2 * d * (5 + 11) * byteMs; // enter, leave
    ms += pages * (write + read) + handshakes;
  }
  return ms / 1000;
}

/** The POSIX host's peak resident memory (VmHWM, KiB) before any upload, after a 64 KiB one and
 * after a 256 KiB one; its one panel never answers the bootloader (--panel-fault silent:1), so each
 * flash ends at once and nothing is loaded after it. Null when native/build-posix is not built. */
async function posixUploadPeaks(): Promise<[number, number, number] | null> {
  const binary = path.join(ROOT, "native/build-posix/tessera-host");
  if (!fs.existsSync(binary) || !fs.existsSync("/proc/self/status")) return null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-fw-"));
  const args = ["--port", "0", "--data-dir", dataDir, "--panels", "1", "--panel-fault", "silent:1"];
  const child = spawn(binary, [...args, "--log-level", "error", "--ota-port", "0", "--no-mdns"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        out += d;
        const m = /listening on (http:\/\/localhost:\d+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`${binary} exited (${code})`)));
    });
    const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]);
    const settle = async () => {
      for (let i = 0; i < 500; i++) {
        const s = (await (await fetch(`${url}/api/firmware/status`)).json()) as { state: string };
        if (s.state === "idle" || s.state === "error" || s.state === "done") return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("the flash did not end");
    };
    await waitForDiscovery(url, 1);
    const before = hwm();
    if ((await post(url, imageOf(64 * 1024))) !== 200) throw new Error("POSIX host: 64 KiB upload refused");
    await settle();
    const after64 = hwm();
    if ((await post(url, imageOf(256 * 1024 - 64))) !== 200) throw new Error("POSIX host: 256 KiB upload refused");
    await settle();
    return [before, after64, hwm()];
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode === null ? child.once("exit", r) : r(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchFirmware(): Promise<Record<string, string | number>> {
  const ctrl = await startBenchController(PANELS, { manualClock: true });
  const figures: Record<string, string | number> = {};
  try {
    const core = ctrl.running.core;
    const bus = ctrl.running.bus;
    const advance = async (ms: number) =>
      (await fetch(`${ctrl.url}/__test__/clock`, { method: "POST", body: JSON.stringify({ advance: ms }) })).json();
    const status = async () => (await (await fetch(`${ctrl.url}/api/firmware/status`)).json()) as any;
    const image = imageOf(64 * 1024);
    const linearBefore = core.memoryBytes;
    // what the host holds of a body at a time: the piece it hands to the core
    let piece = 0;
    const more = core.httpMore.bind(core);
    core.httpMore = (req, body, m) => ((piece = Math.max(piece, body.length)), more(req, body, m));
    const wiresBefore = bus.bytesOnWires;
    const t0 = performance.now();
    const code = await post(ctrl.url, image);
    if (code !== 200) throw new Error(`upload: ${code}`);
    let s = await status();
    while (s.state !== "done" && s.state !== "error") {
      await advance(1000);
      s = await status();
    }
    const wall = (performance.now() - t0) / 1000;
    if (s.state !== "done") throw new Error(`flash: ${JSON.stringify(s)}`);
    const model = modelSeconds(image.length);
    figures["image (header + payload)"] = `${image.length} B, ${Math.ceil(image.length / PAGE)} pages of ${PAGE} B`;
    figures["flash of 100 panels, emulated (desktop host, manual clock)"] = `${wall.toFixed(1)} s of CPU`;
    figures[`flash of 100 panels on a real bus at ${BAUD} baud (model)`] = `${(model / 60).toFixed(1)} min`;
    figures["  of it, the panel wired to the controller"] = `${modelSeconds(image.length, 1).toFixed(1)} s`;
    figures["  deepest panel (hops)"] = Math.max(...depths(PANELS));
    figures["bytes on the wires (every hop)"] = `${((bus.bytesOnWires - wiresBefore) / 1e6).toFixed(1)} MB`;
    figures["core linear memory before / after"] = `${linearBefore} B / ${core.memoryBytes} B (the 2-page cap)`;
    figures["core buffers of the upload and flash"] =
      "512 B read window and 128 B page in the rx buffer (no memory of their own); the header in globals";
    figures["desktop host: the largest piece of the 64 KiB body held at once"] = `${piece} B (one socket read)`;
    // the same for a 256 KiB image: neither side follows the image's size
    piece = 0;
    const heapBefore = core.memoryBytes;
    if ((await post(ctrl.url, imageOf(256 * 1024 - 64))) !== 200) throw new Error("256 KiB upload refused");
    figures["desktop host: the largest piece of a 256 KiB body held at once"] = `${piece} B`;
    figures["core linear memory after the 256 KiB upload"] = `${core.memoryBytes} B (was ${heapBefore} B)`;
  } finally {
    await ctrl.close();
  }
  const peaks = await posixUploadPeaks();
  figures["POSIX host: peak resident memory before / after a 64 KiB / after a 256 KiB upload"] = peaks
    ? `${peaks[0]} / ${peaks[1]} / ${peaks[2]} KiB (VmHWM)`
    : "not measured (native/build-posix not built)";
  return figures;
}
