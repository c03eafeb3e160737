// `tessera`, the command-line client (bin/), against running hosts: every command's effect seen
// through the API, its --json output and exit codes; `watch` in a real pty (util-linux `script`),
// its swatches checked for the panels' colours; backup -> fresh data directory -> restore -> backup
// gives the same file; discover and --controller NAME over real mDNS.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import dgram from "node:dgram";
import path from "node:path";
import { startHost, tempDir, api, ROOT, type Host } from "./helpers/host.js";

const HAVE_SCRIPT = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
const TESSERA = path.join(ROOT, "bin/tessera.mjs");
let host: Host;
const others: Host[] = [];
const dir = tempDir("tessera-cli-");

before(async () => {
  host = await startHost({ panels: 4, mdns: true });
});
after(async () => {
  await host?.stop();
  for (const h of others) await h.stop();
});

/** The environment without the variables that turn colour on or off. */
function plainEnv(more: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NO_COLOR, FORCE_COLOR, ...env } = process.env;
  return { ...env, TERM: "xterm-256color", ...more };
}

/** Runs `tessera args` against `h` (TESSERA_CONTROLLER); stdout and stderr apart. */
function cli(h: Host | null, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return clientWith(plainEnv(), h, ...args);
}
function clientWith(
  base: NodeJS.ProcessEnv,
  h: Host | null,
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const env = { ...base, TESSERA_CONTROLLER: h?.url ?? "" };
    const child = spawn(process.execPath, [TESSERA, ...args], { cwd: ROOT, env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => resolve({ code: code ?? -1, out, err }));
  });
}
async function json(h: Host, ...args: string[]): Promise<any> {
  const r = await cli(h, ...args, "--json");
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}
function file(name: string, doc: unknown): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, typeof doc === "string" ? doc : JSON.stringify(doc));
  return p;
}
const scene = (name: string, color: string) => ({
  $schema: "../docs/schema/scene.schema.json",
  schemaVersion: 2,
  name,
  layers: [
    {
      group: "beat",
      sequence: [{ type: "REACTIVE", colorFrom: "#000000", colorTo: color, params: [10], duration: 0 }],
    },
  ],
});

const COMMANDS = ["discover", "status", "power", "brightness", "color", "palettes", "scenes", "play", "stop"];
const MORE = ["speed", "trigger", "push", "watch", "backup", "restore"];

test("every command has --help (exit 0, its usage first); unknown ones and bad arguments exit 2", async () => {
  for (const c of [...COMMANDS, ...MORE]) {
    const r = await cli(null, c, "--help");
    assert.equal(r.code, 0, `${c}: ${r.err}`);
    assert.ok(r.out.startsWith(`tessera ${c}`), r.out);
    assert.match(r.out, /--controller/);
    assert.match(r.out, /exit codes/);
  }
  assert.equal((await cli(null, "dance")).code, 2);
  assert.equal((await cli(host, "brightness", "256")).code, 2);
  assert.equal((await cli(host, "power", "maybe")).code, 2);
  assert.equal((await cli(host, "speed")).code, 2);
  assert.equal((await cli(host, "status", "--bogus")).code, 2);
  const none = await cli(null, "status");
  assert.equal(none.code, 2);
  assert.match(none.err, /TESSERA_CONTROLLER/);
});

test("an unreachable controller exits 3", async () => {
  const r = await cli(null, "status", "--controller", "http://127.0.0.1:9");
  assert.equal(r.code, 3);
  assert.match(r.err, /cannot reach/);
});

test("tessera ota to a port nobody listens on exits 3 (cannot reach), at once", async () => {
  const socket = dgram.createSocket("udp4");
  await new Promise<void>((ok) => socket.bind(0, "127.0.0.1", ok));
  const port = socket.address().port;
  await new Promise<void>((ok) => socket.close(() => ok()));
  const started = Date.now();
  const r = await cli(null, "ota", "--host", "127.0.0.1", "--port", String(port), "package.json");
  assert.equal(r.code, 3, r.err);
  assert.match(r.err, /tessera: ota: cannot reach 127\.0\.0\.1 port \d+/);
  assert.ok(Date.now() - started < 8000, "refused at once, not after the invitation's wait");
});

/** Runs `tessera args` in a pty (util-linux `script`): stdout is a terminal. */
function inPty(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const command = [process.execPath, TESSERA, ...args].map((a) => `'${a}'`).join(" ");
  const r = spawnSync("script", ["-q", "-e", "-c", command, "/dev/null"], {
    cwd: ROOT,
    encoding: "utf8",
    env,
    timeout: 20000,
  });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  return r.stdout;
}

test(
  "colour escapes only on a terminal: none through a pipe or with NO_COLOR, FORCE_COLOR forces them",
  { skip: !HAVE_SCRIPT && !process.env.CI },
  async () => {
    await api(host, "POST", "/api/scenes/stop");
    const ESC = /\x1b\[/;
    const SWATCH = /\x1b\[48;2;\d+;\d+;\d+m/;
    const c = ["--controller", host.url];
    // a terminal: swatches
    assert.match(inPty(plainEnv(), "status", ...c), SWATCH);
    assert.match(inPty(plainEnv(), "palettes", ...c), SWATCH);
    // a terminal with NO_COLOR set (no-color.org), or TERM=dumb: plain text, the colours as text
    for (const env of [plainEnv({ NO_COLOR: "1" }), plainEnv({ TERM: "dumb" })]) {
      const status = inPty(env, "status", ...c);
      assert.doesNotMatch(status, ESC, status);
      assert.match(status, /base colours #[0-9A-F]{6} #[0-9A-F]{6} #[0-9A-F]{6}/);
      assert.doesNotMatch(inPty(env, "palettes", ...c), ESC);
    }
    // a pipe: plain text from every command that shows colours, watch included
    for (const args of [["status"], ["palettes"], ["color", "#102030", "--panel", "1"], ["watch", "--frames", "2"]]) {
      const r = await cli(host, ...args);
      assert.equal(r.code, 0, r.err);
      assert.doesNotMatch(r.out, ESC, `${args[0]}: ${JSON.stringify(r.out)}`);
    }
    assert.match((await cli(host, "color", "#102030", "--panel", "1")).out, /^#102030 on panel 1$/m);
    assert.match((await cli(host, "palettes")).out, /Ocean\s+#[0-9A-F]{6} #[0-9A-F]{6}/);
    const watch = (await cli(host, "watch", "--frames", "2")).out;
    assert.match(watch, /^ {2}1 #102030 {3}2 #[0-9A-F]{6}/m, watch);
    // FORCE_COLOR=1 through a pipe: swatches
    const forced = await clientWith(plainEnv({ FORCE_COLOR: "1" }), host, "status");
    assert.match(forced.out, SWATCH);
  },
);

test("status, power, brightness, color: the effect is what the API shows", async () => {
  const status = await json(host, "status");
  assert.equal(status.panels, 4);
  assert.deepEqual(status.state, (await api(host, "GET", "/api/state")).body);
  assert.match((await cli(host, "status")).out, /on, not playing, 4 panels/);
  const noScheme = await cli(null, "status", "--controller", `localhost:${host.port}`);
  assert.match(noScheme.out, /on, not playing, 4 panels/, "host:port without http://");

  assert.equal((await cli(host, "power", "off")).code, 0);
  assert.equal((await api(host, "GET", "/api/state")).body.isOn, false);
  assert.equal((await cli(host, "power", "on")).code, 0);
  assert.equal((await api(host, "GET", "/api/state")).body.isOn, true);

  assert.equal((await cli(host, "brightness", "40")).code, 0);
  assert.equal((await api(host, "GET", "/api/appearance")).body.brightness, 40);
  assert.equal((await cli(host, "brightness", "255")).code, 0);

  assert.equal((await cli(host, "color", "#00ff80")).code, 0);
  assert.equal((await cli(host, "color", "#FF0000", "--panel", "3")).code, 0);
  const colors = (await api(host, "GET", "/api/panels")).body.map((p: { color: string }) => p.color);
  assert.deepEqual(colors, ["#00FF80", "#00FF80", "#FF0000", "#00FF80"]);
  const missing = await cli(host, "color", "#FF0000", "--panel", "9");
  assert.equal(missing.code, 1);
  assert.match(missing.err, /404 not_found/);
});

test(
  "watch draws the panels' colours, computed by panel.wasm from the mirror stream, in a pty",
  { skip: !HAVE_SCRIPT && !process.env.CI },
  async () => {
    await api(host, "POST", "/api/scenes/stop");
    const want = ["#102030", "#FF8000", "#0000FF", "#00C040"];
    for (const [i, c] of want.entries()) await api(host, "PUT", `/api/panels/${i + 1}/color`, { color: c });
    const command = `${process.execPath} ${TESSERA} watch --frames 6 --fps 10 --controller ${host.url}`;
    const r = spawnSync("script", ["-q", "-e", "-c", command, "/dev/null"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 20000,
      env: plainEnv(),
    });
    assert.equal(r.status, 0, r.stderr);
    // the last frame: a true-colour swatch (48;2;R;G;B) per panel, labelled with its address
    const frames = r.stdout.split(/\x1b\[\d+F/); // each frame moves the cursor up over the last
    const last = frames[frames.length - 1];
    const swatches = [...last.matchAll(/\x1b\[48;2;(\d+);(\d+);(\d+)m\x1b\[38;2;[\d;]+m\s*(\d+) /g)].map((m) => ({
      address: Number(m[4]),
      color:
        "#" +
        [m[1], m[2], m[3]]
          .map((v) => Number(v).toString(16).padStart(2, "0"))
          .join("")
          .toUpperCase(),
    }));
    assert.deepEqual(
      swatches,
      want.map((color, i) => ({ address: i + 1, color })),
    );
    assert.ok(frames.length >= 6, `${frames.length} frames`);
  },
);

test("push validates against docs/schema, then creates or updates; scenes, play, speed, trigger, stop", async () => {
  const bad = await cli(
    host,
    "push",
    file("bad.json", { name: "x", layers: [{ group: 1, sequence: [{ type: "GLOW", duration: 1 }] }] }),
  );
  assert.equal(bad.code, 4);
  assert.match(bad.err, /type: must be equal to one of the allowed values: SOLID/);
  assert.equal((await cli(host, "push", file("nojson.json", "{nope"))).code, 4);
  assert.deepEqual((await api(host, "GET", "/api/scenes")).body, [], "nothing sent");

  const created = await json(host, "push", file("beat.json", scene("beat", "#FF0000")));
  assert.equal(created.action, "created");
  const updated = await json(host, "push", file("beat.json", scene("beat", "#00FF00")));
  assert.deepEqual(updated, { id: created.id, action: "updated" });
  const stored = (await api(host, "GET", `/api/scenes/${created.id}`)).body;
  assert.equal(stored.layers[0].sequence[0].colorTo, "#00FF00");
  assert.deepEqual(
    (await json(host, "scenes")).map((s: { id: string }) => s.id),
    [created.id],
  );
  assert.match((await cli(host, "scenes")).out, new RegExp(`${created.id}\\s+beat`));

  const dusk = (first: string) =>
    file("dusk.json", {
      name: "Dusk",
      stops: [
        [0, first],
        [255, "#FFE080"],
      ],
    });
  assert.equal((await json(host, "push", dusk("#200040"))).action, "created");
  assert.equal((await json(host, "push", dusk("#000000"))).action, "updated");
  assert.deepEqual((await api(host, "GET", "/api/palettes/Dusk")).body.stops[0], [0, "#000000"]);
  assert.ok((await json(host, "palettes")).some((p: { name: string }) => p.name === "Dusk"));

  assert.equal((await cli(host, "play", "BEAT")).code, 0, "by name, any case");
  let state = (await api(host, "GET", "/api/state")).body;
  assert.equal(state.lastPlayedSceneId, created.id);
  assert.equal((await cli(host, "play", created.id)).code, 0, "by id");
  assert.equal((await cli(host, "play", "nope")).code, 1);
  assert.equal((await cli(host, "speed", "2.5")).code, 0);
  assert.equal((await cli(host, "trigger", "beat", "200")).code, 0);
  const unknown = await cli(host, "trigger", "drums", "200");
  assert.equal(unknown.code, 1);
  // the 404 names what the playing scene can be triggered by
  assert.match(unknown.err, /404 group_not_found: the playing scene's groups: beat$/m);
  assert.deepEqual((await api(host, "POST", "/api/animations/trigger", { group: "drums", value: 1 })).body, {
    error: "group_not_found",
    message: "the playing scene's groups: beat",
  });
  state = (await api(host, "GET", "/api/state")).body;
  assert.equal(state.speed, 2.5);
  assert.equal(state.playing, true);
  assert.equal((await cli(host, "stop")).code, 0);
  await api(host, "POST", "/api/scenes/speed", { speed: 1 });
  assert.equal((await api(host, "GET", "/api/state")).body.playing, false);
  assert.deepEqual((await api(host, "POST", "/api/animations/trigger", { group: "beat", value: 1 })).body, {
    error: "group_not_found",
    message: "no scene is playing",
  });
});

test("backup -> fresh data directory -> restore -> backup gives the same file; restore twice changes nothing", async () => {
  await cli(host, "push", file("second.json", scene("second", "#0000FF")));
  await api(host, "PATCH", "/api/appearance", {
    brightness: 90,
    palette: "Dusk",
    baseColors: ["#112233", "#445566", "#778899"],
  });
  await api(host, "PATCH", "/api/configuration", { powerStateOnBoot: 2, allowedHosts: ["lights.home.arpa"] });
  await api(host, "PATCH", "/api/mqtt", {
    broker: "broker.lan",
    username: "u",
    password: "secret",
    topicPrefix: "lights/hall",
  });
  const first = path.join(dir, "first.json");
  assert.equal((await cli(host, "backup", first)).code, 0);
  const backup = JSON.parse(fs.readFileSync(first, "utf8"));
  assert.equal(backup.scenes.length, 2);
  assert.deepEqual(
    backup.palettes.map((p: { name: string }) => p.name),
    ["Dusk"],
  );
  assert.equal(backup.mqtt.broker, "broker.lan");
  assert.ok(!fs.readFileSync(first, "utf8").includes("secret"), "no password");

  const fresh = await startHost({ panels: 2 });
  others.push(fresh);
  const restored = await json(fresh, "restore", first);
  assert.ok(restored.changes.includes("palette Dusk created"), restored.changes.join("\n"));
  assert.ok(restored.changes.includes("appearance.brightness: 255 -> 90"), restored.changes.join("\n"));
  assert.equal(restored.changes.filter((c: string) => c.startsWith("scene ")).length, 2);
  const second = path.join(dir, "second.json");
  assert.equal((await cli(fresh, "backup", second)).code, 0);
  assert.equal(fs.readFileSync(second, "utf8"), fs.readFileSync(first, "utf8"));
  const again = await cli(fresh, "restore", first);
  assert.equal(again.code, 0);
  assert.equal(again.out.trim(), "nothing to change");
  assert.equal((await cli(fresh, "restore", file("notabackup.json", { scenes: [] }))).code, 4);
});

test("restore keeps the scenes' ids: backup, delete every scene, restore, play by the old id", async () => {
  const h = await startHost({ panels: 2 });
  others.push(h);
  const made = [];
  for (const [name, color] of [
    ["one", "#FF0000"],
    ["two", "#00FF00"],
    ["two", "#0000FF"], // names may repeat: ids tell them apart
  ])
    made.push((await api(h, "POST", "/api/scenes", { ...scene(name, color), $schema: undefined })).body.id as string);
  const saved = path.join(dir, "keep.json");
  assert.equal((await cli(h, "backup", saved)).code, 0);
  assert.deepEqual(
    JSON.parse(fs.readFileSync(saved, "utf8"))
      .scenes.map((s: { id: string }) => s.id)
      .sort(),
    [...made].sort(),
    "the backup has the ids",
  );
  const before = new Map<string, string>();
  for (const id of made) before.set(id, (await api(h, "GET", `/api/scenes/${id}`)).text);
  for (const id of made) assert.equal((await api(h, "DELETE", `/api/scenes/${id}`)).status, 200);
  const restored = await json(h, "restore", saved);
  assert.equal(restored.changes.filter((c: string) => /^scene .* created \(\w+\)$/.test(c)).length, 3);
  for (const id of made) assert.equal((await api(h, "GET", `/api/scenes/${id}`)).text, before.get(id), id);
  assert.equal((await cli(h, "play", made[2])).code, 0);
  assert.equal((await api(h, "GET", "/api/state")).body.lastPlayedSceneId, made[2]);
  assert.equal((await cli(h, "restore", saved)).out.trim(), "nothing to change");
});

test("--controller takes an mDNS name, and discover lists the controller", async () => {
  // long after the host started: answers to queries, not its announcements (the POSIX host's
  // responder answers a PTR query with the PTR alone, so the client asks for the SRV and A records)
  const byName = await cli(null, "status", "--controller", host.hostname);
  assert.equal(byName.code, 0, byName.err);
  assert.match(byName.out, /4 panels/);
  const found = await json(host, "discover", "--timeout", "3");
  const me = found.find((c: { name: string }) => c.name === host.hostname);
  assert.ok(me, JSON.stringify(found));
  assert.equal(me.port, host.port);
  assert.equal(me.host, `${host.hostname}.local`);
  assert.equal(me.url, `http://${me.addresses.find((a: string) => a.includes("."))}:${host.port}`);
  const nobody = await cli(null, "status", "--controller", "tessera-nobody");
  assert.equal(nobody.code, 3);
});
