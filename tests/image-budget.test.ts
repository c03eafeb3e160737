// The release image against its budgets (bench/budgets.ts), so growth shows in the change that causes it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers/host.js";
import { IMAGE_BUDGET, IMAGE_CEILING, MEMORY_PAGES_BUDGET } from "../bench/budgets.js";
import { readWasmInfo } from "../bench/wasm-info.js";

const image = () => fs.readFileSync(path.join(ROOT, "build/controller.wasm"));

test("build/controller.wasm stays under its ceiling, the 72 KiB budget (73,728 B)", () => {
  const size = image().length;
  assert.equal(IMAGE_BUDGET, 73_728, "issue 32's budget: 72 KiB");
  assert.ok(IMAGE_CEILING >= IMAGE_BUDGET, "the ceiling never goes below the budget: lower the budget instead");
  assert.ok(
    size <= IMAGE_CEILING,
    `build/controller.wasm is ${size} B, over its ceiling of ${IMAGE_CEILING} B (budget ${IMAGE_BUDGET} B): ` +
      "find what grew, or say in bench/budgets.ts why the ceiling must rise",
  );
});

// asconfig.json gives one page (docs/device-memory.md, "Static memory"): every export's arena fits beside the
// static memory and start-up's blocks, which the black-box suites hold on both hosts.
test("build/controller.wasm's linear memory is at most MEMORY_PAGES_BUDGET pages and never grows past it", () => {
  const { initialPages: initial, maximumPages: maximum } = readWasmInfo(path.join(ROOT, "build/controller.wasm"));
  assert.ok(maximum !== null, "the memory has no maximum: it could grow without bound");
  assert.ok(
    maximum <= MEMORY_PAGES_BUDGET,
    `the memory's maximum is ${maximum} pages, over the budget of ${MEMORY_PAGES_BUDGET} (asconfig.json maximumMemory)`,
  );
  assert.ok(initial <= maximum, `initial ${initial} pages over the maximum ${maximum}`);
});
