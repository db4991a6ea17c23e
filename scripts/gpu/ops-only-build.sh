# Sourced by the device scripts that build one test program of dsnode-ops / dsnode-postprocess
# with plain CMake (-DDSNODE_OPS_ONLY=ON: no Node, no GStreamer) on the CUDA machine:
#   source scripts/gpu/ops-only-build.sh; ops_only_build <target> <log prefix>
# Sets `out` ($OUT, else bench/out/gpu) and `build` (DSNODE_OPS_GPU_BUILD_DIR, else
# /tmp/dsnode-ops-gpu-build); CUDA_ARCHITECTURES picks the architectures (90: H100/H200).
# Exits 2 ("could not run") when nvcc is missing or the build fails, with the log's tail.
set -euo pipefail

root=$(pwd)
out=${OUT:-$root/bench/out/gpu}
build=${DSNODE_OPS_GPU_BUILD_DIR:-/tmp/dsnode-ops-gpu-build}
mkdir -p "$out"

ops_only_build() {
  local target="$1" log="$2" candidate
  if ! command -v nvcc >/dev/null 2>&1; then
    for candidate in /usr/local/cuda/bin /usr/local/cuda-13/bin /usr/local/cuda-12/bin; do
      if [ -x "$candidate/nvcc" ]; then export PATH="$candidate:$PATH"; break; fi
    done
  fi
  command -v nvcc >/dev/null 2>&1 || { echo "$target: nvcc not found" >&2; exit 2; }
  cmake -S native-host -B "$build" -DDSNODE_OPS_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90}" >"$out/$log-configure.log" 2>&1 \
    || { tail -30 "$out/$log-configure.log" >&2; exit 2; }
  cmake --build "$build" --target "$target" -j "$(nproc)" >"$out/$log-build.log" 2>&1 \
    || { tail -40 "$out/$log-build.log" >&2; exit 2; }
}
