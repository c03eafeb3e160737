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

/** A test's header lines: `sources:` (files of native/src, or paths from there), `flags:` (more compiler
 * arguments), `variants:` (sets of arguments separated by |: the test is built and run once with each),
 * `wamr` (it links WAMR's runtime library, built from WAMR_ROOT by native/test/wamr/CMakeLists.txt; a variant
 * with the word `wamr:fast` links the fast interpreter's). */
function header(text) {
  const head = text.slice(0, text.indexOf("*/") + 2);
  const line = (name) => new RegExp(`^(?:/\\*| \\*) ${name}:([^\\n]*)`, "m").exec(head)?.[1]?.trim() ?? "";
  const words = (t) => t.split(/\s+/).filter(Boolean);
  return {
    sources: words(line("sources").replace(/\*\/.*/, "")),
    flags: words(line("flags")),
    variants: line("variants") ? line("variants").split("|").map(words) : [[]],
    wamr: /^ \* wamr$/m.test(head),
  };
}

/** WAMR's library for the tests that need it, built once per interpreter (native/build-c-unit-wamr[-fast]);
 * { skip } or { error } when it cannot be. */
const wamrLibs = new Map();
function wamr(interp) {
  if (wamrLibs.has(interp)) return wamrLibs.get(interp);
  const root = process.env.WAMR_ROOT;
  const done = (lib) => (wamrLibs.set(interp, lib), lib);
  if (!root || !fs.existsSync(path.join(root, "build-scripts/runtime_lib.cmake")))
    return done({ skip: "set WAMR_ROOT=<a WAMR source tree> (outside this repository)" });
  const dir = path.join(ROOT, "native", interp === "fast" ? "build-c-unit-wamr-fast" : "build-c-unit-wamr");
  const configure = ["-S", path.join(DIR, "wamr"), "-B", dir, `-DWAMR_ROOT=${root}`, "-DCMAKE_BUILD_TYPE=Release"];
  configure.push(`-DTESSERA_WAMR_FAST=${interp === "fast" ? "ON" : "OFF"}`);
  for (const [cmd, args] of [
    ["cmake", configure],
    ["cmake", ["--build", dir, "-j2"]],
  ]) {
    const r = spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) return done({ error: `${cmd} ${args.join(" ")}\n${r.stdout}${r.stderr}` });
  }
  return done({
    include: ["-I", path.join(root, "core/iwasm/include")],
    link: [path.join(dir, "libvmlib.a"), "-lm", "-ldl"],
  });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-c-unit-"));
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  for (const test of tests) {
    const spec = header(fs.readFileSync(path.join(DIR, test), "utf8"));
    for (const [v, words] of spec.variants.entries()) {
      // a variant's `wamr:fast` picks WAMR's fast interpreter; the rest are compiler arguments
      const variant = words.filter((w) => !w.startsWith("wamr:"));
      const interp = words.includes("wamr:fast") ? "fast" : "classic";
      const name = spec.variants.length > 1 ? `${test} (${words.join(" ")})` : test;
      const runtime = spec.wamr ? wamr(interp) : { include: [], link: [] };
      if (runtime.skip) {
        console.log(`c unit tests: ${name} skipped: ${runtime.skip}`);
        skipped++;
        continue;
      }
      if (runtime.error) {
        console.error(`c unit tests: ${name}: WAMR's library does not build\n${runtime.error}`);
        failed++;
        continue;
      }
      const exe = path.join(tmp, `${test.replace(/\.c$/, "")}-${v}`);
      const args = [...flags, ...sanitize, ...spec.flags, ...variant, ...runtime.include];
      args.push("-I", "native/include", "-I", "native/test", `native/test/${test}`);
      for (const s of spec.sources) args.push(`native/src/${s}`);
      args.push(...runtime.link, "-o", exe);
      const build = spawnSync(CC, args, { cwd: ROOT, encoding: "utf8" });
      if (build.status !== 0) {
        console.error(`c unit tests: ${name} does not compile\n${build.stderr}`);
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
        console.error(`c unit tests: ${name} failed (${run.status ?? run.signal})\n${run.stderr ?? ""}`);
      }
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`c unit tests: ${passed} runs passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed ? 1 : 0);
