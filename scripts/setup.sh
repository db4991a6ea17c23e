#!/usr/bin/env bash
# Sets ds-element up from zero on Debian 12 / Ubuntu: system packages (Cairo, Pango and a
# default font for dsosd's text among them), Debian's libnode
# (Node 18, embedded by the host plugin), npm dependencies, and the native build.
# Idempotent: every step checks first, so a second run takes seconds.
# `--bench` (what `npm run bench` passes) also installs what the benchmark's Python peers use:
# numpy, OpenCV and the onnx package.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

SYSTEM_PACKAGES=(
  build-essential cmake pkg-config python3 python3-gi gir1.2-gstreamer-1.0
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-python3-plugin-loader libuv1-dev libc-ares2 libssl-dev nlohmann-json3-dev
  libcairo2-dev libpango1.0-dev fonts-dejavu-core
)
if [ "${1:-}" = "--bench" ]; then
  SYSTEM_PACKAGES+=(python3-numpy python3-opencv python3-onnx)
fi
# Debian's libnode and the builtins it loads from /usr/share/nodejs. They are unpacked rather
# than installed because apt refuses them next to a nodesource `nodejs` package.
LIBNODE_PACKAGES=(libnode108 libnode-dev node-acorn node-cjs-module-lexer node-undici)
LIBNODE_SO=/usr/lib/x86_64-linux-gnu/libnode.so.108

missing=()
for p in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing system packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

libnode_present() {
  [ -e "$LIBNODE_SO" ] && [ -e /usr/include/nodejs/src/node.h ] && [ -e /usr/share/nodejs/acorn/dist/acorn.js ] \
    && [ -e /usr/share/nodejs/cjs-module-lexer/lexer.js ] && [ -e /usr/share/nodejs/undici/undici-fetch.js ]
}
if ! libnode_present; then
  log "unpacking Debian's libnode (Node 18) and its builtins"
  tmp=$(mktemp -d)
  (cd "$tmp" && chmod 777 . && apt-get download "${LIBNODE_PACKAGES[@]}" >/dev/null 2>&1 \
    || { as_root apt-get update -qq && apt-get download "${LIBNODE_PACKAGES[@]}" >/dev/null; })
  for deb in "$tmp"/*.deb; do as_root dpkg-deb -x "$deb" /; done
  as_root ldconfig
  rm -rf "$tmp"
  libnode_present || { echo "setup: libnode is still missing after unpacking" >&2; exit 1; }
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ package.json -nt node_modules/.package-lock.json ]; then
  log "installing npm dependencies"
  # onnxruntime-node's postinstall fetches its CUDA provider from nuget.org on linux/x64; the
  # CPU runtime the tests use is in the npm tarball. npm >= 11.19 skips it through
  # package.json's allowScripts; npm 10 (Node 20's) needs this.
  export ONNXRUNTIME_NODE_INSTALL=skip
  if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
fi

log "building native code and packages"
npm run build --silent
log "ready"
