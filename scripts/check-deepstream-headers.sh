#!/usr/bin/env bash
# Compiles the DeepStream metadata backend (native-host/src/meta/deepstream_*.cpp)
# against a DeepStream include folder, without linking: proves it matches that version's
# structs and API. Linking and running need libnvds_meta/libnvdsgst_meta (a DeepStream
# install: `npm run test:deepstream` there).
#
#   scripts/check-deepstream-headers.sh [DEEPSTREAM_INCLUDE_DIR]   (default /tmp/ds-headers/9.1)
#
# Headers for a version: NVIDIA/DeepStream's includes/ at its tag, e.g.
#   git --git-dir=<mirror> archive v9.1.0 includes | tar -x -C /tmp/ds-headers/9.1 --strip-components=1
# or an install's /opt/nvidia/deepstream/deepstream/sources/includes.
set -euo pipefail
include_dir="${1:-/tmp/ds-headers/9.1}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ ! -f "$include_dir/nvdsmeta.h" ]]; then
  echo "no nvdsmeta.h in $include_dir (pass DeepStream's include folder)" >&2
  exit 2
fi
version="$(grep -hE '#define NVDS_VERSION_(MAJOR|MINOR|MICRO)' "$include_dir/nvds_version.h" 2>/dev/null | awk '{print $3}' | paste -sd. -)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cxx="${CXX:-c++}"
# DeepStream's own headers are -isystem: they do not build warning-free; our code must.
# metadata_source.cpp chooses the DeepStream backend on such a build.
for source in "$here"/native-host/src/meta/deepstream_*.cpp "$here/native-host/src/meta/metadata_source.cpp"; do
  # shellcheck disable=SC2046
  "$cxx" -std=c++17 -Wall -Wextra -Wno-unused-parameter -Werror -fPIC -c \
    -I"$here/native-host/src" -isystem "$include_dir" $(pkg-config --cflags gstreamer-1.0 gstreamer-video-1.0 gstreamer-base-1.0) \
    -DDSNODE_HAVE_DEEPSTREAM=1 -DDSNODE_DEEPSTREAM_LIB_DIR="\"$include_dir/../lib\"" \
    "$source" -o "$out/$(basename "$source" .cpp).o"
done
# The plugin's element on such a build (it names no DeepStream type, so no DeepStream header is
# needed for it).
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -Wno-unused-parameter -Werror -fPIC -c \
  -I"$here/native-host/src" $(pkg-config --cflags gstreamer-1.0 gstreamer-video-1.0 gstreamer-base-1.0 nlohmann_json 2>/dev/null || pkg-config --cflags gstreamer-1.0 gstreamer-video-1.0 gstreamer-base-1.0) \
  -DDSNODE_HAVE_DEEPSTREAM=1 \
  "$here/native-host/src/gst/element.cpp" -o "$out/element.o"
# Frame access reads NVMM buffers' NvBufSurface (struct fields only: no DeepStream library call).
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -Wno-unused-parameter -Werror -fPIC -c \
  -I"$here/native-host/src" -isystem "$include_dir" $(pkg-config --cflags gstreamer-1.0 gstreamer-video-1.0) \
  -DDSNODE_HAVE_DEEPSTREAM=1 \
  "$here/native-host/src/tensor/frame_access.cpp" -o "$out/frame_access.o"
undefined="$(nm -C --undefined-only "$out"/deepstream_*.o | { grep -oE '\b(nvds_[a-z_]+|gst_buffer_[a-z_]+nvds[a-z_]*)\b' || true; } | sort -u | paste -sd' ' -)"
echo "ok: meta/deepstream_*.cpp, meta/metadata_source.cpp, gst/element.cpp and tensor/frame_access.cpp (NVMM frames) compile against DeepStream ${version:-?} headers in $include_dir"
echo "DeepStream symbols it needs at link time: ${undefined:-none (NVIDIA libraries are opened with dlopen when an element starts)}"
