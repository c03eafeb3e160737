// The one animation-kind table (assembly/animation-kinds.json, docs/bus-protocol.md "Animation
// kinds"): every wire code as the golden file fixes it (a code once given never changes: panels in
// the field decode it) and as a host puts it on the bus (the kind bits of each type's prepare and of
// a runner's pulses, read from the mirror stream); the scene schema's and the bus protocol's lists
// are the table's. And a new type is one table row plus its envelope in the panel engine: built
// from a copy of the sources with a test-only row, the controller accepts it, sends its code and the
// panels show its behaviour, while the real image refuses it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { startHost, api, waitForDiscovery, ROOT } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets } from "./helpers/frames.js";
import { advance } from "./helpers/playback.js";
import { TableExpander } from "./helpers/pulse-table.js";
import type { AnimationKinds } from "./helpers/panel.js";
import { startController } from "../host/src/controller.js";
import { generateTopology } from "../host/src/bus/topology.js";

// scripts/animation-kinds.mjs, the build's reader and generator of the table
const { readKinds, generateKinds } = (await import(path.join(ROOT, "scripts/animation-kinds.mjs"))) as {
  readKinds(file: string): unknown;
  generateKinds(kinds: unknown): Record<string, string>;
};
const TABLE = path.join(ROOT, "assembly/animation-kinds.json");
const table = JSON.parse(fs.readFileSync(TABLE, "utf8")) as AnimationKinds;
const golden = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/fixtures/animation-kinds.golden.json"), "utf8"));
const PREPARE = 12;
const START = 13;

test("every code of the golden file is the table's: none renumbered, none dropped", () => {
  const codes: Record<string, number> = Object.fromEntries(table.types.map((t) => [t.name, t.code]));
  codes.RUNNER = table.runnerPulse.code;
  for (const [name, code] of Object.entries(golden)) assert.equal(codes[name], code, name);
  assert.deepEqual(Object.keys(codes).sort(), Object.keys(golden).sort(), "a new kind goes into the golden file too");
});

test("the scene schema's and the bus protocol's lists of types are the table's", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "docs/schema/scene.schema.json"), "utf8"));
  const found: string[][] = [];
  JSON.stringify(schema, (k, v) => {
    if (k === "type" && v && Array.isArray(v.enum)) found.push(v.enum);
    return v;
  });
  assert.deepEqual(found, [table.types.map((t) => t.name)]);
  const doc = fs.readFileSync(path.join(ROOT, "docs/bus-protocol.md"), "utf8");
  const list = [...table.types.map((t) => `${t.code} ${t.name}`), `${table.runnerPulse.code} runner pulse`].join(", ");
  assert.ok(doc.includes(`kind (low 4 bits: ${list};`), `docs/bus-protocol.md lists ${list}`);
});

test("the table's rules: codes in order below the runner pulse's, which fits 4 bits", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-kinds-"));
  const check = (t: unknown) => {
    fs.writeFileSync(path.join(dir, "k.json"), JSON.stringify(t));
    return () => readKinds(path.join(dir, "k.json"));
  };
  const row = (name: string, code: number) => ({ name, code });
  assert.doesNotThrow(check({ types: [row("A", 0), row("B", 1)], runnerPulse: { code: 15 } }));
  assert.throws(check({ types: [row("A", 0), row("B", 2)], runnerPulse: { code: 15 } }), /B: code 2, expected 1/);
  assert.throws(check({ types: [row("A", 0), row("A", 1)], runnerPulse: { code: 15 } }), /A twice/);
  assert.throws(check({ types: [row("A", 0)], runnerPulse: { code: 16 } }), /below 16/);
  assert.throws(check({ types: [row("A", 0), row("B", 1)], runnerPulse: { code: 1 } }), /reach the runner/);
  fs.rmSync(dir, { recursive: true });
});

/** The kind bits of every prepare a flat animation `step` sends until its group starts (pulse tables
 * expanded). */
async function kindsSent(host: Awaited<ReturnType<typeof startHost>>, c: Client, step: object): Promise<Set<number>> {
  c.frames.length = 0;
  const res = await api(host, "POST", "/api/animations/play", { group: 5, color: "#ff0000", ...step });
  assert.equal(res.status, 202, res.text);
  await advance(host, 40);
  const expander = new TableExpander();
  const kinds = new Set<number>();
  for (let started = false; !started;)
    for (const { address, type, body } of mirroredPackets(await c.next(T.MIRROR_BATCH)))
      for (const r of expander.expand({ address, type, body: [...body] })) {
        if (r.type === PREPARE && r.body[0] === 5) kinds.add(r.body[2] & 0x0f);
        if (r.type === START && r.body[0] === 5 && r.body[1] === 1) started = true;
      }
  await api(host, "POST", "/api/scenes/stop");
  await advance(host, 40);
  return kinds;
}

test("on the bus: each type's prepare carries its code, a runner's pulses the runner pulse's", async () => {
  const host = await startHost({ panels: 4, extraArgs: ["--manual-clock"] });
  after(() => host.stop());
  await waitForDiscovery(host, 4);
  const c = await Client.connect(host.wsUrl);
  after(() => c.ws.close());
  c.send(frame(T.SET_MIRROR, [1]));
  await c.next(T.MIRROR_BATCH); // the snapshot
  for (const t of table.types)
    assert.deepEqual([...(await kindsSent(host, c, { type: t.name, duration: 1000 }))], [golden[t.name]], t.name);
  for (const runner of ["WAVE", "BOUNCE", "RAIN"])
    assert.deepEqual([...(await kindsSent(host, c, { runner, duration: 1000 }))], [golden.RUNNER], runner);
});

test("a new type is one table row plus its envelope: accepted, sent with its code, shown by the panels", async () => {
  // the sources copied, with a test-only row and its behaviour (half-way from colorFrom to colorTo)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-new-kind-"));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(ROOT, "assembly"), path.join(dir, "assembly"), { recursive: true });
  const code = table.types.length;
  const extended = { ...table, types: [...table.types, { name: "TEST_HALF", code }] };
  fs.writeFileSync(path.join(dir, "assembly/animation-kinds.json"), JSON.stringify(extended));
  for (const [file, source] of Object.entries(
    generateKinds(readKinds(path.join(dir, "assembly/animation-kinds.json"))),
  ))
    fs.writeFileSync(path.join(dir, "assembly/generated", file), source);
  const evaluate = path.join(dir, "assembly/panel/engine/evaluate.ts");
  const src = fs.readFileSync(evaluate, "utf8");
  assert.ok(src.includes("  switch (s.kind) {\n"));
  fs.writeFileSync(
    evaluate,
    'import { K_TEST_HALF } from "./constants";\n' +
      src.replace("  switch (s.kind) {\n", "  switch (s.kind) {\n    case K_TEST_HALF:\n      return ONE >> 1;\n"),
  );
  const asc = path.join(ROOT, "node_modules/assemblyscript/bin/asc.js");
  const build = (args: string[]) => execFileSync(process.execPath, [asc, ...args], { cwd: dir, stdio: "pipe" });
  build(
    ["assembly/panel/main.ts", "--outFile", "panel.wasm", "--runtime", "stub"].concat([
      "--use",
      "abort=assembly/panel/abort/panelAbort",
    ]),
  );
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, "asconfig.json"), "utf8"));
  build([
    "assembly/main.ts",
    "--outFile",
    "controller.wasm",
    "--runtime",
    "stub",
    "--initialMemory",
    "1",
    "--maximumMemory",
    "1",
    ...config.options.use.flatMap((u: string) => ["--use", u]),
    ...["--transform", path.join(ROOT, "scripts/messages-transform.mjs")],
    ...["--transform", path.join(ROOT, "scripts/static-data-transform.mjs")],
  ]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-new-kind-data-"));
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const ctl = await startController({
    port: 0,
    host: "127.0.0.1",
    dataDir,
    wires: generateTopology(3),
    variant: "large",
    coreWasm: path.join(dir, "controller.wasm"),
    panelWasm: path.join(dir, "panel.wasm"),
    manualClock: true,
    mdns: false,
    otaPort: 0,
    logLevel: "error",
  });
  after(() => ctl.close());
  const sent: number[] = [];
  const bus = ctl.bus as unknown as { sendFromController(b: Uint8Array): void };
  const send = bus.sendFromController.bind(bus);
  bus.sendFromController = (b: Uint8Array) => {
    if (b[1] === PREPARE) sent.push(b[5 + 2] & 0x0f);
    send(b);
  };
  const http = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(ctl.url + p, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, text: await res.text() };
  };
  for (let i = 0; i < 10 && JSON.parse((await http("GET", "/api/panels")).text).length < 3; i++)
    await http("POST", "/__test__/clock", { advance: 50 });
  const step = { group: 1, type: "TEST_HALF", color: "#ff0000", colorFrom: "#0000ff", duration: 1000, loop: true };
  const { group: _, ...inScene } = step;
  const saved = await http("POST", "/api/scenes", { name: "half", layers: [{ group: 1, sequence: [inScene] }] });
  assert.equal(saved.status, 200, saved.text);
  const played = await http("POST", "/api/animations/play", step);
  assert.equal(played.status, 202, played.text);
  await http("POST", "/__test__/clock", { advance: 300 });
  assert.ok(sent.includes(code), `prepares sent with kinds ${sent}`);
  const panels = JSON.parse((await http("GET", "/api/panels")).text) as { color: string }[];
  assert.deepEqual(
    panels.map((p) => p.color.toLowerCase()),
    ["#800080", "#800080", "#800080"].map((c) => c.toLowerCase()),
    "half-way from blue to red",
  );
  // the real image has no such type
  const host = await startHost({ panels: 1 });
  after(() => host.stop());
  const refused = await api(host, "POST", "/api/animations/play", step);
  assert.equal(refused.status, 422, refused.text);
  assert.match(refused.text, /unknown animation type/);
});
