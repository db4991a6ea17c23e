#!/usr/bin/env bash
# On the GPU machine: Nsight Compute's view of the pre-processing kernel on the bench case
# (16 × 1080p RGB → 16 × 3 × 640 × 640 fp16), to see what limits it (docs/internals/ops.md).
# Builds dsnode-ops-gpu-test like run-device.sh, runs it once under ncu and keeps the launches
# whose grid is the bench case's (640 × 16 blocks). Writes $OUT/ncu-bench.txt.
set -euo pipefail
out=${OUT:-/tmp/ops-profile}
build=/tmp/dsnode-ops-profile-build
mkdir -p "$out"
export PATH="/usr/local/cuda/bin:$PATH"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)
[ -n "$ncu" ] || { echo "profile-ops.sh: ncu not found" >&2; exit 2; }
cmake -S native-host -B "$build" -DDSNODE_OPS_ONLY=ON -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/configure.log" 2>&1
cmake --build "$build" --target dsnode-ops-gpu-test -j "$(nproc)" >"$out/build.log" 2>&1
"$ncu" --kernel-name regex:preprocess_kernel --section SpeedOfLight --section LaunchStats --section Occupancy \
  --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats \
  "$build/dsnode-ops-gpu-test" --iterations 1 >"$out/ncu-all.txt" 2>&1 || true
# Keep the reports of the bench case's launches (grid 640, 16, 1).
awk '/preprocess_kernel/ {keep = ($0 ~ /\(640, 16, 1\)/)} keep' "$out/ncu-all.txt" >"$out/ncu-bench.txt"
head -c 60000 "$out/ncu-bench.txt"
gzip -f "$out/ncu-all.txt"
