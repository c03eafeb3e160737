// The C files' formatting (.clang-format at the root), checked in `npm run lint` with warnings as errors:
// every tracked .c and .h file under FORMATTED must be as clang-format writes it. With --write it
// formats them instead; with --file PATH it checks (or formats) that one file (tests/c-format.test.ts).
// Debian's clang-format (bookworm: 14) is the reference; another version may
// place a few things differently. Without clang-format it says so and skips; with CI=true it fails.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The one list of what is formatted: folders (or files) of the repository. */
const FORMATTED = ["native", "main", "components"];
/** Declarations copied from ESP-IDF, lwIP, WAMR and others as they are (scripts/esp32-check.mjs): not ours. */
const COPIED = "native/port/esp32/esp-idf-declarations/";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CI = process.env.CI === "true";
const TOOL = process.env.CLANG_FORMAT || "clang-format";
const write = process.argv.includes("--write");
const fileArg = process.argv.indexOf("--file");

function tracked() {
  const listed = spawnSync("git", ["ls-files", "-z", "--", ...FORMATTED], { cwd: ROOT, encoding: "utf8" });
  if (listed.status !== 0) {
    console.error(`c format: git ls-files failed\n${listed.stderr}`);
    process.exit(1);
  }
  return listed.stdout
    .split("\0")
    .filter((f) => /\.[ch]$/.test(f) && !f.startsWith(COPIED))
    .sort();
}
const files = fileArg > 0 ? [path.resolve(process.argv[fileArg + 1])] : tracked();

if (spawnSync(TOOL, ["--version"], { stdio: "ignore" }).status !== 0) {
  const text = `c format: no ${TOOL} (apt-get install clang-format)`;
  if (CI) {
    console.error(`${text}; CI=true: failing.`);
    process.exit(1);
  }
  console.log(`${text}: ${files.length} files not checked`);
  process.exit(0);
}

const args = write ? ["-i", ...files] : ["--dry-run", "--Werror", ...files];
const style = `--style=file:${path.join(ROOT, ".clang-format")}`; // also for a file outside the repository
const run = spawnSync(TOOL, [style, ...args], { cwd: ROOT, encoding: "utf8" });
process.stderr.write(run.stderr ?? "");
if (run.status !== 0) {
  console.error(`c format: ${write ? "formatting failed" : "not formatted as .clang-format says (npm run format:c)"}`);
  process.exit(1);
}
console.log(`c format: ${files.length} files ${write ? "formatted" : "formatted as .clang-format says"}`);
