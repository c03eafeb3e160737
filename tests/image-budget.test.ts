// The release image against its budgets (bench/budgets.ts), so growth shows in the change that causes it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers/host.js";
import { IMAGE_BUDGET, IMAGE_CEILING, MEMORY_PAGES_BUDGET } from "../bench/budgets.js";

const image = () => fs.readFileSync(path.join(ROOT, "build/controller.wasm"));

test("build/controller.wasm stays under its ceiling on the way to the 64 KiB budget", () => {
  const size = image().length;
  assert.ok(IMAGE_CEILING >= IMAGE_BUDGET, "the ceiling never goes below the budget: lower the budget instead");
  assert.ok(
    size <= IMAGE_CEILING,
    `build/controller.wasm is ${size} B, over its ceiling of ${IMAGE_CEILING} B (budget ${IMAGE_BUDGET} B): ` +
      "find what grew, or say in bench/budgets.ts why the ceiling must rise",
  );
});

/** The limits of the image's own memory (the memory section; the core imports none), in pages. */
function memoryLimits(bytes: Buffer): { initial: number; maximum: number | null } {
  let at = 8; // magic and version
  const leb = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[at++];
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    if (id === 5) {
      assert.equal(leb(), 1, "one memory");
      const flags = leb();
      const initial = leb();
      return { initial, maximum: flags & 1 ? leb() : null };
    }
    at = end;
  }
  throw new Error("build/controller.wasm has no memory section");
}

// asconfig.json gives one page (docs/porting.md, "Static memory"): every export's arena fits beside the
// static memory and start-up's blocks, which the black-box suites hold on both hosts.
test("build/controller.wasm's linear memory is at most MEMORY_PAGES_BUDGET pages and never grows past it", () => {
  const { initial, maximum } = memoryLimits(image());
  assert.ok(maximum !== null, "the memory has no maximum: it could grow without bound");
  assert.ok(
    maximum <= MEMORY_PAGES_BUDGET,
    `the memory's maximum is ${maximum} pages, over the budget of ${MEMORY_PAGES_BUDGET} (asconfig.json maximumMemory)`,
  );
  assert.ok(initial <= maximum, `initial ${initial} pages over the maximum ${maximum}`);
});
