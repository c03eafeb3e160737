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
for pkg in gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf newlib-source gcc-12-source; do
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
  # ESP-IDF (newlib_init.c, for newlib before 4.2) points _global_impure_ptr at its own structure at
  # start-up: Espressif's newlib has it writable, upstream's is a const pointer (in flash, on a C3).
  sed -i 's/struct _reent \*const __ATTRIBUTE_IMPURE_PTR__ _global_impure_ptr/struct _reent *__ATTRIBUTE_IMPURE_PTR__ _global_impure_ptr/' \
    "$src/newlib/libc/reent/impure.c"
  sed -i 's/^extern struct _reent \*const _global_impure_ptr /extern struct _reent *_global_impure_ptr /' \
    "$src/newlib/libc/include/sys/reent.h"
  rm -rf "$bld" && mkdir -p "$bld" && cd "$bld"
  "$src/configure" --target=riscv64-unknown-elf --prefix="$newlib" --disable-multilib \
    CC_FOR_TARGET="riscv64-unknown-elf-gcc $arch" AR_FOR_TARGET=riscv64-unknown-elf-ar \
    RANLIB_FOR_TARGET=riscv64-unknown-elf-ranlib AS_FOR_TARGET=riscv64-unknown-elf-as \
    CFLAGS_FOR_TARGET="-O2 -g -ffunction-sections -fdata-sections -D__DYNAMIC_REENT__" \
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
# What Espressif's newlib (espressif/newlib-esp32) has beyond upstream's configure options, in the
# installed headers (idempotent):
inc="$newlib/riscv64-unknown-elf/include"
# - static_assert for every C11-visible build (newlib 4's rule), so also under ESP-IDF's _GNU_SOURCE
#   when a component compiles with -std=c99 (mbedtls); 3.3.0 defines it for C11 only;
sed -i 's|^#if __STDC_VERSION__ >= 201112L && !defined __cplusplus$|#if (__STDC_VERSION__ >= 201112L \|\| defined(_GNU_SOURCE)) \&\& !defined __cplusplus|' \
  "$inc/assert.h"
# - the reentrancy structure found per task through __getreent() (ESP-IDF supplies it; libc above is
#   built with the same define);
grep -q esp-rig "$inc/newlib.h" ||
  sed -i '0,/^#define __NEWLIB_H__ 1$/s//&\n#define __DYNAMIC_REENT__ 1 \/* esp-rig: as in Espressif'"'"'s newlib *\//' "$inc/newlib.h"
# - futimens/utimensat with POSIX's `const struct timespec[2]` (newlib 4's; WAMR defines them so);
sed -i 's/^int\tutimensat (int, const char \*, const struct timespec \*, int);/int\tutimensat (int, const char *, const struct timespec [2], int);/; s/^int\tfutimens (int, const struct timespec \*);/int\tfutimens (int, const struct timespec [2]);/' \
  "$inc/sys/stat.h"
# - the POSIX features of its sys/features.h's "Espressif-specific" block (pthread.h depends on them).
grep -q esp-rig "$inc/sys/features.h" ||
  sed -i '0,/^#define _SYS_FEATURES_H$/s//&\n\/* esp-rig: Espressif-specific, as in Espressif'"'"'s newlib *\/\n#define _POSIX_THREADS 1\n#define _POSIX_TIMEOUTS 1\n#define _POSIX_TIMERS 1\n#define _POSIX_MONOTONIC_CLOCK 200112L\n#define _POSIX_CLOCK_SELECTION 200112L\n#define _UNIX98_THREAD_MUTEX_ATTRIBUTES 1/' \
    "$inc/sys/features.h"

# libstdc++ (ESP-IDF's nvs_flash is C++): GCC 12.2's libstdc++-v3 from Debian's gcc-12-source, the
# release of Debian's compiler, configured as a target library of it over this newlib.
stdcxx="$tc/libstdcxx"
build_libstdcxx() {
  local src="$tc/src/gcc-12.2.0" bld="$tc/build-libstdcxx"
  if [ ! -f "$src/libstdc++-v3/configure" ]; then
    mkdir -p "$tc/src" && tar -C "$tc/src" -xf /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz gcc-12.2.0/config \
      gcc-12.2.0/libstdc++-v3 gcc-12.2.0/libgcc gcc-12.2.0/include gcc-12.2.0/libiberty gcc-12.2.0/config-ml.in \
      gcc-12.2.0/config.sub gcc-12.2.0/config.guess gcc-12.2.0/install-sh gcc-12.2.0/ltmain.sh \
      gcc-12.2.0/mkinstalldirs gcc-12.2.0/missing gcc-12.2.0/move-if-change gcc-12.2.0/gcc/BASE-VER \
      gcc-12.2.0/gcc/DATESTAMP gcc-12.2.0/gcc/DEV-PHASE
  fi
  # an installed copy is on the wrappers' include path and would shadow the headers being built;
  # ESP-IDF's DIR (build.sh) has d_type but only three DT_ values, too few for std::filesystem
  rm -rf "$bld" "$stdcxx" && mkdir -p "$bld" && cd "$bld"
  "$src/libstdc++-v3/configure" --host=riscv64-unknown-elf --build="$(gcc -dumpmachine)" \
    --target=riscv64-unknown-elf --with-target-subdir=riscv64-unknown-elf --with-cross-host="$(gcc -dumpmachine)" \
    --prefix="$stdcxx" --disable-multilib --disable-shared --enable-static --disable-libstdcxx-pch \
    --disable-nls --with-newlib --disable-libstdcxx-verbose --disable-libstdcxx-backtrace \
    --disable-libstdcxx-filesystem-ts glibcxx_cv_dirent_d_type=no CC="$tc/bin/riscv32-esp-elf-gcc" CXX="$tc/bin/riscv32-esp-elf-g++" \
    AR=riscv64-unknown-elf-ar RANLIB=riscv64-unknown-elf-ranlib AS=riscv64-unknown-elf-as \
    CFLAGS="-Os -g -ffunction-sections -fdata-sections" CXXFLAGS="-Os -g -ffunction-sections -fdata-sections" \
    >configure.log 2>&1 || { tail -20 configure.log; exit 1; }
  nice -n 10 make -j"${RIG_JOBS:-2}" >make.log 2>&1 || { tail -30 make.log; exit 1; }
  make install >install.log 2>&1
}

# The wrappers: ESP-IDF's names, the C3's ISA, this newlib's headers (after GCC's own, as in a
# toolchain built with it) and libraries, the rv32im multilib of
# Debian's libgcc (the C3 runs rv32im code; Debian ships no rv32imc multilib), and the nosys.specs that
# ESP-IDF's link line names (empty here: ESP-IDF supplies the syscalls itself); C++ gets libstdc++.
# Debian's GCC was built without a libc, so its <limits.h> never reads the libc's (PATH_MAX...): the
# rig's <limits.h> reads both, as a GCC built over newlib does.
mkdir -p "$tc/bin" "$tc/specs" "$tc/include"
: >"$tc/specs/nosys.specs"
printf '%s\n' '/* esp-rig: GCC'"'"'s limits.h, then newlib'"'"'s (toolchain.sh) */' '#ifndef ESP_RIG_LIMITS_H' \
  '#define ESP_RIG_LIMITS_H' '#include_next <limits.h>' "#include \"$newlib/riscv64-unknown-elf/include/limits.h\"" \
  '#endif' >"$tc/include/limits.h"
cc_flags="$arch -isystem $tc/include -idirafter $newlib/riscv64-unknown-elf/include -B$tc/specs/ -L$newlib/riscv64-unknown-elf/lib -L$gcclib/rv32im/ilp32 -L$stdcxx/riscv64-unknown-elf/lib"
cxx_inc="$stdcxx/riscv64-unknown-elf/include/c++/$(riscv64-unknown-elf-gcc -dumpversion)"
for tool in gcc cpp g++ c++; do
  # C++ static destructors are registered with __cxa_atexit(..., &__dso_handle), which crtbegin.o
  # defines; ESP-IDF links without it (-nostartfiles), and Espressif's GCC (no __cxa_atexit) never
  # asks for it: the rig defines it where crtbegin.o would, at 0 (the executable itself).
  case $tool in g++ | c++) flags="-isystem $cxx_inc -isystem $cxx_inc/riscv64-unknown-elf $cc_flags -Wl,--defsym=__dso_handle=0" ;; *) flags="$cc_flags" ;; esac
  cat >"$tc/bin/riscv32-esp-elf-$tool" <<W
#!/bin/sh
exec riscv64-unknown-elf-$tool $flags "\$@"
W
done
for tool in ar as ld ld.bfd nm objcopy objdump ranlib readelf size strip addr2line gcc-ar gcc-nm gcc-ranlib c++filt strings; do
  printf '#!/bin/sh\nexec riscv64-unknown-elf-%s "$@"\n' "$tool" >"$tc/bin/riscv32-esp-elf-$tool"
done
chmod +x "$tc/bin/"*
if [ ! -f "$stdcxx/riscv64-unknown-elf/lib/libstdc++.a" ] || [ "${RIG_REBUILD:-}" = libstdcxx ]; then
  rig_timed libstdcxx-build build_libstdcxx
fi
echo 'int main(void){return 0;}' >"$tc/probe.c"
"$tc/bin/riscv32-esp-elf-gcc" -c "$tc/probe.c" -o "$tc/probe.o"
rig_log "toolchain: $tc/bin (Debian's GCC $(riscv64-unknown-elf-gcc -dumpversion), newlib 3.3.0 for rv32imc)"
