#!/usr/bin/env bash
# Stage 1: Espressif's QEMU fork (qemu-system-riscv32 with the esp32c3 machine and its OpenCores
# Ethernet MAC), built once into $TESSERA_ESP_CACHE/qemu.
#   ESP_QEMU_SRC   a git checkout of Espressif's QEMU (github.com/espressif/qemu, branch esp-develop,
#                  or a fork of it that keeps hw/riscv/esp32c3.c)
# Its submodules (keycodemapdb, berkeley-softfloat-3/testfloat-3) are cloned through
# ESP_GIT_URL_TEMPLATE when missing (the two test libraries are only configured, never built, so any
# commit does); libfdt, slirp, glib, pixman and libgcrypt are Debian's.
source "$(dirname "$0")/env.sh"
rig_need ESP_QEMU_SRC "a checkout of Espressif's QEMU fork"
[ -f "$ESP_QEMU_SRC/hw/riscv/esp32c3.c" ] || { rig_log "missing: $ESP_QEMU_SRC has no hw/riscv/esp32c3.c (not Espressif's fork)"; exit 3; }

out="$TESSERA_ESP_CACHE/qemu"
bin="$out/build/qemu-system-riscv32"
if [ -x "$bin" ] && [ "${RIG_REBUILD:-}" != qemu ]; then
  rig_log "qemu: $bin is there"
  exit 0
fi
for pkg in ninja-build meson libglib2.0-dev libpixman-1-dev libslirp-dev libgcrypt20-dev libfdt-dev flex bison; do
  dpkg -s "$pkg" >/dev/null 2>&1 || { rig_log "missing Debian package $pkg (apt-get install $pkg)"; exit 3; }
done

rig_submodule "$ESP_QEMU_SRC" ui/keycodemapdb qemu/keycodemapdb
rig_submodule "$ESP_QEMU_SRC" tests/fp/berkeley-softfloat-3 qemu/berkeley-softfloat-3 any
rig_submodule "$ESP_QEMU_SRC" tests/fp/berkeley-testfloat-3 qemu/berkeley-testfloat-3 any

build() {
  mkdir -p "$out/build"
  cd "$out/build"
  if [ ! -f build.ninja ]; then
    # riscv32 only, no UI, no tools: the system's libfdt and slirp; libgcrypt for the chip's crypto blocks.
    "$ESP_QEMU_SRC/configure" --target-list=riscv32-softmmu \
      --with-git-submodules=ignore --enable-fdt=system --enable-slirp --enable-gcrypt \
      --disable-docs --disable-werror --disable-tools --disable-user --disable-sdl --disable-gtk \
      --disable-vnc --disable-opengl --disable-capstone --disable-curses --disable-xkbcommon \
      --disable-guest-agent --disable-vhost-user --disable-libusb --disable-spice
  fi
  nice -n 10 ninja -j"${RIG_JOBS:-2}" qemu-system-riscv32
}
rig_timed qemu-build build
"$bin" -machine help | grep -q esp32c3 || { rig_log "qemu: $bin has no esp32c3 machine"; exit 1; }
rig_log "qemu: $bin"
