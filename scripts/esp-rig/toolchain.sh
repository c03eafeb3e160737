#!/usr/bin/env bash
# Stage 2: a RISC-V toolchain ESP-IDF accepts for the ESP32-C3, in $TESSERA_ESP_CACHE/toolchain:
# Debian's gcc-riscv64-unknown-elf (GCC 12.2, binutils 2.40) under the names ESP-IDF's
# toolchain-esp32c3.cmake expects (riscv32-esp-elf-*), with a newlib 3.3.0 built for rv32imc/ilp32
# from Debian's newlib-source with the options of Espressif's crosstool-NG configuration
# (samples/riscv32-esp-elf: reent-small, retargetable locking, no supplied syscalls, C99/long-long/
# positional printf, nano malloc). 3.3.0 is also the newlib in the ESP32-C3's ROM.
#   ESP_TOOLCHAIN  optional: a directory with a real riscv32-esp-elf-gcc (Espressif's release); then
#                  nothing is built and the rig uses it.
# Why not Espressif's own: its crosstool-NG build compiles GCC, binutils and gdb (hours on 2 cores);
# Debian's compiler has no rv32imc multilib and no newlib for RISC-V, so only newlib is built (minutes).
source "$(dirname "$0")/env.sh"

tc="$TESSERA_ESP_CACHE/toolchain"
if [ -n "${ESP_TOOLCHAIN:-}" ]; then
  [ -x "$ESP_TOOLCHAIN/riscv32-esp-elf-gcc" ] || { rig_log "missing: $ESP_TOOLCHAIN/riscv32-esp-elf-gcc"; exit 3; }
  rig_log "toolchain: Espressif's, $ESP_TOOLCHAIN"
  exit 0
fi
for pkg in gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf newlib-source; do
  dpkg -s "$pkg" >/dev/null 2>&1 || { rig_log "missing Debian package $pkg (apt-get install $pkg)"; exit 3; }
done

arch="-march=rv32imc_zicsr_zifencei -mabi=ilp32"
newlib="$tc/newlib"
gcclib="$(dirname "$(riscv64-unknown-elf-gcc -print-libgcc-file-name)")"

build_newlib() {
  local src="$tc/src/newlib" bld="$tc/build-newlib"
  if [ ! -f "$src/newlib/configure" ]; then
    rm -rf "$src" && mkdir -p "$src"
    tar -C "$src" --strip-components=1 -xf /usr/src/newlib/newlib-3.3.0.tar.xz
  fi
  rm -rf "$bld" && mkdir -p "$bld" && cd "$bld"
  "$src/configure" --target=riscv64-unknown-elf --prefix="$newlib" --disable-multilib \
    CC_FOR_TARGET="riscv64-unknown-elf-gcc $arch" AR_FOR_TARGET=riscv64-unknown-elf-ar \
    RANLIB_FOR_TARGET=riscv64-unknown-elf-ranlib AS_FOR_TARGET=riscv64-unknown-elf-as \
    CFLAGS_FOR_TARGET="-O2 -g -ffunction-sections -fdata-sections" \
    --enable-newlib-reent-small --disable-newlib-supplied-syscalls --enable-newlib-io-c99-formats \
    --enable-newlib-io-long-long --enable-newlib-io-float --enable-newlib-io-pos-args \
    --disable-newlib-wide-orient --enable-newlib-nano-malloc --enable-newlib-retargetable-locking \
    --enable-newlib-iconv --disable-libgloss >configure.log 2>&1
  nice -n 10 make -j"${RIG_JOBS:-2}" all-target-newlib >make.log 2>&1 || { tail -30 make.log; exit 1; }
  make install-target-newlib >install.log 2>&1
}
if [ ! -f "$newlib/riscv64-unknown-elf/lib/libc.a" ] || [ "${RIG_REBUILD:-}" = newlib ]; then
  rig_timed newlib-build build_newlib
fi

# The wrappers: ESP-IDF's names, the C3's ISA, this newlib's headers and libraries, the rv32im multilib of
# Debian's libgcc (the C3 runs rv32im code; Debian ships no rv32imc multilib), and the nosys.specs that
# ESP-IDF's link line names (empty here: ESP-IDF supplies the syscalls itself).
mkdir -p "$tc/bin" "$tc/specs"
: >"$tc/specs/nosys.specs"
cc_flags="$arch -isystem $newlib/riscv64-unknown-elf/include -B$tc/specs/ -L$newlib/riscv64-unknown-elf/lib -L$gcclib/rv32im/ilp32"
for tool in gcc g++ c++ cpp; do
  cat >"$tc/bin/riscv32-esp-elf-$tool" <<W
#!/bin/sh
exec riscv64-unknown-elf-$tool $cc_flags "\$@"
W
done
for tool in ar as ld ld.bfd nm objcopy objdump ranlib readelf size strip addr2line gcc-ar gcc-nm gcc-ranlib c++filt strings; do
  printf '#!/bin/sh\nexec riscv64-unknown-elf-%s "$@"\n' "$tool" >"$tc/bin/riscv32-esp-elf-$tool"
done
chmod +x "$tc/bin/"*
echo 'int main(void){return 0;}' >"$tc/probe.c"
"$tc/bin/riscv32-esp-elf-gcc" -c "$tc/probe.c" -o "$tc/probe.o"
rig_log "toolchain: $tc/bin (Debian's GCC $(riscv64-unknown-elf-gcc -dumpversion), newlib 3.3.0 for rv32imc)"
