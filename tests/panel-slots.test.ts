// The panel engine's slots and controls in build/panel.wasm: the 18-slot limit, reap-on-done,
// start/stop per group, start delays, update params (timeScale and params), set color and
// background, global brightness, power, the STATE reply and RESET. Derivations as in
// tests/panel-engine.test.ts; a FADE black -> red of 1000 ms shows r = (255·p + 32768) >> 16 at
// phase p, e.g. #400000 at a quarter, #800000 at half, #bf0000 at three quarters.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  Panel,
  KIND,
  ANIMATES,
  BLEND,
  T,
  hex,
  golden,
  hexOf,
  crc8,
  packet,
  record,
  type Anim,
} from "./helpers/panel.js";

const T0 = 1000;

const solid = (group: number, layer: number, color: number): Anim => ({
  group,
  layer,
  kind: KIND.SOLID,
  colorTo: hex(color),
});
const fadeRed = (group = 1, extra: Partial<Anim> = {}): Anim => ({
  group,
  kind: KIND.FADE,
  colorFrom: hex(0),
  colorTo: hex(0xff0000),
  duration: 1000,
  ...extra,
});

test("18 animations at most: the 19th prepare is dropped silently, a cleared slot is usable again", () => {
  const p = Panel.assigned();
  for (let i = 0; i < 18; i++) p.prepare(solid(1 + (i % 3), i, 0x010000 * (i + 1)));
  p.prepare(solid(1, 200, 0x00ff00)); // would be on top if it had a slot
  p.at(T0).start(0);
  assert.equal(hexOf(p.render(T0)), "#120000", "the 18th (layer 17) is on top");
  // Stopping group 2 frees its six slots: a new prepare is accepted.
  p.start(2, 0)
    .prepare(solid(9, 201, 0x0000ff))
    .start(9);
  assert.equal(hexOf(p.render(T0)), "#0000ff");
});

test("reap on done frees the slot when the animation ends; without it a finished animation holds its slot", () => {
  // 18 FADEs of 100 ms with reap: showing before their end, gone at it (background shows).
  const p = Panel.assigned().background(0x101010);
  for (let i = 0; i < 18; i++) p.prepare(fadeRed(1, { layer: i, duration: 100, reap: true }));
  p.at(T0).start(1);
  // t=50: p = 32768 -> #800000
  assert.deepEqual(
    p.samples([50, 100], T0),
    golden([
      [50, 0x800000],
      [100, 0x101010],
    ]),
  );
  p.at(T0 + 100)
    .prepare(solid(2, 0, 0x00ff00))
    .start(2);
  assert.equal(hexOf(p.render(T0 + 100)), "#00ff00");

  // Reaped on the next prepare too, with no frame rendered in between.
  const q = Panel.assigned();
  for (let i = 0; i < 18; i++) q.prepare(fadeRed(1, { layer: i, duration: 100, reap: true }));
  q.at(T0).start(1);
  q.at(T0 + 200)
    .prepare(solid(2, 0, 0x00ff00))
    .start(2);
  assert.equal(hexOf(q.render(T0 + 200)), "#00ff00");

  // Without reap: the FADEs hold red and keep their slots, so the 19th is dropped.
  const r = Panel.assigned();
  for (let i = 0; i < 18; i++) r.prepare(fadeRed(1, { layer: i, duration: 100 }));
  r.at(T0).start(1);
  r.at(T0 + 200)
    .prepare(solid(2, 99, 0x00ff00))
    .start(2);
  assert.equal(hexOf(r.render(T0 + 5000)), "#ff0000");
});

test("animation start per group: mode 1 starts the group's prepared animations, mode 0 stops and clears them", () => {
  const p = Panel.assigned().background(0x000010);
  p.prepare(solid(1, 0, 0xff0000)).prepare(solid(2, 1, 0x00ff00));
  assert.equal(hexOf(p.render(0)), "#000010", "prepared: nothing shows");
  p.at(T0).start(1);
  assert.equal(hexOf(p.render(T0)), "#ff0000");
  p.start(2);
  assert.equal(hexOf(p.render(T0)), "#00ff00");
  p.start(2, 0);
  assert.equal(hexOf(p.render(T0)), "#ff0000", "group 2 stopped");
  p.start(2);
  assert.equal(hexOf(p.render(T0)), "#ff0000", "and cleared: starting it again shows nothing");
  p.prepare(solid(2, 1, 0x00ff00))
    .prepare(solid(3, 2, 0x0000ff))
    .start(0);
  assert.equal(hexOf(p.render(T0)), "#0000ff", "group 0 starts every group");
  p.start(0, 0);
  assert.equal(hexOf(p.render(T0)), "#000010", "group 0 stops and clears every group");
  p.start(0);
  assert.equal(hexOf(p.render(T0)), "#000010");
});

test("a started animation waits for its start delay; starting again does not restart it", () => {
  // delay 500, FADE 1000: pending before t=500 (background), colorFrom at 500, half at 1000.
  const p = Panel.assigned()
    .background(0x000010)
    .prepare(fadeRed(1, { delay: 500 }));
  p.at(T0).start(1);
  p.at(T0 + 600).start(1);
  assert.deepEqual(
    p.samples([0, 499, 500, 1000, 1500], T0),
    golden([
      [0, 0x000010],
      [499, 0x000010],
      [500, 0x000000],
      [1000, 0x800000],
      [1500, 0xff0000],
    ]),
  );
});

test("update params: timeScale changes the speed of the group's running animations from now on", () => {
  // Group 1: FADE black -> red (layer 0); group 2: FADE black -> green added (layer 1), both 1000 ms.
  const p = Panel.assigned();
  p.prepare(fadeRed(1)).prepare({ ...fadeRed(2, { layer: 1, blend: BLEND.add }), colorTo: hex(0x00ff00) });
  p.at(T0).start(0);
  // t=250: both at a quarter (#40, #40). Group 1 doubles its speed here: no jump.
  assert.equal(hexOf(p.render(T0 + 250)), "#404000");
  p.at(T0 + 250).params(1, 2000);
  // t=375: group 1 at 250 + 125·2 = 500 ms (#80); group 2 at 375: p = 24576, g = (255·24576 + 32768) >> 16 = 96.
  assert.equal(hexOf(p.render(T0 + 375)), "#806000");
  p.at(T0 + 375).params(1, 500);
  // t=875: group 1 at 500 + 500·0.5 = 750 ms (#bf); group 2 at 875: p = 57344, g = 223.
  // t=1375: group 1 at 1000 ms (red), group 2 done (green).
  assert.deepEqual(
    p.samples([375, 875, 1375], T0),
    golden([
      [375, 0x806000],
      [875, 0xbfdf00],
      [1375, 0xffff00],
    ]),
  );
});

test("update params: group 0 scales every group, 0 pauses, the start delay is scaled too", () => {
  const p = Panel.assigned().background(0x000010);
  p.prepare(fadeRed(1, { delay: 1000 }));
  p.at(T0).start(1).params(0, 2000);
  // Local time runs twice as fast from T0: the delay ends at wall 500, half the FADE at wall 750.
  assert.deepEqual(
    p.samples([499, 500, 750], T0),
    golden([
      [499, 0x000010],
      [500, 0x000000],
      [750, 0x800000],
    ]),
  );
  // Paused at wall 750 (local 1500 ms, FADE at 500): it stays at half.
  p.at(T0 + 750)
    .params(5, 1000)
    .params(0, 0);
  assert.deepEqual(
    p.samples([750, 60000], T0),
    golden([
      [750, 0x800000],
      [60000, 0x800000],
    ]),
  );
});

test("update params: animations prepared but not started keep normal speed", () => {
  const p = Panel.assigned().prepare(fadeRed(1));
  p.at(0).params(1, 2000);
  p.at(T0).start(1);
  assert.equal(hexOf(p.render(T0 + 500)), "#800000");
});

test("update params: param0 and param1 replace params[0] and params[1]", () => {
  // PULSE rise 51, fall 102 at t=125 is #9f0000 (see panel-engine); with rise = fall = 0 it holds colorTo.
  const anim: Anim = { group: 1, kind: KIND.PULSE, colorTo: hex(0xff0000), duration: 1000, p0: 51, p1: 102 };
  const p = Panel.assigned().prepare(anim).at(T0).start(1);
  assert.equal(hexOf(p.render(T0 + 125)), "#9f0000");
  p.params(1, 1000, 0, 0);
  assert.equal(hexOf(p.render(T0 + 125)), "#ff0000");
  p.params(2, 1000, 51, 102); // another group: no effect
  assert.equal(hexOf(p.render(T0 + 125)), "#ff0000");
});

test("update params: a new REACTIVE decay rate applies from now on, without a jump", () => {
  // Trigger 255 at t=1000 decaying 255/s: 127.5 left at t=1500 (#800020). Rate 51/s from there:
  // t=2000: 127.5 - 25.5 = 102 -> e = floor(102e6 · 65536 / 255e6) = 26214:
  //   r = (255·26214 + 32768) >> 16 = 102 (#66), b = (64·39322 + 32768) >> 16 = 38 (#26) -> #660026
  // t=4000: 127.5 - 51·2.5 = 0 -> rest.
  const anim: Anim = { group: 3, kind: KIND.REACTIVE, colorFrom: hex(0x000040), colorTo: hex(0xff0000), p0: 255 };
  const p = Panel.assigned().prepare(anim).at(T0).start(3);
  p.at(T0 + 1000).control(3, 255);
  p.at(T0 + 1500).params(3, 1000, 51);
  assert.deepEqual(
    p.samples([1500, 2000, 4000], T0),
    golden([
      [1500, 0x800020],
      [2000, 0x660026],
      [4000, 0x000040],
    ]),
  );
});

test("set color shows while no animation shows; a running animation overwrites it; stopping brings it back", () => {
  const p = Panel.assigned().at(0).color(0x0000ff);
  assert.equal(hexOf(p.render(0)), "#0000ff");
  p.prepare(solid(1, 0, 0xff0000));
  assert.equal(hexOf(p.render(0)), "#0000ff", "prepared only");
  p.at(T0).start(1);
  assert.equal(hexOf(p.render(T0)), "#ff0000");
  p.color(0x00ff00);
  assert.equal(hexOf(p.render(T0)), "#ff0000", "the animation overwrites set color");
  p.start(1, 0);
  assert.equal(hexOf(p.render(T0)), "#00ff00", "the last set color again");
  p.background(0x111111);
  assert.equal(hexOf(p.render(T0)), "#111111", "set background replaces it");
});

test("the compositor starts from the background, not from the last set color", () => {
  // Background (128,128,128), set color red, then a dim 128 modifier alone: (128·128 + 127) / 255 = 64.
  const p = Panel.assigned().background(0x808080).color(0xff0000);
  p.prepare({ group: 1, kind: KIND.SOLID, animates: ANIMATES.dim, from: 128 }).at(T0).start(1);
  assert.equal(hexOf(p.render(T0)), "#404040");
});

test("global brightness scales only the LED; the STATE reply reports the colour before it", () => {
  // FADE black -> (255,128,0) at half: (128, 64, 0). LED at brightness 128: (128·128 + 127) / 255 = 64,
  // (64·128 + 127) / 255 = 32 -> #402000.
  const p = Panel.assigned(7).brightness(128);
  p.prepare({ ...fadeRed(1), colorTo: hex(0xff8000) })
    .at(T0)
    .start(1);
  p.at(T0 + 500);
  assert.equal(hexOf(p.render(T0 + 500)), "#804000");
  assert.equal(hexOf(p.x.panel_color()), "#804000");
  assert.equal(hexOf(p.x.panel_led()), "#402000");
  p.sent.length = 0;
  p.send(T.QUERY, []);
  assert.equal(p.sent.length, 1);
  const reply = [...p.sent[0].bytes];
  assert.equal(p.sent[0].port, 0, "upstream is the port the ASSIGN came on");
  // STATE: address 7, type 9, length 9, version 6, crc, on 1, r, g, b.
  assert.deepEqual(reply.slice(0, 4), [7, T.STATE, 9, 6]);
  assert.deepEqual(reply.slice(5), [1, 0x80, 0x40, 0x00]);
  assert.equal(reply[4], crc8([...reply.slice(0, 4), ...reply.slice(5)]));
});

test("power off sequence: start(0, 0) then power 0; power on shows the last set color again", () => {
  const p = Panel.assigned().color(0x123456);
  p.prepare(solid(1, 0, 0xff0000))
    .prepare(solid(2, 1, 0x00ff00))
    .at(T0)
    .start(0);
  assert.equal(hexOf(p.x.panel_led()), "#00ff00");
  p.start(0, 0).power(false);
  assert.equal(p.x.panel_is_on(), 0);
  assert.equal(hexOf(p.x.panel_led()), "#000000");
  assert.equal(hexOf(p.x.panel_color()), "#123456");
  p.power(true);
  assert.equal(hexOf(p.x.panel_led()), "#123456");
});

test("RESET stops and clears every animation and forgets the look", () => {
  const p = Panel.assigned()
    .background(0x222222)
    .prepare(solid(1, 0, 0xff0000))
    .at(T0)
    .start(1);
  p.send(T.RESET, []);
  assert.equal(p.x.panel_address(), 0);
  assert.equal(hexOf(p.render(T0)), "#000000");
  // Re-addressed, the old animation does not come back.
  p.receive(packet(255, T.ASSIGN, [1, 0])).start(0);
  assert.equal(hexOf(p.render(T0)), "#000000");
});

test("prepare: unicast to this panel is taken, to another panel ignored; an invalid record is dropped", () => {
  const p = Panel.assigned(4);
  p.prepare(solid(1, 0, 0xff0000), 5);
  p.at(T0).start(1);
  assert.equal(hexOf(p.render(T0)), "#000000", "addressed to panel 5");
  p.prepare(solid(1, 0, 0x00ff00), 4).start(1);
  assert.equal(hexOf(p.render(T0)), "#00ff00");
  // kind 10, animates 7, blend 10: out of range, dropped without taking a slot.
  const q = Panel.assigned();
  q.prepare({ ...solid(1, 9, 0xff0000), kind: 10 });
  q.prepare({ ...solid(1, 9, 0xff0000), animates: 7 });
  q.prepare({ ...solid(1, 9, 0xff0000), blend: 10 });
  for (let i = 0; i < 18; i++) q.prepare(solid(1, i, 0x000001 * (i + 1)));
  q.at(T0).start(1);
  assert.equal(hexOf(q.render(T0)), "#000012");
  // A prepare with a bad CRC is dropped by the bus layer.
  const bad = packet(0, T.PREPARE, record(solid(1, 0, 0xffffff)));
  bad[4] ^= 1;
  const r = Panel.assigned().receive(bad).at(T0).start(1);
  assert.equal(hexOf(r.render(T0)), "#000000");
});

test("the clock wraps: an animation started just before 2^32 ms keeps running across the wrap", () => {
  const start = 2 ** 32 - 250;
  const p = Panel.assigned().prepare(fadeRed(1)).at(start).start(1);
  // Wall 2^32 + 250 reads as 250: 500 ms after the start -> half.
  assert.equal(hexOf(p.render(250)), "#800000");
});
