// http/answers.ts pairs row A's status (byte A of STATUS) with its body (line A of
// assembly/text/z-answers.txt) and names the rows A_*: the three must have the same rows, or every
// answer after a missing line would go out with its neighbour's body.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./helpers/host.js";

const source = fs.readFileSync(path.join(ROOT, "assembly/http/answers.ts"), "utf8");
const text = fs.readFileSync(path.join(ROOT, "assembly/text/z-answers.txt"), "utf8");

test("the answers' statuses, bodies and row names have the same rows", () => {
  const statusList = /const STATUS = memory\.data<u8>\(\[([^\]]*)\]\)/.exec(source);
  assert.ok(statusList, "STATUS not found in assembly/http/answers.ts");
  const statuses = statusList[1]
    .replace(/\/\/.*$/gm, "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  assert.ok(text.endsWith("\n"), "z-answers.txt ends with a newline (a row's end is its newline)");
  const lines = text.slice(0, -1).split("\n");
  const rows = [...source.matchAll(/^export const A_\w+ = (\d+);/gm)].map((m) => Number(m[1]));
  assert.equal(lines.length, statuses.length, "a body line for every status byte");
  assert.equal(Math.max(...rows) + 1, statuses.length, "the last A_* row is the last status");
  assert.equal(lines[0], "", "row 0 (ANSWERED) has no body");
  assert.equal(statuses[0], "0", "row 0 (ANSWERED) has no status");
});
