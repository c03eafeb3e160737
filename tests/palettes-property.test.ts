// Property tests of the palette document through HTTP: every generated valid palette round-trips
// unchanged through POST then GET (colours come back upper-case, schemaVersion is filled in), and
// every generated invalid one is rejected with 422 naming the offending path, with nothing stored.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { startHost, api } from "./helpers/host.js";

const host = await startHost({ panels: 1 });
after(() => host.stop());

const RESERVED = ["base colors", "rainbow", "lava", "ocean", "forest", "party", "sunset", "aurora", "embers"];
const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const nameArb = fc
  .oneof(
    fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 30 }),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }).filter((s) => [...s].length <= 30),
  )
  .filter((n) => !CONTROL.test(n) && n !== "." && n !== ".." && !RESERVED.includes(fold(n)));

const hex = (rgb: number) => "#" + rgb.toString(16).padStart(6, "0");

/** Strictly increasing positions from 0 to 255 (a lone stop sits at 0). */
const positionsArb: fc.Arbitrary<number[]> = fc
  .integer({ min: 1, max: 16 })
  .chain((n) =>
    n === 1
      ? fc.constant<number[]>([0])
      : fc
          .uniqueArray(fc.integer({ min: 1, max: 254 }), { minLength: n - 2, maxLength: n - 2 })
          .map((inner) => [0, ...inner.sort((a, b) => a - b), 255]),
  );

interface Palette {
  schemaVersion?: number;
  name: string;
  stops: Array<[number, string]>;
}

const paletteArb: fc.Arbitrary<Palette> = fc
  .record({
    name: nameArb,
    positions: positionsArb,
    colors: fc.array(fc.integer({ min: 0, max: 0xffffff }), { minLength: 16, maxLength: 16 }),
    upper: fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
    withVersion: fc.boolean(),
  })
  .map(({ name, positions, colors, upper, withVersion }) => {
    const stops = positions.map((p, i): [number, string] => {
      const c = hex(colors[i]);
      return [p, upper[i] ? c.toUpperCase() : c];
    });
    return withVersion ? { schemaVersion: 1, name, stops } : { name, stops };
  });

function canonical(p: Palette): Palette {
  return { schemaVersion: 1, name: p.name, stops: p.stops.map(([pos, c]) => [pos, c.toUpperCase()]) };
}

async function listText(): Promise<string> {
  const res = await api(host, "GET", "/api/palettes");
  assert.equal(res.status, 200);
  return res.text;
}

test("valid palettes round-trip unchanged through POST and GET", async () => {
  const baseline = await listText();
  await fc.assert(
    fc.asyncProperty(paletteArb, async (p) => {
      const created = await api(host, "POST", "/api/palettes", p);
      assert.equal(created.status, 200, `${JSON.stringify(p)} → ${created.text}`);
      assert.deepEqual(created.body, { name: p.name });
      const got = await api(host, "GET", `/api/palettes/${encodeURIComponent(p.name)}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, canonical(p));
      const listed = (await api(host, "GET", "/api/palettes")).body as Palette[];
      assert.deepEqual(listed.slice(9), [canonical(p)]);
      // Every casing of the ASCII letters finds it, and the casing it was given is kept.
      const swapped = p.name.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
      const other = await api(host, "GET", `/api/palettes/${encodeURIComponent(swapped)}`);
      assert.deepEqual(other.body, canonical(p));
      const dup = await api(host, "POST", "/api/palettes", { ...p, name: swapped });
      assert.deepEqual([dup.status, dup.body], [409, { error: "name_exists" }]);
      const del = await api(host, "DELETE", `/api/palettes/${encodeURIComponent(p.name)}`);
      assert.equal(del.status, 204);
    }),
    { numRuns: 150 },
  );
  assert.equal(await listText(), baseline);
});

/** A valid palette with one rule broken, and the exact 422 message that names it. */
interface Broken {
  body: unknown;
  message: string;
}

const COLOR_RULE = 'must be a colour "#RRGGBB"';
const notAnInt = fc.oneof(
  fc.integer({ min: -1000, max: -1 }),
  fc.integer({ min: 256, max: 100000 }),
  fc.double({ min: 0.1, max: 254.9, noNaN: true }).filter((d) => !Number.isInteger(d)),
  fc.constantFrom("0", null, true, [], {}),
);
const badColor = fc.oneof(
  fc.string({ maxLength: 10 }).filter((s) => !/^#[0-9a-fA-F]{6}$/.test(s)),
  fc.integer().map((n) => hex(Math.abs(n)).slice(0, 6)),
  fc.constantFrom("#GGGGGG", "#12345", "#1234567", "FF0000", "#ff00 0", null, 0xff0000, ["#FF0000"]),
);
const notAString = fc.oneof(fc.integer(), fc.constantFrom(null, true, false, [], {}, ["Name"]));

const brokenArb: fc.Arbitrary<Broken> = paletteArb.chain((p) => {
  const n = p.stops.length;
  const withStops = (stops: unknown[]) => ({ ...p, stops });
  const replaceStop = (i: number, stop: unknown) => withStops(p.stops.map((s, k) => (k === i ? stop : s)));
  const index = fc.integer({ min: 0, max: n - 1 });
  const cases: Array<fc.Arbitrary<Broken>> = [
    fc.constantFrom("color", "id", "Name", "stops ", "palette", "").map((k) => ({
      body: { ...p, [k]: 1 },
      message: `${k || "$"}: unknown field (accepted: schemaVersion, name, stops)`,
    })),
    fc
      .oneof(
        fc.integer().filter((v) => v !== 1),
        fc.constantFrom("1", 1.5, null, true),
      )
      .map((v) => ({ body: { ...p, schemaVersion: v }, message: "schemaVersion: must be 1" })),
    fc.constant({ body: { stops: p.stops }, message: "name: required" }),
    notAString.map((v) => ({ body: { ...p, name: v }, message: "name: must be a string, not " + kind(v) })),
    fc
      .oneof(fc.constant(""), fc.string({ unit: "binary", minLength: 31, maxLength: 40 }))
      .map((v) => ({ body: { ...p, name: v }, message: "name: must be 1-30 characters" })),
    fc
      .tuple(
        fc.integer({ min: 0, max: 29 }),
        fc.constantFrom("\u0000", "\n", "\t", "\u001f", "\u007f", "\u0085", "\u009f"),
      )
      .map(([at, c]) => {
        const cps = [...p.name].slice(0, 29);
        cps.splice(Math.min(at, cps.length), 0, c);
        return { body: { ...p, name: cps.join("") }, message: "name: must not contain control characters" };
      }),
    fc.constant({ body: { name: p.name }, message: "stops: required" }),
    fc
      .constantFrom(null, "stops", 3, {})
      .map((v) => ({ body: { ...p, stops: v }, message: "stops: must be an array, not " + kind(v) })),
    fc.oneof(fc.constant(0), fc.integer({ min: 17, max: 24 })).map((count) => ({
      body: withStops(Array.from({ length: count }, (_, i) => [Math.min(i * 8, 255), "#000000"])),
      message: "stops: must have 1-16 entries",
    })),
    fc.tuple(index, fc.constantFrom([], [0], "x", 5, null, {}, [0, "#000000", 1])).map(([i, v]) => ({
      body: replaceStop(i, v),
      message: `stops[${i}]: must be an array [position, "#RRGGBB"]`,
    })),
    fc.tuple(index, notAnInt).map(([i, v]) => ({
      body: replaceStop(i, [v, p.stops[i][1]]),
      message: `stops[${i}][0]: must be an integer 0-255`,
    })),
    fc.tuple(index, badColor).map(([i, v]) => ({
      body: replaceStop(i, [p.stops[i][0], v]),
      message: `stops[${i}][1]: ${COLOR_RULE}`,
    })),
    fc.integer({ min: 1, max: 255 }).map((v) => ({
      body: replaceStop(0, [v, p.stops[0][1]]),
      message: "stops[0][0]: the first position must be 0",
    })),
  ];
  if (n >= 2) {
    // A position not above the one before it.
    cases.push(
      fc.integer({ min: 1, max: n - 1 }).chain((i) =>
        fc.integer({ min: 0, max: p.stops[i - 1][0] }).map((v) => ({
          body: replaceStop(i, [v, p.stops[i][1]]),
          message: `stops[${i}][0]: positions must be strictly increasing`,
        })),
      ),
    );
    const before = p.stops[n - 2][0];
    if (before < 254)
      cases.push(
        fc.integer({ min: before + 1, max: 254 }).map((v) => ({
          body: replaceStop(n - 1, [v, p.stops[n - 1][1]]),
          message: `stops[${n - 1}][0]: the last position must be 255`,
        })),
      );
  }
  return fc.oneof(...cases);
});

function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "boolean") return "a boolean";
  if (typeof v === "number") return "a number";
  if (typeof v === "string") return "a string";
  return "an object";
}

test("invalid palettes are rejected with 422 and a path, and nothing is stored", async () => {
  const baseline = await listText();
  await fc.assert(
    fc.asyncProperty(brokenArb, async ({ body, message }) => {
      const res = await api(host, "POST", "/api/palettes", body);
      assert.equal(res.status, 422, `${JSON.stringify(body)} → ${res.status} ${res.text}`);
      assert.match(res.body.error, /^(\$|[A-Za-z ]+|stops\[\d+\](\[[01]\])?): /, "the message starts with a path");
      assert.equal(res.body.error, message);
      assert.equal(await listText(), baseline, "nothing stored");
    }),
    { numRuns: 300 },
  );
});
