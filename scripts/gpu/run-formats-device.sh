#!/usr/bin/env bash
# On a CUDA machine (repo root as the working directory; needs CUDA's nvcc, cmake and a C++
# compiler; no Node, no GStreamer): builds dsnode-ops with plain CMake (-DDSNODE_OPS_ONLY=ON)
# and runs dsnode-ops-yuv-gpu-test (native-host/test/ops_yuv_gpu_test.cu):
#   1. preprocess_cuda against preprocess_cpu, bit for bit, for RGBx/BGRA/ARGB/ABGR and for
#      NV12/NV21/I420 under BT.601/709/2020 × limited/full, every dtype and layout, and crops of
#      planar frames from odd and even columns and rows;
#   2. the bench: 16 × 1080p NV12 beside 16 × 1080p RGBA, letterboxed to 640×640 float16.
# Prints the JSON report (also $OUT/ops-formats-report.json) for bench/RESULTS.md.
#
#   bash scripts/gpu/run-formats-device.sh          # CUDA_ARCHITECTURES=90 by default (H100/H200)
#
# Exit status: 0 when every check passed, 1 when one failed, 2 when something could not run.
source "$(dirname "$0")/ops-only-build.sh"
ops_only_build dsnode-ops-yuv-gpu-test formats

status=0
"$build/dsnode-ops-yuv-gpu-test" --json "$out/ops-formats-report.json" --iterations "${ITERATIONS:-100}" \
  >"$out/ops-formats.txt" 2>&1 || status=$?
grep -E "^not ok|passed, .* failed" "$out/ops-formats.txt" >&2 || true
[ -s "$out/ops-formats-report.json" ] || { tail -30 "$out/ops-formats.txt" >&2; exit 2; }
cat "$out/ops-formats-report.json"
exit "$status"
