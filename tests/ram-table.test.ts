// docs/porting.md's RAM table is what `npm run bench:ram` makes of the build today (bench/ram.ts): the
// sdkconfig.defaults*, the port's constants, the rv32 objects and bench/wamr-figures.json. A change to any of
// them that moves a figure fails here until the table is rewritten (`npm run bench:ram -- --write`), and a
// variant that misses its target (issue 32) fails too. Needs the rv32 compiler (scripts/esp32-check.mjs
// builds the objects first); skipped without it, unless CI=true.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "./helpers/host.js";

const CC = process.env.TESSERA_RISCV_CC || "riscv64-unknown-elf-gcc";
const haveCc = spawnSync(CC, ["--version"], { stdio: "ignore" }).status === 0;
const skip = !haveCc && process.env.CI !== "true" ? `no ${CC}` : false;
const tsx = path.join(ROOT, "node_modules", ".bin", "tsx");

test("the RAM table in docs/porting.md is the one bench:ram makes, and every target is met", { skip }, () => {
  const check = spawnSync(process.execPath, [path.join(ROOT, "scripts", "esp32-check.mjs")], {
    cwd: ROOT,
    encoding: "utf8",
  });
  assert.equal(check.status, 0, check.stdout + check.stderr);
  const doc = spawnSync(tsx, ["bench/ram.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(doc.status, 0, doc.stdout + doc.stderr);
  const table = spawnSync(tsx, ["bench/ram.ts"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(table.status, 0, table.stderr);
  assert.doesNotMatch(table.stdout, /A target is missed/, table.stdout);
  assert.match(table.stdout, /ESP32-C6 +small .*ok\) .*ok\)/);
  assert.match(table.stdout, /ESP32-S3 \+ PSRAM +large .*ok\) .*ok\)/);
});
