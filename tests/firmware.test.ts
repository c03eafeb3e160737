// Panel firmware updates, black box on every host (docs/bus-protocol.md "Flashing a panel",
// docs/host-abi.md): POST /api/firmware/panels streams an image to the store, the controller flashes
// every emulated panel over the bus, GET /api/firmware/status follows it, and after a restart the
// panels run the new firmware (the version they report in discovery). Faults are injected with the
// hosts' --panel-fault and --store-limit flags.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import { startHost, tempDir, waitFor, api, waitForDiscovery, type Host } from "./helpers/host.js";
import { makeImage, BUS_VERSION } from "../host/src/bus/image.js";
import { panelImage, factoryWasm as wasm, FACTORY_VERSION } from "./helpers/panel-image.js";
import { advance } from "./helpers/playback.js";
import { checkResponse } from "./helpers/openapi.js";
import { Client, T, frame, mirroredPackets } from "./helpers/frames.js";

const PANELS = 5;
const hosts: Host[] = [];
after(async () => {
  for (const h of hosts) await h.stop();
});

/** A host whose clock moves only when the test says (the flash keeps to the clock: every step is seen). */
async function start(opts: Parameters<typeof startHost>[0] = {}): Promise<Host> {
  const h = await startHost({ panels: PANELS, ...opts, extraArgs: ["--manual-clock", ...(opts.extraArgs ?? [])] });
  hosts.push(h);
  return h;
}

/** POSTs raw bytes; `chunked` leaves Content-Length out. */
function upload(h: Host, body: Uint8Array): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${h.url}/api/firmware/panels`,
      {
        method: "POST",
        headers: { "Content-Type": "application/octet-stream", "Content-Length": body.length },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          checkResponse("POST", "/api/firmware/panels", res.statusCode!, res.headers["content-type"] ?? null, text);
          resolve({ status: res.statusCode!, body: JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    // in pieces, as a slow client would send them
    for (let at = 0; at < body.length; at += 4096) req.write(body.subarray(at, at + 4096));
    req.end();
  });
}

async function status(h: Host): Promise<any> {
  return (await api(h, "GET", "/api/firmware/status")).body;
}

/** Moves the clock 10 ms at a time and polls the status until it is done or error, recording
 * every state seen (and each panel's progress, which must only grow). */
async function follow(h: Host, seen: Set<string> = new Set()): Promise<any> {
  let last = await status(h);
  let before = { panel: 0, progress: -1 };
  for (let i = 0; i < 20000 && last.state !== "done" && last.state !== "error"; i++) {
    seen.add(last.state);
    if (last.panel === before.panel) assert.ok(last.progress >= before.progress, JSON.stringify(last));
    before = last;
    await advance(h, 10);
    last = await status(h);
  }
  seen.add(last.state);
  return last;
}

test("a good image flashes every panel through every state; after a restart they run it", async () => {
  const dataDir = tempDir();
  let h = await start({ dataDir });
  assert.deepEqual(await status(h), {
    state: "idle",
    panel: 0,
    total: 0,
    progress: 0,
    firmware: [FACTORY_VERSION, FACTORY_VERSION],
  });
  const image = panelImage(7, 40000); // reports 7 in HELLO; ~49 KB: streamed by the host (above its 32 KiB document limit)
  const seen = new Set<string>();
  const res = await upload(h, image);
  assert.deepEqual(res, { status: 200, body: { status: "flashing", panels: PANELS } });
  assert.deepEqual(await status(h), {
    state: "connecting",
    panel: 1,
    total: PANELS,
    progress: 0,
    firmware: [FACTORY_VERSION, FACTORY_VERSION],
  });
  // 409 while it runs
  const busy = await upload(h, image);
  assert.deepEqual(busy, { status: 409, body: { error: "flash already in progress" } });
  const end = await follow(h, seen);
  assert.equal(end.state, "done", JSON.stringify(end));
  assert.equal(end.panel, PANELS);
  assert.equal(end.total, PANELS);
  assert.equal(end.progress, 100);
  for (const s of ["connecting", "flashing", "verifying", "done"]) assert.ok(seen.has(s), `saw ${s}: ${[...seen]}`);
  // the controller restarts the panels and discovers them again, running version 7
  await advance(h, 400);
  assert.deepEqual((await status(h)).firmware, [7, 7]);
  await waitForDiscovery(h, PANELS);
  // the stored image is the one uploaded
  assert.ok(fs.readFileSync(path.join(dataDir, "firmware/panel.fw")).equals(image));
  // a host restart: the panels still run what they were given
  await h.stop();
  h = await start({ dataDir });
  assert.deepEqual((await status(h)).firmware, [7, 7]);
  // a host that compiles flashed images (POSIX) keeps just this one's, no scratch files
  const cache = path.join(dataDir, ".panels/cache");
  if (fs.existsSync(cache)) assert.equal(fs.readdirSync(cache).length, 1, fs.readdirSync(cache).join(", "));
  const panels = await api(h, "GET", "/api/panels");
  assert.equal(panels.body.length, PANELS);
});

test("422 for each kind of bad image, and nothing is stored", async () => {
  const dataDir = tempDir();
  const h = await start({ dataDir });
  const good = panelImage(3);
  const cases: [string, Buffer, string][] = [];
  const badMagic = Buffer.from(good);
  badMagic[0] ^= 0xff;
  cases.push(["magic", badMagic, "bad magic"]);
  cases.push(["bus version", makeImage(wasm, 3, BUS_VERSION + 1), "bus version mismatch"]);
  const badCrc = Buffer.from(good);
  badCrc[100] ^= 1;
  cases.push(["crc", badCrc, "CRC-32 mismatch"]);
  cases.push(["short", good.subarray(0, good.length - 10), "length mismatch"]);
  cases.push(["long", Buffer.concat([good, Buffer.alloc(5)]), "length mismatch"]);
  cases.push(["header only", good.subarray(0, 8), "length mismatch"]);
  const big = Buffer.from(good);
  big.writeUInt32LE(300 * 1024, 8);
  cases.push(["too large", big, "image too large"]);
  for (const [what, body, message] of cases) {
    const res = await upload(h, body);
    assert.deepEqual(res, { status: 422, body: { error: message } }, what);
  }
  assert.equal((await status(h)).state, "idle");
  assert.ok(!fs.existsSync(path.join(dataDir, "firmware/panel.fw")));
  assert.deepEqual(
    fs.existsSync(path.join(dataDir, "firmware")) ? fs.readdirSync(path.join(dataDir, "firmware")) : [],
    [],
  );
  // a streamed body to any other route is still 413
  const other = await api(h, "POST", "/api/scenes", "x".repeat(40000));
  assert.equal(other.status, 413);
  const wrong = await api(h, "GET", "/api/firmware/panels");
  assert.equal(wrong.status, 405);
});

test("507 on a full store: the previous image and the settings are intact, the partial image removed", async () => {
  const dataDir = tempDir();
  let h = await start({ dataDir });
  const first = panelImage(2);
  assert.equal((await upload(h, first)).status, 200);
  assert.equal((await follow(h)).state, "done");
  await api(h, "PATCH", "/api/appearance", { brightness: 77 });
  await h.stop();
  const used = (dir: string): number =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.name.startsWith("."))
      .reduce(
        (n, e) => n + (e.isDirectory() ? used(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).size),
        0,
      );
  h = await start({ dataDir, extraArgs: ["--store-limit", String(used(dataDir) + 20000)] });
  const res = await upload(h, panelImage(9, 40000));
  assert.deepEqual(res, { status: 507, body: { error: "filesystem write failed" } });
  assert.ok(fs.readFileSync(path.join(dataDir, "firmware/panel.fw")).equals(first), "the previous image");
  assert.deepEqual(fs.readdirSync(path.join(dataDir, "firmware")), ["panel.fw"], "no partial image left");
  assert.equal((await api(h, "GET", "/api/appearance")).body.brightness, 77);
  assert.equal((await status(h)).state, "idle");
});

for (const [flag, message] of [
  ["silent:3", "panel 3: no answer (connecting)"],
  ["nak:2:5", "panel 2: page 5 refused (flashing)"],
  ["verify:4", "panel 4: page 0 differs on read-back (verifying)"],
]) {
  test(`an injected fault (${flag}) ends in error naming the panel`, async () => {
    const h = await start({ extraArgs: ["--panel-fault", flag] });
    assert.equal((await upload(h, panelImage(5))).status, 200);
    const end = await follow(h);
    assert.equal(end.state, "error");
    assert.equal(end.error, message);
    // the controller works again: a new upload is accepted (and fails the same way)
    assert.equal((await upload(h, panelImage(5))).status, 200);
  });
}

test("an image whose payload is no panel firmware: after the restart the panels run the built-in one, and the log says so", async () => {
  const dataDir = tempDir();
  const h = await start({ dataDir });
  // a valid image (header, length, CRC-32) whose panel.wasm is an empty module: the panels take it,
  // but cannot run it; its header says version 9, which nothing runs
  const empty = makeImage(Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), 9);
  assert.equal((await upload(h, empty)).status, 200);
  assert.equal((await follow(h)).state, "done");
  await advance(h, 400);
  await waitForDiscovery(h, PANELS);
  assert.deepEqual((await status(h)).firmware, [FACTORY_VERSION, FACTORY_VERSION]);
  await waitFor(() => /panel 1: .*running the built-in firmware/.test(h.output()), 5000);
});

test("the mirror stream shows the bootloader exchange, and nothing else goes on the bus while it runs", async () => {
  const h = await start();
  const c = await Client.connect(h.wsUrl);
  try {
    c.send(frame(T.SET_MIRROR, [1]));
    await c.sync();
    // a scene plays (its step packets would go on the bus), and the brightness changes during the flash
    const play = await api(h, "POST", "/api/animations/play", {
      group: 1,
      type: "BREATHE",
      color: "#FF0000",
      duration: 0,
    });
    assert.ok(play.status < 300, play.text);
    const image = panelImage(3);
    const pages = Math.ceil(image.length / 128);
    c.frames.length = 0;
    assert.equal((await upload(h, image)).status, 200);
    await advance(h, 10);
    assert.ok((await api(h, "PATCH", "/api/appearance", { brightness: 99 })).status < 300);
    assert.equal((await follow(h)).state, "done");
    await advance(h, 100); // the last mirror batch goes out (at most one every 34 ms)
    await c.sync();
    const packets = c.frames.filter((f) => f.type === T.MIRROR_BATCH).flatMap(mirroredPackets);
    const first = packets.findIndex((p) => p.type === 22);
    const restart = packets.findIndex((p) => p.type === 27);
    assert.ok(first >= 0 && restart > first, "BOOT_ENTER ... BOOT_RESTART mirrored");
    const during = packets.slice(first, restart + 1);
    assert.deepEqual(
      [...new Set(during.map((p) => p.type))].sort(),
      [22, 23, 24, 25, 26, 27].filter((t) => t !== 25), // BOOT_ACKs go upstream: not the controller's
      "only bootloader packets while flashing",
    );
    assert.equal(during[during.length - 1].address, 0, "BOOT_RESTART is a broadcast");
    for (let a = 1; a <= PANELS; a++) {
      const mine = during.filter((p) => p.address === a);
      assert.equal(mine[0].type, 22, `panel ${a}: BOOT_ENTER first`);
      assert.equal(mine[0].body.readUInt32LE(0), image.length, "BOOT_ENTER carries the image's length");
      const written = new Set(mine.filter((p) => p.type === 23).map((p) => p.body.readUInt16LE(0)));
      const read = new Set(mine.filter((p) => p.type === 24).map((p) => p.body.readUInt16LE(0)));
      assert.equal(written.size, pages, `panel ${a}: every page written`);
      assert.equal(read.size, pages, `panel ${a}: every page read back`);
      const page5 = mine.find((p) => p.type === 23 && p.body.readUInt16LE(0) === 5)!;
      assert.deepEqual(page5.body.subarray(4), image.subarray(5 * 128, 6 * 128), "BOOT_WRITE carries the page");
      assert.equal(mine[mine.length - 1].type, 26, `panel ${a}: BOOT_LEAVE last`);
    }
  } finally {
    c.close();
  }
});
