// The C unit tests of the portable layer (native/test/test_*.c): each is compiled with the host's C
// compiler, -Wall -Wextra -Werror, AddressSanitizer and UndefinedBehaviorSanitizer, together with the
// native/src files its first line names (`/* sources: a.c b.c`), and run. They test what the ESP32 port
// builds on but what can run here: the WebSocket send queue, bounded socket waits, the self-update
// protocol, the Wi-Fi retry policy, the file store (some on real Linux sockets as stand-ins for lwIP's).
// Without a C compiler it says so and skips; with CI=true it fails instead.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CI = process.env.CI === "true";
const CC = process.env.CC || "cc";
const DIR = path.join(ROOT, "native", "test");

const tests = fs
  .readdirSync(DIR)
  .filter((f) => /^test_.*\.c$/.test(f))
  .sort();

if (spawnSync(CC, ["--version"], { stdio: "ignore" }).status !== 0) {
  const text = `c unit tests: no C compiler (${CC}; apt-get install gcc)`;
  if (CI) {
    console.error(`${text}; CI=true: failing.`);
    process.exit(1);
  }
  console.log(`${text}: ${tests.length} files skipped`);
  process.exit(0);
}

const flags = ["-std=gnu17", "-Wall", "-Wextra", "-Werror", "-g", "-O1", "-pthread"];
const sanitize = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-c-unit-"));
let passed = 0;
let failed = 0;
try {
  for (const test of tests) {
    const text = fs.readFileSync(path.join(DIR, test), "utf8");
    const sources = (/^\/\* sources:([^\n*]*)/.exec(text)?.[1] ?? "").trim().split(/\s+/).filter(Boolean);
    const exe = path.join(tmp, test.replace(/\.c$/, ""));
    const args = [...flags, ...sanitize, "-I", "native/include", "-I", "native/test", `native/test/${test}`];
    for (const s of sources) args.push(`native/src/${s}`);
    args.push("-o", exe);
    const build = spawnSync(CC, args, { cwd: ROOT, encoding: "utf8" });
    if (build.status !== 0) {
      console.error(`c unit tests: ${test} does not compile\n${build.stderr}`);
      failed++;
      continue;
    }
    const run = spawnSync(exe, [], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60000,
      env: { ...process.env, ASAN_OPTIONS: "detect_leaks=1", UBSAN_OPTIONS: "print_stacktrace=1" },
    });
    process.stdout.write(run.stdout ?? "");
    if (run.status === 0) passed++;
    else {
      failed++;
      console.error(`c unit tests: ${test} failed (${run.status ?? run.signal})\n${run.stderr ?? ""}`);
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`c unit tests: ${passed} files passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
