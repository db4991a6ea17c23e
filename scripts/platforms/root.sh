#!/usr/bin/env bash
# Makes (once) the Debian system of one release that scripts/platforms/run.sh builds and tests
# ds-element in, and prints its folder:
#
#   bash scripts/platforms/root.sh trixie     # -> .cache/platforms/trixie
#   bash scripts/platforms/root.sh bookworm arm64-bookworm ca-certificates
#                                   # -> .cache/platforms/arm64-bookworm, with these packages instead
#
# `mmdebstrap --variant=apt` into the cache folder (DS_PLATFORMS_CACHE, default
# .cache/platforms, git-ignored), with what a fresh machine has before `npm test`: the
# release's own `nodejs` and `npm` (the tooling's Node; the host embeds the same release's
# libnode), git (test/repository lists files with it) and valgrind (test/event-msg runs a
# DeepStream-backend check under it); and, in the same pass, the packages
# scripts/setup.sh and scripts/build-deepstream-consumers.sh install (their --list-packages):
# they find them there, and what they do besides (libnode-dev, npm ci, the builds) runs in the
# root as on any machine, so those scripts are what is tested. Packages named after the folder
# name replace all these (the arm64 root: ca-certificates). A root is complete when its stamp
# file exists; an incomplete one (an interrupted run) is made again from zero, a complete one
# is reused as it is.
#
# The mirror is the machine's own (its apt configuration's first Debian URI), so the root
# installs from wherever this machine installs from; no host is named here.
set -euo pipefail
cd "$(dirname "$0")/../.."

log() { printf '\033[1m[platforms]\033[0m %s\n' "$*" >&2; }
fail() { printf 'platforms: %s\n' "$*" >&2; exit 2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

suite=${1:?usage: root.sh <debian suite, e.g. trixie or sid> [folder name] [packages...]}
name=${2:-$suite}
cache=${DS_PLATFORMS_CACHE:-$PWD/.cache/platforms}
root="$cache/$name"
stamp="$root/.ds-platform-complete"
BASE_PACKAGES=(ca-certificates git nodejs npm valgrind)
[ $# -le 2 ] || BASE_PACKAGES=("${@:3}")

# What the root takes from this machine on every run: its resolver, and the apt settings that
# decide whether a download works here (a proxy; a mirror that serves a dated snapshot, whose
# Release files this machine accepts past their Valid-Until).
host_settings() { apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy) ' || true; }
take_host_settings() {
  as_root cp /etc/resolv.conf "$root/etc/resolv.conf"
  host_settings | as_root tee "$root/etc/apt/apt.conf.d/50ds-platforms-host" >/dev/null
}

if [ -e "$stamp" ]; then
  take_host_settings
  echo "$root"
  exit 0
fi

# The Debian mirror this machine uses: deb822 (.sources) URIs first, then one-line sources.list.
# Security and updates mirrors are left out: the root takes the release as published.
apt_mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f")
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -e "$f" ] || continue
    uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($i !~ /security/) { print $i; exit } ; break } }' "$f")
    [ -n "$uri" ] && { echo "$uri"; return; }
  done
  return 1
}
mirror=$(apt_mirror) || fail "no Debian mirror in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"

if ! command -v mmdebstrap >/dev/null; then
  log "installing mmdebstrap"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

# Never delete through a mount (run.sh bind-mounts /dev, /proc and the repository into the root).
if grep -q " $root/" /proc/mounts; then
  fail "$root has mounts left from an interrupted run; unmount them (umount -R $root/<each>) and run again"
fi
# One pass: `mmdebstrap --variant=apt` (Essential, apt) with every package the root needs,
# downloaded by apt at once and installed by one dpkg run, where debootstrap fetched the base
# one file at a time and apt then installed the rest in three more runs (docs/platforms.md,
# "Where the time goes"). A throwaway system: dpkg without fsync per file (`force-unsafe-io`;
# its unpack is most of an install's time on a slow disk), no documentation, manual pages or
# translations, no Recommends, and package scripts start no services (mmdebstrap's own
# `policy-rc.d` while it installs: redis-server and mosquitto, whose ports the broker tests
# use, stay stopped). The apt lists are kept: scripts/setup.sh downloads libnode-dev with them.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
host_settings >"$tmp/host-apt.conf"
standin=()
if [ $# -le 2 ]; then
  BASE_PACKAGES+=($(bash scripts/setup.sh --list-packages) $(bash scripts/build-deepstream-consumers.sh --list-packages))
  # libgstreamer-plugins-bad1.0-dev depends on libopencv-dev (for gst-plugins-bad's OpenCV
  # headers), which brings about 215 packages nothing of ds-element uses (VTK, Qt 5, GDAL,
  # HDF5, Open MPI, LLVM, ROCm's HIP: 239 of sid's 650 MB, and a sixth of the unpacking). An
  # empty package of that name, made here, stands in for it in the root; a machine that runs
  # scripts/setup.sh itself gets the real one.
  mkdir -p "$tmp/standin/DEBIAN"
  printf '%s\n' 'Package: libopencv-dev' 'Version: 99:0-ds-platforms' 'Architecture: all' \
    'Maintainer: ds-element platforms <root@localhost>' \
    'Description: empty stand-in for OpenCV headers nothing here uses (scripts/platforms/root.sh)' >"$tmp/standin/DEBIAN/control"
  dpkg-deb --build --root-owner-group "$tmp/standin" "$tmp/libopencv-dev.deb" >/dev/null
  # apt hands dpkg in the root the file's own path: it is copied there for the install.
  standin=(--include="$tmp/libopencv-dev.deb" --setup-hook="mkdir -p \"\$1$tmp\" && cp $tmp/libopencv-dev.deb \"\$1$tmp/\""
    --customize-hook="rm -rf \"\$1$tmp\"")
fi
log "mmdebstrap $suite from $mirror into $root: ${#BASE_PACKAGES[@]} packages and their dependencies"
start=$SECONDS
as_root rm -rf "$root" && mkdir -p "$cache"
# Each line of the log carries the seconds since the start (where the time goes: docs/platforms.md).
if ! as_root mmdebstrap --variant=apt --verbose --skip=cleanup/apt/lists --include="${BASE_PACKAGES[*]}" "${standin[@]}" \
  --aptopt="$tmp/host-apt.conf" --dpkgopt=force-unsafe-io \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  "$suite" "$root" "$mirror" 2>&1 | while IFS= read -r line; do printf '%4d %s\n' "$((SECONDS - start))" "$line"; done >"$cache/$name.mmdebstrap.log"; then
  tail -20 "$cache/$name.mmdebstrap.log" >&2
  fail "mmdebstrap $suite failed (log above, in full in $cache/$name.mmdebstrap.log)"
fi
log "$suite with ${#BASE_PACKAGES[@]} packages and their dependencies: $((SECONDS - start)) s"
take_host_settings
# The checkout copied in may belong to another user than the one running the tests there.
[ ! -x "$root/usr/bin/git" ] || as_root chroot "$root" git config --system --add safe.directory '*'
as_root touch "$stamp"
echo "$root"
