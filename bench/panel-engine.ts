// Bench of the panel animation engine: one build/panel.wasm instance with 18 running animations
// (every type, colour layers of several blends and modifiers), rendered frame after frame.
// Reports frames per second, animation evaluations per second (frames · 18; target at least
// 1,000,000), the share of one core that 100 panels at 60 fps would take, and panel.wasm's size.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Every kind code of the one table (assembly/animation-kinds.json): the types', then the runner pulse's.
const table = JSON.parse(fs.readFileSync(path.join(ROOT, "assembly/animation-kinds.json"), "utf8"));
const KINDS: number[] = [...table.types.map((t: { code: number }) => t.code), table.runnerPulse.code];
const PANEL_WASM = path.join(ROOT, "build/panel.wasm");
const SLOTS = 18;

interface PanelExports {
  memory: WebAssembly.Memory;
  panel_rx_buffer(): number;
  panel_rx(port: number, len: number): void;
  panel_render(now: number): number;
}

function crc8(bytes: number[]): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let b = 0; b < 8; b++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function packet(address: number, type: number, payload: number[]): number[] {
  const head = [address, type, 5 + payload.length, 6];
  return [...head, crc8([...head, ...payload]), ...payload];
}

/** A 20-byte animation record (docs/bus-protocol.md). */
function record(i: number): number[] {
  const kind = KINDS[i % KINDS.length]; // SOLID .. runner pulse
  const animates = i >= 12 ? 1 + (i % 6) : 0; // the last six are modifiers
  const blend = i % 10;
  const flags = i % 3 === 0 ? 0x10 : i % 3 === 1 ? 0x20 : 0; // loop, pingpong, neither
  const from = i % 2 === 0 ? [1, i * 13, 0, 0] : [0, 0x20, 0x40, 0x80]; // palette position or RGB
  const to = i % 4 === 0 ? [2, i % 3, 0, 0] : [0, 0xff, 0x80, 0x10]; // base colour or RGB
  const duration = 500 + i * 97;
  return [
    1,
    i,
    kind | flags,
    animates | (blend << 4),
    ...from,
    ...to,
    duration & 0xff,
    duration >> 8,
    0,
    0,
    60,
    90,
    40,
    200,
  ];
}

export async function benchPanelEngine(): Promise<Record<string, string | number>> {
  const bytes = fs.readFileSync(PANEL_WASM);
  let clock = 0;
  const instance = await WebAssembly.instantiate(bytes, {
    tessera_panel: { panel_tx: () => {}, panel_linked: () => 0, panel_clock_ms: () => clock, panel_flash: () => -1 },
  });
  const panel = instance.instance.exports as unknown as PanelExports;
  const send = (p: number[]) => {
    new Uint8Array(panel.memory.buffer, panel.panel_rx_buffer(), p.length).set(p);
    panel.panel_rx(0, p.length);
  };
  send(packet(255, 2, [1, 0])); // ASSIGN: address 1, upstream port 0
  const stops: number[] = [];
  for (let s = 0; s < 16; s++) stops.push(s * 17, (s * 40) & 0xff, (s * 90) & 0xff, 255 - s * 15);
  send(packet(0, 17, [0x0f, ...stops])); // a 16-stop palette into slot 0 (slot << 4 | count - 1)
  for (let i = 0; i < SLOTS; i++) send(packet(0, 12, record(i)));
  send(packet(0, 13, [0, 1])); // start every group
  send(packet(0, 14, [1, 200])); // a trigger for the REACTIVE one

  let sink = 0;
  const run = (frames: number, t0: number) => {
    for (let f = 0; f < frames; f++) sink ^= panel.panel_render(t0 + f * 3);
  };
  run(20000, 0); // warm-up
  let frames = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 1000) {
    run(10000, frames * 3);
    frames += 10000;
    elapsed = performance.now() - start;
  }
  const fps = (frames * 1000) / elapsed;
  return {
    "panel frames/s (18 animations)": Math.round(fps),
    "panel animation evaluations/s": Math.round(fps * SLOTS),
    "100 panels at 60 fps, % of a core": Number(((100 * 60 * 100) / fps).toFixed(3)),
    "panel.wasm bytes": bytes.length,
    ...(sink === -1 ? { sink } : {}),
  };
}

// Run on its own: tsx bench/panel-engine.ts
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchPanelEngine().then((r) => console.log(r));
}
