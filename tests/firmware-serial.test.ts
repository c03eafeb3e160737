// The serial firmware frame on every host (docs/bus-protocol.md, "The serial firmware frame"): the
// host takes --serial PATH, one end of a pty pair made by Debian's socat; the test writes frames into
// the other end and reads the answer lines, byte for byte. Skipped without socat, except in CI.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import tty from "node:tty";
import { startHost, tempDir, waitFor, api, type Host } from "./helpers/host.js";
import { advance } from "./helpers/playback.js";
import { makeImage } from "../host/src/bus/image.js";
import { panelImage, factoryWasm as wasm } from "./helpers/panel-image.js";

const HAVE_SOCAT = spawnSync("socat", ["-V"], { stdio: "ignore" }).status === 0;
const skip = !HAVE_SOCAT && process.env.CI !== "true" ? "socat is not installed (apt-get install socat)" : false;

let socat: ChildProcess | undefined;
let host: Host | undefined;
let port: tty.ReadStream | undefined;
let fd = -1;
let received = "";

/** CRC-16 of the frame: reflected 0xA001, initial 0xFFFF (assembly/util/crc16.ts). */
function crc16(bytes: Uint8Array): number {
  let crc = 0xffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

function frame(payload: Uint8Array, crc = crc16(payload)): Buffer {
  const head = Buffer.alloc(8);
  head.write("TSFW", 0, "latin1");
  head.writeUInt32LE(payload.length, 4);
  const tail = Buffer.alloc(2);
  tail.writeUInt16LE(crc, 0);
  return Buffer.concat([head, payload, tail]);
}

/** Writes all of `bytes` (the pty is non-blocking: a full buffer waits for the host to read). */
async function write(bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) {
    try {
      at += fs.writeSync(fd, bytes, at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

/** Waits for the answer lines `lines` (and nothing else), then forgets them. */
async function expect(lines: string[]): Promise<void> {
  const want = lines.map((l) => l + "\n").join("");
  await waitFor(() => received.length >= want.length, 10000).catch(() => {
    throw new Error(`expected ${JSON.stringify(want)}, got ${JSON.stringify(received)}`);
  });
  assert.equal(received, want);
  received = "";
}

async function state(): Promise<string> {
  return (await api(host!, "GET", "/api/firmware/status")).body.state;
}

before(async () => {
  if (skip) return;
  const dir = tempDir("tessera-serial-");
  const a = path.join(dir, "controller");
  const b = path.join(dir, "tool");
  socat = spawn("socat", [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: "ignore" });
  await waitFor(() => fs.existsSync(a) && fs.existsSync(b), 5000);
  fd = fs.openSync(b, "r+");
  port = new tty.ReadStream(fd);
  port.setRawMode(true);
  port.on("data", (d: Buffer) => (received += d.toString("latin1")));
  // a small store: two panel images fit, a large one does not
  host = await startHost({ panels: 3, extraArgs: ["--manual-clock", "--serial", a, "--store-limit", "40000"] });
});

after(async () => {
  port?.destroy();
  await host?.stop();
  socat?.kill();
});

test("garbage, then a good frame: READY, OK, and the panels are flashed", { skip }, async () => {
  await write(Buffer.from("noise TST TSF\x00\xffTSFTS"));
  await write(frame(panelImage(4)));
  await expect(["READY", "OK"]);
  assert.equal(await state(), "connecting");
  // a second frame while that flash runs
  await write(frame(panelImage(4)));
  await expect(["ERR:flash already in progress"]);
  for (let i = 0; i < 1000 && (await state()) !== "done"; i++) await advance(host!, 10);
  assert.equal(await state(), "done");
  await advance(host!, 400);
  assert.deepEqual((await api(host!, "GET", "/api/firmware/status")).body.firmware, [4, 4]);
});

test("each error path answers its ERR line, and the next frame is still understood", { skip }, async () => {
  const good = makeImage(wasm, 5);
  const badMagic = Buffer.from(good);
  badMagic[1] ^= 0xff;
  await write(frame(badMagic));
  await expect(["READY", "ERR:bad magic"]);
  const big = Buffer.alloc(8);
  big.write("TSFW", 0, "latin1");
  big.writeUInt32LE(300 * 1024, 4);
  await write(big);
  await expect(["ERR:image too large"]);
  await write(frame(good, crc16(good) ^ 1));
  await expect(["READY", "ERR:CRC mismatch"]);
  const badCrc32 = Buffer.from(good);
  badCrc32[40] ^= 1;
  await write(frame(badCrc32));
  await expect(["READY", "ERR:CRC-32 mismatch"]);
  // larger than the store has room for
  const payload = Buffer.concat([wasm, Buffer.alloc(30000)]);
  await write(frame(makeImage(payload, 6)));
  await expect(["READY", "ERR:filesystem write failed"]);
  // a frame that stalls half way
  await write(frame(good).subarray(0, 100));
  await expect(["READY"]);
  await advance(host!, 3100);
  await expect(["ERR:timeout"]);
  // after all that, a good frame
  await write(frame(good));
  await expect(["READY", "OK"]);
  assert.equal(await state(), "connecting");
});
