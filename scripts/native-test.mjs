// Builds the native POSIX host (native/: wasm2c, libmosquitto, libmdnsd) with CMake and runs
// the black-box test files against it (TESSERA_HOST). Where cmake, wasm2c or a library is missing it
// says so and counts the files as skipped; with CI=true it fails instead. `--sanitize` (or
// TESSERA_SANITIZE=1) builds with AddressSanitizer + UndefinedBehaviorSanitizer into native/build-asan
// (CI's sanitizer step, .ci/run). Test files named on the command line run instead of the whole suite.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { blackBoxFiles } from "./black-box.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CI = process.env.CI === "true";
const SANITIZE = process.env.TESSERA_SANITIZE === "1" || process.argv.includes("--sanitize");
const args = process.argv.slice(2).filter((a) => a !== "--sanitize");
// test files named on the command line run alone; the other arguments go to node --test
const named = args.filter((a) => a.endsWith(".test.ts"));
const testArgs = args.filter((a) => !a.endsWith(".test.ts"));
// WAMR_ROOT=<a WAMR source tree outside this repository>: run the core under WAMR's classic interpreter
// (the device default), or its fast one with TESSERA_WAMR_INTERP=fast.
const WAMR_ROOT = process.env.WAMR_ROOT;
const WAMR_INTERP = process.env.TESSERA_WAMR_INTERP === "fast" ? "fast" : "classic";
const WAMR_BUILD = WAMR_INTERP === "fast" ? "build-wamr-fast" : "build-wamr";
// WASM3_ROOT=<a wasm3 source tree outside this repository>: run the core under wasm3 instead (measured
// beside WAMR, docs/device-memory.md; WAMR stays the device runtime).
const WASM3_ROOT = process.env.WASM3_ROOT;
const RUNTIME_BUILD = WAMR_ROOT ? WAMR_BUILD : WASM3_ROOT ? "build-wasm3" : "build-posix";
const BUILD = path.join(ROOT, "native", SANITIZE ? "build-asan" : RUNTIME_BUILD);

const { BLACK_BOX, DESKTOP_ONLY_FILES } = blackBoxFiles(ROOT);

function have(cmd, args = ["--version"]) {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return r.status === 0;
}

const missing = [];
if (!have("cmake")) missing.push("cmake (apt-get install cmake)");
if (!have("wasm2c")) missing.push("wasm2c (apt-get install wabt)");
if (!have("cc")) missing.push("a C compiler (apt-get install gcc)");
const header = (name) => fs.existsSync(`/usr/include/${name}`) || fs.existsSync(`/usr/local/include/${name}`);
if (!header("mosquitto.h")) missing.push("libmosquitto (apt-get install libmosquitto-dev)");
if (!header("libmdnsd/mdnsd.h")) missing.push("libmdnsd (apt-get install libmdnsd-dev)");

const files = named.length > 0 ? named : BLACK_BOX;

if (missing.length > 0) {
  const text = `native host: cannot build, missing ${missing.join(", ")}`;
  if (CI) {
    console.error(`${text}\nCI=true: the native tests must run, failing.`);
    process.exit(1);
  }
  console.log(`${text}\nnative host: skipping ${files.length} black-box test files`);
  console.log(`native: 0 passed, 0 failed, ${files.length} skipped`);
  process.exit(0);
}

function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", env });
  if (r.status !== 0) {
    console.error(`native host: ${cmd} ${args.join(" ")} failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const configure = ["-S", "native", "-B", BUILD, "-DCMAKE_BUILD_TYPE=Release"];
if (SANITIZE) configure.push("-DTESSERA_SANITIZE=ON");
if (WAMR_ROOT)
  configure.push("-DTESSERA_RUNTIME=wamr", `-DWAMR_ROOT=${WAMR_ROOT}`, `-DTESSERA_WAMR_INTERP=${WAMR_INTERP}`);
else if (WASM3_ROOT) configure.push("-DTESSERA_RUNTIME=wasm3", `-DWASM3_ROOT=${WASM3_ROOT}`);
run("cmake", configure);
run("cmake", ["--build", BUILD, "--parallel", "2"]);

const host = path.join(BUILD, "tessera-host");
console.log(`native host: running ${files.length} black-box test files against ${path.relative(ROOT, host)}`);
if (DESKTOP_ONLY_FILES.length > 0)
  console.log(
    `native host: skipping ${DESKTOP_ONLY_FILES.length} desktop-only files: ${DESKTOP_ONLY_FILES.join(", ")}`,
  );
const env = { ...process.env, TESSERA_HOST: host };
if (SANITIZE) {
  // A finding stops the host (so its tests fail) and is also written to native/build-asan/report.*
  env.ASAN_OPTIONS = `detect_leaks=0:halt_on_error=1:log_path=${path.join(BUILD, "report")}`;
  env.UBSAN_OPTIONS = `halt_on_error=1:print_stacktrace=1:log_path=${path.join(BUILD, "report")}`;
}
const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", ...files, ...testArgs], {
  cwd: ROOT,
  stdio: "inherit",
  env,
});
process.exit(r.status ?? 1);
