// Golden tests of the panel-local animation types, run in build/panel.wasm (one panel, its clock
// set by the test). Every expected colour is derived by hand from the scene-format spec's
// definitions and the fixed-point rules of docs/panel-engine.md:
//   phase p = floor(τ · 65536 / D) (τ the envelope time, D the duration, both in µs)
//   mix(a, b, e) = (a · (65536 - e) + b · e + 32768) >> 16 per channel, e the Q16 envelope
// Animations start (animation start packet) at wall time T0; samples are at T0 + t.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Panel, KIND, hex, golden, type Anim } from "./helpers/panel.js";

const T0 = 1000;

/** A panel that prepared `anims` and got "animation start (0, 1)" at T0. */
function play(...anims: Anim[]): Panel {
  const p = Panel.assigned();
  for (const a of anims) p.prepare(a);
  return p.at(T0).start(0);
}

test("SOLID: prepared it shows nothing; started it holds colorTo through its end and after", () => {
  const p = Panel.assigned().background(0x102030);
  p.prepare({ group: 1, kind: KIND.SOLID, colorFrom: hex(0xffffff), colorTo: hex(0x336699), duration: 1000 });
  // Prepared only: the panel shows its background.
  assert.deepEqual(
    p.samples([0, 5000]),
    golden([
      [0, 0x102030],
      [5000, 0x102030],
    ]),
  );
  p.at(T0).start(1);
  // SOLID's colour is colorTo (`color` is an alias of colorTo); a finished SOLID holds it.
  assert.deepEqual(
    p.samples([0, 500, 1000, 9000], T0),
    golden([
      [0, 0x336699],
      [500, 0x336699],
      [1000, 0x336699],
      [9000, 0x336699],
    ]),
  );
});

test("FADE: linear from colorFrom to colorTo, then holds colorTo", () => {
  // D = 1000 ms, black -> (255, 128, 64).
  // t=250: p = 16384 -> r = (255·16384 + 32768) >> 16 = 64, g = 128/4 = 32, b = 64/4 = 16 -> #402010
  // t=500: p = 32768 -> r = 127.5 + 0.5 -> 128, g = 64, b = 32 -> #804020
  // t=1000 and after: colorTo.
  const p = play({ group: 1, kind: KIND.FADE, colorFrom: hex(0), colorTo: hex(0xff8040), duration: 1000 });
  assert.deepEqual(
    p.samples([0, 250, 500, 1000, 1500], T0),
    golden([
      [0, 0x000000],
      [250, 0x402010],
      [500, 0x804020],
      [1000, 0xff8040],
      [1500, 0xff8040],
    ]),
  );
});

test("TRANSITION: the same as FADE", () => {
  // D = 2000, red -> blue. t=500: p = 16384: r = (255·49152 + 32768) >> 16 = 191 (191.75 floored),
  // b = (255·16384 + 32768) >> 16 = 64 -> #bf0040. t=1000: p = 32768: r = b = 128 -> #800080.
  const p = play({ group: 1, kind: KIND.TRANSITION, colorFrom: hex(0xff0000), colorTo: hex(0x0000ff), duration: 2000 });
  assert.deepEqual(
    p.samples([0, 500, 1000, 2000, 3000], T0),
    golden([
      [0, 0xff0000],
      [500, 0xbf0040],
      [1000, 0x800080],
      [2000, 0x0000ff],
      [3000, 0x0000ff],
    ]),
  );
});

test("FADE with loop restarts at each duration boundary", () => {
  // τ = t mod 1000. t=999: p = floor(999000·65536/1e6) = 65470: r = (255·65470 + 32768) >> 16 = 255,
  // g = (128·65470 + 32768) >> 16 = 128, b = (64·65470 + 32768) >> 16 = 64 -> #ff8040.
  // t=1000: τ = 0 -> black. t=1250: τ = 250 -> #402010. t=5500: τ = 500 -> #804020.
  const p = play({ group: 1, kind: KIND.FADE, loop: true, colorFrom: hex(0), colorTo: hex(0xff8040), duration: 1000 });
  assert.deepEqual(
    p.samples([0, 250, 999, 1000, 1250, 5500], T0),
    golden([
      [0, 0x000000],
      [250, 0x402010],
      [999, 0xff8040],
      [1000, 0x000000],
      [1250, 0x402010],
      [5500, 0x804020],
    ]),
  );
});

test("FADE with pingpong reverses at each boundary instead of restarting", () => {
  // Cycle n = floor(t / 1000), r = t mod 1000; τ = r on even n, 1000 - r on odd n.
  // t=1000: τ = 1000 -> colorTo. t=1250: τ = 750, p = 49152: r = 191 (191.75), g = 96 (96.5 floored),
  // b = 48 (48.5 floored) -> #bf6030. t=2000: τ = 0 -> black. t=2250: τ = 250 -> #402010.
  // t=3500: n = 3, τ = 500 -> #804020.
  const anim = { group: 1, kind: KIND.FADE, pingpong: true, colorFrom: hex(0), colorTo: hex(0xff8040), duration: 1000 };
  const expected = golden([
    [250, 0x402010],
    [1000, 0xff8040],
    [1250, 0xbf6030],
    [2000, 0x000000],
    [2250, 0x402010],
    [3500, 0x804020],
  ]);
  assert.deepEqual(play(anim).samples([250, 1000, 1250, 2000, 2250, 3500], T0), expected);
  // loop and pingpong together: pingpong.
  assert.deepEqual(play({ ...anim, loop: true }).samples([250, 1000, 1250, 2000, 2250, 3500], T0), expected);
});

test("BREATHE: smoothstep up to colorTo at half cycle and back; holds colorFrom at its end unless it loops", () => {
  // Cycle = D = 4000 ms; x = 2p on the first half, 2(1 - p) on the second; e = x²(3 - 2x) in Q16:
  //   x2 = x·x >> 16, e = x2 · (196608 - 2x) >> 16.
  // t=500: p = 8192, x = 16384, x2 = 4096, e = 4096·163840 >> 16 = 10240 (0.15625):
  //   r = (255·10240 + 32768) >> 16 = 40, g = (128·10240 + 32768) >> 16 = 20 -> #281400
  // t=1000: x = 32768, x2 = 16384, e = 16384·131072 >> 16 = 32768: r = 128, g = 64 -> #804000
  // t=2000: x = 65536, e = 65536 -> #ff8000. t=3000: x = 32768 -> #804000. t=3500: x = 16384 -> #281400.
  // t=4000: the end, p = 65536 -> black, held (issue 18: a finished layer holds its last frame).
  const anim = { group: 1, kind: KIND.BREATHE, colorFrom: hex(0), colorTo: hex(0xff8000), duration: 4000 };
  const p = play(anim);
  assert.deepEqual(
    p.samples([0, 500, 1000, 2000, 3000, 3500, 4000, 5000, 6000], T0),
    golden([
      [0, 0x000000],
      [500, 0x281400],
      [1000, 0x804000],
      [2000, 0xff8000],
      [3000, 0x804000],
      [3500, 0x281400],
      [4000, 0x000000],
      [5000, 0x000000],
      [6000, 0x000000],
    ]),
  );
  // With loop the next cycle starts at 4000: t=5000 -> #804000, t=6000 -> #ff8000.
  assert.deepEqual(
    play({ ...anim, loop: true }).samples([4000, 5000, 6000], T0),
    golden([
      [4000, 0x000000],
      [5000, 0x804000],
      [6000, 0xff8000],
    ]),
  );
  // Duration 0 (infinite): the cycle is 4000 ms.
  const q = play({ group: 1, kind: KIND.BREATHE, colorFrom: hex(0), colorTo: hex(0xff8000), duration: 0 });
  assert.deepEqual(
    q.samples([1000, 2000, 8000, 42000], T0),
    golden([
      [1000, 0x804000],
      [2000, 0xff8000],
      [8000, 0x000000],
      [42000, 0xff8000],
    ]),
  );
});

test("PULSE: rise, hold, fall as proportions of 255", () => {
  // rise 51 (1/5), fall 102 (2/5), hold 102; D = 1000, black -> red. q = p · 255 (Q16 units).
  // t=125: p = 8192, q = 2088960 < 51<<16 -> e = q / 51 = 40960 -> r = (255·40960 + 32768) >> 16 = 159 (#9f)
  // t=250: p = 16384, q = 4177920: past the rise, before the fall (153<<16 = 10027008) -> hold, #ff0000
  // t=500: q = 8355840 -> hold.
  // t=750: p = 49152, q = 12533760 > 10027008 -> e = (255<<16 - q) / 102 = 4177920 / 102 = 40960 -> #9f0000
  // t=875: p = 57344, q = 14622720 -> e = 2088960 / 102 = 20480 -> r = (5222400 + 32768) >> 16 = 80 (#50)
  // t=1000: e = 0 -> black, held after the end.
  const anim = {
    group: 1,
    kind: KIND.PULSE,
    colorFrom: hex(0),
    colorTo: hex(0xff0000),
    duration: 1000,
    p0: 51,
    p1: 102,
  };
  assert.deepEqual(
    play(anim).samples([0, 125, 250, 500, 750, 875, 1000, 2000], T0),
    golden([
      [0, 0x000000],
      [125, 0x9f0000],
      [250, 0xff0000],
      [500, 0xff0000],
      [750, 0x9f0000],
      [875, 0x500000],
      [1000, 0x000000],
      [2000, 0x000000],
    ]),
  );
  // With loop the pulse repeats: t=1125 is τ=125 again.
  assert.deepEqual(
    play({ ...anim, loop: true }).samples([1125, 1500], T0),
    golden([
      [1125, 0x9f0000],
      [1500, 0xff0000],
    ]),
  );
});

test("PULSE: rise + fall above 255 are scaled to sum to 255 with no hold", () => {
  // rise 200, fall 100: the scale is S = 300 (rise 2/3, fall 1/3, hold 0). q = p · 300.
  // t=250: q = 16384·300 = 4915200 < 200<<16 -> e = q / 200 = 24576 -> r = (255·24576 + 32768) >> 16 = 96 (#60)
  //   (unscaled, rise 200/255 would give e = 0.32 -> 81)
  // t=500: q = 9830400 -> e = 49152 -> r = 191 (#bf)
  // t=667: p = 43712, q = 13113600 > 200<<16 -> e = (300<<16 - q) / 100 = 65472 -> r = 255: the peak
  // t=750: q = 14745600 -> e = (19660800 - 14745600) / 100 = 49152 -> #bf0000
  // t=875: q = 17203200 -> e = 24576 -> #600000. t=1000: black.
  const p = play({
    group: 1,
    kind: KIND.PULSE,
    colorFrom: hex(0),
    colorTo: hex(0xff0000),
    duration: 1000,
    p0: 200,
    p1: 100,
  });
  assert.deepEqual(
    p.samples([0, 250, 500, 667, 750, 875, 1000], T0),
    golden([
      [0, 0x000000],
      [250, 0x600000],
      [500, 0xbf0000],
      [667, 0xff0000],
      [750, 0xbf0000],
      [875, 0x600000],
      [1000, 0x000000],
    ]),
  );
});

test("BLINK: colorTo for a half-period, colorFrom for the next; holds its value at the end", () => {
  // params[0] = 100 ms half-period: on (colorTo) for k = floor(τ / 100) even, off (colorFrom) for odd.
  // D = 1000: it ends holding its last frame, τ = 1000 ms - 1 µs, k = 9 -> off (issue 18; τ = 1000
  // itself, k = 10, would be the next period's first frame), held afterwards.
  const anim = {
    group: 1,
    kind: KIND.BLINK,
    colorFrom: hex(0x000080),
    colorTo: hex(0xffff00),
    duration: 1000,
    p0: 100,
  };
  assert.deepEqual(
    play(anim).samples([0, 99, 100, 199, 200, 950, 1000, 1150], T0),
    golden([
      [0, 0xffff00],
      [99, 0xffff00],
      [100, 0x000080],
      [199, 0x000080],
      [200, 0xffff00],
      [950, 0x000080],
      [1000, 0x000080],
      [1150, 0x000080],
    ]),
  );
  // loop with D = 250: τ = t mod 250. t=300: τ = 50 -> on (unlooped k = 3 would be off);
  // t=350: τ = 100 -> off; t=499: τ = 249, k = 2 -> on.
  assert.deepEqual(
    play({ ...anim, duration: 250, loop: true }).samples([250, 300, 350, 499], T0),
    golden([
      [250, 0xffff00],
      [300, 0xffff00],
      [350, 0x000080],
      [499, 0xffff00],
    ]),
  );
  // params[0] absent (0): the default half-period of 1 ms.
  assert.deepEqual(
    play({ ...anim, p0: 0, duration: 0 }).samples([0, 1, 2, 1001], T0),
    golden([
      [0, 0xffff00],
      [1, 0x000080],
      [2, 0xffff00],
      [1001, 0x000080],
    ]),
  );
});

test("STROBE: params[0] Hz, on (colorTo) for the first half of each period, off is black", () => {
  // 4 Hz: on while (τ_µs · 4) mod 1e6 < 500000, i.e. the first 125 ms of each 250 ms. colorFrom is ignored.
  const anim = { group: 1, kind: KIND.STROBE, colorFrom: hex(0x0000ff), colorTo: hex(0x00ff00), duration: 0, p0: 4 };
  assert.deepEqual(
    play(anim).samples([0, 124, 125, 249, 250, 10000, 10125], T0),
    golden([
      [0, 0x00ff00],
      [124, 0x00ff00],
      [125, 0x000000],
      [249, 0x000000],
      [250, 0x00ff00],
      [10000, 0x00ff00],
      [10125, 0x000000],
    ]),
  );
  // Default 1 Hz.
  assert.deepEqual(
    play({ ...anim, p0: 0 }).samples([499, 500, 1000], T0),
    golden([
      [499, 0x00ff00],
      [500, 0x000000],
      [1000, 0x00ff00],
    ]),
  );
  // loop over D = 300: t=375 is τ = 75 -> on (unlooped 375 ms at 4 Hz would be off).
  assert.deepEqual(
    play({ ...anim, duration: 300, loop: true }).samples([300, 375, 425], T0),
    golden([
      [300, 0x00ff00],
      [375, 0x00ff00],
      [425, 0x000000],
    ]),
  );
});

test("HUE_CYCLE: params[0] turns per duration through the rainbow, ignoring colours; held at its end unless it loops", () => {
  // turn = τ · speed / D (Q16), hue h = turn · 1536 >> 16 (six sectors of 256); full saturation and value.
  // t=125: turn 8192 -> h = 192, sector 0 (red -> yellow): g = (255·192 + 128) >> 8 = 191 -> #ffbf00
  // t=250: h = 384, sector 1 (yellow -> green), f = 128: r = 255 - ((255·128 + 128) >> 8) = 127 -> #7fff00
  // t=500: h = 768: cyan #00ffff. t=1000: a whole turn -> red again, held (issue 18); with loop
  // t=1125 is τ = 125 again.
  const anim = {
    group: 1,
    kind: KIND.HUE_CYCLE,
    colorFrom: hex(0x123456),
    colorTo: hex(0x654321),
    duration: 1000,
    p0: 1,
  };
  assert.deepEqual(
    play(anim).samples([0, 125, 250, 500, 1000, 1125, 5000], T0),
    golden([
      [0, 0xff0000],
      [125, 0xffbf00],
      [250, 0x7fff00],
      [500, 0x00ffff],
      [1000, 0xff0000],
      [1125, 0xff0000],
      [5000, 0xff0000],
    ]),
  );
  assert.deepEqual(play({ ...anim, loop: true }).samples([1125], T0), golden([[1125, 0xffbf00]]));
  // Speed 2: half a turn at t=250.
  assert.deepEqual(
    play({ ...anim, p0: 2 }).samples([125, 250], T0),
    golden([
      [125, 0x7fff00],
      [250, 0x00ffff],
    ]),
  );
  // pingpong: t=1125 is τ = 875: turn 57344 -> h = 1344, sector 5 (magenta -> red), f = 64:
  // b = 255 - ((255·64 + 128) >> 8) = 191 -> #ff00bf
  assert.deepEqual(play({ ...anim, pingpong: true }).samples([1125], T0), golden([[1125, 0xff00bf]]));
  // Duration 0: one turn per 4000 ms at speed 1: t=500 -> h = 192 -> #ffbf00, t=2000 -> cyan.
  assert.deepEqual(
    play({ ...anim, duration: 0 }).samples([500, 2000], T0),
    golden([
      [500, 0xffbf00],
      [2000, 0x00ffff],
    ]),
  );
});

test("REACTIVE: rests at colorFrom, jumps toward colorTo by value/255 on a trigger, decays at params[0]/s", () => {
  // colorFrom (0,0,64), colorTo (255,0,0), decay 255 units/s. Level L in units; e = L · 65536 / 255.
  const p = play({ group: 3, kind: KIND.REACTIVE, colorFrom: hex(0x000040), colorTo: hex(0xff0000), p0: 255 });
  assert.deepEqual(
    p.samples([0, 500], T0),
    golden([
      [0, 0x000040],
      [500, 0x000040],
    ]),
  );
  p.at(T0 + 1000).control(3, 255);
  // t=1000: L = 255 -> colorTo. t=1500: L = 255 - 255·0.5 = 127.5 -> e = 32768: r = 128, b = (64·32768 + 32768) >> 16 = 32
  // t=2000: L = 0 -> rest.
  assert.deepEqual(
    p.samples([1000, 1500, 2000, 2500], T0),
    golden([
      [1000, 0xff0000],
      [1500, 0x800020],
      [2000, 0x000040],
      [2500, 0x000040],
    ]),
  );
  // A trigger of another group, and of group 0 (groups are 1-254), does nothing.
  p.at(T0 + 2600)
    .control(4, 255)
    .control(0, 255);
  assert.deepEqual(p.samples([2600], T0), golden([[2600, 0x000040]]));
  // value 128: e = floor(128e6 · 65536 / 255e6) = 32896: r = (255·32896 + 32768) >> 16 = 128,
  //   b = (64·32640 + 32768) >> 16 = 32 -> #800020
  // t=3250: L = 128 - 63.75 = 64.25 -> e = 16512: r = (255·16512 + 32768) >> 16 = 64, b = (64·49024 + 32768) >> 16 = 48
  p.at(T0 + 3000).control(3, 128);
  assert.deepEqual(
    p.samples([3000, 3250], T0),
    golden([
      [3000, 0x800020],
      [3250, 0x400030],
    ]),
  );
  // value 0 puts it back to rest at once.
  p.at(T0 + 3300).control(3, 0);
  assert.deepEqual(p.samples([3300], T0), golden([[3300, 0x000040]]));
});

test("REACTIVE: decay 0 holds the level; triggers before the start or during the delay are ignored", () => {
  const anim = { group: 3, kind: KIND.REACTIVE, colorFrom: hex(0x000040), colorTo: hex(0xff0000), p0: 0 };
  // value 200: e = floor(200e6 · 65536 / 255e6) = 51400: r = (255·51400 + 32768) >> 16 = 200,
  //   b = (64·14136 + 32768) >> 16 = 14 -> #c8000e, forever.
  const p = play(anim);
  p.at(T0 + 1000).control(3, 200);
  assert.deepEqual(
    p.samples([1000, 60000], T0),
    golden([
      [1000, 0xc8000e],
      [60000, 0xc8000e],
    ]),
  );

  const q = Panel.assigned().prepare({ ...anim, delay: 500 });
  q.at(500).control(3, 255); // prepared, not started
  q.at(T0).start(3);
  q.at(T0 + 200).control(3, 255); // started, still in its start delay
  assert.deepEqual(
    q.samples([500, 1000], T0),
    golden([
      [500, 0x000040],
      [1000, 0x000040],
    ]),
  );
});

test("runner pulse (kind 15): a pulse envelope after its start delay, max blend by default", () => {
  // Background (64,0,0). Pulse black -> blue, rise 64, fall 64, D = 1000, delay 200.
  // Before t=200 the pulse is pending and the panel shows its background.
  // t=325: τ = 125, p = 8192, q = 2088960 < 64<<16 -> e = q / 64 = 32640: b = (255·32640 + 32768) >> 16 = 127
  //   -> max(#400000, #00007f) = #40007f. t=700: τ = 500: hold -> #4000ff. t=1200: τ = 1000, e = 0 -> #400000.
  const anim = {
    group: 1,
    kind: KIND.RUNNER,
    colorFrom: hex(0),
    colorTo: hex(0x0000ff),
    duration: 1000,
    delay: 200,
    p0: 64,
    p1: 64,
  };
  const p = Panel.assigned().background(0x400000).prepare(anim).at(T0).start(1);
  assert.deepEqual(
    p.samples([0, 199, 200, 325, 700, 1200], T0),
    golden([
      [0, 0x400000],
      [199, 0x400000],
      [200, 0x400000],
      [325, 0x40007f],
      [700, 0x4000ff],
      [1200, 0x400000],
    ]),
  );
  // Opaque instead: the pulse's dark phase replaces the background.
  const q = Panel.assigned()
    .background(0x400000)
    .prepare({ ...anim, blend: 1 })
    .at(T0)
    .start(1);
  assert.deepEqual(
    q.samples([199, 200, 1200], T0),
    golden([
      [199, 0x400000],
      [200, 0x000000],
      [1200, 0x000000],
    ]),
  );
});
