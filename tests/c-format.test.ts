// The C formatting check (scripts/c-format.mjs, part of npm run lint) must fail on a file that is not
// formatted as .clang-format says, pass on the same code formatted, and --write must produce that form.
// Skipped where clang-format is missing (the check says so), unless CI=true.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHECK = path.join(ROOT, "scripts", "c-format.mjs");

function run(file: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CHECK, "--file", file, ...args], { cwd: ROOT, encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

function planted(source: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-format-"));
  const file = path.join(dir, "planted.c");
  fs.writeFileSync(file, source);
  return { file, done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const FORMATTED = [
  "static int planted(int a) { return a + 1; }",
  "",
  "static int switched(int m) {",
  "  switch (m) {",
  "    case 1: return 2;",
  "    default: return 0;",
  "  }",
  "}",
  "",
].join("\n");

const probe = planted(FORMATTED);
const skip =
  run(probe.file).out.includes("no clang-format") && process.env.CI !== "true" ? "no clang-format here" : false;
probe.done();

test("a formatted file passes", { skip }, () => {
  const p = planted(FORMATTED);
  try {
    const r = run(p.file);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /1 files formatted as .clang-format says/);
  } finally {
    p.done();
  }
});

test("a file not formatted fails the check, and --write formats it", { skip }, () => {
  const p = planted(
    FORMATTED.replace("static int planted(int a) { return a + 1; }", "static int  planted( int a ){return a+1;}"),
  );
  try {
    const r = run(p.file);
    assert.equal(r.status, 1);
    assert.match(r.out, /code should be clang-formatted/);
    assert.match(r.out, /not formatted as .clang-format says/);
    const w = run(p.file, "--write");
    assert.equal(w.status, 0, w.out);
    assert.equal(fs.readFileSync(p.file, "utf8"), FORMATTED);
    assert.equal(run(p.file).status, 0);
  } finally {
    p.done();
  }
});
