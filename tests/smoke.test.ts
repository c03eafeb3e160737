import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, api } from "./helpers/host.js";
import { Client, T, frame } from "./helpers/frames.js";

const host = await startHost({ panels: 5 });
after(() => host.stop());

test("GET /api/state answers the app state", async () => {
  const res = await api(host, "GET", "/api/state");
  assert.equal(res.status, 200);
  assert.equal(res.body.isOn, true);
  assert.match(res.body.controllerFirmware, /^\d+\.\d+\.\d+/);
});

test("PING gets a PONG", async () => {
  const c = await Client.connect(host.wsUrl);
  c.send(frame(T.PING));
  const pong = await c.next(T.PONG);
  assert.equal(pong.payload.length, 0);
  c.close();
});
