// Starts a controller host as a child process on a free port, as a user would run it, and stops
// it. The command is the desktop host unless TESSERA_HOST names another executable taking the
// same flags (the native POSIX host), so one black-box suite serves every host.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { checkResponse } from "./openapi.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface HostOptions {
  panels?: number;
  topology?: string;
  variant?: "small" | "large";
  dataDir?: string;
  extraArgs?: string[];
  /** Advertise and browse by mDNS (default off: --no-mdns). */
  mdns?: boolean;
  /** Self-update on this UDP port (default 0: off, so that hosts running at once never compete). */
  otaPort?: number;
  /** The DDP live stream input on this UDP port (default 0: off, for the same reason). */
  ddpPort?: number;
  /** The E1.31 live stream input on this UDP port (default 0: off). */
  e131Port?: number;
}

export interface Host {
  url: string;
  wsUrl: string;
  port: number;
  dataDir: string;
  hostname: string;
  output: () => string;
  /** Graceful stop (SIGTERM). */
  stop(): Promise<void>;
  /** Hard kill (SIGKILL), as a power cut would. */
  kill(): Promise<void>;
}

/** The controllerFirmware a core image shows: the package version, "+" and the image's build
 * identifier, the first 8 hex digits of its MD5 (docs/host-abi.md). */
export function firmwareOf(image: string | Uint8Array = path.join(ROOT, "build/controller.wasm")): string {
  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  const bytes = typeof image === "string" ? fs.readFileSync(image) : image;
  return `${version}+${createHash("md5").update(bytes).digest("hex").slice(0, 8)}`;
}

export function tempDir(prefix = "tessera-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The host executable and its arguments for `args`: the desktop host, or TESSERA_HOST. */
export function command(args: string[]): [string, string[]] {
  const custom = process.env.TESSERA_HOST;
  if (custom) return [custom, args];
  return [process.execPath, ["--import", "tsx", path.join(ROOT, "host/src/main.ts"), ...args]];
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

/** Starts a host and waits until it listens and has discovered its panels. */
export async function startHost(opts: HostOptions = {}): Promise<Host> {
  const dataDir = opts.dataDir ?? tempDir();
  const args = ["--port", "0", "--data-dir", dataDir, "--log-level", "warn", "--variant", opts.variant ?? "large"];
  if (opts.topology) args.push("--topology", opts.topology);
  else args.push("--panels", String(opts.panels ?? 5));
  if (!opts.mdns) args.push("--no-mdns");
  args.push("--ota-port", String(opts.otaPort ?? 0));
  args.push("--ddp-port", String(opts.ddpPort ?? 0));
  args.push("--e131-port", String(opts.e131Port ?? 0));
  args.push(...(opts.extraArgs ?? []));
  const [cmd, argv] = command(args);
  const child = spawn(cmd, argv, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  // A host that fails to start or to discover its panels is killed, never left running.
  const killOnFailure = (e: unknown): never => {
    child.kill("SIGKILL");
    throw e;
  };
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${out}`)), 15000);
    const check = () => {
      const m = out.match(/controller (\S+) listening on http:\/\/localhost:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code}:\n${out}`));
    });
  }).catch(killOnFailure);
  const port = Number(match[2]);
  const host: Host = {
    url: `http://localhost:${port}`,
    wsUrl: `ws://localhost:${port}/ws`,
    port,
    dataDir,
    hostname: match[1],
    output: () => out,
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
    },
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
  const expected = opts.topology
    ? (JSON.parse(fs.readFileSync(opts.topology, "utf8")).panels as unknown[]).length
    : (opts.panels ?? 5);
  const limit = opts.variant === "small" ? 32 : 100;
  await waitForDiscovery(host, Math.min(expected, limit)).catch(killOnFailure);
  return host;
}

/** Waits until GET /api/panels/edges lists `n` panels (three slots each). */
export async function waitForDiscovery(host: Host, n: number, timeoutMs = 10000): Promise<void> {
  await waitFor(async () => {
    const res = await fetch(`${host.url}/api/panels/edges`);
    const edges = (await res.json()) as unknown[];
    return edges.length === n * 3;
  }, timeoutMs);
}

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs = 3000, stepMs = 10): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** A JSON request (bytes go as they are, application/octet-stream): status, parsed body (or null)
 * and headers. Every answer is checked against docs/openapi.yaml (helpers/openapi.ts): an undocumented
 * status, content type or body fails the test that received it. */
export async function api(
  host: Host,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers; text: string }> {
  const init: RequestInit = { method };
  if (body instanceof Uint8Array) {
    init.body = new Uint8Array(body);
    init.headers = { "Content-Type": "application/octet-stream" };
  } else if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(host.url + p, init);
  const text = await res.text();
  checkResponse(method, p, res.status, res.headers.get("content-type"), text);
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

/** The members of an error answer: 400 invalid_json also says where (offset) and why (reason). */
export function errorKeys(status: number): string[] {
  return status === 400 ? ["error", "offset", "reason"] : ["error"];
}
