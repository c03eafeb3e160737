# Sourced by every stage of the ESP-IDF + QEMU rig (scripts/esp-rig/README.md). Nothing third-party is
# kept in the repository: each piece is expected at a path given by a variable, and whatever the rig
# builds goes under $TESSERA_ESP_CACHE.
set -euo pipefail

RIG_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$RIG_DIR/../.." && pwd)"
TESSERA_ESP_CACHE="${TESSERA_ESP_CACHE:-$HOME/.cache/tessera-esp}"
# Where a missing git submodule is cloned from: {owner} and {name} are replaced by the submodule's
# GitHub owner and repository (from .gitmodules). The default is GitHub itself; a machine with local
# mirrors sets e.g. ESP_GIT_URL_TEMPLATE='/srv/mirror/{owner}+{name}/repo'.
rig_github='https://github.com/{owner}/{name}.git'
ESP_GIT_URL_TEMPLATE="${ESP_GIT_URL_TEMPLATE:-$rig_github}"
# Debian's interpreter: the Python packages the rig uses are Debian's python3-* (no Python registry).
RIG_PYTHON="${RIG_PYTHON:-/usr/bin/python3}"
mkdir -p "$TESSERA_ESP_CACHE"

rig_log() { printf '[esp-rig] %s\n' "$*" >&2; }

# rig_need VAR "what it is": stops the rig with a clear message when VAR is unset or not a directory.
rig_need() {
  local var="$1" what="$2" val="${!1:-}"
  if [ -z "$val" ]; then
    rig_log "skipped: $var is not set ($what)"
    exit 3
  fi
  if [ ! -e "$val" ]; then
    rig_log "missing: $var=$val does not exist ($what)"
    exit 3
  fi
}

# rig_url owner/name: the clone URL of a GitHub repository through ESP_GIT_URL_TEMPLATE.
rig_url() {
  local owner="${1%%/*}" name="${1#*/}"
  name="${name%.git}"
  printf '%s\n' "$ESP_GIT_URL_TEMPLATE" | sed -e "s|{owner}|$owner|g" -e "s|{name}|$name|g"
}

# rig_submodule TREE PATH OWNER/NAME [FALLBACK]: checks out the commit TREE records for its submodule
# PATH from OWNER/NAME, unless PATH already holds files. Idempotent. FALLBACK is what to check out
# when that commit is not in the repository: OWNER2/NAME2@REF (another repository's tag or commit), or
# `any` for OWNER/NAME's default branch (for sources only configured, never built); it is logged, as it
# is a different source from the recorded one.
rig_submodule() {
  local tree="$1" path="$2" repo="$3" fallback="${4:-}"
  if [ -n "$(ls -A "$tree/$path" 2>/dev/null | grep -v '^.git$')" ]; then
    return 0
  fi
  local commit url
  commit="$(git -C "$tree" ls-tree HEAD "$path" | awk '{print $3}')"
  [ -n "$commit" ] || { rig_log "missing: $tree records no submodule at $path"; exit 3; }
  url="$(rig_url "$repo")"
  rig_log "submodule $path <- $url @ $commit"
  rm -rf "${tree:?}/$path"
  if git clone -q --no-checkout "$url" "$tree/$path" && ! git -C "$tree/$path" checkout -q "$commit" 2>/dev/null &&
    [ -n "$fallback" ]; then
    if [ "$fallback" = any ]; then
      git -C "$tree/$path" checkout -q HEAD -- .
    else
      rm -rf "${tree:?}/$path"
      git clone -q --no-checkout "$(rig_url "${fallback%@*}")" "$tree/$path" &&
        git -C "$tree/$path" checkout -q "${fallback#*@}" || rm -rf "${tree:?}/$path"
    fi
    rig_log "SUBSTITUTE: $path: $commit is not in $url; checked out $fallback instead"
  fi
  if [ -z "$(ls -A "$tree/$path" 2>/dev/null | grep -v '^.git$')" ]; then
    rm -rf "${tree:?}/$path"
    rig_log "missing: cannot clone $url at $commit for $path (set ESP_GIT_URL_TEMPLATE, or check it out there by hand)"
    exit 3
  fi
}

# rig_timed NAME CMD...: runs CMD and appends its wall time to $TESSERA_ESP_CACHE/durations.log.
rig_timed() {
  local name="$1" start end
  shift
  start=$(date +%s)
  "$@"
  end=$(date +%s)
  printf '%s\t%s\t%ss\t(%s cores)\n' "$(date -u +%FT%TZ)" "$name" "$((end - start))" "$(nproc)" \
    >>"$TESSERA_ESP_CACHE/durations.log"
  rig_log "$name took $((end - start)) s"
}
