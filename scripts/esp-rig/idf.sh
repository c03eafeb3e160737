#!/usr/bin/env bash
# Stage 3: ESP-IDF v5.3.x with the submodules this app's build needs, ESP-IDF's Python tools from their
# sources, and the registry components the app names laid out as plain components.
#   ESP_IDF_PATH     a git checkout of ESP-IDF at a v5.3.x tag (github.com/espressif/esp-idf); v5.3.1
#                    is what this rig was run with (README.md: with which substitutes)
#   WAMR_ROOT        WAMR 2.4 (github.com/bytecodealliance/wasm-micro-runtime): its ESP-IDF component
#   ESP_LITTLEFS_SRC optional: a checkout of joltwallet/esp_littlefs (else cloned, tag ESP_LITTLEFS_TAG)
#   ESP_PROTOCOLS_SRC optional: a checkout of espressif/esp-protocols for mdns (else cloned, tag ESP_MDNS_TAG)
# Submodules and tools missing from those are cloned through ESP_GIT_URL_TEMPLATE (env.sh).
# Not fetched: the Wi-Fi, PHY, coexistence and Bluetooth libraries (the QEMU build sets
# CONFIG_APP_NO_BLOBS: Ethernet through the emulated OpenCores MAC needs none of them; Espressif's
# esp32-wifi-lib is a 2.3 GB repository).
source "$(dirname "$0")/env.sh"
rig_need ESP_IDF_PATH "a checkout of ESP-IDF v5.3.x"
rig_need WAMR_ROOT "WAMR 2.4's source tree (its root is WAMR's ESP-IDF component)"
ver="$(sed -n 's/^set(IDF_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))/\2/p' "$ESP_IDF_PATH/tools/cmake/version.cmake" | paste -sd.)"
case "$ver" in
  5.3.*) rig_log "ESP-IDF $ver at $ESP_IDF_PATH" ;;
  *) rig_log "missing: ESP-IDF v5.3.x at ESP_IDF_PATH (found '$ver')"; exit 3 ;;
esac

# The submodules the build of this app reads (ESP-IDF's .gitmodules names their repositories).
rig_submodule "$ESP_IDF_PATH" components/heap/tlsf espressif/tlsf
rig_submodule "$ESP_IDF_PATH" components/lwip/lwip espressif/esp-lwip "${ESP_LWIP_FALLBACK:-}"
# Where a recorded commit is not to be had (a mirror older than the release), ESP_*_FALLBACK names
# what to check out instead: for mbedtls, upstream Mbed TLS at the release Espressif's fork follows
# (Mbed-TLS/mbedtls@v3.6.4 for ESP-IDF 5.3.4), for lwIP an older commit of esp-lwip.
rig_submodule "$ESP_IDF_PATH" components/mbedtls/mbedtls espressif/mbedtls "${ESP_MBEDTLS_FALLBACK:-}"
# Upstream builds the library as strict C99 (CMAKE_C_EXTENSIONS OFF), where ESP-IDF's RISC-V headers
# `asm` is no keyword; the substitute gets GNU C99, as ESP-IDF's other components have.
if ! git -C "$ESP_IDF_PATH/components/mbedtls/mbedtls" remote get-url origin | grep -q 'espressif'; then
  sed -i 's/^set(CMAKE_C_EXTENSIONS OFF)$/set(CMAKE_C_EXTENSIONS ON) # the esp-rig: ESP-IDF headers use asm/' \
    "$ESP_IDF_PATH/components/mbedtls/mbedtls/CMakeLists.txt"
fi
if [ ! -f "$ESP_IDF_PATH/components/mbedtls/mbedtls/framework/CMakeLists.txt" ]; then
  rm -rf "$ESP_IDF_PATH/components/mbedtls/mbedtls/framework"
  rig_submodule "$ESP_IDF_PATH/components/mbedtls/mbedtls" framework Mbed-TLS/mbedtls-framework
fi
rig_submodule "$ESP_IDF_PATH" components/mqtt/esp-mqtt espressif/esp-mqtt
rig_submodule "$ESP_IDF_PATH" components/json/cJSON DaveGamble/cJSON
rig_submodule "$ESP_IDF_PATH" components/bootloader/subproject/components/micro-ecc/micro-ecc kmackay/micro-ecc

# ESP-IDF's Python tools, pure Python, from their sources (their dependencies are Debian's python3-*).
py="$TESSERA_ESP_CACHE/python"
clone_tag() { # clone_tag DEST OWNER/NAME TAG
  [ -d "$1/.git" ] && return 0
  rm -rf "$1"
  git clone -q --no-checkout "$(rig_url "$2")" "$1" && git -C "$1" checkout -q "$3" ||
    { rm -rf "$1"; rig_log "missing: cannot clone $2 at $3"; exit 3; }
}
clone_tag "$py/esp-idf-kconfig" espressif/esp-idf-kconfig "${ESP_KCONFIG_TAG:-v2.5.4}"
clone_tag "$py/esptool" espressif/esptool "${ESPTOOL_TAG:-v4.12.0}"
clone_tag "$py/esp-idf-size" espressif/esp-idf-size "${ESP_IDF_SIZE_TAG:-v1.7.1}"
for mod in click serial cryptography pyparsing elftools construct yaml; do
  "$RIG_PYTHON" -c "import $mod" 2>/dev/null || { rig_log "missing Debian Python module $mod (apt-get install python3-...)"; exit 3; }
done

# The registry components, named as the component manager names them (namespace__name).
comp="$TESSERA_ESP_CACHE/components"
mkdir -p "$comp"
wamr="$comp/espressif__wasm-micro-runtime"
if [ ! -f "$wamr/Kconfig" ]; then
  # WAMR's root is its ESP-IDF component (CMakeLists.txt includes build-scripts/esp-idf/wamr); the
  # registry's package has the Kconfig at its root, so the layout links it there.
  rm -rf "$wamr" && mkdir -p "$wamr"
  for f in "$WAMR_ROOT"/*; do ln -s "$f" "$wamr/$(basename "$f")"; done
  ln -s "$WAMR_ROOT/build-scripts/esp-idf/wamr/Kconfig" "$wamr/Kconfig"
fi
littlefs="${ESP_LITTLEFS_SRC:-$comp/src/esp_littlefs}"
[ -n "${ESP_LITTLEFS_SRC:-}" ] || clone_tag "$littlefs" joltwallet/esp_littlefs "${ESP_LITTLEFS_TAG:-v1.20.4}"
rig_submodule "$littlefs" src/littlefs littlefs-project/littlefs
ln -sfn "$littlefs" "$comp/joltwallet__littlefs"
protocols="${ESP_PROTOCOLS_SRC:-$comp/src/esp-protocols}"
[ -n "${ESP_PROTOCOLS_SRC:-}" ] || clone_tag "$protocols" espressif/esp-protocols "${ESP_MDNS_TAG:-mdns-v1.11.3}"
ln -sfn "$protocols/components/mdns" "$comp/espressif__mdns"
rig_log "components: $(ls "$comp" | grep __ | tr '\n' ' ')"
