#!/usr/bin/env bash
# The whole rig, each stage skipped when its output is there (README.md): QEMU, the toolchain,
# ESP-IDF and its pieces, the app's image, a boot. Stops at the first stage whose input is missing,
# saying what (exit 3), or that fails (exit 1).
set -euo pipefail
dir="$(dirname "$0")"
for stage in qemu toolchain idf build boot; do
  "$dir/$stage.sh"
done
