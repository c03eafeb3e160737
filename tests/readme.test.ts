// The README's examples, run as a user would, in order, against a real host: the "With curl" shell
// block (every request must answer 2xx, the scene id captured as the README says), the `tessera`
// block (every command must exit 0) and the WebSocket snippet (it must print PONG). The address in
// them is the test host's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startHost, api, command, tempDir, ROOT } from "./helpers/host.js";

const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const noCurl = spawnSync("curl", ["--version"]).status !== 0;
if (noCurl && process.env.CI === "true") throw new Error("CI=true: the README test needs curl");
const skip = noCurl ? "curl not found (apt-get install curl; .ci/run installs it)" : false;

/** The first fenced block of `lang` after `heading`. */
function block(heading: string, lang: string): string {
  const at = README.indexOf(heading);
  assert.ok(at >= 0, `README has no "${heading}"`);
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(README.slice(at));
  assert.ok(m, `no ${lang} block after "${heading}"`);
  return m[1];
}

// curl, as the shell block calls it, failing the script on an answer that is not 2xx
const STRICT_CURL = `set -euo pipefail
curl() {
  local out code
  out=$(command curl -sS --max-time 10 -w '\\n%{http_code}' "$@") || return 1
  code=\${out##*$'\\n'}
  printf '%s\\n' "\${out%$'\\n'*}"
  [[ $code == 2* ]] || { echo "HTTP $code from: curl $*" >&2; return 1; }
}
`;

test("the README's curl examples run in order and each answers 2xx", { skip }, async () => {
  const host = await startHost({ panels: 12 });
  try {
    const script = STRICT_CURL + block("### With curl", "sh").replaceAll("http://localhost:8080", host.url);
    const r = spawnSync("bash", ["-c", script], { encoding: "utf8", timeout: 60000 });
    assert.equal(r.status, 0, `${r.stderr}\n${r.stdout}`);
    // what the block did is there: the scene, the palette, the power back on
    const scenes = (await api(host, "GET", "/api/scenes")).body as { name: string; id: string }[];
    const calm = scenes.find((s) => s.name === "calm");
    assert.ok(calm, "the calm scene was stored");
    const state = (await api(host, "GET", "/api/state")).body;
    assert.equal(state.isOn, true);
    assert.equal(state.lastPlayedSceneId, calm.id, "the captured id was played");
    assert.equal((await api(host, "GET", "/api/palettes/Dusk")).status, 200);
  } finally {
    await host.stop();
  }
});

test("the README's tessera commands run in order and each exits 0", async () => {
  const host = await startHost({ panels: 12 });
  const dir = tempDir("tessera-readme-");
  try {
    const tessera = `tessera() { '${process.execPath}' '${path.join(ROOT, "bin/tessera.mjs")}' "$@"; }\n`;
    // all but `tessera discover`, an mDNS browse of the LAN (tests/cli.test.ts has it): on loopback
    const commands = block("### With the `tessera` command", "sh")
      .replaceAll("http://localhost:8080", host.url)
      .replace(/^tessera discover .*\n/m, "");
    const script = "set -euo pipefail\n" + tessera + commands;
    const r = spawnSync("bash", ["-c", script], { cwd: dir, encoding: "utf8", timeout: 90000 });
    assert.equal(r.status, 0, `${r.stderr}\n${r.stdout}`);
    // the scene it pushed was played and triggered; the backup has it
    assert.match(r.stdout, /^playing pulse \(\w+\)$/m);
    assert.match(r.stdout, /^triggered beat at 255$/m);
    const scenes = (await api(host, "GET", "/api/scenes")).body as { name: string }[];
    assert.deepEqual(
      scenes.map((s) => s.name),
      ["pulse"],
    );
    const backup = JSON.parse(fs.readFileSync(path.join(dir, "lights.json"), "utf8"));
    assert.equal(backup.scenes[0].name, "pulse");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await host.stop();
  }
});

test("the README's WebSocket snippet sets a colour and gets PONG", async () => {
  const host = await startHost({ panels: 3 });
  // beside the repository's node_modules, so that its imports resolve as in a user's project
  const file = path.join(ROOT, "test-output", `readme-ws-${process.pid}.mjs`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, block("### Over WebSocket", "js").replaceAll("ws://localhost:8080/ws", host.wsUrl));
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: 20000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /PONG/);
    const panels = (await api(host, "GET", "/api/panels")).body as { address: number; color: string }[];
    assert.equal(panels.find((p) => p.address === 2)?.color, "#00FF00");
  } finally {
    fs.rmSync(file, { force: true });
    await host.stop();
  }
});

test("a port already in use: one line saying so, not the usage, and a failing exit status", async () => {
  const host = await startHost({ panels: 1 });
  try {
    const [cmd, argv] = command(["--port", String(host.port), "--data-dir", tempDir(), "--no-mdns", "--ota-port", "0"]);
    const r = spawnSync(cmd, argv, { cwd: ROOT, encoding: "utf8", timeout: 20000 });
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], new RegExp(`^error: .*${host.port}.*in use`));
    assert.doesNotMatch(r.stdout + r.stderr, /Options:|--help/);
  } finally {
    await host.stop();
  }
});
