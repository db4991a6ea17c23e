#!/usr/bin/env bash
# `npm run test:deepstream`: the same test suite as `npm test`, with the native code built
# against an installed DeepStream SDK, so every pipeline test runs on DeepStream's
# NvDsBatchMeta (docs/internals/metadata-design.md §2) instead of the portable GstMeta.
#
#   DS_SDK_ROOT=/opt/nvidia/deepstream/deepstream npm run test:deepstream
#
# Needs a DeepStream install (headers in sources/includes, libnvds_meta and libnvdsgst_meta in
# lib/). Leaves native-host/build configured for DeepStream; `npm run build` afterwards
# keeps that configuration (cmake caches DS_SDK_ROOT): delete native-host/build to go back to the portable build.
set -euo pipefail
cd "$(dirname "$0")/.."
root="${DS_SDK_ROOT:-/opt/nvidia/deepstream/deepstream}"
if [[ ! -f "$root/sources/includes/nvdsmeta.h" || ! -e "$root/lib/libnvds_meta.so" || ! -e "$root/lib/libnvdsgst_meta.so" ]]; then
  echo "test:deepstream: no DeepStream SDK at $root (needs sources/includes/nvdsmeta.h, lib/libnvds_meta.so, lib/libnvdsgst_meta.so)." >&2
  echo "Install DeepStream, or set DS_SDK_ROOT to its folder. Without DeepStream, \`npm test\` runs the same tests on the portable backend." >&2
  exit 2
fi
bash scripts/setup.sh
echo "[test:deepstream] building the native code against $root"
(cd native-host && npx cmake-js compile --out build --CDCMAKE_BUILD_TYPE=Release --CDDS_SDK_ROOT="$root")
nm -C -D native-host/build/Release/libgstdsnode.so | grep -q nvds_create_batch_meta \
  || { echo "test:deepstream: libgstdsnode.so was built without the DeepStream backend (see the cmake output above)" >&2; exit 1; }
export LD_LIBRARY_PATH="$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
npx vitest run "$@"
