#!/usr/bin/env node
// A moving rainbow sent to a controller by DDP (UDP 4048), so the live stream input can be tried
// without LedFx or xLights: `node scripts/stream-demo.mjs [--host H] [--port N] [--panels N]
// [--fps N] [--seconds N]`. One datagram a frame, with push: header (flags version 1 | push,
// sequence 1-15, data type RGB 8-bit, destination 1, offset 0, length), then r, g, b a panel.
import dgram from "node:dgram";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "4048" },
    panels: { type: "string", default: "100" },
    fps: { type: "string", default: "30" },
    seconds: { type: "string", default: "10" },
  },
});
const port = Number(values.port);
const panels = Number(values.panels);
const fps = Number(values.fps);
const seconds = Number(values.seconds);
if (!(port > 0 && port < 65536 && panels >= 1 && panels <= 480 && fps > 0 && fps <= 240 && seconds > 0)) {
  console.error("usage: stream-demo.mjs [--host H] [--port 1-65535] [--panels 1-480] [--fps 1-240] [--seconds N]");
  process.exit(2);
}

/** A hue (0-1) at full saturation and value, as r, g, b. */
function hue(h) {
  const f = (n) => {
    const k = (n + h * 6) % 6;
    return Math.round(255 * (1 - Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

const socket = dgram.createSocket("udp4");
const datagram = Buffer.alloc(10 + 3 * panels);
let frame = 0;
const timer = setInterval(() => {
  datagram[0] = 0x41; // version 1, push
  datagram[1] = (frame % 15) + 1;
  datagram[2] = 0x0b; // RGB, 8 bits an element
  datagram[3] = 1; // the display
  datagram.writeUInt32BE(0, 4);
  datagram.writeUInt16BE(3 * panels, 8);
  for (let i = 0; i < panels; i++) datagram.set(hue((i / panels + frame / (fps * 4)) % 1), 10 + 3 * i);
  socket.send(datagram, port, values.host);
  if (++frame >= fps * seconds) {
    clearInterval(timer);
    socket.close();
    console.log(`sent ${frame} frames of ${panels} panels to ${values.host}:${port}`);
  }
}, 1000 / fps);
