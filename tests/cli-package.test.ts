// `tessera` as npm installs it: the package packed (`npm pack`), installed globally into a temporary
// prefix from a registry on loopback (tests/helpers/npm-registry.ts: the locked dependencies, from
// npm's cache), and the installed `<prefix>/bin/tessera` run as a command, not through `node`: its
// `#!` line, its `files` (the schemas, the ota client, watch's preview engine) and its dependencies
// (tsx among them) are what the tarball brings.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startHost, tempDir, ROOT, type Host } from "./helpers/host.js";
import { startRegistry, type Registry } from "./helpers/npm-registry.js";

const dir = tempDir("tessera-package-");
// The npm beside this node, as a user has it: under `npm test` the PATH starts with node_modules/.bin,
// where a dependency of a dev tool brings an npm 6 of its own.
const NPM = fs.existsSync(path.join(path.dirname(process.execPath), "npm"))
  ? path.join(path.dirname(process.execPath), "npm")
  : "npm";
const prefix = path.join(dir, "prefix");
const TESSERA = path.join(prefix, "bin", "tessera");
let host: Host;
let registry: Registry;
let skip: string | false = false;

before(async () => {
  host = await startHost({ panels: 3 });
  registry = await startRegistry();
  const packed = spawnSync(NPM, ["pack", "--json", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" });
  assert.equal(packed.status, 0, packed.stderr);
  const tarball = path.join(dir, JSON.parse(packed.stdout)[0].filename);
  // not spawnSync: the registry answers from this process
  const installed = await run(
    NPM,
    ["install", "-g", "--prefix", prefix, "--registry", registry.url, "--cache", path.join(dir, "cache")].concat([
      "--no-audit",
      "--no-fund",
      "--loglevel",
      "error",
      tarball,
    ]),
  );
  if (installed.code !== 0 && registry.missing.length > 0 && process.env.CI !== "true")
    skip = `npm's cache lacks ${registry.missing.join(", ")} (npm ci fills it)`;
  else assert.equal(installed.code, 0, installed.err);
});
after(async () => {
  await host?.stop();
  await registry?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function run(cmd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: dir, env: { ...process.env, TESSERA_CONTROLLER: host.url } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
  });
}
/** Runs the installed command itself (its `#!` line picks the interpreter). */
const tessera = (...args: string[]) => run(TESSERA, args);

test("the installed tessera runs as a command: --help, status, a schema check, ota", async (t) => {
  if (skip) return t.skip(skip);
  assert.ok(fs.readFileSync(TESSERA, "utf8").startsWith("#!/usr/bin/env node\n"));
  const help = await tessera("--help");
  assert.equal(help.code, 0, help.err);
  assert.match(help.out, /^usage: tessera <command>/);

  const status = await tessera("status");
  assert.equal(status.code, 0, status.err);
  assert.match(status.out, /on, not playing, 3 panels/);

  // docs/schema is in the package: an invalid scene is refused before anything is sent
  fs.writeFileSync(path.join(dir, "bad.json"), JSON.stringify({ name: "x", layers: [] }));
  const bad = await tessera("push", "bad.json");
  assert.equal(bad.code, 4, bad.err);
  assert.match(bad.err, /docs\/schema\/scene\.schema\.json/);

  // the ota client (TypeScript, run through tsx, a dependency): its usage, from the installed files
  const ota = await tessera("ota");
  assert.equal(ota.code, 2, ota.err);
  assert.match(ota.err, /--host is required/);
});

test("the installed tessera watch finds its preview engine", async (t) => {
  if (skip) return t.skip(skip);
  const watch = await tessera("watch", "--frames", "1");
  assert.equal(watch.code, 0, watch.err);
  assert.match(watch.out, /^ {2}1 #[0-9A-F]{6} {3}2 #[0-9A-F]{6} {3}3 #[0-9A-F]{6}$/m, watch.out);
});
