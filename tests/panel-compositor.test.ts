// Golden tests of the panel compositor in build/panel.wasm: modifiers, blend modes, stacking, and
// colour references resolved at frame time. Expected values are derived by hand from the
// scene-format spec and docs/panel-engine.md; the notation:
//   mix255(a, b, v) = (a · (255 - v) + b · v + 127) / 255 (integer division), per channel
//   a FADE's value at half its duration: e = 32768, v = mix(from, to, e) = (from + to) / 2 rounded half up
// Animations start at wall time T0; samples are at T0 + t.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Panel, KIND, ANIMATES, BLEND, hex, pal, base, golden, hexOf, type Anim } from "./helpers/panel.js";

const T0 = 1000;
const BASE = 0xc86432; // (200, 100, 50): the colour the modifiers below work on

function play(backgroundColor: number, ...anims: Anim[]): Panel {
  const p = Panel.assigned().background(backgroundColor);
  for (const a of anims) p.prepare(a);
  return p.at(T0).start(0);
}

/** A SOLID colour layer. */
const solid = (color: number, layer = 0, blend = 0): Anim => ({
  group: 1,
  layer,
  kind: KIND.SOLID,
  colorTo: hex(color),
  blend,
});
/** A modifier on layer 1 ramping `from` -> `to` over 1000 ms (FADE). */
const ramp = (animates: number, from: number, to: number): Anim => ({
  group: 1,
  layer: 1,
  kind: KIND.FADE,
  animates,
  from,
  to,
  duration: 1000,
});
/** A modifier on layer 1 holding `from` (SOLID reads only `from`). */
const hold = (animates: number, from: number, layer = 1): Anim => ({
  group: 1,
  layer,
  kind: KIND.SOLID,
  animates,
  from,
  to: 77,
});

test("dim: scales toward black; 255 is the identity; a finished modifier holds its final value", () => {
  // ramp 255 -> 0. t=500: v = 128: r = (200·128 + 127) / 255 = 100, g = (100·128 + 127) / 255 = 50,
  //   b = (50·128 + 127) / 255 = 25 -> #643219. t=1000: v = 0 -> black, held at t=3000.
  assert.deepEqual(
    play(0, solid(BASE), ramp(ANIMATES.dim, 255, 0)).samples([0, 500, 1000, 3000], T0),
    golden([
      [0, BASE],
      [500, 0x643219],
      [1000, 0x000000],
      [3000, 0x000000],
    ]),
  );
  // Ramping back to the identity releases it.
  assert.deepEqual(
    play(0, solid(BASE), ramp(ANIMATES.dim, 0, 255)).samples([0, 1000, 3000], T0),
    golden([
      [0, 0x000000],
      [1000, BASE],
      [3000, BASE],
    ]),
  );
});

test("desaturate: toward the grey of equal luma; 255 is the identity", () => {
  // luma = (77·200 + 150·100 + 29·50 + 128) >> 8 = 31978 >> 8 = 124 -> v = 0 gives #7c7c7c.
  // t=500, v = 128: r = (124·127 + 200·128 + 127) / 255 = 162, g = (15748 + 12800 + 127) / 255 = 112,
  //   b = (15748 + 6400 + 127) / 255 = 87 -> #a27057. t=1000: v = 255 -> unchanged.
  assert.deepEqual(play(0, solid(BASE), hold(ANIMATES.desaturate, 0)).samples([0], T0), golden([[0, 0x7c7c7c]]));
  assert.deepEqual(
    play(0, solid(BASE), ramp(ANIMATES.desaturate, 0, 255)).samples([0, 500, 1000], T0),
    golden([
      [0, 0x7c7c7c],
      [500, 0xa27057],
      [1000, BASE],
    ]),
  );
});

test("hue: rotates by v/256 of a turn; 0 is the identity", () => {
  // (200,100,50): M = 200 (r), m = 50 (b), sector 0, h = ((100 - 50)·256 + 75) / 150 = 85.
  // v = 128 -> +768 -> h = 853, sector 3, f = 85: g = 200 - ((150·85 + 128) >> 8) = 150 -> (50, 150, 200) #3296c8.
  assert.deepEqual(play(0, solid(BASE), hold(ANIMATES.hue, 128)).samples([0], T0), golden([[0, 0x3296c8]]));
  // Pure red, half a turn: cyan.
  assert.deepEqual(play(0, solid(0xff0000), hold(ANIMATES.hue, 128)).samples([0], T0), golden([[0, 0x00ffff]]));
  // ramp 0 -> 64, t=500: v = (64·32768 + 32768) >> 16 = 32 -> +192 -> h = 277, sector 1, f = 21:
  //   r = 200 - ((150·21 + 128) >> 8) = 188 -> (188, 200, 50) #bcc832.
  assert.deepEqual(
    play(0, solid(BASE), ramp(ANIMATES.hue, 0, 64)).samples([0, 500], T0),
    golden([
      [0, BASE],
      [500, 0xbcc832],
    ]),
  );
});

test("invert: the envelope drives a cross-fade toward 255 - c; from/to are ignored", () => {
  // FADE invert: v = round(e · 255 / 65536). t=500: v = 128:
  //   r = (200·127 + 55·128 + 127) / 255 = 127, g = (100·127 + 155·128 + 127) / 255 = 128,
  //   b = (50·127 + 205·128 + 127) / 255 = 128 -> #7f8080. t=1000: (55, 155, 205) #379bcd, held.
  assert.deepEqual(
    play(0, solid(BASE), ramp(ANIMATES.invert, 7, 9)).samples([0, 500, 1000, 2000], T0),
    golden([
      [0, BASE],
      [500, 0x7f8080],
      [1000, 0x379bcd],
      [2000, 0x379bcd],
    ]),
  );
  // A SOLID invert is fully on.
  assert.deepEqual(play(0, solid(BASE), hold(ANIMATES.invert, 0)).samples([0], T0), golden([[0, 0x379bcd]]));
});

test("brighten: toward white; 0 is the identity", () => {
  // t=500, v = 128: r = (200·127 + 255·128 + 127) / 255 = 228, g = (12700 + 32640 + 127) / 255 = 178,
  //   b = (6350 + 32640 + 127) / 255 = 153 -> #e4b299. t=1000: white.
  assert.deepEqual(
    play(0, solid(BASE), ramp(ANIMATES.brighten, 0, 255)).samples([0, 500, 1000], T0),
    golden([
      [0, BASE],
      [500, 0xe4b299],
      [1000, 0xffffff],
    ]),
  );
});

test("saturate: toward the fully saturated colour of the same hue; 0 is the identity; greys stay", () => {
  // Full saturation of (200,100,50): (c - 50) · 200 / 150 rounded -> (200, 67, 0) #c84300.
  // t=500, v = 128: g = (100·127 + 67·128 + 127) / 255 = 83, b = (50·127 + 127) / 255 = 25 -> #c85319.
  assert.deepEqual(
    play(0, solid(BASE), ramp(ANIMATES.saturate, 0, 255)).samples([0, 500, 1000], T0),
    golden([
      [0, BASE],
      [500, 0xc85319],
      [1000, 0xc84300],
    ]),
  );
  assert.deepEqual(play(0, solid(0x808080), hold(ANIMATES.saturate, 255)).samples([0], T0), golden([[0, 0x808080]]));
});

test("every modifier at its identity value leaves the colour exactly unchanged", () => {
  const p = play(
    0,
    solid(0x123456),
    hold(ANIMATES.dim, 255, 1),
    hold(ANIMATES.desaturate, 255, 2),
    hold(ANIMATES.hue, 0, 3),
    { group: 1, layer: 4, kind: KIND.FADE, animates: ANIMATES.invert, duration: 0 }, // infinite FADE: envelope 0
    hold(ANIMATES.brighten, 0, 5),
    hold(ANIMATES.saturate, 0, 6),
  );
  assert.deepEqual(
    p.samples([0, 5000], T0),
    golden([
      [0, 0x123456],
      [5000, 0x123456],
    ]),
  );
});

test("a modifier transforms only the layers below it", () => {
  // BASE, then dim to 0 (black), then blue added on top: the blue is not dimmed.
  assert.deepEqual(
    play(0, solid(BASE), hold(ANIMATES.dim, 0, 1), solid(0x0000ff, 2, BLEND.add)).samples([0], T0),
    golden([[0, 0x0000ff]]),
  );
  // A dim below a layer: background (64,64,64) dimmed to black, then #000080 added -> #000080
  // (without the dim: #4040c0).
  assert.deepEqual(
    play(0x404040, hold(ANIMATES.dim, 0, 0), solid(0x000080, 1, BLEND.add)).samples([0], T0),
    golden([[0, 0x000080]]),
  );
});

test("blend modes of a colour layer over the background", () => {
  // below a = (64,128,192) (the background), layer b = (192,64,32).
  const cases: [number, number][] = [
    [BLEND.opaque, 0xc04020], // b
    [BLEND.add, 0xffc0e0], // min(255, a + b): 256 -> 255, 192, 224
    [BLEND.max, 0xc080c0], // (192, 128, 192)
    [BLEND.multiply, 0x302018], // (a·b + 127) / 255: 12415/255 = 48, 8319/255 = 32, 6271/255 = 24
    [BLEND.screen, 0xd0a0c8], // 255 - ((255-a)(255-b) + 127) / 255: 255-47, 255-95, 255-55
    [BLEND.darken, 0x404020], // min: 64, 64, 32
    // a < 128: (2ab + 127) / 255 = 24703/255 = 96; else 255 - (2(255-a)(255-b) + 127) / 255:
    // g: 255 - 48641/255 = 255 - 190 = 65; b: 255 - 28225/255 = 255 - 110 = 145
    [BLEND.overlay, 0x604191],
    [BLEND.difference, 0x8040a0], // |a - b|: 128, 64, 160
    [BLEND.subtract, 0x0040a0], // max(0, a - b): 0, 64, 160
    [BLEND.default, 0xc04020], // default for a normal kind: opaque
  ];
  for (const [blend, expected] of cases) {
    const got = play(0x4080c0, solid(0xc04020, 0, blend)).render(T0);
    assert.equal(hexOf(got), hexOf(expected), `blend ${blend}`);
  }
  // A runner pulse (rise = fall = 0: colorTo throughout) defaults to max.
  const runner = { group: 1, kind: KIND.RUNNER, colorTo: hex(0xc04020), duration: 1000 };
  assert.equal(hexOf(play(0x4080c0, runner).render(T0 + 500)), "#c080c0");
});

test("transparent layers: black under add, max and screen, white under darken and multiply", () => {
  for (const [blend, color] of [
    [BLEND.add, 0x000000],
    [BLEND.max, 0x000000],
    [BLEND.screen, 0x000000],
    [BLEND.darken, 0xffffff],
    [BLEND.multiply, 0xffffff],
  ]) {
    assert.equal(hexOf(play(0x4080c0, solid(color, 0, blend)).render(T0)), "#4080c0", `blend ${blend}`);
  }
});

test("composition: three colour layers of different blends and a modifier, prepared out of order", () => {
  // Background (32,32,32). Layer 0 SOLID (128,64,32) opaque; layer 1 FADE black -> (0,64,255) add;
  // layer 2 dim 128; layer 3 SOLID (64,64,64) screen.
  // t=500: layer 1 is (0, 32, 128) [(64·32768 + 32768) >> 16 = 32, 128] -> add: (128, 96, 160)
  //   -> dim 128: ((128·128 + 127) / 255, ...) = (64, 48, 80)
  //   -> screen (64,64,64): 255 - (191·191 + 127) / 255 = 112, 255 - (207·191 + 127) / 255 = 100,
  //      255 - (175·191 + 127) / 255 = 124 -> #70647c
  // t=0: layer 1 black -> (128, 64, 32) -> dim (64, 32, 16) -> screen: 112, 255 - 167 = 88, 255 - 179 = 76 -> #70584c
  // t=1000: layer 1 (0,64,255) -> add (128, 128, 255) -> dim (64, 64, 128) -> screen: 112, 112, 255 - 95 = 160 -> #7070a0
  const layers: Anim[] = [
    solid(0x404040, 3, BLEND.screen),
    {
      group: 1,
      layer: 1,
      kind: KIND.FADE,
      colorFrom: hex(0),
      colorTo: hex(0x0040ff),
      duration: 1000,
      blend: BLEND.add,
    },
    solid(0x804020, 0, BLEND.opaque),
    hold(ANIMATES.dim, 128, 2),
  ];
  assert.deepEqual(
    play(0x202020, ...layers).samples([0, 500, 1000], T0),
    golden([
      [0, 0x70584c],
      [500, 0x70647c],
      [1000, 0x7070a0],
    ]),
  );
});

test("equal layers composite in arrival order", () => {
  assert.equal(hexOf(play(0, solid(0xff0000, 5), solid(0x00ff00, 5)).render(T0)), "#00ff00");
  assert.equal(hexOf(play(0, solid(0x00ff00, 5), solid(0xff0000, 5)).render(T0)), "#ff0000");
  // A lower layer prepared later still goes below.
  assert.equal(hexOf(play(0, solid(0xff0000, 6), solid(0x00ff00, 5)).render(T0)), "#ff0000");
});

test("palette positions are sampled from the active palette at frame time", () => {
  const p = play(0, { group: 1, kind: KIND.SOLID, colorTo: pal(64) });
  // No palette yet: the Base colors palette (white at 0, black at 128 and 255):
  // (255·64 + 0·64 + 64) / 128 = 128 -> #808080.
  assert.equal(hexOf(p.render(T0)), "#808080");
  // Base colours red, green, blue: between red@0 and green@128 -> r = g = 16384/128 = 128 -> #808000.
  p.at(T0 + 10).baseColors([0xff0000, 0x00ff00, 0x0000ff]);
  assert.equal(hexOf(p.render(T0 + 10)), "#808000");
  // Stops (0 black, 128 #ff8000, 255 white): r = (255·64 + 64) / 128 = 128, g = (128·64 + 64) / 128 = 64 -> #804000.
  p.at(T0 + 20).palette([
    [0, 0x000000],
    [128, 0xff8000],
    [255, 0xffffff],
  ]);
  assert.equal(hexOf(p.render(T0 + 20)), "#804000");
  // Stops (0 blue, 255 green): g = (255·64 + 127) / 255 = 64, b = (255·191 + 127) / 255 = 191 -> #0040bf.
  p.at(T0 + 30).palette([
    [0, 0x0000ff],
    [255, 0x00ff00],
  ]);
  assert.equal(hexOf(p.render(T0 + 30)), "#0040bf");
  // One stop: that colour everywhere.
  p.at(T0 + 40).palette([[0, 0x123456]]);
  assert.equal(hexOf(p.render(T0 + 40)), "#123456");
});

test("a palette change mid-FADE shows on the next frame without restarting the FADE", () => {
  // FADE pal(0) -> pal(255) over 1000 ms with palette black -> white: t=500 -> #808080.
  const p = Panel.assigned().palette([
    [0, 0x000000],
    [255, 0xffffff],
  ]);
  p.prepare({ group: 1, kind: KIND.FADE, colorFrom: pal(0), colorTo: pal(255), duration: 1000 })
    .at(T0)
    .start(1);
  assert.equal(hexOf(p.render(T0 + 500)), "#808080");
  // New palette red -> blue at t=500: t=500 -> #800080; t=750 (p = 49152, not restarted):
  // r = (255·16384 + 32768) >> 16 = 64, b = (255·49152 + 32768) >> 16 = 191 -> #4000bf.
  p.at(T0 + 500).palette([
    [0, 0xff0000],
    [255, 0x0000ff],
  ]);
  assert.deepEqual(
    p.samples([500, 750], T0),
    golden([
      [500, 0x800080],
      [750, 0x4000bf],
    ]),
  );
});

test("palette slots: a set palette names its slot, a record's palette position names the slot it reads", () => {
  // set palette into slot 2, red at 0 and blue at 255: header [broadcast, 17, 70, version 6, crc],
  // byte 0 = slot 2 << 4 | (2 stops - 1) = 0x21, then 16 x (position, r, g, b), unused stops zero.
  const slot2 = [0x00, 0x11, 0x46, 0x06, 0xe5, 0x21, 0x00, 0xff, 0x00, 0x00, 0xff, 0x00, 0x00, 0xff];
  // prepare group 1, SOLID, colorTo = palette position 64 of slot 2: record bytes 8-11 are
  // 1 (kind palette position), 64, 2 (the slot), 0; to = 255.
  const solidSlot2 = [0x00, 0x0c, 0x19, 0x06, 0xdf, 1, 0, 0, 0, 0, 0, 0, 0, 1, 64, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0xff];
  const raw = (bytes: number[], size: number) => Uint8Array.from([...bytes, ...new Array(size - bytes.length).fill(0)]);
  const p = Panel.assigned().background(0);
  p.receive(raw(slot2, 70)).receive(raw(solidSlot2, 25)).at(T0).start(1);
  // position 64 between red@0 and blue@255: r = (255·191 + 127) / 255 = 191, b = 64 -> #bf0040.
  assert.equal(hexOf(p.render(T0)), "#bf0040");
  // The look's palette (slot 0) changes; slot 2 does not.
  p.at(T0 + 10).palette([[0, 0x00ff00]]);
  assert.equal(hexOf(p.render(T0 + 10)), "#bf0040");
  // A record naming slot 2 on a panel that never got slot 2 reads slot 0: first the Base colors
  // palette (white@0, black@128: #808080 at 64), then the look's palette once set.
  const q = Panel.assigned().background(0);
  q.receive(raw(solidSlot2, 25)).at(T0).start(1);
  assert.equal(hexOf(q.render(T0)), "#808080");
  q.at(T0 + 10).palette([[0, 0x00ff00]]);
  assert.equal(hexOf(q.render(T0 + 10)), "#00ff00");
  // Slot 8 is the highest a panel holds; a packet for slot 9 (byte 0 = 0x90) is dropped, and a
  // record naming slot 9 reads slot 0.
  q.at(T0 + 20)
    .palette([[0, 0x0000ff]], 8)
    .palette([[0, 0xffffff]], 9);
  q.prepare({ group: 2, layer: 1, kind: KIND.SOLID, colorTo: pal(0, 9), to: 255 }).start(2);
  assert.equal(hexOf(q.render(T0 + 20)), "#00ff00");
  q.prepare({ group: 3, layer: 2, kind: KIND.SOLID, colorTo: pal(0, 8), to: 255 }).start(3);
  assert.equal(hexOf(q.render(T0 + 20)), "#0000ff");
  // The 16-stop maximum: count byte 0x3f (slot 3, 16 stops); the last stop is at position 255.
  const stops: [number, number][] = Array.from({ length: 16 }, (_, i) => [i * 17, i * 0x111111]);
  q.palette(stops, 3)
    .prepare({ group: 4, layer: 3, kind: KIND.SOLID, colorTo: pal(255, 3), to: 255 })
    .start(4);
  assert.equal(hexOf(q.render(T0 + 20)), "#ffffff");
});

test("base colour references follow a set base colors packet mid-animation", () => {
  // FADE base(0) -> base(1): red -> blue at t=500 -> #800080.
  const p = Panel.assigned().baseColors([0xff0000, 0x0000ff, 0x00ff00]);
  p.prepare({ group: 1, layer: 0, kind: KIND.FADE, colorFrom: base(0), colorTo: base(1), duration: 1000 });
  p.at(T0).start(1);
  assert.equal(hexOf(p.render(T0 + 500)), "#800080");
  // Now green -> red: t=500 -> #808000; t=750: r = (255·49152 + 32768) >> 16 = 191, g = 64 -> #bf4000.
  p.at(T0 + 500).baseColors([0x00ff00, 0xff0000, 0x000000]);
  assert.deepEqual(
    p.samples([500, 750], T0),
    golden([
      [500, 0x808000],
      [750, 0xbf4000],
    ]),
  );
  // Tertiary, and an index beyond 2 (black).
  const q = play(0x111111, { group: 1, kind: KIND.SOLID, colorTo: base(2) });
  assert.equal(hexOf(q.render(T0)), "#000000"); // default tertiary is black
  const r = Panel.assigned().baseColors([0, 0, 0x00ff00]);
  r.prepare({ group: 1, kind: KIND.SOLID, colorTo: base(2) }).prepare({
    group: 1,
    layer: 1,
    kind: KIND.SOLID,
    colorTo: base(3),
    blend: BLEND.add,
  });
  assert.equal(hexOf(r.at(T0).start(1).render(T0)), "#00ff00");
});
