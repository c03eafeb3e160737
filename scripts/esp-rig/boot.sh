#!/usr/bin/env bash
# Stage 5: boots build.sh's flash image in qemu.sh's qemu-system-riscv32 (machine esp32c3), the console
# (UART0) into $TESSERA_ESP_CACHE/boot.log, the device's port 80 forwarded to 127.0.0.1:$RIG_HTTP_PORT
# (QEMU's user network, which also answers the device's DHCP), for $RIG_BOOT_SECONDS (default 60; 0:
# until stopped), then prints what the firmware logged: the core's start, the address, the heap lines.
source "$(dirname "$0")/env.sh"
qemu="$TESSERA_ESP_CACHE/qemu/build/qemu-system-riscv32"
bld="${RIG_BUILD_DIR:-$TESSERA_ESP_CACHE/build-c3}"
[ -x "$qemu" ] || { rig_log "missing: $qemu (run scripts/esp-rig/qemu.sh)"; exit 3; }
[ -f "$bld/flash.bin" ] || { rig_log "missing: $bld/flash.bin (run scripts/esp-rig/build.sh)"; exit 3; }
log="$TESSERA_ESP_CACHE/boot.log"
# QEMU writes to the image (NVS, LittleFS, otadata): each boot starts from a copy of the built one
# unless RIG_KEEP_FLASH=1.
[ "${RIG_KEEP_FLASH:-}" = 1 ] && [ -f "$bld/flash-run.bin" ] || cp "$bld/flash.bin" "$bld/flash-run.bin"
secs="${RIG_BOOT_SECONDS:-60}"
run=("$qemu" -nographic -M esp32c3 -drive "file=$bld/flash-run.bin,if=mtd,format=raw"
  -nic "user,model=open_eth,hostfwd=tcp:127.0.0.1:${RIG_HTTP_PORT:-18080}-:80" -serial "file:$log" -monitor none)
rig_log "booting (console in $log)"
if [ "$secs" = 0 ]; then exec "${run[@]}"; fi
timeout "$secs" "${run[@]}" || true
grep -a -E 'boot: Loaded app|esp_littlefs|tessera|eth:|heap |abort|Guru|overflow|opencores' "$log" | head -40
