#!/usr/bin/env bash
# `npm run test:deepstream`: the whole test suite of `npm test`, with the native code built
# against DeepStream's metadata libraries, so that every pipeline test runs on NVIDIA's
# NvDsBatchMeta (docs/internals/metadata-design.md §2) instead of the portable GstMeta.
#
#   DS_META_SOURCE=../shared/deepstream-9.1 npm run test:deepstream      # NVIDIA's source
#   DS_SDK_ROOT=/opt/nvidia/deepstream/deepstream npm run test:deepstream # an installed SDK
#
# DS_META_SOURCE is a folder laid out like NVIDIA/DeepStream (includes/, src/utils/nvdsmeta/,
# src/gst-utils/gst-nvdsmeta/): its libnvds_meta.so and libnvdsgst_meta.so, and the downstream
# consumers the consumer tests run (scripts/build-deepstream-consumers.sh), are built with
# NVIDIA's Makefiles in a copy under the cache folder (DS_ELEMENT_CACHE, default
# ~/.cache/ds-element), never in the source (it may be read-only) nor in this repository.
#
# The native host is built in native-host/build-deepstream; the element folders the tests run
# go to test/out-deepstream. native-host/build and every dist/ stay the portable build, so
# `npm test` afterwards runs the portable backend again. Arguments go to vitest.
#
# DS_BUILD_ONLY=1 builds and stops before the tests (scripts/test-gpu.sh takes this build, the
# dsnvmmtestmux test element and NVIDIA's libraries to the GPU machine); it writes the folder of
# NVIDIA's libraries to native-host/build-deepstream/deepstream-lib-dir. DS_SKIP_SETUP=1 leaves
# out scripts/setup.sh (the caller has run it).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
log() { printf '\033[1m[test:deepstream]\033[0m %s\n' "$*"; }
fail() { printf 'test:deepstream: %s\n' "$*" >&2; exit 2; }

if [[ -n "${DS_META_SOURCE:-}" ]]; then
  src=$(cd "$DS_META_SOURCE" 2>/dev/null && pwd) || fail "DS_META_SOURCE=$DS_META_SOURCE is not a folder"
  for need in includes/nvdsmeta.h includes/gstnvdsmeta.h src/utils/nvdsmeta/Makefile src/gst-utils/gst-nvdsmeta/Makefile; do
    [[ -e "$src/$need" ]] || fail "DS_META_SOURCE=$src lacks $need (expected a folder laid out like NVIDIA/DeepStream, e.g. ../shared/deepstream-9.1)"
  done
  # One cache entry per content of the source: an edited source is rebuilt, an unchanged one is not.
  key=$(cd "$src" && find includes src -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
  root="${DS_ELEMENT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ds-element}/deepstream-meta/$key"
  if [[ ! -e "$root/lib/libnvds_meta.so" || ! -e "$root/lib/libnvdsgst_meta.so" ]]; then
    log "building NVIDIA's libnvds_meta.so and libnvdsgst_meta.so from $src in $root"
    rm -rf "$root" && mkdir -p "$root/lib"
    cp -R "$src/includes" "$src/src" "$root/" && chmod -R u+w "$root"
    build_log="$root/make.log"
    { make -C "$root/src/utils/nvdsmeta" LIB_INSTALL_DIR="$root/lib/" all install \
        && make -C "$root/src/gst-utils/gst-nvdsmeta" LIB_INSTALL_DIR="$root/lib/" all install; } >"$build_log" 2>&1 \
      || { tail -30 "$build_log" >&2; rm -rf "$root/lib"; fail "building NVIDIA's metadata libraries from $src failed (log above, in full in $build_log)"; }
  fi
else
  root="${DS_SDK_ROOT:-/opt/nvidia/deepstream/deepstream}"
  if [[ ! -f "$root/sources/includes/nvdsmeta.h" || ! -e "$root/lib/libnvds_meta.so" || ! -e "$root/lib/libnvdsgst_meta.so" ]]; then
    echo "test:deepstream: no DeepStream SDK at $root (needs sources/includes/nvdsmeta.h, lib/libnvds_meta.so, lib/libnvdsgst_meta.so)." >&2
    echo "Set DS_SDK_ROOT to an installed SDK, or DS_META_SOURCE to NVIDIA's source of the metadata libraries (e.g. ../shared/deepstream-9.1)." >&2
    echo "Without DeepStream, \`npm test\` runs the same tests on the portable backend." >&2
    exit 2
  fi
fi

# NVIDIA's consumers of the metadata (nvmsgconv's library, nvmsgbroker with its Redis and MQTT
# adaptors, nvdsanalytics) beside them, for test/ds-consumers/; an installed SDK has them already.
# DS_BUILD_ONLY leaves them out: the GPU run does not test them.
# DS_SKIP_CONSUMERS=1 leaves them out too: nvmsgconv includes CUDA's headers, which a Debian root
# of scripts/platforms/ lacks (the consumer tests then fail; run other files there).
[[ "${DS_BUILD_ONLY:-0}" = 1 || "${DS_SKIP_CONSUMERS:-0}" = 1 ]] || bash scripts/build-deepstream-consumers.sh "$root"
export DS_ELEMENT_DEEPSTREAM_ROOT="$root"

# The portable build and every package first (what `npm test` does), then the DeepStream build beside it.
[[ "${DS_SKIP_SETUP:-0}" = 1 ]] || bash scripts/setup.sh
native="$repo/native-host/build-deepstream/Release"
log "building the native host against $root in native-host/build-deepstream"
(cd native-host && npx cmake-js compile --out build-deepstream --CDCMAKE_BUILD_TYPE=Release --CDDS_SDK_ROOT="$root")
# The plugin opens NVIDIA's libraries itself (dlopen, native-host/src/meta/deepstream_backend.cpp):
# ask the build's standalone binding which libnvds_meta.so that is.
export LD_LIBRARY_PATH="$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
linked=$(node -e '
  const addon = { exports: {} };
  process.dlopen(addon, process.argv[1]);
  const { backend, deepstreamLibrary } = addon.exports.harness;
  if (backend !== "deepstream" || !deepstreamLibrary) process.exit(1);
  console.log(deepstreamLibrary);' "$native/dsnode_standalone.node") \
  || fail "the native build in $native has no working DeepStream backend (see the cmake output above)"
log "backend: DeepStream (NvDsBatchMeta), libnvds_meta.so: $(readlink -f "$linked")"

if [[ "${DS_BUILD_ONLY:-0}" = 1 ]]; then
  cmake --build native-host/build-deepstream --target dsnode-nvmm-testmux
  echo "$root/lib" > native-host/build-deepstream/deepstream-lib-dir
  log "built (DS_BUILD_ONLY=1): $native, test plugins in native-host/build-deepstream/test-plugins"
  exit 0
fi

out="$repo/test/out-deepstream"
export DS_ELEMENT_NATIVE_DIR="$native" DS_ELEMENT_TEST_OUT="$out" DS_ELEMENT_BUILTIN_DIST="$out/dists/builtin"
npx vitest run "$@"
