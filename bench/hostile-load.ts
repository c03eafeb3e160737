// Load from slow clients (issue 17), for each host: 6 clients mirroring at full rate (a brightness
// change every 30 ms keeps the stream busy), one client that
// never reads (it switches the mirror on and asks for 20,000 EDGES_LISTs, and is opened again
// whenever the host closes it), and meanwhile a fresh client every 250 ms that sends one PING: the
// host's RSS over 60 s must stay bounded, and the fresh client's PING is answered as fast as on an
// idle host. 6 + 1 + the probe are the core's 8 WebSocket slots (8 mirroring clients and a ninth
// would be more than the core accepts). Run alone with `tsx bench/hostile-load.ts [seconds]`.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import crypto from "node:crypto";
import WebSocket from "ws";
import { ROOT } from "../host/src/controller.js";
import { waitForDiscovery } from "./controller.js";
import { build, missingTools } from "./native.js";
import { frame, T } from "../tests/helpers/frames.js";

export interface HostileLoad {
  host: string;
  seconds: number;
  rssIdleKiB: number;
  rssMaxKiB: number;
  rssEndKiB: number;
  slowClosed: number;
  pings: number[];
  refused: number;
  mirrorFrames: number;
}

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : 0;
}

function encode(payload: Buffer): Buffer {
  const key = crypto.randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x82, 0x80 | len]) : Buffer.from([0x82, 0x80 | 126, len >> 8, len & 0xff]);
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i] ^ key[i & 3];
  return Buffer.concat([head, key, body]);
}

const FLOOD = Buffer.concat([
  encode(frame(T.SET_MIRROR, [1])),
  ...Array.from({ length: 20000 }, () => encode(frame(T.GET_EDGES_LIST))),
]);

/** A client that never reads: handshake, the flood, then nothing; resolves true when the host closed it. */
function neverReads(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.on("error", () => {});
    s.write(
      `GET /ws HTTP/1.1\r\nHost: localhost:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    s.write(FLOOD);
    s.pause(); // its socket takes only what the kernel holds
    // A paused socket cannot see the host close it: after 3 s it reads again and finds the end of the
    // stream if the host closed it (resolve true), else it gives up itself (false).
    setTimeout(() => {
      s.resume();
      setTimeout(() => {
        closedByHost = false;
        s.destroy();
      }, 5000).unref();
    }, 3000).unref();
    let closedByHost = true;
    s.on("close", () => resolve(closedByHost));
  });
}

async function pingOnce(url: string): Promise<number | null> {
  const ws = new WebSocket(url);
  try {
    const opened = await new Promise<boolean>((resolve) => {
      ws.once("open", () => resolve(true));
      ws.once("close", () => resolve(false));
      ws.once("error", () => resolve(false));
    });
    if (!opened) return null;
    const start = performance.now();
    const answered = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5000);
      ws.on("message", (d: Buffer) => {
        if (d[0] === T.PONG) {
          clearTimeout(timer);
          resolve(true);
        }
      });
      ws.once("close", () => resolve(false));
      ws.send(frame(T.PING));
    });
    return answered ? performance.now() - start : null;
  } finally {
    ws.terminate();
  }
}

async function run(name: string, cmd: string, args: string[], seconds: number): Promise<HostileLoad> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-bench-hostile-"));
  const child: ChildProcess = spawn(
    cmd,
    [...args, "--port", "0", "--data-dir", dataDir, "--panels", "100", "--log-level", "error", "--no-mdns"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`${name} exited (${code})`)));
  });
  const url = `http://localhost:${port}`;
  const wsUrl = `ws://localhost:${port}/ws`;
  const mirrors: WebSocket[] = [];
  let stop = false;
  try {
    await waitForDiscovery(url, 100);
    const rssIdleKiB = rssKiB(child.pid!);
    let mirrorFrames = 0;
    for (let i = 0; i < 6; i++) {
      const ws = new WebSocket(wsUrl);
      await new Promise((r) => ws.once("open", r));
      ws.on("message", (d: Buffer) => d[0] === T.MIRROR_BATCH && mirrorFrames++);
      ws.send(frame(T.SET_MIRROR, [1]));
      mirrors.push(ws);
    }
    // the mirror stream at its full rate (about 30 batches a second): a brightness change every 30 ms
    let level = 0;
    const driver = setInterval(() => {
      level = (level + 7) % 256;
      void fetch(`${url}/api/appearance`, { method: "PATCH", body: JSON.stringify({ brightness: level }) }).catch(
        () => {},
      );
    }, 30);
    const keepAlive = setInterval(() => mirrors.forEach((m) => m.send(frame(T.PING))), 5000);
    let slowClosed = 0;
    const slowLoop = (async () => {
      while (!stop) {
        if ((await neverReads(port)) && !stop) slowClosed++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const pings: number[] = [];
    let refused = 0;
    let rssMaxKiB = rssIdleKiB;
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const ms = await pingOnce(wsUrl);
      if (ms === null) refused++;
      else pings.push(ms);
      rssMaxKiB = Math.max(rssMaxKiB, rssKiB(child.pid!));
      await new Promise((r) => setTimeout(r, 250));
    }
    const rssEndKiB = rssKiB(child.pid!);
    stop = true;
    clearInterval(keepAlive);
    clearInterval(driver);
    void slowLoop;
    return { host: name, seconds, rssIdleKiB, rssMaxKiB, rssEndKiB, slowClosed, pings, refused, mirrorFrames };
  } finally {
    stop = true;
    for (const m of mirrors) m.terminate();
    child.kill("SIGKILL");
  }
}

function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export async function benchHostileLoad(seconds = 60): Promise<{ results: HostileLoad[]; skipped: string[] }> {
  const results: HostileLoad[] = [];
  const skipped: string[] = [];
  results.push(await run("desktop", process.execPath, ["--import", "tsx", "host/src/main.ts"], seconds));
  const missing = missingTools();
  if (missing.length) skipped.push(`POSIX host: missing ${missing.join(", ")}`);
  else {
    const binary = build("native/build-posix", []);
    if (binary instanceof Error) skipped.push(`POSIX host: ${binary.message}`);
    else results.push(await run("POSIX (wasm2c)", binary, [], seconds));
  }
  return { results, skipped };
}

export function reportHostileLoad(r: { results: HostileLoad[]; skipped: string[] }): string {
  const lines = [
    "11. Slow clients (issue 17): 6 mirroring clients, one that never reads (asks for 20,000 EDGES_LISTs,",
    "    reopened whenever closed), a fresh client's PING every 250 ms; 100 panels, a repeating wave",
    "",
    "| host | seconds | RSS idle | RSS max | RSS end | never-reader closed | fresh PING p50 / p99 / max | refused | mirror frames |",
    "| --- | --: | --: | --: | --: | --: | --: | --: | --: |",
  ];
  for (const x of r.results) {
    const mib = (k: number) => `${(k / 1024).toFixed(1)} MiB`;
    const ms = (v: number) => `${v.toFixed(1)}`;
    lines.push(
      `| ${x.host} | ${x.seconds} | ${mib(x.rssIdleKiB)} | ${mib(x.rssMaxKiB)} | ${mib(x.rssEndKiB)} | ${x.slowClosed} | ` +
        `${ms(quantile(x.pings, 0.5))} / ${ms(quantile(x.pings, 0.99))} / ${ms(Math.max(...x.pings))} ms | ${x.refused} | ${x.mirrorFrames} |`,
    );
  }
  for (const s of r.skipped) lines.push(`skipped: ${s}`);
  return lines.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, "bench/hostile-load.ts")) {
  const seconds = Number(process.argv[2] ?? 60);
  console.log(reportHostileLoad(await benchHostileLoad(seconds)));
  process.exit(0);
}
