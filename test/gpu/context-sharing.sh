#!/usr/bin/env bash
# GPU hook (docs/internals/gpu-testing.md, "Hooks"): memory of GStreamer's CUDA context (a
# GstCudaContext, where `(memory:CUDAMemory)` frames and preprocess's output of them live) is
# read by a kernel and by a copy in the device's primary context, where the TensorRT runner
# runs. See test/gpu/context_sharing.cu. Built here with nvcc (outside the bundle's library
# path), run with the bundle's GStreamer.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${DS_GPU_HOOK_OUT:-$(mktemp -d)}/context-sharing"
mkdir -p "$out"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[ -x "$nvcc" ] || { echo "nvcc not found: cannot build context_sharing.cu"; exit 1; }
if ! "$nvcc" -O2 -std=c++17 -o "$out/context_sharing" "$here/context_sharing.cu" -lcuda -ldl > "$out/build.log" 2>&1; then
  cat "$out/build.log"
  echo "building context_sharing.cu failed"
  exit 1
fi
[ -n "${DS_GPU_BUNDLE_ENV:-}" ] && source "$DS_GPU_BUNDLE_ENV"
"$out/context_sharing"
