#!/usr/bin/env bash
# Stage 4: the app (the repository's CMakeLists.txt, ESP-IDF's own CMake build, no idf.py) for the
# ESP32-C3 with sdkconfig.defaults(.esp32c3) plus this directory's sdkconfig.qemu, into
# $TESSERA_ESP_CACHE/build-c3, then one 4 MB flash image (bootloader, partition table, app) for QEMU,
# and the static sizes (esp_idf_size on the map file, what `idf.py size` prints).
#   ESP_IDF_PATH, WAMR_ROOT as for idf.sh (run first, with toolchain.sh).
source "$(dirname "$0")/env.sh"
rig_need ESP_IDF_PATH "a checkout of ESP-IDF v5.3.x (scripts/esp-rig/idf.sh)"
tc="${ESP_TOOLCHAIN:-$TESSERA_ESP_CACHE/toolchain/bin}"
[ -x "$tc/riscv32-esp-elf-gcc" ] || { rig_log "missing: $tc/riscv32-esp-elf-gcc (run scripts/esp-rig/toolchain.sh)"; exit 3; }
py="$TESSERA_ESP_CACHE/python"
[ -d "$py/esptool" ] && [ -d "$TESSERA_ESP_CACHE/components/espressif__mdns" ] ||
  { rig_log "missing: the Python tools or components (run scripts/esp-rig/idf.sh)"; exit 3; }

bld="${RIG_BUILD_DIR:-$TESSERA_ESP_CACHE/build-c3}"
export IDF_PATH="$ESP_IDF_PATH"
export PATH="$tc:$PATH"
export PYTHONPATH="$RIG_DIR/python:$py/esp-idf-kconfig:$py/esptool:$py/esp-idf-size${PYTHONPATH:+:$PYTHONPATH}"
export TESSERA_ESP_COMPONENTS="$TESSERA_ESP_CACHE/components"
# The submodules this build needs are checked out by idf.sh; the rest (Bluetooth, Wi-Fi blobs...) stay out.
export IDF_SKIP_CHECK_SUBMODULES=1
# ESP-IDF checks the compiler's version against its own release (esp-13.2.0 for 5.3) and stops on any
# other; IDF_MAINTAINER is its documented switch that makes the mismatch a warning.
[ -n "${ESP_TOOLCHAIN:-}" ] || export IDF_MAINTAINER=1


# newlib 3.3.0's <sys/dirent.h> is an #error; Espressif's newlib has the DIR of ESP-IDF's VFS, which
# ESP-IDF's own header spells out for clang: that part becomes the rig newlib's <sys/dirent.h>.
if [ -z "${ESP_TOOLCHAIN:-}" ]; then
  dirent="$TESSERA_ESP_CACHE/toolchain/newlib/riscv64-unknown-elf/include/sys/dirent.h"
  if grep -q 'not supported' "$dirent"; then
    sed -n '/^#ifdef __clang__/,/^#else \/\/ __clang__/p' "$ESP_IDF_PATH/components/newlib/platform_include/sys/dirent.h" |
      sed '1d;$d' >"$dirent.rig" && mv "$dirent.rig" "$dirent"
  fi
fi

[ -f "$REPO_ROOT/build/controller.wasm" ] && [ -f "$REPO_ROOT/build/web/web_assets.c" ] ||
  (cd "$REPO_ROOT" && node scripts/build.mjs)

# COMPONENTS=main: only main and what it requires, not every component of ESP-IDF (whose Bluetooth,
# unit-test and other submodules are not fetched).
configure() {
  cmake -S "$REPO_ROOT" -B "$bld" -G Ninja -DIDF_TARGET=esp32c3 -DPYTHON="$RIG_PYTHON" -DPYTHON_DEPS_CHECKED=1 \
    -DSDKCONFIG="$bld/sdkconfig" -DSDKCONFIG_DEFAULTS="$REPO_ROOT/sdkconfig.defaults;$RIG_DIR/sdkconfig.qemu" \
    -DCOMPONENTS=main -DCCACHE_ENABLE=0
}
[ -f "$bld/build.ninja" ] || rig_timed idf-configure configure
rig_timed idf-build nice -n 10 ninja -C "$bld" -j"${RIG_JOBS:-2}" ${RIG_NINJA_ARGS:-} all

# One flash image for QEMU: what `idf.py merge-bin` writes, from the build's flash_args.
(cd "$bld" && "$RIG_PYTHON" -m esptool --chip esp32c3 merge_bin --fill-flash-size 4MB -o flash.bin @flash_args)
"$RIG_PYTHON" -m esp_idf_size --ng "$bld/tessera.map" | tee "$bld/size.txt"
rig_log "image: $bld/flash.bin"
