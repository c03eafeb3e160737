// Issue 35's end-to-end latency on the desktop host: DDP datagrams at 60 fps for 100 panels, from
// the datagram's send to its bus frame leaving the core (the COLORS packet handed to the bus), in one
// process (the sender shares the host's event loop, as a busy machine would). Each frame carries its
// number in panel 1's red and green. Also the bus bytes a frame. Figures are reported, never asserted.
// Run: npx tsx bench/stream-latency.ts
import dgram from "node:dgram";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startController } from "../host/src/controller.js";
import { generateTopology } from "../host/src/bus/topology.js";

const PANELS = 100;
const FPS = 60;
const FRAMES = 600;

function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = dgram.createSocket("udp4");
    s.bind(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function streamLatency(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-stream-"));
  const ddpPort = await freeUdpPort();
  const c = await startController({
    port: 0,
    host: "127.0.0.1",
    dataDir,
    wires: generateTopology(PANELS),
    variant: "large",
    logLevel: "error",
    mdns: false,
    otaPort: 0,
    ddpPort,
    e131Port: 0,
  });
  await new Promise((r) => setTimeout(r, 1500)); // discovery
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let busBytes = 0;
  const send = c.bus.sendFromController.bind(c.bus);
  c.bus.sendFromController = (bytes: Uint8Array) => {
    if (bytes[1] === 28) {
      busBytes += bytes.length;
      if (bytes[5] === 1) {
        const at = sentAt.get((bytes[6] << 8) | bytes[7]);
        if (at !== undefined) latencies.push(performance.now() - at);
      }
    }
    send(bytes);
  };
  const socket = dgram.createSocket("udp4");
  const d = Buffer.alloc(10 + 3 * PANELS);
  for (let f = 0; f < FRAMES; f++) {
    d[0] = 0x41; // version 1, push
    d[1] = (f % 15) + 1;
    d[2] = 0x0b;
    d[3] = 1;
    d.writeUInt16BE(3 * PANELS, 8);
    for (let i = 0; i < 3 * PANELS; i++) d[10 + i] = (i * 5 + f * 3) & 0xff;
    d[10] = f >> 8;
    d[11] = f & 0xff;
    sentAt.set(f, performance.now());
    socket.send(d, ddpPort, "127.0.0.1");
    await new Promise((r) => setTimeout(r, 1000 / FPS));
  }
  await new Promise((r) => setTimeout(r, 200));
  socket.close();
  await c.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(2);
  return [
    `DDP live stream, desktop host, ${PANELS} panels at ${FPS} fps (${FRAMES} frames sent, ${latencies.length} shown):`,
    `  datagram sent -> bus frame out: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`,
    `  bus bytes a frame: ${(busBytes / Math.max(1, latencies.length)).toFixed(0)} (COLORS broadcasts)`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  console.log(await streamLatency());
}
