// The ESP32 build check that runs without an ESP toolchain: every C file of the ESP-IDF app (main/,
// components/, native/src, native/runtime/wamr, native/port/esp32) is compiled for a real 32-bit
// target, once per variant, with ESP-IDF v5.3.4's own flags (tools/cmake/build.cmake, the top-level
// CMakeLists.txt, tools/cmake/toolchain-esp32c3.cmake):
//   Debian's riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 (the ESP32-C3's instruction
//   set and ABI, where uint32_t is `unsigned long` as on both ESP toolchains), -std=gnu17 -Og, -Wall
//   -Werror=all -Wextra and the rest, against newlib's headers (Debian's libnewlib-dev; ESP-IDF's libc is
//   newlib) and scripts/esp-idf-declarations/: declarations copied from ESP-IDF v5.3.4's headers (and
//   lwIP's, WAMR's, LittleFS's, mdns's), each naming its source, plus an sdkconfig.h made from ESP-IDF's
//   defaults, main/Kconfig.projbuild's defaults and sdkconfig.defaults(.<target>).
// The large variant targets Xtensa (ESP32/ESP32-S3); no Xtensa compiler is packaged, so it is compiled
// with the same rv32 compiler and the ESP32-S3's sdkconfig: the same 32-bit types, its own options.
// Every file compiles to an object (so -Og's middle-end warnings show) that is thrown away; nothing links.
// The check is stricter than idf.py: a warning fails it too. It also checks that
// components/tessera/CMakeLists.txt lists every device source and only existing ones.
//
//   node scripts/esp32-check.mjs                  the whole app, both variants
//   node scripts/esp32-check.mjs --file a.c ...   only these files (tests/esp32-check.test.ts plants a bug)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CI = process.env.CI === "true";
const CC = process.env.TESSERA_RISCV_CC || "riscv64-unknown-elf-gcc";
const NEWLIB = process.env.TESSERA_NEWLIB_INCLUDE || "/usr/include/newlib";
const DECLARATIONS = "scripts/esp-idf-declarations";

/** The variants and what the ESP-IDF build would set for their target. */
const VARIANTS = [
  {
    name: "small",
    target: "esp32c3",
    symbols: ["IDF_TARGET_ESP32C3", "IDF_TARGET_ARCH_RISCV", "TESSERA_VARIANT_SMALL"],
  },
  {
    name: "large",
    target: "esp32s3",
    symbols: ["IDF_TARGET_ESP32S3", "IDF_TARGET_ARCH_XTENSA", "TESSERA_VARIANT_LARGE"],
  },
];

/** ESP-IDF's own options the code and the copied declarations refer to (their ESP-IDF v5.3.4 defaults);
 * sdkconfig.defaults(.<target>) overrides them as idf.py would. */
const IDF_CONFIG = {
  FREERTOS_HZ: 100,
  LOG_MAXIMUM_LEVEL: 3,
  LOG_TIMESTAMP_SOURCE_RTOS: 1,
  HTTPD_MAX_REQ_HDR_LEN: 512,
  HTTPD_MAX_URI_LEN: 512,
  LWIP_MAX_SOCKETS: 10,
  LWIP_MAX_ACTIVE_TCP: 16,
  LWIP_IPV4: 1,
  LWIP_IPV6: 1,
  ESP_WIFI_STATIC_RX_BUFFER_NUM: 10,
  ESP_WIFI_DYNAMIC_RX_BUFFER_NUM: 32,
  ESP_WIFI_TX_BUFFER_TYPE: 1,
  ESP_WIFI_DYNAMIC_TX_BUFFER_NUM: 32,
  ESP_WIFI_DYNAMIC_RX_MGMT_BUF: 0,
  ESP_WIFI_RX_MGMT_BUF_NUM_DEF: 5,
  ESP_WIFI_AMPDU_RX_ENABLED: 1,
  ESP_WIFI_AMPDU_TX_ENABLED: 1,
  ESP_WIFI_RX_BA_WIN: 6,
  ESP_WIFI_NVS_ENABLED: 1,
  ESP_WIFI_SOFTAP_BEACON_MAX_LEN: 752,
  ESP_WIFI_MGMT_SBUF_NUM: 32,
  ESP_WIFI_ENABLE_WPA3_SAE: 1,
  ESP_WIFI_ENTERPRISE_SUPPORT: 1,
  ESP_WIFI_ESPNOW_MAX_ENCRYPT_NUM: 7,
};

/** ESP-IDF v5.3.4's compile options for C on a chip target with the default (debug, -Og) optimisation. */
const IDF_FLAGS = [
  // tools/cmake/toolchain-esp32c3.cmake (riscv32-esp-elf-gcc's default ABI is ilp32; Debian's needs it said)
  "-march=rv32imc_zicsr_zifencei",
  "-mabi=ilp32",
  // tools/cmake/build.cmake __build_set_default_build_specifications
  "-D_GLIBCXX_USE_POSIX_SEMAPHORE",
  "-D_GLIBCXX_HAVE_POSIX_SEMAPHORE",
  "-D_GNU_SOURCE",
  "-ffunction-sections",
  "-fdata-sections",
  "-Wall",
  "-Werror=all",
  "-Wno-error=unused-function",
  "-Wno-error=unused-variable",
  "-Wno-error=unused-but-set-variable",
  "-Wno-error=deprecated-declarations",
  "-Wextra",
  "-Wno-unused-parameter",
  "-Wno-sign-compare",
  "-Wno-enum-conversion",
  "-gdwarf-4",
  "-ggdb",
  "-std=gnu17",
  // the top-level CMakeLists.txt: CONFIG_COMPILER_OPTIMIZATION_DEBUG (the default) and GCC's extra flag
  "-Og",
  "-fno-shrink-wrap",
  "-Wno-old-style-declaration",
  // tools/cmake/build.cmake: every component is built with these definitions
  "-DESP_PLATFORM",
  '-DIDF_VER="v5.3.4"',
];

/** `config NAME` blocks of a Kconfig file: their `default VALUE [if SYMBOL]` lines, in order. */
function kconfigDefaults(file) {
  const configs = new Map();
  let current = null;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const config = /^\s*config\s+(\w+)/.exec(line);
    if (config) configs.set((current = config[1]), []);
    const dflt = /^\s*default\s+(\S+)(?:\s+if\s+(\w+))?/.exec(line);
    if (dflt && current) configs.get(current).push({ value: dflt[1], when: dflt[2] });
  }
  return configs;
}

/** `CONFIG_NAME=value` lines of the sdkconfig.defaults files idf.py reads for this target, in order. */
function sdkconfigDefaults(target) {
  const values = new Map();
  for (const name of ["sdkconfig.defaults", `sdkconfig.defaults.${target}`]) {
    const file = path.join(ROOT, name);
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const m = /^CONFIG_(\w+)=(.*)$/.exec(line.trim());
      if (m) values.set(m[1], m[2]);
    }
  }
  return values;
}

function sdkconfig(variant) {
  const lines = [
    `/* sdkconfig.h for the ${variant.name} variant (${variant.target}), made by scripts/esp32-check.mjs */`,
    "#pragma once",
  ];
  const on = new Set(variant.symbols);
  const values = new Map(Object.entries(IDF_CONFIG).map(([k, v]) => [k, String(v)]));
  for (const [name, defaults] of kconfigDefaults(path.join(ROOT, "main", "Kconfig.projbuild"))) {
    const chosen = defaults.find((d) => !d.when || on.has(d.when));
    if (chosen) values.set(name, chosen.value);
  }
  const fromFiles = sdkconfigDefaults(variant.target);
  // The variant is a Kconfig choice: the last TESSERA_VARIANT_* set in the files must be this variant's.
  const variantLines = [...fromFiles].filter(([k, v]) => k.startsWith("TESSERA_VARIANT_") && v === "y");
  const chosenVariant = variantLines.length ? variantLines[variantLines.length - 1][0] : null;
  if (chosenVariant && !on.has(chosenVariant))
    throw new Error(
      `sdkconfig.defaults for ${variant.target} choose ${chosenVariant}, not the ${variant.name} variant`,
    );
  for (const [k, v] of fromFiles) if (!k.startsWith("TESSERA_VARIANT_")) values.set(k, v);
  for (const s of on) values.set(s, "y");
  lines.push(`#define CONFIG_IDF_TARGET "${variant.target}"`);
  for (const [name, value] of values) {
    if (value === "n" || (name.startsWith("TESSERA_VARIANT_") && !on.has(name))) continue;
    lines.push(`#define CONFIG_${name} ${value === "y" ? 1 : value}`);
  }
  return lines.join("\n") + "\n";
}

const cFiles = (dir) =>
  fs.existsSync(path.join(ROOT, dir))
    ? fs
        .readdirSync(path.join(ROOT, dir), { recursive: true })
        .filter((f) => String(f).endsWith(".c"))
        .map((f) => path.join(dir, String(f)))
    : [];

const SOURCES = [
  ...cFiles("main"),
  ...cFiles("components"),
  ...cFiles("native/src"),
  ...cFiles("native/runtime/wamr"),
  ...cFiles("native/port/esp32"),
  // the web app's assets as C, generated by `npm run build` (scripts/build-web.mjs), which runs first
  ...(fs.existsSync(path.join(ROOT, "build/web/web_assets.c")) ? ["build/web/web_assets.c"] : []),
].sort();

/** Every device source (but main's) is in the component's SRCS, and every SRCS entry exists. */
function checkComponentList() {
  const text = fs.readFileSync(path.join(ROOT, "components/tessera/CMakeLists.txt"), "utf8");
  const listed = [...text.matchAll(/"\$\{native\}\/([^"]+\.c)"/g)].map((m) => `native/${m[1]}`);
  const problems = [];
  for (const f of listed) if (!fs.existsSync(path.join(ROOT, f))) problems.push(`${f} is listed but does not exist`);
  if (!text.includes('"${web_assets}"') || !SOURCES.includes("build/web/web_assets.c"))
    problems.push("build/web/web_assets.c (npm run build) is not built or not in the component's SRCS");
  for (const f of SOURCES.filter((s) => s.startsWith("native/")))
    if (!listed.includes(f)) problems.push(`${f} is not in components/tessera/CMakeLists.txt`);
  return problems;
}

function missingTools() {
  const missing = [];
  if (spawnSync(CC, ["--version"], { stdio: "ignore" }).status !== 0)
    missing.push(`${CC} (apt-get install gcc-riscv64-unknown-elf)`);
  if (!fs.existsSync(path.join(NEWLIB, "stdio.h")))
    missing.push(`newlib's headers in ${NEWLIB} (apt-get install libnewlib-dev)`);
  return missing;
}

const args = process.argv.slice(2);
const only = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--file" && i + 1 < args.length) only.push(path.resolve(args[++i]));
  else {
    console.error(`esp32 check: unknown argument ${args[i]}`);
    process.exit(2);
  }
}

const missing = missingTools();
if (missing.length > 0) {
  const text = `esp32 check: missing ${missing.join(", ")}`;
  if (CI) {
    console.error(`${text}; CI=true: failing.`);
    process.exit(1);
  }
  console.log(`${text}, skipped`);
  process.exit(0);
}

let failed = 0;
if (only.length === 0)
  for (const problem of checkComponentList()) {
    console.error(`esp32 check: ${problem}`);
    failed++;
  }
const files = only.length ? only : SOURCES;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-esp32-check-"));
try {
  for (const variant of VARIANTS) {
    const dir = path.join(tmp, variant.name);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "sdkconfig.h"), sdkconfig(variant));
    // ESP-IDF's order: the build's config dir, then the components' include dirs, then the libc
    const include = [dir, DECLARATIONS, "native/include", "native/port/esp32"].flatMap((d) => ["-I", d]);
    let ok = 0;
    for (const file of files) {
      const obj = path.join(dir, "out.o");
      const cmd = [...IDF_FLAGS, "-include", `${DECLARATIONS}/newlib-esp.h`, ...include, "-isystem", NEWLIB];
      cmd.push("-c", file, "-o", obj);
      const r = spawnSync(CC, cmd, { cwd: ROOT, encoding: "utf8" });
      const warned = /\bwarning:/.test(r.stderr);
      if (r.status === 0 && !warned) ok++;
      else {
        failed++;
        const what = r.status === 0 ? "warnings (the check fails on them; idf.py would only print them)" : "errors";
        console.error(
          `esp32 check (${variant.name}, ${variant.target}): ${path.relative(ROOT, file)}: ${what}\n${r.stderr}`,
        );
      }
    }
    console.log(
      `esp32 check: ${variant.name} variant (${variant.target}, rv32imc, ESP-IDF v5.3.4 flags): ${ok}/${files.length} files compile clean`,
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
