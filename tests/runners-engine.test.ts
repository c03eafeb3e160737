// The panel engine's windowed runner pulse (kind 9 with flag bit 7, issue 6; docs/panel-engine.md):
// bytes 4-7 of the record are the window's centre and width (ms of envelope time) instead of
// colorFrom; outside the window the pulse shows nothing, inside it is the pulse envelope from black.
import { test } from "node:test";
import { Panel, KIND, golden, type Anim, type Ref } from "./helpers/panel.js";
import assert from "node:assert/strict";

const T0 = 1000;
const WINDOW = 0x80;
/** centre and width as the 4 bytes of the record's colorFrom slot (u16 little-endian each). */
const win = (centre: number, width: number): Ref => [centre & 255, centre >> 8, width & 255, width >> 8];
const blue: Ref = [0, 0, 0, 255];

test("a looping window: dark outside (the background shows even under opaque), a triangle inside, wrapping", () => {
  // D = 1000 loop, window centred at 300, 200 wide, rise = fall = 128, opaque.
  // τ=100: outside -> nothing shows (#400000). τ=250: u = 50, phase 16384, q = 16384·256 < 128<<16
  // -> e = q / 128 = 32768 -> b = (255·32768 + 32768) >> 16 = 128. τ=300: the peak. τ=1300: the
  // next cycle's peak.
  const anim: Anim = {
    group: 1,
    kind: KIND.RUNNER | WINDOW,
    loop: true,
    blend: 1,
    colorFrom: win(300, 200),
    colorTo: blue,
    duration: 1000,
    p0: 128,
    p1: 128,
  };
  const p = Panel.assigned().background(0x400000).prepare(anim).at(T0).start(1);
  assert.deepEqual(
    p.samples([100, 199, 250, 300, 401, 1300], T0),
    golden([
      [100, 0x400000],
      [199, 0x400000],
      [250, 0x000080],
      [300, 0x0000ff],
      [401, 0x400000],
      [1300, 0x0000ff],
    ]),
  );
  // centre 950: the window 850-1050 wraps, so τ = 20 is u = 170 of 200 (falling):
  // phase = ⌊170000·65536 / 200000⌋ = 55705, q = 55705·256 = 14260480,
  // e = (16777216 - 14260480) / 128 = 19662 -> b = (255·19662 + 32768) >> 16 = 77
  const q = Panel.assigned()
    .background(0x400000)
    .prepare({ ...anim, colorFrom: win(950, 200) })
    .at(T0)
    .start(1);
  assert.deepEqual(
    q.samples([20, 500, 950], T0),
    golden([
      [20, 0x00004d],
      [500, 0x400000],
      [950, 0x0000ff],
    ]),
  );
});

test("a pingpong window (BOUNCE): the band reflects, so a panel lights on the way out and back", () => {
  // D = 1000 pingpong, centre 200, width 200 (100-300), rise = fall = 128, max blend by default.
  // Wall 200: τ = 200 the peak. Wall 1800: τ = 200 again (reversed pass). Wall 1000: τ = 1000: dark.
  const anim: Anim = {
    group: 1,
    kind: KIND.RUNNER | WINDOW,
    pingpong: true,
    colorFrom: win(200, 200),
    colorTo: blue,
    duration: 1000,
    p0: 128,
    p1: 128,
  };
  const p = Panel.assigned().background(0x400000).prepare(anim).at(T0).start(1);
  assert.deepEqual(
    p.samples([0, 200, 1000, 1800, 2200], T0),
    golden([
      [0, 0x400000],
      [200, 0x4000ff],
      [1000, 0x400000],
      [1800, 0x4000ff],
      [2200, 0x4000ff],
    ]),
  );
  // centre 0 (the band starts on the panel): at wall 0, u = 100 of 200, the peak
  const q = Panel.assigned()
    .background(0x400000)
    .prepare({ ...anim, colorFrom: win(0, 200) })
    .at(T0)
    .start(1);
  assert.deepEqual(
    q.samples([0, 150], T0),
    golden([
      [0, 0x4000ff],
      [150, 0x400000],
    ]),
  );
});

test("without the window flag a runner pulse keeps its colorFrom (spawner drops)", () => {
  const anim: Anim = {
    group: 1,
    kind: KIND.RUNNER,
    colorFrom: [0, 0, 64, 0],
    colorTo: blue,
    duration: 1000,
    p0: 0,
    p1: 255,
    blend: 1,
  };
  const p = Panel.assigned().prepare(anim).at(T0).start(1);
  // fall over the whole duration: at τ = 1000 e = 0 -> colorFrom
  assert.deepEqual(p.samples([1000], T0), golden([[1000, 0x004000]]));
});
