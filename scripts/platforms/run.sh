#!/usr/bin/env bash
# `npm run test:platforms`: builds ds-element and runs its suite on several Debian releases, each
# in a folder of its own (docs/platforms.md):
#
#   npm run test:platforms                          # this machine, then Debian 13 and sid
#   npm run test:platforms -- trixie                # one release only
#   npm run test:platforms -- sid --portable-only -- test/pipeline.test.ts   # vitest arguments after --
#   npm run test:platforms -- trixie --deepstream-only  # the DeepStream backend's step only
#   npm run test:platforms -- arm64                 # cross-built for aarch64, run under qemu-user
#
# `host` is this machine as it is (scripts/setup.sh here). Any other name is a Debian suite:
# scripts/platforms/root.sh makes it once (mmdebstrap) in the cache folder (DS_PLATFORMS_CACHE,
# default .cache/platforms), this checkout's files (tracked and untracked, not the git-ignored
# ones) are copied into it, and scripts/platforms/suite.sh runs there under chroot with /proc,
# /sys and /dev mounted and ../shared (NVIDIA's DeepStream source) bound read-only beside the
# copy. node_modules and the builds stay in the copy between runs, apart from this checkout's.
# Needs root (or sudo) for mmdebstrap, mount and chroot.
#
# Prints a table: platform, GStreamer, the embedded libnode, then per step the exit status,
# passed / failed / skipped tests and minutes. Exits 1 when any step failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

log() { printf '\033[1m[platforms]\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

platforms=() suite_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --portable-only | --deepstream-only) suite_args+=("$1") ;;
    --) break ;;
    -*) echo "test:platforms: unknown option $1" >&2; exit 2 ;;
    *) platforms+=("$1") ;;
  esac
  shift
done
suite_args+=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(host trixie sid)
cache=${DS_PLATFORMS_CACHE:-$repo/.cache/platforms}
results_root="$cache/results"

mounted=()
unmount_all() {
  local i
  # Lazily when busy: after an interrupt, processes in the root may still be on their way out.
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    as_root umount -R "${mounted[i]}" 2>/dev/null || as_root umount -R -l "${mounted[i]}" || true
  done
  mounted=()
}
trap unmount_all EXIT
trap 'exit 130' INT TERM HUP # so that EXIT's unmounting runs on these too

mount_into() { # mount_into ROOT — /proc, /sys, /dev (with /dev/shm and /dev/pts), ../shared read-only
  local root=$1
  [ -d "$root" ] && [ "$(cd "$root" && pwd -P)" != / ] || { echo "test:platforms: no root folder '$root'" >&2; return 1; }
  as_root mount -t proc proc "$root/proc" && mounted+=("$root/proc")
  as_root mount --rbind /sys "$root/sys" && as_root mount --make-rslave "$root/sys" && mounted+=("$root/sys")
  as_root mount --rbind /dev "$root/dev" && as_root mount --make-rslave "$root/dev" && mounted+=("$root/dev")
  # This machine's npm cache (npm ci filled it before): the root's npm ci takes the packages
  # from there (npm_config_prefer_offline below) rather than from the registry again.
  local npm_cache
  npm_cache=$(npm config get cache 2>/dev/null || true)
  if [ -d "$npm_cache" ]; then
    as_root mkdir -p "$root/root/.npm"
    as_root mount --bind "$npm_cache" "$root/root/.npm" && mounted+=("$root/root/.npm")
  fi
  if [ -d ../shared ]; then
    as_root mkdir -p "$root/src/shared"
    as_root mount --bind ../shared "$root/src/shared" && mounted+=("$root/src/shared")
    as_root mount -o remount,bind,ro "$root/src/shared"
  fi
}

# mount_cuda_into ROOT — this machine's CUDA toolkit (/usr/local/cuda), read-only at the same
# path, where it has one (an x86-64 root only): nvmsgconv, one of NVIDIA's consumers the
# DeepStream suite builds (scripts/build-deepstream-consumers.sh), includes cuda_runtime.h and
# links libcudart, which Debian's main component does not have. Without it, run the DeepStream
# step with DS_SKIP_CONSUMERS=1 and other files than the consumer tests.
mount_cuda_into() {
  local root=$1 cuda
  cuda=$(readlink -f /usr/local/cuda 2>/dev/null || true)
  if [ -f "$cuda/include/cuda_runtime.h" ]; then
    as_root mkdir -p "$root/usr/local/cuda"
    as_root mount --bind "$cuda" "$root/usr/local/cuda" && mounted+=("$root/usr/local/cuda")
    as_root mount -o remount,bind,ro "$root/usr/local/cuda"
    local libdir=lib64
    [ -d "$cuda/$libdir" ] || libdir=lib
    echo "/usr/local/cuda/$libdir" | as_root tee "$root/etc/ld.so.conf.d/ds-platforms-cuda.conf" >/dev/null
    as_root chroot "$root" ldconfig
  fi
}

# This checkout's files into ROOT/src/ds-element. The copy's own git index remembers what the
# last copy brought, so files deleted here are deleted there; git-ignored ones (node_modules,
# builds) stay. Modification times are kept, so the builds there stay incremental.
copy_checkout() {
  local dest=$1/src/ds-element
  as_root mkdir -p "$dest"
  if [ -d "$dest/.git" ]; then
    as_root chroot "$1" git -C /src/ds-element ls-files -z | (cd "$dest" && as_root xargs -0 -r rm -f --)
  else
    as_root chroot "$1" git init -q /src/ds-element
  fi
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
    | tar -c --null -T - -f - | as_root tar -x --no-same-owner -C "$dest" -f -
  as_root chroot "$1" git -C /src/ds-element add -A
}

run_platform() { # run_platform NAME RESULTS_DIR
  local name=$1 results=$2 root
  if [ "$name" = host ]; then
    bash scripts/platforms/suite.sh "$results" "${suite_args[@]}"
    return
  fi
  if [ "$name" = arm64 ]; then # cross-built, run under qemu-user: scripts/platforms/arm64.sh
    local suite=${DS_ARM64_SUITE:-bookworm}
    root=$(bash scripts/platforms/root.sh "$suite" "arm64-$suite" ca-certificates) || return 1
    mount_into "$root" || return 1
    as_root mkdir -p "$root/src/ds-element"
    as_root mount --bind "$repo" "$root/src/ds-element" && mounted+=("$root/src/ds-element")
    bash scripts/platforms/arm64.sh "$root" "$results" "${suite_args[@]}"
    unmount_all
    return
  fi
  # `|| return`: run_platform runs under `||`, where set -e does not stop it, and an empty ROOT
  # would mount over this machine's own /proc, /sys and /dev.
  root=$(bash scripts/platforms/root.sh "$name") || return 1
  copy_checkout "$root" || return 1
  mount_into "$root" || return 1
  mount_cuda_into "$root" || return 1
  # The root reaches the npm registry as this machine does: the same proxy settings, and the
  # certificates this machine's Node trusts on top of the release's (a proxy that re-signs TLS).
  local env=(HOME=/root LC_ALL=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" npm_config_prefer_offline=true
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin) v
  for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY DS_PLATFORMS_DEEPSTREAM_TESTS DS_SKIP_CONSUMERS; do
    [ -z "${!v:-}" ] || env+=("$v=${!v}")
  done
  local ca=${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}
  if [ -f "$ca" ]; then
    as_root cp "$ca" "$root/etc/ssl/ds-platforms-extra-ca.crt"
    env+=(NODE_EXTRA_CA_CERTS=/etc/ssl/ds-platforms-extra-ca.crt)
  fi
  as_root chroot "$root" env -i "${env[@]}" \
    bash /src/ds-element/scripts/platforms/suite.sh "/var/tmp/ds-platforms" "${suite_args[@]}"
  unmount_all
  as_root rm -rf "$results" && mkdir -p "$results" && as_root cp -R "$root/var/tmp/ds-platforms/." "$results/"
}

# The table: one row per platform and step; status=1 when a step failed or none ran.
print_table() {
  local p facts release gst libnode name code passed failed skipped seconds
  printf '\n%-8s %-34s %-10s %-22s %-11s %-6s %7s %7s %7s %6s\n' \
    platform release GStreamer "libnode (embedded)" step exit passed failed skipped min
  for p in "${platforms[@]}"; do
    facts=$(cat "$results_root/$p/facts.tsv" 2>/dev/null || printf '?\t?\t?')
    IFS=$'\t' read -r release gst libnode <<<"$facts"
    if [ ! -s "$results_root/$p/platform.tsv" ]; then
      printf '%-8s %-34s %-10s %-22s %s\n' "$p" "$release" "$gst" "$libnode" "(no step ran)"
      status=1
      continue
    fi
    while IFS=$'\t' read -r name code passed failed skipped seconds; do
      [ "$code" = 0 ] || status=1
      printf '%-8s %-34s %-10s %-22s %-11s %-6s %7s %7s %7s %6s\n' "$p" "$release" "$gst" "$libnode" \
        "$name" "$code" "$passed" "$failed" "$skipped" "$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s / 60 }')"
    done <"$results_root/$p/platform.tsv"
  done
}

# The whole run is a function, read before it starts: editing this file meanwhile cannot change it.
main() {
  status=0
  local p start
  for p in "${platforms[@]}"; do
    log "=== $p ==="
    start=$SECONDS
    run_platform "$p" "$results_root/$p" || status=1
    log "=== $p: $(((SECONDS - start + 30) / 60)) min ==="
  done
  print_table
  exit "$status"
}
main
