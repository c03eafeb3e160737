// The ESP32 build check that runs without an ESP toolchain (ESPHome style): every C file of the ESP-IDF
// app (main/, components/, native/src, native/runtime/wamr, native/port/esp32 and the POSIX store the
// device reuses) is compiled with the host's gcc, `-fsyntax-only -Wall -Werror -std=gnu11`, once per
// variant, against tests/esp-idf-api/: declarations copied from the real ESP-IDF 5.3 headers (and
// WAMR's and LittleFS's), plus an sdkconfig.h made from main/Kconfig.projbuild's defaults for the
// variant. It catches typos, wrong types and signature mismatches against the real API; it does not
// link, and sockets/pthread/POSIX come from the host's libc (ESP-IDF offers the same BSD/POSIX API).
// It also checks that components/tessera/CMakeLists.txt lists every device source and only existing ones.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CI = process.env.CI === "true";

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

/** ESP-IDF's own options the copied declarations refer to (their ESP-IDF 5.3 defaults). */
const IDF_CONFIG = {
  FREERTOS_HZ: 100,
  LOG_MAXIMUM_LEVEL: 3,
  LOG_TIMESTAMP_SOURCE_RTOS: 1,
  HTTPD_WS_SUPPORT: 1,
  HTTPD_MAX_REQ_HDR_LEN: 1024,
  HTTPD_MAX_URI_LEN: 600,
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
  ESP_WIFI_ESPNOW_MAX_ENCRYPT_NUM: 7,
};

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

function sdkconfig(variant) {
  const lines = [
    `/* sdkconfig.h for the ${variant.name} variant (${variant.target}), made by scripts/esp32-check.mjs */`,
  ];
  const on = new Set(variant.symbols);
  for (const s of on) lines.push(`#define CONFIG_${s} 1`);
  lines.push(`#define CONFIG_IDF_TARGET "${variant.target}"`);
  for (const [name, value] of Object.entries(IDF_CONFIG)) lines.push(`#define CONFIG_${name} ${value}`);
  for (const [name, defaults] of kconfigDefaults(path.join(ROOT, "main", "Kconfig.projbuild"))) {
    if (on.has(name)) continue;
    const chosen = defaults.find((d) => !d.when || on.has(d.when));
    if (!chosen || chosen.value === "n") continue;
    lines.push(`#define CONFIG_${name} ${chosen.value === "y" ? 1 : chosen.value}`);
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
  "native/port/posix/store.c",
].sort();

/** Every device source (but main's) is in the component's SRCS, and every SRCS entry exists. */
function checkComponentList() {
  const text = fs.readFileSync(path.join(ROOT, "components/tessera/CMakeLists.txt"), "utf8");
  const listed = [...text.matchAll(/"\$\{native\}\/([^"]+\.c)"/g)].map((m) => `native/${m[1]}`);
  const problems = [];
  for (const f of listed) if (!fs.existsSync(path.join(ROOT, f))) problems.push(`${f} is listed but does not exist`);
  for (const f of SOURCES.filter((s) => s.startsWith("native/")))
    if (!listed.includes(f)) problems.push(`${f} is not in components/tessera/CMakeLists.txt`);
  return problems;
}

if (spawnSync("gcc", ["--version"], { stdio: "ignore" }).status !== 0) {
  const text = "esp32 check: gcc not found (apt-get install gcc)";
  if (CI) {
    console.error(`${text}; CI=true: failing.`);
    process.exit(1);
  }
  console.log(`${text}, skipped`);
  process.exit(0);
}

let failed = 0;
for (const problem of checkComponentList()) {
  console.error(`esp32 check: ${problem}`);
  failed++;
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-esp32-check-"));
try {
  for (const variant of VARIANTS) {
    const dir = path.join(tmp, variant.name);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "sdkconfig.h"), sdkconfig(variant));
    const include = [dir, "tests/esp-idf-api", "native/include", "native/port/esp32", "native/port/posix"];
    let ok = 0;
    for (const file of SOURCES) {
      const args = ["-fsyntax-only", "-Wall", "-Werror", "-std=gnu11", ...include.flatMap((d) => ["-I", d]), file];
      const r = spawnSync("gcc", args, { cwd: ROOT, encoding: "utf8" });
      if (r.status === 0) ok++;
      else {
        failed++;
        console.error(`esp32 check (${variant.name}, ${variant.target}): ${file}\n${r.stderr}`);
      }
    }
    console.log(`esp32 check: ${variant.name} variant (${variant.target}): ${ok}/${SOURCES.length} files compile`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
