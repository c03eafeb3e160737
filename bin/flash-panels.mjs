// `tessera flash-panels --http URL FILE` / `--serial PATH FILE`: sends a panel firmware image (for
// example build/panel.fw) to a controller, with a progress bar, and follows the flash.
//   --http URL: POST URL/api/firmware/panels (streamed), then GET /api/firmware/status until done.
//   --serial PATH: the serial firmware frame (TSFW, length, image, CRC-16) on a tty or a pty at 57600
//   8N1; READY, then OK once stored (add --http URL to follow the flash too).
import fs from "node:fs";
import tty from "node:tty";
import { spawnSync } from "node:child_process";
import { bar, barDone, sendWithProgress } from "./lib/progress.mjs";

const USAGE = "usage: tessera flash-panels (--http URL | --serial PATH [--http URL]) FILE";
function done(text) {
  barDone();
  console.log(text);
}

async function follow(url) {
  for (;;) {
    const res = await fetch(new URL("/api/firmware/status", url));
    const s = await res.json();
    const total = Math.max(1, s.total);
    const fraction = s.state === "done" ? 1 : (Math.max(0, s.panel - 1) + s.progress / 100) / total;
    bar(s.state, fraction, `panel ${s.panel}/${s.total}`);
    if (s.state === "done") return (done(`flashed ${s.total} panels`), 0);
    if (s.state === "error") return (done(`flash failed: ${s.error}`), 1);
    if (s.state === "idle") return (done("no flash is running"), 1);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function crc16(bytes) {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** Sends the frame on the serial port and waits for READY and OK (or ERR:). */
async function serial(path, image) {
  const fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
  if (!tty.isatty(fd)) throw new Error(`${path} is not a tty`);
  spawnSync("stty", ["-F", path, "57600", "cs8", "-cstopb", "-parenb", "raw", "-echo"]);
  const input = new tty.ReadStream(fd);
  input.setRawMode(true);
  let lines = "";
  const waiters = [];
  input.on("data", (d) => {
    lines += d.toString("latin1");
    for (;;) {
      const i = lines.indexOf("\n");
      if (i < 0) break;
      const line = lines.slice(0, i);
      lines = lines.slice(i + 1);
      waiters.shift()?.(line);
    }
  });
  const line = (ms) =>
    new Promise((resolve) => {
      const t = setTimeout(() => resolve("ERR:no answer from the controller"), ms);
      waiters.push((l) => (clearTimeout(t), resolve(l)));
    });
  const write = async (bytes) => {
    for (let at = 0; at < bytes.length;) {
      try {
        at += fs.writeSync(fd, bytes, at, Math.min(1024, bytes.length - at));
        bar("sending", at / bytes.length);
      } catch (e) {
        if (e.code !== "EAGAIN") throw e;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  };
  try {
    const head = Buffer.alloc(8);
    head.write("TSFW", 0, "latin1");
    head.writeUInt32LE(image.length, 4);
    const tail = Buffer.alloc(2);
    tail.writeUInt16LE(crc16(image), 0);
    const ready = line(5000);
    await write(head);
    const first = await ready;
    if (first !== "READY") return (done(`refused: ${first}`), 1);
    const ok = line(60000);
    await write(Buffer.concat([image, tail]));
    const last = await ok;
    if (last !== "OK") return (done(`refused: ${last}`), 1);
    done("image stored; the controller is flashing the panels");
    return 0;
  } finally {
    input.destroy();
  }
}

export async function run(args) {
  let url = null;
  let port = null;
  const files = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--http") url = args[++i];
    else if (args[i] === "--serial") port = args[++i];
    else if (args[i] === "--help") return (console.log(USAGE), 0);
    else files.push(args[i]);
  }
  if ((!url && !port) || files.length !== 1 || (url !== null && !url) || (port !== null && !port)) {
    console.error(USAGE);
    return 2;
  }
  let image;
  try {
    image = fs.readFileSync(files[0]);
  } catch (e) {
    console.error(`tessera flash-panels: ${e.message}`);
    return 2;
  }
  try {
    if (port) {
      const rc = await serial(port, image);
      return rc !== 0 || !url ? rc : follow(url);
    }
    const res = await sendWithProgress(new URL("/api/firmware/panels", url), "POST", image, "application/octet-stream");
    if (res.status !== 200) return (done(`refused (${res.status}): ${res.body?.error ?? res.text}`), 1);
    return follow(url);
  } catch (e) {
    console.error(`tessera flash-panels: ${e.message}`);
    return 1;
  }
}
