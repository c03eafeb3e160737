// `npm start` as a fresh clone runs it the first time: the tracked files copied to a temporary
// directory (no build/, no assembly/generated/), the repository's node_modules linked in. The first
// run builds everything (scripts/build.mjs --if-missing) and starts the desktop host; what it prints
// is the app's address and the panels, nothing else: no compiler diagnostics, no build summary.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir, ROOT } from "./helpers/host.js";

const clone = tempDir("tessera-first-run-");
after(() => fs.rmSync(clone, { recursive: true, force: true }));

/** What a clone has: the tracked files as they are in the working tree. */
function copyTracked(to: string): void {
  const files = spawnSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).stdout.split("\0");
  for (const f of files.filter((f) => f && fs.existsSync(path.join(ROOT, f)))) {
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, f), path.join(to, f));
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(to, "node_modules"));
}

test(
  "a clean first npm start prints the app's address and the panels, nothing else",
  { timeout: 600_000 },
  async () => {
    copyTracked(clone);
    assert.ok(!fs.existsSync(path.join(clone, "build")));
    const args = ["start", "--", "--port", "0", "--panels", "3", "--data-dir", path.join(clone, "data")];
    const child = spawn("npm", [...args, "--no-mdns", "--ota-port", "0"], { cwd: clone, detached: true });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise((ok) => child.once("close", ok));
    try {
      await new Promise<void>((ok, fail) => {
        const timer = setInterval(() => /the JSON API:/.test(out) && (clearInterval(timer), ok()), 100);
        void exited.then(() => (clearInterval(timer), fail(new Error(`npm start exited:\n${out}`))));
      });
      await new Promise((ok) => setTimeout(ok, 1500)); // anything printed just after starting
    } finally {
      process.kill(-child.pid!, "SIGTERM"); // npm, its shell and the host
      await exited;
    }
    assert.ok(fs.existsSync(path.join(clone, "build/controller.wasm")), "it built");
    // npm's own header ("> tessera@0.1.0 start", "> node scripts/build.mjs ...") aside
    const lines = out.split("\n").filter((l) => l.trim() && !l.startsWith("> "));
    const expected = [
      /^Open the Tessera app: http:\/\/\S+\/$/,
      /^\[info\] discovery: 3 panels$/,
      /^Tessera controller tessera-\w+ listening on http:\/\/\S+$/,
      /^ {2}3 emulated panels, variant large, data in \S+$/,
      /^ {2}the JSON API: curl \S+\/api\/state; Wi-Fi setup form: \S+\/setup$/,
    ];
    assert.equal(lines.length, expected.length, out);
    for (const re of expected)
      assert.ok(
        lines.some((l) => re.test(l)),
        `${re} in:\n${out}`,
      );
  },
);
