// The panel engine's windowed runner pulse (kind 15 with flag bit 7, issue 6; docs/panel-engine.md):
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

test("a looping window: an opaque runner hides the layers below in its dark phase too; it rises from the background", () => {
  // The scene-format spec: blend opaque "replaces what is below, including a runner's dark phase",
  // and a runner sweeps "a pulse between color and the background" (issue 18).
  // D = 1000 loop, window centred at 300, 200 wide, rise = fall = 128, opaque, background #400000,
  // over a green SOLID on layer 0 (which an opaque runner hides at all times).
  // τ=100: outside the window -> the background #400000. τ=250: u = 50, phase 16384,
  // q = 16384·256 < 128<<16 -> e = q / 128 = 32768: mix(#400000, #0000ff) -> r = (64·32768 + 32768)
  // >> 16 = 32, b = (255·32768 + 32768) >> 16 = 128 -> #200080. τ=300: the peak. τ=1300: the next
  // cycle's peak.
  const anim: Anim = {
    group: 1,
    layer: 1,
    kind: KIND.RUNNER | WINDOW,
    loop: true,
    blend: 1,
    colorFrom: win(300, 200),
    colorTo: blue,
    duration: 1000,
    p0: 128,
    p1: 128,
  };
  const below: Anim = { group: 2, kind: KIND.SOLID, colorTo: [0, 0, 255, 0], duration: 0 };
  const p = Panel.assigned().background(0x400000).prepare(below).prepare(anim).at(T0).start(0);
  assert.deepEqual(
    p.samples([100, 199, 250, 300, 401, 1300], T0),
    golden([
      [100, 0x400000],
      [199, 0x400000],
      [250, 0x200080],
      [300, 0x0000ff],
      [401, 0x400000],
      [1300, 0x0000ff],
    ]),
  );
  // With the runners' default blend (max) the layer below shows through the dark phase:
  // τ=100 -> max(#00ff00, nothing) = #00ff00; τ=300 -> max(#00ff00, #0000ff) = #00ffff.
  const m = Panel.assigned()
    .background(0x400000)
    .prepare(below)
    .prepare({ ...anim, blend: 0 })
    .at(T0)
    .start(0);
  assert.deepEqual(
    m.samples([100, 300], T0),
    golden([
      [100, 0x00ff00],
      [300, 0x00ffff],
    ]),
  );
  // centre 950: the window 850-1050 wraps, so τ = 20 is u = 170 of 200 (falling):
  // phase = ⌊170000·65536 / 200000⌋ = 55705, q = 55705·256 = 14260480,
  // e = (16777216 - 14260480) / 128 = 19662 -> r = (64·45874 + 32768) >> 16 = 45, b = 77
  const q = Panel.assigned()
    .background(0x400000)
    .prepare({ ...anim, colorFrom: win(950, 200) })
    .at(T0)
    .start(1);
  assert.deepEqual(
    q.samples([20, 500, 950], T0),
    golden([
      [20, 0x2d004d],
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

test("a series (count sweeps in one slot): the window opens every period until the duration ends it", () => {
  // Neither loop nor pingpong, width 100 > 0: bytes 4-5 are the period, 300 ms; duration 900 (3
  // sweeps), delay 50, reap on done, rise = fall = 128, max blend over the background #400000.
  // τ = t − 50; u = τ mod 300, lit while u ≤ 100: u = 25 rising (e = 32768: #200080, max with the
  // background #400080), u = 50 the peak. After τ = 900 the slot is reaped: the background.
  const anim: Anim = {
    group: 1,
    kind: KIND.RUNNER | WINDOW,
    reap: true,
    colorFrom: win(300, 100),
    colorTo: blue,
    duration: 900,
    delay: 50,
    p0: 128,
    p1: 128,
  };
  const p = Panel.assigned().background(0x400000).prepare(anim).at(T0).start(1);
  assert.deepEqual(
    p.samples([40, 75, 100, 200, 400, 500, 700, 1000, 1100], T0),
    golden([
      [40, 0x400000],
      [75, 0x400080],
      [100, 0x4000ff],
      [200, 0x400000],
      [400, 0x4000ff],
      [500, 0x400000],
      [700, 0x4000ff],
      [1000, 0x400000],
      [1100, 0x400000],
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

test("an opaque one-shot sweep hides the layer below for its whole step, not only until its band has passed (issue 36)", () => {
  // The spec: an opaque layer "replaces what is below, including a runner's dark phase", for its
  // whole step. A one-shot sweep on a panel (window width 0, reap on done): delay 100, 200 ms, rise =
  // fall = 128, opaque, background #400000, over a green SOLID on layer 0. t = 50: pending, hidden
  // (the background); t = 150: τ = 50, e = 32768 -> #200080; t = 200: τ = 100, the peak, blue;
  // t = 350 and later: the band has passed (τ ≥ 200): still the background, not green, until the
  // group is cleared (the controller does at the step's end), when green shows again.
  const sweep: Anim = {
    group: 1,
    layer: 1,
    kind: KIND.RUNNER | WINDOW,
    reap: true,
    blend: 1,
    colorFrom: win(0, 0),
    colorTo: blue,
    duration: 200,
    delay: 100,
    p0: 128,
    p1: 128,
  };
  const below: Anim = { group: 2, kind: KIND.SOLID, colorTo: [0, 0, 255, 0], duration: 0 };
  const p = Panel.assigned().background(0x400000).prepare(below).prepare(sweep).at(T0).start(0);
  assert.deepEqual(
    p.samples([50, 150, 200, 350, 5000], T0),
    golden([
      [50, 0x400000],
      [150, 0x200080],
      [200, 0x0000ff],
      [350, 0x400000],
      [5000, 0x400000],
    ]),
  );
  p.at(T0 + 5000).start(1, 0); // the step ends: the sweep's group is cleared
  assert.deepEqual(p.samples([5001], T0), golden([[5001, 0x00ff00]]));
  // with max (the runners' default) the passed sweep is reaped and adds nothing: green shows
  const m = Panel.assigned()
    .background(0x400000)
    .prepare(below)
    .prepare({ ...sweep, blend: 0 })
    .at(T0)
    .start(0);
  assert.deepEqual(
    m.samples([50, 350], T0),
    golden([
      [50, 0x00ff00],
      [350, 0x00ff00],
    ]),
  );
});
