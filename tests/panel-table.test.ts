// The pulse table (bus type 21, docs/bus-protocol.md "Pulse table") in build/panel.wasm: a table
// packet arms a panel with its own entry, the next broadcast prepare(s) of the group apply with the
// entry added to the record's words, panels left out (the 0xFFFF marker, outside every packet's
// range) ignore them, and the arming ends after `uses` prepares, at start(group, 0) and at RESET.
// A FADE black -> red of 1000 ms shows #400000 a quarter in and #800000 half-way
// (tests/panel-slots.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Panel, KIND, T, hex, hexOf, crc8, packet, type Anim } from "./helpers/panel.js";

const T0 = 1000;
const OPEN = 0x8000;
const DELAY = 1 << 7; // record word 7: bytes 14-15
const SKIP = 0xffff;
const fade = (extra: Partial<Anim> = {}): Anim => ({
  group: 7,
  kind: KIND.FADE,
  colorFrom: hex(0),
  colorTo: hex(0xff0000),
  duration: 1000,
  ...extra,
});
const solid = (color: number, extra: Partial<Anim> = {}): Anim => ({
  group: 7,
  kind: KIND.SOLID,
  colorTo: hex(color),
  ...extra,
});

test("the packet bytes: header with the total length, group, first, mask, u16 entries", () => {
  const b = packet(0, T.PULSE_TABLE, [7, 2, 0x80, 0x80, 100, 0, 0x2c, 0x01, 0xf4, 0x01]);
  assert.deepEqual(
    [...b],
    [
      0,
      21,
      15,
      6,
      crc8([0, 21, 15, 6, 7, 2, 0x80, 0x80, 100, 0, 44, 1, 244, 1]),
      7,
      2,
      0x80,
      0x80,
      100,
      0,
      44,
      1,
      244,
      1,
    ],
  );
});

test("a panel takes its own entry: the broadcast prepare's delay plus the entry", () => {
  // panels 2, 3, 4 get delays 100, 300, 500; this is panel 3
  const p = Panel.assigned(3)
    .at(T0)
    .table(7, 2, OPEN | DELAY, [100, 300, 500])
    .prepare(fade())
    .start(7);
  assert.deepEqual(p.samples([299, 550, 800], T0), [
    [299, "#000000"],
    [550, "#400000"],
    [800, "#800000"],
  ]);
  // the entry is added to the record's word: a broadcast delay of 50 makes 350
  const q = Panel.assigned(3)
    .at(T0)
    .table(7, 2, OPEN | DELAY, [100, 300, 500])
    .prepare(fade({ delay: 50 }))
    .start(7);
  assert.deepEqual(q.samples([349, 850], T0), [
    [349, "#000000"],
    [850, "#800000"],
  ]);
});

test("any record words: colorTo (words 4-5) per panel", () => {
  // colorTo = kind 0, r, g, b: word 4 = 0 | 0x12 << 8, word 5 = 0x34 | 0x56 << 8
  const p = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | (1 << 4) | (1 << 5), [0x1200, 0x5634, 0x0000, 0xff00])
    .prepare(solid(0))
    .start(7);
  assert.equal(hexOf(p.render(T0)), "#123456");
});

test("left out (0xFFFF) or outside the range: the prepare is ignored; the arming ends with it", () => {
  for (const address of [3, 9]) {
    const p = Panel.assigned(address)
      .at(T0)
      .table(7, 2, OPEN | DELAY, [100, SKIP, 500]);
    p.prepare(fade()).start(7);
    assert.equal(hexOf(p.render(T0 + 500)), "#000000", `panel ${address} prepared nothing`);
    // the next broadcast prepare is an ordinary one again
    p.prepare(fade({ layer: 1 })).start(7);
    assert.equal(hexOf(p.render(T0 + 500)), "#800000", `panel ${address}: armed no more`);
  }
});

test("a table in several packets: later ones (no open bit) add entries; an open packet starts over", () => {
  const p = Panel.assigned(3)
    .at(T0)
    .table(7, 1, OPEN | DELAY, [0, 0])
    .table(7, 3, DELAY, [300, 400]);
  p.prepare(fade()).start(7);
  assert.equal(hexOf(p.render(T0 + 299)), "#000000");
  assert.equal(hexOf(p.render(T0 + 800)), "#800000", "delay 300 from the second packet");
  // an entry from an earlier table is forgotten when a new one opens without it
  const q = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | DELAY, [300])
    .table(7, 1, OPEN | DELAY, [0, 0]);
  q.prepare(fade()).start(7);
  assert.equal(hexOf(q.render(T0 + 800)), "#000000", "left out by the new table");
});

test("uses: one table serves several broadcast prepares (bits 12-14 = uses - 1), then ends", () => {
  // entry 100: the red fade starts at 100, the green SOLID (delay 400) at 500; the blue SOLID after
  // them is an ordinary prepare (delay 700, no entry added)
  const p = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | (1 << 12) | DELAY, [100])
    .prepare(fade())
    .prepare(solid(0x00ff00, { layer: 1, delay: 400 }))
    .prepare(solid(0x0000ff, { layer: 2, delay: 700 }))
    .start(7);
  assert.deepEqual(p.samples([99, 350, 499, 600, 750], T0), [
    [99, "#000000"],
    [350, "#400000"],
    [499, "#660000"],
    [600, "#00ff00"],
    [750, "#0000ff"],
  ]);
});

test("dropped tables and disarming: bad lengths and masks, start(group, 0), RESET, other groups", () => {
  const cases: Array<[string, (p: Panel) => Panel]> = [
    ["entries not whole (4-byte entries, 6 bytes)", (p) => p.table(7, 3, OPEN | DELAY | (1 << 6), [300, 1000, 5])],
    ["word 0 (group, layer) in the mask", (p) => p.table(7, 3, OPEN | 1 | DELAY, [0, 300])],
    ["no entry bytes", (p) => p.send(T.PULSE_TABLE, [7, 3, 0x00, 0x80])],
    ["start(7, 0) after the table", (p) => p.table(7, 3, OPEN | DELAY, [300]).start(7, 0)],
    ["start(0, 0) after the table", (p) => p.table(7, 3, OPEN | DELAY, [300]).start(0, 0)],
    ["a table of another group", (p) => p.table(8, 3, OPEN | DELAY, [300])],
  ];
  for (const [name, arm] of cases) {
    const p = arm(Panel.assigned(3).at(T0)).prepare(fade()).start(7);
    assert.equal(hexOf(p.render(T0 + 500)), "#800000", `${name}: the prepare applies as sent`);
  }
  // a unicast prepare never consumes the arming
  const q = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | DELAY, [300])
    .prepare(solid(0x000001, { layer: 0 }), 3);
  q.prepare(fade({ layer: 1 })).start(7);
  assert.equal(hexOf(q.render(T0 + 800)), "#800000", "the broadcast one took the entry (delay 300)");
  assert.equal(hexOf(q.render(T0 + 100)), "#000001", "the unicast one as sent");
  // RESET forgets the table (and the address: assign again)
  const r = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | DELAY, [300])
    .send(T.RESET, []);
  r.receive(packet(255, T.ASSIGN, [3, 0]))
    .prepare(fade())
    .start(7);
  assert.equal(hexOf(r.render(T0 + 500)), "#800000");
});

test("the entry's last word marks a panel left out; 0xFFFF in an earlier word is a value", () => {
  // words 6 (duration) and 7 (delay): [0xffff, 300] is a 65535 ms fade delayed by 300 ms
  const p = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | (1 << 6) | DELAY, [0xffff, 300])
    .prepare(fade({ duration: 0 }))
    .start(7);
  assert.equal(hexOf(p.render(T0 + 299)), "#000000");
  assert.equal(hexOf(p.render(T0 + 300 + 32768)), "#800000", "half of 65535 ms");
  const q = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | (1 << 6) | DELAY, [1000, SKIP])
    .prepare(fade())
    .start(7);
  assert.equal(hexOf(q.render(T0 + 500)), "#000000", "left out");
});

test("sums beyond 16 bits: a delay makes the prepare ignored; a looping window's centre wraps modulo the duration", () => {
  const p = Panel.assigned(3)
    .at(T0)
    .table(7, 3, OPEN | DELAY, [60000])
    .prepare(fade({ delay: 6000 }))
    .start(7);
  p.prepare(solid(0x000010, { layer: 1 })).start(7); // armed no more: this one applies
  assert.equal(hexOf(p.render(T0 + 500)), "#000010", "the fade (delay 66000) was not prepared");
  // a looping windowed runner pulse (kind 15 | loop | window) of 1000 ms, window width 200 ms, hard
  // edges: centre 60000 + 6000 = 66000 -> 0 (lit around 0), 60000 + 6500 -> 500
  const win = (centre: number): Anim => ({
    group: 7,
    kind: KIND.RUNNER | 0x80,
    loop: true,
    colorFrom: [centre & 0xff, centre >> 8, 200, 0],
    colorTo: hex(0xffffff),
    duration: 1000,
  });
  for (const [entry, lit, dark] of [
    [6000, 50, 500],
    [6500, 500, 50],
  ]) {
    const w = Panel.assigned(3)
      .at(T0)
      .table(7, 3, OPEN | (1 << 2), [entry])
      .prepare(win(60000))
      .start(7);
    assert.deepEqual(w.samples([lit, dark], T0), [
      [lit, "#ffffff"],
      [dark, "#000000"],
    ]);
  }
});
