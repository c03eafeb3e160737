// GET /api/scenes orders by name as JavaScript compares strings (UTF-16 code units), then by id, for
// any names: generated libraries whose names share long prefixes (ASCII up to the 64-character limit,
// and UTF-8 of 2, 3 and 4 bytes a character, alike past the core's 64-byte sort key and past its next
// windows), with the core in this process.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { InProcessCore } from "./helpers/scenes.js";

const PREFIXES = ["", "A".repeat(60), "é".repeat(34), "晚".repeat(50), "🎆".repeat(20), "晚".repeat(21) + "é"];
const SUFFIX = fc.array(fc.constantFrom("a", "b", " ", "é", "\uE000", "🎆", "晚"), { maxLength: 4 });
const NAME = fc
  .tuple(fc.constantFrom(...PREFIXES), SUFFIX)
  .map(([prefix, suffix]) => [...(prefix + suffix.join(""))].slice(0, 64).join(""))
  .filter((name) => name.trim().length > 0);

test("generated libraries of names alike in long prefixes are listed sorted by name, then id", () => {
  const core = new InProcessCore();
  fc.assert(
    fc.property(fc.array(NAME, { minLength: 2, maxLength: 12 }), (names) => {
      const ids = new Map<string, string>();
      for (const name of names) {
        const res = core.request("POST", "/api/scenes", {
          name,
          layers: [{ group: 1, sequence: [{ type: "SOLID", duration: 1 }] }],
        });
        assert.equal(res.status, 200, res.text);
        ids.set(res.body.id, name);
      }
      const expected = [...ids.entries()].sort(([ia, a], [ib, b]) => (a < b ? -1 : a > b ? 1 : ia < ib ? -1 : 1));
      const list = core.request("GET", "/api/scenes");
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(
        list.body.map((s: { id: string; name: string }) => [s.id, s.name]),
        expected,
      );
      for (const id of ids.keys()) assert.equal(core.request("DELETE", `/api/scenes/${id}`).status, 200);
    }),
    { numRuns: 60 },
  );
});
