// The import-cycle check of npm run lint (scripts/import-cycles.mjs): assembly/ has none, and a cycle
// through relative imports and re-exports (not one through a comment) fails the check with the cycle
// printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./helpers/host.js";

const check = (dir?: string) =>
  spawnSync(process.execPath, [path.join(ROOT, "scripts/import-cycles.mjs"), ...(dir ? [dir] : [])], {
    cwd: ROOT,
    encoding: "utf8",
  });

test("assembly/ has no import cycle", () => {
  const r = check();
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /no import cycles in assembly\//);
});

test("a cycle fails the check and is printed; an import in a comment is no edge", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-cycles-"));
  fs.mkdirSync(path.join(dir, "b"));
  fs.writeFileSync(path.join(dir, "a.ts"), 'import { y } from "./b/y";\nexport const x = y;\n');
  fs.writeFileSync(path.join(dir, "b/y.ts"), 'export { z as y } from "./z";\n');
  fs.writeFileSync(path.join(dir, "b/z.ts"), 'import {\n  x,\n} from "../a";\nexport const z = 1;\n');
  fs.writeFileSync(path.join(dir, "c.ts"), '// import { x } from "./a";\n/* import "./d"; */\nexport const c = 2;\n');
  fs.writeFileSync(path.join(dir, "d.ts"), 'import { c } from "./c";\nexport const d = c;\n');
  const r = check(dir);
  assert.equal(r.status, 1);
  const name = path.relative(ROOT, dir);
  assert.match(r.stderr, /1 group\(s\)/);
  assert.ok(r.stderr.includes(`cycle: ${name}/a.ts -> ${name}/b/y.ts -> ${name}/b/z.ts -> ${name}/a.ts`), r.stderr);
  assert.ok(!r.stderr.includes("c.ts") && !r.stderr.includes("d.ts"), r.stderr);
  // broken: the check passes
  fs.writeFileSync(path.join(dir, "b/z.ts"), "export const z = 1;\n");
  assert.equal(check(dir).status, 0);
  fs.rmSync(dir, { recursive: true });
});
