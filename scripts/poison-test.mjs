// The arena's rule checked (assembly/rt/arena.ts): the desktop host runs the black-box test files
// (scripts/black-box.mjs) against the poison image (`node scripts/build.mjs --poison`: the release
// build with asserts, whose arena fills the memory it gives back with a pattern), so a reference kept
// past its export breaks them loudly. The release image is built again afterwards, whatever the
// outcome. Test files named on the command line run instead of the whole list.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { blackBoxFiles } from "./black-box.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const named = process.argv.slice(2).filter((a) => a.endsWith(".test.ts"));
const files = named.length > 0 ? named : blackBoxFiles(ROOT).BLACK_BOX;

function build(args) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "scripts/build.mjs"), ...args], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

build(["--poison"]);
console.log(`poison image: running ${files.length} black-box test files against the desktop host`);
const env = { ...process.env };
delete env.TESSERA_HOST; // the desktop host: it loads build/controller.wasm
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files], {
  cwd: ROOT,
  stdio: "inherit",
  env,
});
build([]);
process.exit(r.status ?? 1);
