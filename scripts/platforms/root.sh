#!/usr/bin/env bash
# Makes (once) the Debian system of one release that scripts/platforms/run.sh builds and tests
# ds-element in, and prints its folder:
#
#   bash scripts/platforms/root.sh trixie     # -> .cache/platforms/trixie
#   bash scripts/platforms/root.sh bookworm arm64-bookworm ca-certificates
#                                   # -> .cache/platforms/arm64-bookworm, with these packages instead
#
# `debootstrap --variant=minbase` into the cache folder (DS_PLATFORMS_CACHE, default
# .cache/platforms, git-ignored), then what a fresh machine has before `npm test`: the release's
# own `nodejs` and `npm` (the tooling's Node; the host embeds the same release's libnode) and git
# (test/repository lists files with it). Everything else — GStreamer, libnode-dev, compilers,
# NVIDIA's consumers' packages — is installed inside by scripts/setup.sh and
# scripts/build-deepstream-consumers.sh themselves, as on any machine, so those scripts are what
# is tested. A root is complete when its stamp file exists; an incomplete one (an interrupted
# run) is made again from zero, a complete one is reused as it is.
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
BASE_PACKAGES=(ca-certificates git nodejs npm)
[ $# -le 2 ] || BASE_PACKAGES=("${@:3}")

# What the root takes from this machine on every run: its resolver, and the apt settings that
# decide whether a download works here (a proxy; a mirror that serves a dated snapshot, whose
# Release files this machine accepts past their Valid-Until).
take_host_settings() {
  as_root cp /etc/resolv.conf "$root/etc/resolv.conf"
  apt-config dump | grep -E '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy) ' \
    | as_root tee "$root/etc/apt/apt.conf.d/50ds-platforms-host" >/dev/null || true
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

if ! command -v debootstrap >/dev/null; then
  log "installing debootstrap"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

# Never delete through a mount (run.sh bind-mounts /dev, /proc and the repository into the root).
if grep -q " $root/" /proc/mounts; then
  fail "$root has mounts left from an interrupted run; unmount them (umount -R $root/<each>) and run again"
fi
log "debootstrap $suite from $mirror into $root"
start=$SECONDS
as_root rm -rf "$root" && mkdir -p "$cache"
as_root debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$cache/$name.debootstrap.log" 2>&1 \
  || { tail -20 "$cache/$name.debootstrap.log" >&2; fail "debootstrap $suite failed (log above, in full in $cache/$name.debootstrap.log)"; }
log "base system: $((SECONDS - start)) s"

# A throwaway system: no fsync per package (dpkg's unpack is most of an install's time on a slow
# disk), no services started by package scripts (redis-server, mosquitto: the tests start their own).
as_root tee "$root/etc/dpkg/dpkg.cfg.d/ds-platforms-unsafe-io" >/dev/null <<<'force-unsafe-io'
as_root tee "$root/etc/dpkg/dpkg.cfg.d/ds-platforms-no-docs" >/dev/null <<<$'path-exclude=/usr/share/doc/*\npath-exclude=/usr/share/man/*\npath-exclude=/usr/share/info/*'
as_root tee "$root/usr/sbin/policy-rc.d" >/dev/null <<<$'#!/bin/sh\nexit 101'
as_root chmod 755 "$root/usr/sbin/policy-rc.d"
as_root tee "$root/etc/apt/sources.list" >/dev/null <<<"deb $mirror $suite main"
take_host_settings

start=$SECONDS
as_root chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 \
  apt-get install -y -qq --no-install-recommends "${BASE_PACKAGES[@]}" >"$cache/$name.base.log" 2>&1 \
  || { tail -20 "$cache/$name.base.log" >&2; fail "installing ${BASE_PACKAGES[*]} in $root failed"; }
log "${BASE_PACKAGES[*]}: $((SECONDS - start)) s"
# The checkout copied in may belong to another user than the one running the tests there.
[ ! -x "$root/usr/bin/git" ] || as_root chroot "$root" git config --system --add safe.directory '*'
as_root touch "$stamp"
echo "$root"
