// The release image against its budget (bench/budgets.ts), so growth shows in the change that causes it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers/host.js";
import { IMAGE_BUDGET, IMAGE_CEILING } from "../bench/budgets.js";

test("build/controller.wasm stays under its ceiling on the way to the 64 KiB budget", () => {
  const size = fs.statSync(path.join(ROOT, "build/controller.wasm")).size;
  assert.ok(IMAGE_CEILING >= IMAGE_BUDGET, "the ceiling never goes below the budget: lower the budget instead");
  assert.ok(
    size <= IMAGE_CEILING,
    `build/controller.wasm is ${size} B, over its ceiling of ${IMAGE_CEILING} B (budget ${IMAGE_BUDGET} B): ` +
      "find what grew, or say in bench/budgets.ts why the ceiling must rise",
  );
});
