#!/usr/bin/env bash
# On a CUDA machine (repo root as the working directory; needs CUDA's nvcc, cmake and a C++
# compiler; no Node, no GStreamer): builds dsnode-postprocess with plain CMake
# (-DDSNODE_OPS_ONLY=ON) and runs dsnode-postprocess-gpu-test (native-host/test/postprocess_gpu_test.cu):
#   1. the post-processing kernels against their CPU reference, candidate for candidate, and the
#      reference against decodeYolo's host scan: 1000 random outputs (ties, NaN, ±inf, all below
#      the threshold, both layouts), real-shaped [84, 8400] outputs, the ball model's outputs for
#      real frames (gpu-bundle/ball-outputs.bin, which scripts/gpu/make-bundle.sh writes;
#      BALL_OUTPUTS names another file), classifier rows;
#   2. the bench: decodeYolo's selection on [84, 8400] on the GPU against toHost() + host scan.
# Prints the JSON report (also $OUT/postprocess-report.json) for bench/RESULTS.md.
#
#   bash scripts/gpu/run-postprocess-device.sh     # CUDA_ARCHITECTURES=90 by default (H100/H200)
#
# Exit status: 0 when every check passed, 1 when one failed, 2 when something could not run.
source "$(dirname "$0")/ops-only-build.sh"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/postprocess-gpu.txt" 2>&1 || true
ops_only_build dsnode-postprocess-gpu-test postprocess

status=0
outputs=${BALL_OUTPUTS:-gpu-bundle/ball-outputs.bin}
[ -s "$outputs" ] || { echo "run-postprocess-device.sh: $outputs is missing: build the bundle (scripts/gpu/make-bundle.sh) or set BALL_OUTPUTS" >&2; exit 2; }
"$build/dsnode-postprocess-gpu-test" --json "$out/postprocess-report.json" --iterations "${ITERATIONS:-200}" \
  --random "${RANDOM_OUTPUTS:-1000}" --outputs "$outputs" >"$out/postprocess.txt" 2>&1 || status=$?
grep -E "^not ok|^#|passed, .* failed" "$out/postprocess.txt" >&2 || true
[ -s "$out/postprocess-report.json" ] || { tail -30 "$out/postprocess.txt" >&2; exit 2; }
cat "$out/postprocess-gpu.txt"
cat "$out/postprocess-report.json"
exit "$status"
