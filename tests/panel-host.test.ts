// End to end through the desktop host: its emulated panels run the animation engine of
// build/panel.wasm, and GET /api/panels reports each panel's composited colour (its set color: the
// ambient look pushed at discovery, issue 18, or one set since), before global brightness.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api, waitFor } from "./helpers/host.js";
import { PANEL_WASM, T, KIND, packet, record, hex, hexOf } from "./helpers/panel.js";
import { VirtualBus } from "../host/src/bus/virtual-bus.js";

const host = await startHost({ panels: 3 });
after(() => host.stop());

async function colors(): Promise<string[]> {
  const res = await api(host, "GET", "/api/panels");
  assert.equal(res.status, 200);
  return (res.body as { address: number; color: string }[]).map((p) => p.color.toLowerCase());
}

test("GET /api/panels reports the ambient look after discovery and a set color once sent", async () => {
  assert.deepEqual(await colors(), ["#ffffff", "#ffffff", "#ffffff"]);
  assert.equal((await api(host, "PUT", "/api/panels/2/color", { color: "#123456" })).status, 202);
  await waitFor(async () => (await colors())[1] === "#123456");
  assert.deepEqual(await colors(), ["#ffffff", "#123456", "#ffffff"]);
});

test("the reported colour is before global brightness", async () => {
  assert.equal((await api(host, "PUT", "/api/panels/3/color", { color: "#ff8000" })).status, 202);
  await waitFor(async () => (await colors())[2] === "#ff8000");
  assert.equal((await api(host, "PATCH", "/api/appearance", { brightness: 10 })).status, 202);
  await waitFor(async () => (await api(host, "GET", "/api/appearance")).body.brightness === 10);
  assert.deepEqual(await colors(), ["#ffffff", "#123456", "#ff8000"]);
});

test("power off (stop and clear every group, then off) keeps the set colours; power on shows the ambient look", async () => {
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: false })).status, 202);
  await waitFor(async () => {
    const res = await api(host, "GET", "/api/panels");
    return (res.body as { on: boolean }[]).every((p) => !p.on);
  });
  assert.deepEqual(await colors(), ["#ffffff", "#123456", "#ff8000"]);
  assert.equal((await api(host, "POST", "/api/state/power", { isOn: true })).status, 202);
  await waitFor(async () => {
    const res = await api(host, "GET", "/api/panels");
    return (res.body as { on: boolean }[]).every((p) => p.on);
  });
  await waitFor(async () => (await colors())[1] === "#ffffff");
  assert.deepEqual(await colors(), ["#ffffff", "#ffffff", "#ffffff"]);
});

test("the virtual bus gives its panels the clock it was constructed with", () => {
  // Two panels in a chain on the host's VirtualBus, driven directly: discovery by hand, then a FADE
  // black -> red of 1000 ms broadcast and started at clock 1000; the snapshot at clock 1500 is half.
  let clock = 0;
  const replies: number[][] = [];
  const bus = new VirtualBus(
    PANEL_WASM,
    [
      { parent: 0, edge: 0, inEdge: 0 },
      { parent: 1, edge: 1, inEdge: 0 },
    ],
    (bytes) => replies.push([...bytes]),
    { clock: () => clock },
  );
  const send = (bytes: Uint8Array) => {
    bus.sendFromController(bytes);
    bus.pump();
  };
  send(packet(255, T.ASSIGN, [1, 0]));
  send(packet(1, T.PROBE, [1, 2]));
  assert.deepEqual(
    replies.map((r) => r[1]),
    [T.HELLO, T.HELLO],
  );
  send(packet(0, T.PREPARE, record({ group: 1, kind: KIND.FADE, colorTo: hex(0xff0000), duration: 1000 })));
  clock = 1000;
  send(packet(0, T.START, [1, 1]));
  clock = 1500;
  assert.deepEqual(
    bus.snapshot().map((p) => [p.address, hexOf(p.color), hexOf(p.led)]),
    [
      [1, "#800000", "#800000"],
      [2, "#800000", "#800000"],
    ],
  );
});
