// `tessera flash-panels` (bin/flash-panels.mjs) against a running host, over HTTP and over the serial
// port (a socat pty pair, skipped without socat except in CI): it sends build/panel.fw, follows the
// flash to its end and exits 0; a refused image exits 1 with the controller's reason.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startHost, tempDir, waitFor, api, ROOT, type Host } from "./helpers/host.js";

const HAVE_SOCAT = spawnSync("socat", ["-V"], { stdio: "ignore" }).status === 0;
const hosts: Host[] = [];
const children: ChildProcess[] = [];
after(async () => {
  for (const h of hosts) await h.stop();
  for (const c of children) c.kill();
});

function cli(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/tessera.mjs"), ...args], { cwd: ROOT });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => resolve({ code: code ?? -1, out }));
  });
}

test("flash-panels --http sends build/panel.fw and follows the flash to done", async () => {
  const h = await startHost({ panels: 4 });
  hosts.push(h);
  const res = await cli("flash-panels", "--http", h.url, path.join(ROOT, "build/panel.fw"));
  assert.equal(res.code, 0, res.out);
  assert.match(res.out, /flashed 4 panels/);
  assert.equal((await api(h, "GET", "/api/firmware/status")).body.state, "done");
  const bad = tempDir();
  fs.writeFileSync(path.join(bad, "x.fw"), "not an image at all");
  const refused = await cli("flash-panels", "--http", h.url, path.join(bad, "x.fw"));
  assert.equal(refused.code, 1);
  assert.match(refused.out, /refused \(422\): bad magic/);
  assert.equal((await cli("flash-panels", "--http", h.url)).code, 2, "usage");
});

test(
  "flash-panels --serial sends the frame and gets READY, OK",
  { skip: !HAVE_SOCAT && process.env.CI !== "true" ? "socat is not installed" : false },
  async () => {
    const dir = tempDir("tessera-serial-");
    const a = path.join(dir, "controller");
    const b = path.join(dir, "tool");
    children.push(spawn("socat", [`pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: "ignore" }));
    await waitFor(() => fs.existsSync(a) && fs.existsSync(b), 5000);
    const h = await startHost({ panels: 3, extraArgs: ["--serial", a] });
    hosts.push(h);
    const res = await cli("flash-panels", "--serial", b, "--http", h.url, path.join(ROOT, "build/panel.fw"));
    assert.equal(res.code, 0, res.out);
    assert.match(res.out, /image stored/);
    assert.match(res.out, /flashed 3 panels/);
  },
);
