// The ESP32 cross-compile check (scripts/esp32-check.mjs) must catch what idf.py would refuse: a
// uint32_t printed with %x is `unsigned long` on the ESP toolchains, and ESP-IDF builds with
// -Werror=all. A planted file with that bug must fail the check on both variants, the same line with
// PRIx32 must pass, and so must a socket budget below what the app opens (a static assertion in
// native/port/esp32/tessera_esp32.h), and so must a misspelt sdkconfig.defaults key or a variant's missing
// sdkconfig.defaults.<target> (idf.py would only warn). Skipped where riscv64-unknown-elf-gcc or newlib's
// headers are missing (the check says which), unless CI=true.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHECK = path.join(ROOT, "scripts", "esp32-check.mjs");

function check(source: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-planted-"));
  const file = path.join(dir, "planted.c");
  fs.writeFileSync(file, source);
  try {
    const r = spawnSync(process.execPath, [CHECK, "--file", file], { cwd: ROOT, encoding: "utf8" });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const probe = check("int tessera_planted;\n");
const skip = probe.out.includes("skipped") && process.env.CI !== "true" ? "no riscv compiler or newlib here" : false;

test("the check fails on a %x of a uint32_t, on both variants", { skip }, () => {
  const r = check(
    '#include <stdint.h>\n#include <stdio.h>\nvoid chip(char out[7], uint32_t r) { snprintf(out, 7, "%06x", r); }\n',
  );
  assert.equal(r.status, 1);
  const found = r.out.match(/format '%x' expects argument of type 'unsigned int', but argument 4 has type 'uint32_t'/g);
  assert.equal(found?.length, 2, r.out);
  assert.match(r.out, /small variant \(esp32c6.*0\/1 files compile clean/);
  assert.match(r.out, /large variant \(esp32s3.*0\/1 files compile clean/);
});

test("the same line with PRIx32 passes", { skip }, () => {
  const r = check(
    '#include <inttypes.h>\n#include <stdint.h>\n#include <stdio.h>\nvoid chip(char out[7], uint32_t r) { snprintf(out, 7, "%06" PRIx32, r); }\n',
  );
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /1\/1 files compile clean/);
});

test("a warning fails the check too (idf.py would only print it)", { skip }, () => {
  const r = check("int planted(int a) { int unused_but_set = a; unused_but_set = 2; return a; }\n");
  assert.equal(r.status, 1);
  assert.match(r.out, /warnings \(the check fails on them/);
});

test("the device's socket budget is checked against CONFIG_LWIP_MAX_SOCKETS", { skip }, () => {
  const r = check('#include "tessera_esp32.h"\n_Static_assert(ESP32_SOCKETS <= CONFIG_LWIP_MAX_SOCKETS, "budget");\n');
  assert.equal(r.status, 0, r.out);
  const low = check(
    '#include "sdkconfig.h"\n#undef CONFIG_LWIP_MAX_SOCKETS\n#define CONFIG_LWIP_MAX_SOCKETS 10\n#include "tessera_esp32.h"\n',
  );
  assert.equal(low.status, 1);
  assert.match(low.out, /CONFIG_LWIP_MAX_SOCKETS \(sdkconfig.defaults\) is below the sockets the app opens/);
});

/** The check of the sdkconfig.defaults* keys, on copies of the repository's files with `change` made to them. */
function configCheck(change: (dir: string) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tessera-sdkconfig-"));
  try {
    for (const f of fs.readdirSync(ROOT).filter((f) => f.startsWith("sdkconfig.defaults")))
      fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
    change(dir);
    const r = spawnSync(process.execPath, [CHECK, "--config-only", "--defaults", dir], { cwd: ROOT, encoding: "utf8" });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("every sdkconfig.defaults* key is an ESP-IDF option: a misspelt one fails the check", { skip }, () => {
  assert.equal(configCheck(() => {}).status, 0);
  const typo = configCheck((dir) =>
    fs.appendFileSync(path.join(dir, "sdkconfig.defaults.esp32s3"), "CONFIG_SPIRAM_MALLOC_ALWAYS_INTERNAL=4096\n"),
  );
  assert.equal(typo.status, 1);
  assert.match(typo.out, /CONFIG_SPIRAM_MALLOC_ALWAYS_INTERNAL is no option of ESP-IDF 5\.3/);
  const gone = configCheck((dir) => fs.rmSync(path.join(dir, "sdkconfig.defaults.esp32c6")));
  assert.equal(gone.status, 1);
  assert.match(gone.out, /the small variant's sdkconfig.defaults.esp32c6 is missing/);
});
