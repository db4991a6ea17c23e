#!/usr/bin/env bash
# Compiles the TensorRT runner (native-host/src/runners/, docs/internals/runners.md) against a
# TensorRT include folder, without linking: proves it matches that version's API. Linking and
# running need libnvinfer and a GPU (`npm run test:gpu` where TensorRT is installed).
#
#   scripts/check-tensorrt-headers.sh [TRT_INCLUDE_DIR]   (default /tmp/trt-headers/10.16/include)
#
# Headers for a version: NVIDIA/TensorRT's include/ at its tag (outside the repository), e.g.
#   mkdir -p /tmp/trt-headers/10.16 && git --git-dir=<mirror of NVIDIA/TensorRT> archive v10.16 include | tar -x -C /tmp/trt-headers/10.16
# or an install's include folder (/usr/include/x86_64-linux-gnu, <TensorRT tar>/include).
# CUDA's headers come from CUDA_INCLUDE_DIR (default /usr/local/cuda/include).
set -euo pipefail
include_dir="${1:-/tmp/trt-headers/10.16/include}"
cuda_include="${CUDA_INCLUDE_DIR:-/usr/local/cuda/include}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$here/native-host/src"
if [[ ! -f "$include_dir/NvInfer.h" || ! -f "$include_dir/NvInferVersion.h" ]]; then
  echo "no NvInfer.h/NvInferVersion.h in $include_dir (pass TensorRT's include folder)" >&2
  exit 2
fi
if [[ ! -f "$cuda_include/cuda_runtime_api.h" ]]; then
  echo "no cuda_runtime_api.h in $cuda_include (set CUDA_INCLUDE_DIR)" >&2
  exit 2
fi
# 10.x headers define NV_TENSORRT_MAJOR through TRT_MAJOR_ENTERPRISE; older ones as a number.
version_part() {
  grep -hE "^#define (TRT_$1_ENTERPRISE|NV_TENSORRT_$1) +[0-9]+" "$include_dir/NvInferVersion.h" | head -n 1 | awk '{print $3}'
}
version="$(version_part MAJOR).$(version_part MINOR).$(version_part PATCH)"
node_include="${LIBNODE_INCLUDE_ROOT:-/usr/include/nodejs}/src"
addon_api="$(cd "$here/native-host" && node -p "require('node-addon-api').include_dir")"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cxx="${CXX:-c++}"
# TensorRT's and CUDA's headers are -isystem; our code must build warning-free, unused
# parameters included (stricter than the project's -Wno-unused-parameter).
strict=(-std=c++17 -Wall -Wextra -Werror -fPIC -c -I"$src" -isystem "$include_dir" -isystem "$cuda_include")
napi=(-I"$node_include" -I"$here/native-host/$addon_api" -DNAPI_VERSION=8 -DNAPI_DISABLE_CPP_EXCEPTIONS=0 -DNODE_ADDON_API_DISABLE_DEPRECATED)
"$cxx" "${strict[@]}" "$src/runners/tensorrt_runner.cpp" -o "$out/tensorrt_runner.o"
"$cxx" "${strict[@]}" "$src/runners/gpu_completion.cpp" -o "$out/gpu_completion.o"
"$cxx" "${strict[@]}" "${napi[@]}" "$src/binding/tensorrt_binding.cpp" -o "$out/tensorrt_binding.o"
"$cxx" "${strict[@]}" "${napi[@]}" "$here/native-host/test/cuda_testing_binding.cpp" -o "$out/cuda_testing_binding.o"
# NvOnnxParser.h is in include/ from 10.14 (before, in the parsers/onnx submodule).
builder_note="test/tensorrt_build_engine.cpp (no NvOnnxParser.h there: not compiled)"
if [[ -f "$include_dir/NvOnnxParser.h" ]]; then
  "$cxx" "${strict[@]}" "$here/native-host/test/tensorrt_build_engine.cpp" -o "$out/tensorrt_build_engine.o"
  builder_note="test/tensorrt_build_engine.cpp"
fi
# The two places that install the binding when DSNODE_HAVE_TENSORRT is defined (they name no
# TensorRT type): compiled as CMake compiles them, with the project's warning flags.
# shellcheck disable=SC2046
project=(-std=c++17 -Wall -Wextra -Wno-unused-parameter -Werror -fPIC -c -I"$src" "${napi[@]}" -DDSNODE_HAVE_TENSORRT=1
  $(pkg-config --cflags gstreamer-1.0 gstreamer-base-1.0 gstreamer-video-1.0))
"$cxx" "${project[@]}" -isystem "${LIBNODE_INCLUDE_ROOT:-/usr/include/nodejs}/deps/v8/include" \
  -isystem "${LIBNODE_INCLUDE_ROOT:-/usr/include/nodejs}/deps/uv/include" "$src/binding/binding.cpp" -o "$out/binding.o"
"$cxx" "${project[@]}" "$src/binding/standalone_binding.cpp" -o "$out/standalone_binding.o"
trt_symbols="$(nm --undefined-only "$out"/tensorrt_*.o | awk '{print $2}' | grep -E '^(create|get)[A-Za-z]*(Infer|Onnx)[A-Za-z_]*$' | sort -u | paste -sd' ' -)"
cuda_symbols="$(nm --undefined-only "$out"/tensorrt_runner.o "$out"/gpu_completion.o "$out"/cuda_testing_binding.o | awk '{print $2}' | grep -E '^cuda[A-Z]' | sort -u | paste -sd' ' -)"
echo "ok: runners/tensorrt_runner.cpp, runners/gpu_completion.cpp, binding/tensorrt_binding.cpp, test/cuda_testing_binding.cpp and $builder_note compile against TensorRT $version headers in $include_dir (CUDA headers: $cuda_include); binding.cpp and standalone_binding.cpp compile with DSNODE_HAVE_TENSORRT"
echo "TensorRT symbols they need at link time (libnvinfer, libnvonnxparser): $trt_symbols"
echo "CUDA runtime symbols: $cuda_symbols"
