#!/usr/bin/env bash
# Sets ds-element up from zero on Debian 12 and later / Ubuntu: system packages (Cairo, Pango and
# a default font for dsosd's text among them), the distribution's libnode (embedded by the host
# plugin: Debian 12 libnode108 = Node 18, Debian 13 libnode115 = Node 20, sid libnode137 =
# Node 24; DS_ELEMENT_LIBNODE_PACKAGE picks another one that has its libnode-dev), npm
# dependencies, and the native build.
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
# `--list-packages`: the list, one a line (scripts/platforms/root.sh installs it with the root).
if [ "${1:-}" = "--list-packages" ]; then printf '%s\n' "${SYSTEM_PACKAGES[@]}"; exit 0; fi
MULTIARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
missing=()
for p in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing system packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The distribution's libnode, the libnode-dev of the same version (the host builds against its
# headers) and the builtins it loads from /usr/share/nodejs. They are unpacked rather than
# installed because apt refuses them next to a nodesource `nodejs` package.
# Which libnode: DS_ELEMENT_LIBNODE_PACKAGE, else the one the candidate libnode-dev depends on.
libnode_package() {
  if [ -n "${DS_ELEMENT_LIBNODE_PACKAGE:-}" ]; then echo "$DS_ELEMENT_LIBNODE_PACKAGE"; return; fi
  apt-cache depends libnode-dev 2>/dev/null | sed -n 's/^ *Depends: \(libnode[0-9]*\)$/\1/p' | head -1
}
# The version of libnode-dev whose libnode is $1 ("" when apt knows none).
libnode_dev_version() {
  apt-cache show libnode-dev 2>/dev/null | awk -v want="$1 (=" '
    /^Version:/ { version = $2 } /^Depends:/ && index($0, want) { print version; exit }'
}
LIBNODE_PACKAGE=$(libnode_package)
if [ -z "$LIBNODE_PACKAGE" ]; then
  as_root apt-get update -qq
  LIBNODE_PACKAGE=$(libnode_package)
fi
[ -n "$LIBNODE_PACKAGE" ] || { echo "setup: apt knows no libnode-dev; ds-element needs the distribution's libnode (Debian 12 or later, Ubuntu 22.04 or later)" >&2; exit 1; }
LIBNODE_SO=/usr/lib/$MULTIARCH/libnode.so.${LIBNODE_PACKAGE#libnode}
# The builtins that package loads (node-acorn, node-undici...), from its own dependencies.
mapfile -t LIBNODE_BUILTINS < <(apt-cache depends "$LIBNODE_PACKAGE" 2>/dev/null | sed -n 's/^ *Depends: \(node-[a-z0-9-]*\)$/\1/p' | sort -u)

libnode_present() {
  [ -e "$LIBNODE_SO" ] && [ -e /usr/include/nodejs/src/node.h ] || return 1
  # The headers must be that libnode's (a libnode-dev of another version builds a host that
  # cannot load): NODE_MODULE_VERSION is the soname's number.
  grep -q "define NODE_MODULE_VERSION ${LIBNODE_PACKAGE#libnode}\$" /usr/include/nodejs/src/node_version.h || return 1
  for builtin in "${LIBNODE_BUILTINS[@]}"; do [ -e "/usr/share/nodejs/${builtin#node-}" ] || return 1; done
}
if ! libnode_present; then
  dev_version=$(libnode_dev_version "$LIBNODE_PACKAGE")
  [ -n "$dev_version" ] || { echo "setup: apt has no libnode-dev for $LIBNODE_PACKAGE; set DS_ELEMENT_LIBNODE_PACKAGE to one that has (apt-cache show libnode-dev | grep -E '^(Version|Depends)')" >&2; exit 1; }
  log "unpacking the distribution's libnode ($LIBNODE_PACKAGE, libnode-dev $dev_version) and its builtins"
  tmp=$(mktemp -d)
  packages=("$LIBNODE_PACKAGE" "libnode-dev=$dev_version" "${LIBNODE_BUILTINS[@]}")
  (cd "$tmp" && chmod 777 . && apt-get download "${packages[@]}" >/dev/null 2>&1 \
    || { as_root apt-get update -qq && apt-get download "${packages[@]}" >/dev/null; })
  for deb in "$tmp"/*.deb; do as_root dpkg-deb -x "$deb" /; done
  as_root ldconfig
  rm -rf "$tmp"
  libnode_present || { echo "setup: libnode is still missing after unpacking ($LIBNODE_SO, /usr/include/nodejs)" >&2; exit 1; }
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
