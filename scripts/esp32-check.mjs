// The ESP32 build check that runs without an ESP toolchain: every C file of the ESP-IDF app (main/,
// components/, native/src, native/runtime/wamr, native/port/esp32) is compiled for a real 32-bit
// target, once per variant, with ESP-IDF v5.3.4's own flags (tools/cmake/build.cmake, the top-level
// CMakeLists.txt, tools/cmake/toolchain-esp32c6.cmake) and the component's own definitions
// (components/tessera/CMakeLists.txt):
//   Debian's riscv64-unknown-elf-gcc -march=rv32imac_zicsr_zifencei -mabi=ilp32 (the ESP32-C6's
//   instruction set and ABI, a multilib Debian's compiler has; uint32_t is `unsigned long` as on both
//   ESP toolchains), -std=gnu17 -Og, -Wall -Werror=all -Wextra and the rest, against newlib's headers
//   (Debian's libnewlib-dev, /usr/include/newlib: one set for every multilib; ESP-IDF's libc is newlib)
//   and native/port/esp32/esp-idf-declarations/: declarations copied from ESP-IDF v5.3.4's headers (and
//   lwIP's, WAMR's, LittleFS's, mdns's), each naming its source, plus an sdkconfig.h made from ESP-IDF's
//   defaults, main/Kconfig.projbuild's defaults and sdkconfig.defaults(.<target>).
// The small variant is the ESP32-C6 (RISC-V: its own instruction set). The large one is the ESP32-S3,
// Xtensa, for which Debian packages no compiler: it is compiled with the same rv32 compiler and the S3's
// configuration (PSRAM on): the same 32-bit types, its own options, not the Xtensa compiler's warnings.
// Every file compiles to an object (so -Og's middle-end warnings show), kept in build/esp32-check/<variant>/
// for `npm run bench:ram` (their .data and .bss); nothing links. The check is stricter than idf.py: a
// warning fails it too. It also checks that components/tessera/CMakeLists.txt lists every device source
// and only existing ones, that every sdkconfig.defaults* key is an option ESP-IDF 5.3 or
// main/Kconfig.projbuild declares, and that every CONFIG_ the code reads is set for each variant or is a
// bool that may be off.
//
//   node scripts/esp32-check.mjs                  the whole app, both variants
//   node scripts/esp32-check.mjs --file a.c ...   only these files (tests/esp32-check.test.ts plants a bug)
//   node scripts/esp32-check.mjs --config-only [--defaults DIR]   only the sdkconfig.defaults* checks (of DIR's)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CI = process.env.CI === "true";
const CC = process.env.TESSERA_RISCV_CC || "riscv64-unknown-elf-gcc";
const NEWLIB = process.env.TESSERA_NEWLIB_INCLUDE || "/usr/include/newlib";
const DECLARATIONS = "native/port/esp32/esp-idf-declarations";
/** Where the sdkconfig.defaults* files are read from (--defaults DIR: tests/esp32-check.test.ts plants a typo). */
let DEFAULTS = ROOT;
/** Where the objects stay (bench/ram.ts reads them). */
const OBJECTS = path.join(ROOT, "build", "esp32-check");

/** The variants and what the ESP-IDF build would set for their target. */
const VARIANTS = [
  {
    name: "small",
    target: "esp32c6",
    march: "rv32imac_zicsr_zifencei",
    symbols: ["IDF_TARGET_ESP32C6", "IDF_TARGET_ARCH_RISCV", "TESSERA_VARIANT_SMALL"],
  },
  {
    name: "large",
    target: "esp32s3",
    march: "rv32imac_zicsr_zifencei", // Xtensa on the chip: no packaged compiler (above)
    symbols: ["IDF_TARGET_ESP32S3", "IDF_TARGET_ARCH_XTENSA", "TESSERA_VARIANT_LARGE"],
  },
];

/** ESP-IDF 5.3's options that sdkconfig.defaults* set, with the Kconfig file that declares each
 * (ESP-IDF v5.3.4 unless said): a key not here nor in main/Kconfig.projbuild is a typo the check
 * refuses (idf.py would only warn and drop it). */
const IDF_KCONFIG_KEYS = {
  ESPTOOLPY_FLASHSIZE_4MB: "components/esptool_py/Kconfig.projbuild",
  PARTITION_TABLE_CUSTOM: "components/partition_table/Kconfig.projbuild",
  PARTITION_TABLE_CUSTOM_FILENAME: "components/partition_table/Kconfig.projbuild",
  HTTPD_WS_SUPPORT: "components/esp_http_server/Kconfig",
  HTTPD_MAX_URI_LEN: "components/esp_http_server/Kconfig",
  HTTPD_MAX_REQ_HDR_LEN: "components/esp_http_server/Kconfig",
  LWIP_MAX_SOCKETS: "components/lwip/Kconfig",
  LWIP_DNS_SUPPORT_MDNS_QUERIES: "components/lwip/Kconfig",
  BOOTLOADER_APP_ROLLBACK_ENABLE: "components/bootloader/Kconfig.projbuild",
  ESP_SYSTEM_EVENT_TASK_STACK_SIZE: "components/esp_system/Kconfig",
  ESP_MAIN_TASK_STACK_SIZE: "components/esp_system/Kconfig",
  ESP_CONSOLE_USB_SERIAL_JTAG: "components/esp_system/Kconfig",
  ESP_WIFI_IRAM_OPT: "components/esp_wifi/Kconfig",
  ESP_WIFI_RX_IRAM_OPT: "components/esp_wifi/Kconfig",
  SPIRAM: "components/esp_psram/Kconfig.spiram.esp32s3 (esp32s3/Kconfig.spiram)",
  SPIRAM_MODE_QUAD: "components/esp_psram/esp32s3/Kconfig.spiram",
  SPIRAM_MODE_OCT: "components/esp_psram/esp32s3/Kconfig.spiram",
  SPIRAM_SPEED_80M: "components/esp_psram/esp32s3/Kconfig.spiram",
  SPIRAM_IGNORE_NOTFOUND: "components/esp_psram/Kconfig.spiram.common",
  SPIRAM_USE_MALLOC: "components/esp_psram/Kconfig.spiram.common",
  SPIRAM_MALLOC_ALWAYSINTERNAL: "components/esp_psram/Kconfig.spiram.common",
  SPIRAM_MALLOC_RESERVE_INTERNAL: "components/esp_psram/Kconfig.spiram.common",
  SPIRAM_TRY_ALLOCATE_WIFI_LWIP: "components/esp_psram/Kconfig.spiram.common",
  // espressif/wasm-micro-runtime 2.4: build-scripts/esp-idf/wamr/Kconfig
  WAMR_BUILD_RELEASE: "wamr Kconfig",
  WAMR_ENABLE_INTERP: "wamr Kconfig",
  WAMR_INTERP_CLASSIC: "wamr Kconfig",
  WAMR_INTERP_FAST: "wamr Kconfig",
  WAMR_INTERP_LOADER_NORMAL: "wamr Kconfig",
  WAMR_ENABLE_AOT: "wamr Kconfig",
  WAMR_ENABLE_LIBC_BUILTIN: "wamr Kconfig",
  WAMR_ENABLE_LIBC_WASI: "wamr Kconfig",
  WAMR_ENABLE_LIB_PTHREAD: "wamr Kconfig",
  WAMR_ENABLE_MULTI_MODULE: "wamr Kconfig",
};

/** ESP-IDF bools the code tests that may be off (absent from sdkconfig.h then). */
const IDF_BOOLS = ["SPIRAM", "WAMR_INTERP_FAST", "BOOTLOADER_APP_ROLLBACK_ENABLE", "MQTT_PROTOCOL_5"];

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
  ESP_WIFI_IRAM_OPT: "y",
  ESP_WIFI_RX_IRAM_OPT: "y",
  // what npm run bench:ram budgets (bench/ram.ts): espressif/mdns's Kconfig, ESP-IDF's mqtt (esp-mqtt)
  // Kconfig, and ESP-IDF's defaults of the two tasks the station example measures with
  MDNS_TASK_STACK_SIZE: 4096,
  MQTT_TASK_STACK_SIZE: 6144,
  MQTT_BUFFER_SIZE: 1024,
  LWIP_TCP_SND_BUF_DEFAULT: 5760,
};

/** ESP-IDF v5.3.4's compile options for C on a chip target with the default (debug, -Og) optimisation. */
const IDF_FLAGS = [
  // tools/cmake/toolchain-esp32c6.cmake's -march is the variant's (VARIANTS); riscv32-esp-elf-gcc's
  // default ABI is ilp32, Debian's needs it said
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

/** `config NAME` blocks of a Kconfig file: their type and `default VALUE [if SYMBOL]` lines, in order. */
function kconfig(file) {
  const configs = new Map();
  let current = null;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const config = /^\s*config\s+(\w+)/.exec(line);
    if (config) configs.set((current = config[1]), { type: null, defaults: [] });
    const type = /^\s*(bool|int|string|hex)\b/.exec(line);
    if (type && current && !configs.get(current).type) configs.get(current).type = type[1];
    const dflt = /^\s*default\s+(\S+)(?:\s+if\s+(\w+))?/.exec(line);
    if (dflt && current) configs.get(current).defaults.push({ value: dflt[1], when: dflt[2] });
  }
  return configs;
}
const PROJECT_KCONFIG = () => kconfig(path.join(ROOT, "main", "Kconfig.projbuild"));

/** The sdkconfig.defaults files idf.py reads for this target, in order. */
const defaultsFiles = (target) =>
  ["sdkconfig.defaults", `sdkconfig.defaults.${target}`].filter((f) => fs.existsSync(path.join(DEFAULTS, f)));

/** `CONFIG_NAME=value` lines of a file, in order. */
function sdkconfigLines(name) {
  const lines = [];
  for (const line of fs.readFileSync(path.join(DEFAULTS, name), "utf8").split("\n")) {
    const m = /^CONFIG_(\w+)=(.*)$/.exec(line.trim());
    if (m) lines.push([m[1], m[2]]);
  }
  return lines;
}

/** What sdkconfig.h holds for a variant: name -> value ("y", "n", a number or a quoted string). */
function configValues(variant) {
  const on = new Set(variant.symbols);
  const values = new Map(Object.entries(IDF_CONFIG).map(([k, v]) => [k, String(v)]));
  for (const [name, { defaults }] of PROJECT_KCONFIG()) {
    const chosen = defaults.find((d) => !d.when || on.has(d.when));
    if (chosen) values.set(name, chosen.value);
  }
  const fromFiles = new Map(defaultsFiles(variant.target).flatMap(sdkconfigLines));
  // The variant is a Kconfig choice: the last TESSERA_VARIANT_* set in the files must be this variant's.
  const variantLines = [...fromFiles].filter(([k, v]) => k.startsWith("TESSERA_VARIANT_") && v === "y");
  const chosenVariant = variantLines.length ? variantLines[variantLines.length - 1][0] : null;
  if (chosenVariant && !on.has(chosenVariant))
    throw new Error(
      `sdkconfig.defaults for ${variant.target} choose ${chosenVariant}, not the ${variant.name} variant`,
    );
  for (const [k, v] of fromFiles) if (!k.startsWith("TESSERA_VARIANT_")) values.set(k, v);
  for (const s of on) values.set(s, "y");
  for (const name of [...values.keys()])
    if (name.startsWith("TESSERA_VARIANT_") && !on.has(name)) values.set(name, "n");
  return values;
}

function sdkconfig(variant) {
  const lines = [
    `/* sdkconfig.h for the ${variant.name} variant (${variant.target}), made by scripts/esp32-check.mjs */`,
    "#pragma once",
    `#define CONFIG_IDF_TARGET "${variant.target}"`,
  ];
  for (const [name, value] of configValues(variant))
    if (value !== "n") lines.push(`#define CONFIG_${name} ${value === "y" ? 1 : value}`);
  return lines.join("\n") + "\n";
}

/** A file's text without its comments (C's, or CMake's #). */
function code(file) {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  if (file.endsWith(".txt")) return text.replace(/#.*$/gm, "");
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
}

/** Every sdkconfig.defaults* key is an option ESP-IDF or main/Kconfig.projbuild declares, and every CONFIG_
 * the code or the component's CMakeLists reads is set for each variant or is a bool that may be off. */
function checkConfigKeys() {
  const problems = [];
  const project = PROJECT_KCONFIG();
  const files = fs.readdirSync(DEFAULTS).filter((f) => /^sdkconfig\.defaults(\..+)?$/.test(f));
  for (const file of files)
    for (const [key] of sdkconfigLines(file))
      if (!project.has(key) && !(key in IDF_KCONFIG_KEYS))
        problems.push(`${file}: CONFIG_${key} is no option of ESP-IDF 5.3 or main/Kconfig.projbuild (a typo?)`);
  for (const v of VARIANTS)
    if (!files.includes(`sdkconfig.defaults.${v.target}`))
      problems.push(`the ${v.name} variant's sdkconfig.defaults.${v.target} is missing`);
  const bools = new Set([...IDF_BOOLS, ...[...project].filter(([, c]) => c.type === "bool").map(([k]) => k)]);
  const readers = [...SOURCES, ...headers(), "components/tessera/CMakeLists.txt"].filter(
    (f) => !f.startsWith(DECLARATIONS) && !f.startsWith("build/"),
  );
  for (const variant of VARIANTS) {
    const values = configValues(variant);
    for (const file of readers)
      for (const [, name] of code(file).matchAll(/\bCONFIG_(\w+)/g)) {
        const set = values.has(name) && values.get(name) !== "n";
        if (!set && !bools.has(name) && !name.startsWith("IDF_TARGET") && name !== "IDF_TARGET")
          problems.push(`${file} reads CONFIG_${name}, which the ${variant.name} variant neither sets nor defaults`);
      }
  }
  return [...new Set(problems)];
}

const cFiles = (dir) =>
  fs.existsSync(path.join(ROOT, dir))
    ? fs
        .readdirSync(path.join(ROOT, dir), { recursive: true })
        .filter((f) => String(f).endsWith(".c"))
        .map((f) => path.join(dir, String(f)))
    : [];

/** The headers the device code includes (for the CONFIG_ check). */
const headers = () =>
  ["native/include", "native/runtime/wamr", "native/port/esp32"].flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith(".h"))
      .map((f) => path.join(dir, f)),
  );

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
let configOnly = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--file" && i + 1 < args.length) only.push(path.resolve(args[++i]));
  else if (args[i] === "--config-only") configOnly = true;
  else if (args[i] === "--defaults" && i + 1 < args.length) DEFAULTS = path.resolve(args[++i]);
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

/** The definitions components/tessera/CMakeLists.txt gives every file, for this variant's options. */
function componentDefinitions(values) {
  const text = fs.readFileSync(path.join(ROOT, "components/tessera/CMakeLists.txt"), "utf8");
  const defs = [];
  if (text.includes("PRIVATE TESSERA_WAMR_PORT_HEAP=1")) defs.push("-DTESSERA_WAMR_PORT_HEAP=1");
  if (values.get("WAMR_INTERP_FAST") === "y" && text.includes("TESSERA_WAMR_FAST_INTERP=1"))
    defs.push("-DTESSERA_WAMR_FAST_INTERP=1");
  return defs;
}

let failed = 0;
if (only.length === 0)
  for (const problem of [...(configOnly ? [] : checkComponentList()), ...checkConfigKeys()]) {
    console.error(`esp32 check: ${problem}`);
    failed++;
  }
if (configOnly) {
  console.log(`esp32 check: sdkconfig.defaults* keys and the code's CONFIG_ reads: ${failed} problems`);
  process.exit(failed ? 1 : 0);
}
const files = only.length ? only : SOURCES;
// The planted files of tests/esp32-check.test.ts build in a temporary folder; the app in build/esp32-check.
const out = only.length ? fs.mkdtempSync(path.join(os.tmpdir(), "tessera-esp32-check-")) : OBJECTS;
try {
  for (const variant of VARIANTS) {
    const dir = path.join(out, variant.name);
    if (!only.length) fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "sdkconfig.h"), sdkconfig(variant));
    // ESP-IDF's order: the build's config dir, then the components' include dirs, then the libc
    const include = [dir, DECLARATIONS, "native/include", "native/port/esp32", "native/runtime/wamr"].flatMap((d) => [
      "-I",
      d,
    ]);
    const defs = componentDefinitions(configValues(variant));
    const cflags = [`-march=${variant.march}`, ...IDF_FLAGS, ...defs, "-include", `${DECLARATIONS}/newlib-esp.h`];
    cflags.push(...include, "-isystem", NEWLIB);
    // bench/ram.ts evaluates the port's constants with the same compiler and flags
    fs.writeFileSync(path.join(dir, "cflags.json"), JSON.stringify({ cc: CC, cflags, target: variant.target }));
    let ok = 0;
    for (const file of files) {
      const obj = path.join(dir, `${path.relative(ROOT, file).replace(/[\\/]/g, "__")}.o`);
      const cmd = [...cflags, "-c", file, "-o", obj];
      const r = spawnSync(CC, cmd, { cwd: ROOT, encoding: "utf8" });
      const warned = /\bwarning:/.test(r.stderr);
      if (r.status === 0 && !warned) ok++;
      else {
        failed++;
        fs.rmSync(obj, { force: true });
        const what = r.status === 0 ? "warnings (the check fails on them; idf.py would only print them)" : "errors";
        console.error(
          `esp32 check (${variant.name}, ${variant.target}): ${path.relative(ROOT, file)}: ${what}\n${r.stderr}`,
        );
      }
    }
    console.log(
      `esp32 check: ${variant.name} variant (${variant.target}, ${variant.march.split("_")[0]}, ESP-IDF v5.3.4 flags): ${ok}/${files.length} files compile clean`,
    );
  }
} finally {
  if (only.length) fs.rmSync(out, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
