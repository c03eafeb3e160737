// Per-layer palettes through palette slots (docs/playback.md, "Palettes and the scene's look"): on
// 100 emulated panels, 8 layers with 8 different palettes on disjoint, interleaved panel sets each
// show their own palette's colours, every palette is broadcast once into its own slot (no palette
// unicasts), and starting that scene puts under 8 KiB on the bus (counted on the mirror stream,
// which carries every packet of a scene start).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startHost } from "./helpers/host.js";
import { Client, T, frame, mirroredPackets, type Frame } from "./helpers/frames.js";
import { advance, colors, oneShot } from "./helpers/playback.js";

const host = await startHost({ panels: 100, extraArgs: ["--manual-clock"] });
after(() => host.stop());

const PALETTES = ["Rainbow", "Lava", "Ocean", "Forest", "Party", "Sunset", "Aurora", "Embers"];
// Each built-in palette's colour at position 0 and at position 255 (its first and last stop).
const AT_0 = ["#FF0000", "#000000", "#000020", "#002000", "#FF00A0", "#200040", "#001020", "#000000"];
const AT_255 = ["#FF0000", "#FFFF80", "#E0FFFF", "#D0E080", "#FF00A0", "#FFE080", "#FF40C0", "#FFA020"];
/** Layer l targets panels l+1, l+9, l+17, ... up to 96: 12 panels, interleaved so every prepare is unicast. */
const panelsOf = (l: number) => Array.from({ length: 12 }, (_, i) => l + 1 + 8 * i);
const SCENE = {
  background: "#010203",
  layers: PALETTES.map((palette, l) => ({
    group: l + 1,
    panels: panelsOf(l),
    palette,
    sequence: [
      { type: "SOLID", color: { palette: 0 }, duration: 100 },
      { type: "SOLID", color: { palette: 255 }, duration: 0 },
    ],
  })),
};

/** MIRROR_BATCH records: [address, type, packet length, payload bytes]. */
const records = (f: Frame): Array<[number, number, number, number[]]> =>
  mirroredPackets(f).map((m) => [m.address, m.type, m.packet.length, [...m.body]]);

test("8 layers with 8 palettes on disjoint panels: each its own colours; the start is under 8 KiB", async () => {
  const c = await Client.connect(host.wsUrl);
  try {
    c.send(frame(T.SET_MIRROR, [1]));
    await c.next(T.MIRROR_BATCH); // the snapshot
    await oneShot(host, SCENE);
    await advance(host, 0); // the play is applied at scene time 0
    await advance(host, 50); // a mirror flush (34 ms), before the second steps at 100 ms
    await c.sync();
    const recs = c.frames.filter((f) => f.type === T.MIRROR_BATCH).flatMap(records);
    c.frames.length = 0;
    const bytes = recs.reduce((sum, r) => sum + r[2], 0);
    // stop all 7, black 8, background 8, 8 palettes x 70, then per layer 12 unicast prepares (25 B)
    // and one start (7 B): 23 + 560 + 8 x 307 = 3,039 bytes (one palette unicast per panel made 8.6 KB).
    assert.equal(bytes, 3039);
    assert.ok(bytes < 8192);
    // every palette packet is a broadcast into slot 1-8, in layer order; byte 0 = slot << 4 | (count - 1)
    const palettes = recs.filter((r) => r[1] === 17);
    assert.deepEqual(
      palettes.map((r) => [r[0], r[3][0]]),
      [
        [0, 0x16], // Rainbow, 7 stops
        [0, 0x24], // Lava, 5 stops
        [0, 0x34],
        [0, 0x44],
        [0, 0x54],
        [0, 0x64],
        [0, 0x74],
        [0, 0x84],
      ],
    );
    // Ocean into slot 3: 5 stops (position, r, g, b), then 11 unused stops of zeros
    assert.deepEqual(palettes[2][3], [
      0x34,
      ...[0x00, 0x00, 0x00, 0x20, 0x50, 0x00, 0x30, 0xa0, 0xa0, 0x00, 0x90, 0xd0, 0xdc, 0x40, 0xe0, 0xe0],
      ...[0xff, 0xe0, 0xff, 0xff],
      ...new Array(44).fill(0),
    ]);
    // the prepare of layer 3 (Ocean) on panel 3: colorTo = palette position 0 of slot 3 (1, 0, 3, 0)
    const prepare = recs.find((r) => r[0] === 3 && r[1] === 12);
    assert.deepEqual(prepare?.[3], [3, 2, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 100, 0, 0, 0, 0, 0, 0, 255]);
    assert.equal(recs.filter((r) => r[1] === 12 && r[0] === 0).length, 0, "no broadcast prepare");

    const expect = (table: string[]) => {
      const out: Record<number, string> = {};
      for (let q = 1; q <= 100; q++) out[q] = q <= 96 ? table[(q - 1) % 8] : "#010203";
      return out;
    };
    assert.deepEqual(await colors(host), expect(AT_0), "scene time 50: position 0 of each layer's palette");
    await advance(host, 100);
    assert.deepEqual(await colors(host), expect(AT_255), "scene time 150: position 255");
    // a new mirroring client's snapshot keeps the look's palette (slot 0: the boot Base colors,
    // 3 stops), not the last layer palette sent
    const late = await Client.connect(host.wsUrl);
    late.send(frame(T.SET_MIRROR, [1]));
    const snap = records(await late.next(T.MIRROR_BATCH)).filter((r) => r[1] === 17);
    late.close();
    assert.deepEqual(
      snap.map((r) => r[3].slice(0, 5)),
      [[0x02, 0, 0xff, 0xff, 0xff]],
    );
  } finally {
    c.close();
  }
});

test("a layer palette equal to the scene's reads slot 0; layers naming one palette share a slot", async () => {
  const m = await Client.connect(host.wsUrl);
  try {
    m.send(frame(T.SET_MIRROR, [1]));
    await m.next(T.MIRROR_BATCH); // the snapshot
    const solid = (position: number) => [{ type: "SOLID", color: { palette: position }, duration: 0 }];
    await oneShot(host, {
      palette: "Ocean",
      layers: [
        { group: 1, panels: [1], palette: "ocean", sequence: solid(255) },
        { group: 2, panels: [2], palette: "Lava", sequence: solid(255) },
        { group: 3, panels: [3], palette: "LAVA", sequence: solid(0) },
        { group: 4, panels: [4], sequence: solid(0) },
      ],
    });
    await advance(host, 0);
    await advance(host, 50);
    await m.sync();
    const recs = m.frames.filter((f) => f.type === T.MIRROR_BATCH).flatMap(records);
    // slot 0: the scene's Ocean (5 stops); slot 1: Lava, once for both layers naming it
    assert.deepEqual(
      recs.filter((r) => r[1] === 17).map((r) => [r[0], r[3][0], r[3][1], r[3][2], r[3][3], r[3][4]]),
      [
        [0, 0x04, 0x00, 0x00, 0x00, 0x20],
        [0, 0x14, 0x00, 0x00, 0x00, 0x00],
      ],
    );
    // colorTo of the prepares to panels 1-4: (1, position, slot, 0)
    const refs = [1, 2, 3, 4].map((q) => recs.find((r) => r[0] === q && r[1] === 12)?.[3].slice(8, 12));
    assert.deepEqual(refs, [
      [1, 255, 0, 0],
      [1, 255, 1, 0],
      [1, 0, 1, 0],
      [1, 0, 0, 0],
    ]);
    const c = await colors(host);
    assert.deepEqual([c[1], c[2], c[3], c[4]], ["#E0FFFF", "#FFFF80", "#000000", "#000020"]);
  } finally {
    m.close();
  }
});

test("two layers with different palettes on one panel each read their own palette", async () => {
  await oneShot(host, {
    schemaVersion: 4,
    layers: [
      { group: 1, panels: [5], palette: "Lava", sequence: [{ type: "SOLID", color: { palette: 255 }, duration: 0 }] },
      {
        group: 2,
        panels: [5],
        palette: "Ocean",
        blend: "add",
        sequence: [{ type: "SOLID", color: { palette: 0 }, duration: 0 }],
      },
    ],
  });
  await advance(host, 10);
  // Lava at 255 (#FFFF80) plus Ocean at 0 (#000020)
  assert.equal((await colors(host))[5], "#FFFFA0");
});
