#!/usr/bin/env bash
# The `arm64` platform of scripts/platforms/run.sh (docs/platforms.md, "arm64"): the native host
# cross-built for aarch64 and a named subset of the pipeline tests run on it under qemu-user.
#
#   npm run test:platforms -- arm64                                  # the named subset below
#   npm run test:platforms -- arm64 -- test/pipeline.test.ts         # other test files
#
# run.sh hands this script ROOT, a Debian system of the machine's own architecture made by
# root.sh (Debian 12 by default, DS_ARM64_SUITE another), with /proc, /sys and /dev mounted and
# this checkout bound at ROOT/src/ds-element. There, once: arm64 as a foreign architecture (dpkg
# multiarch), Debian's cross toolchain, the arm64 GStreamer, libnode and their -dev packages,
# and qemu-user. Then, every run:
#   1. scripts/setup.sh on this machine (npm ci, the TypeScript builds: the element bundles do
#      not depend on the architecture);
#   2. the host cross-built under chroot into native-host/build-arm64/Release, with
#      native-host/cmake/aarch64-linux-gnu.cmake, against the root's arm64 packages;
#   3. the tests with this machine's Node and vitest, the element folders built from that build
#      (DS_ELEMENT_NATIVE_DIR) into test/out-arm64, gst-launch-1.0 and gst-inspect-1.0 being
#      the root's arm64 programs run by qemu-aarch64 (-L ROOT: the arm64 loader, libraries and
#      GStreamer plugins are the root's; other paths are this machine's).
# Nothing arm64 is installed on this machine, and binfmt_misc is not needed: the wrappers run
# qemu themselves. So no arm64 program may start another one by exec: GST_REGISTRY_FORK=no
# keeps GStreamer's plugin scan in the process.
#
#   bash scripts/platforms/arm64.sh ROOT RESULTS_DIR [--portable-only] [-- <vitest arguments>]
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

root=${1:?usage: arm64.sh ROOT RESULTS_DIR [-- <vitest arguments>]}
results=${2:?usage: arm64.sh ROOT RESULTS_DIR [-- <vitest arguments>]}
shift 2
while [ $# -gt 0 ]; do
  case "$1" in
    --portable-only) ;; # the only backend here: NVIDIA publishes no arm64 build of its metadata source's consumers
    --deepstream-only) echo "arm64.sh: the arm64 run has the portable backend only (no --deepstream-only)" >&2; exit 2 ;;
    --) shift; break ;;
    *) echo "arm64.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
# Emulated V8 starts an element in 10 to 20 s rather than about one: the files whose pipelines
# show the host on arm64 end to end (frames, properties, logging, drops, in-place pixel access
# of packed and planar frames, the libnode it loads, user-code errors, drawing with the arm64
# Cairo and Pango), not the whole suite. Files that start python3 as the GStreamer host, or
# test gst-plugin-scanner, cannot run here (docs/platforms.md).
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(test/pipeline.test.ts test/drop.test.ts test/extract.test.ts test/libnode.test.ts
  test/errors.test.ts test/dsosd.test.ts)

mkdir -p "$results" && rm -f "$results"/*.json "$results/platform.tsv"
. scripts/platforms/steps.sh
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
in_root() {
  as_root chroot "$root" env -i HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

build=native-host/build-arm64
ROOT_PACKAGES=(
  crossbuild-essential-arm64 cmake make pkg-config nodejs nlohmann-json3-dev qemu-user-static
  libgstreamer1.0-dev:arm64 libgstreamer-plugins-base1.0-dev:arm64 gstreamer1.0-tools:arm64
  gstreamer1.0-plugins-base:arm64 libnode-dev:arm64 libcairo2-dev:arm64 libpango1.0-dev:arm64
  fonts-dejavu-core
)
# The root's arm64 packages, once (a stamp marks them installed; delete it to install again).
install_packages() {
  [ -e "$root/.ds-arm64-packages" ] && return 0
  in_root dpkg --add-architecture arm64 && in_root apt-get update -qq \
    && in_root apt-get install -y -qq --no-install-recommends "${ROOT_PACKAGES[@]}" >"$results/packages.log" 2>&1 \
    || { tail -20 "$results/packages.log" >&2; return 1; }
  as_root touch "$root/.ds-arm64-packages"
}

# The host, cross-built in the root (its paths: the checkout is /src/ds-element there).
cross_build() {
  local src=/src/ds-element/native-host out=/src/ds-element/$build
  in_root cmake -S "$src" -B "$out" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_LIBRARY_OUTPUT_DIRECTORY="$out/Release" \
    -DDSNODE_WITH_DEEPSTREAM=OFF -DDSNODE_WITH_CUDA=OFF >"$results/cmake.log" 2>&1 \
    || { tail -30 "$results/cmake.log" >&2; return 1; }
  in_root cmake --build "$out" -j "$(nproc)" || return 1
  # ELF e_machine 183 is aarch64: a build that fell back to the machine's compiler fails here.
  local file machine
  for file in libgstdsnode.so libdsnode-runtime.so.0; do
    machine=$(od -An -j18 -N2 -tu2 "$build/Release/$file" | tr -d ' ')
    [ "$machine" = 183 ] || { echo "arm64.sh: $build/Release/$file is not an aarch64 library (e_machine $machine)" >&2; return 1; }
  done
}

# gst-launch-1.0 and gst-inspect-1.0 for the tests: the root's arm64 programs under qemu-aarch64.
write_wrappers() {
  local tool
  mkdir -p "$build/bin"
  for tool in gst-launch-1.0 gst-inspect-1.0; do
    printf '%s\n' '#!/bin/sh' "# The root's arm64 $tool under qemu-user (scripts/platforms/arm64.sh)." \
      'export GST_REGISTRY_FORK=no' \
      "exec '$root/usr/bin/qemu-aarch64-static' -L '$root' '$root/usr/bin/$tool' \"\$@\"" >"$build/bin/$tool"
    chmod 755 "$build/bin/$tool"
  done
}

# This platform's row of run.sh's table: the root's release, its arm64 GStreamer and libnode.
describe() {
  local release gst libnode
  release="$(. "$root/etc/os-release" && echo "${PRETTY_NAME:-$ID}") arm64 (qemu-user)"
  gst=$(in_root dpkg-query -W -f='${Version}' libgstreamer1.0-0:arm64 2>/dev/null | sed 's/-.*//')
  libnode=$(in_root dpkg-query -W -f='${Package} ${Version}\n' 'libnode[0-9]*:arm64' 2>/dev/null \
    | awk '{ sub(/^[0-9]+:/, "", $2); sub(/[+~-].*$/, "", $2); print $2 " (" $1 ")" }' | sort -V | tail -n 1)
  printf '%s\t%s\t%s\n' "$release" "${gst:-?}" "${libnode:-?}" >"$results/facts.tsv"
}

step setup bash scripts/setup.sh || { describe; exit 1; }
step packages install_packages || { describe; exit 1; }
describe
step build cross_build || exit 1
write_wrappers
step arm64 env DS_ELEMENT_NATIVE_DIR="$repo/$build/Release" DS_ELEMENT_TEST_OUT="$repo/test/out-arm64" \
  PATH="$repo/$build/bin:$PATH" npx vitest run --reporter=default --reporter=json \
  --outputFile.json="$results/arm64.json" "${tests[@]}"
exit 0
