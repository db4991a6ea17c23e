#!/usr/bin/env bash
# On a CUDA machine (repo root as the working directory; needs CUDA's nvcc, cmake, a C++
# compiler, python3 with PyTorch; no Node, no GStreamer): builds dsnode-ops and its two test
# programs with plain CMake (-DDSNODE_OPS_ONLY=ON), then runs, in one go,
#   1. dsnode-ops-test      — the CPU op against its double-precision reference;
#   2. dsnode-ops-gpu-test  — the CUDA op against the CPU op, then the bandwidth bench;
#   3. bench/gpu/torch_peer.py — the same letterbox + normalise in PyTorch, and a cross-check
#      of PyTorch's result against ours on the dumped frame;
# and prints one JSON object with the ratios (also written to $OUT/ops-gpu-report.json).
#
#   bash scripts/gpu/run-device.sh            # CUDA_ARCHITECTURES=90 by default (H100/H200)
#   CUDA_ARCHITECTURES=89 bash scripts/gpu/run-device.sh
#
# Exit status: 0 when every check passed and the acceptance targets hold (bench ≥ 60 % of the
# copy bandwidth and ≥ 2× PyTorch), 1 when a check or a target failed, 2 when something could
# not run. The logs of each step are in $OUT.
set -euo pipefail

root=$(pwd)
out=${OUT:-$root/bench/out/gpu}
build=${DSNODE_OPS_GPU_BUILD_DIR:-/tmp/dsnode-ops-gpu-build}
dump=$(mktemp -d)
mkdir -p "$out"
iterations=${ITERATIONS:-100}

if ! command -v nvcc >/dev/null 2>&1; then
  for candidate in /usr/local/cuda/bin /usr/local/cuda-13/bin /usr/local/cuda-12/bin; do
    if [ -x "$candidate/nvcc" ]; then export PATH="$candidate:$PATH"; break; fi
  done
fi
command -v nvcc >/dev/null 2>&1 || { echo "run-device.sh: nvcc not found" >&2; exit 2; }

started=$(date +%s)
echo "# configure + build (nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), cmake $(cmake --version | head -1 | awk '{print $3}'))" >&2
cmake -S native-host -B "$build" -DDSNODE_OPS_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES:-90}" >"$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log" >&2; exit 2; }
grep -q "dsnode-ops: CUDA" "$out/configure.log" || { echo "run-device.sh: CMake did not enable CUDA" >&2; tail -30 "$out/configure.log" >&2; exit 2; }
cmake --build "$build" --target dsnode-ops-test dsnode-ops-gpu-test -j "$(nproc)" >"$out/build.log" 2>&1 \
  || { tail -40 "$out/build.log" >&2; exit 2; }
built=$(date +%s)
echo "# built in $((built - started)) s" >&2

status=0
"$build/dsnode-ops-test" >"$out/ops-core.txt" 2>&1 || status=1
tail -1 "$out/ops-core.txt" >&2
"$build/dsnode-ops-gpu-test" --json "$out/ops-gpu.json" --dump "$dump" --iterations "$iterations" >"$out/ops-gpu.txt" 2>&1 || {
  code=$?
  [ -s "$out/ops-gpu.json" ] || { tail -30 "$out/ops-gpu.txt" >&2; exit 2; }
  status=$code
}
grep -E "^not ok|^# |passed, .* failed" "$out/ops-gpu.txt" >&2 || true
python3 bench/gpu/torch_peer.py --check "$dump" --json "$out/torch.json" --iterations "$iterations" >"$out/torch.txt" 2>&1 \
  || { tail -30 "$out/torch.txt" >&2; exit 2; }
rm -rf "$dump"

python3 - "$out" "$status" "$started" <<'PY'
import json, os, sys, time
out, status, started = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ours = json.load(open(os.path.join(out, "ops-gpu.json")))
torch = json.load(open(os.path.join(out, "torch.json")))
core = open(os.path.join(out, "ops-core.txt")).read().strip().splitlines()[-1]
cases = []
for mine, theirs in zip(ours["cases"], torch["cases"]):
    assert mine["name"] == theirs["name"], (mine["name"], theirs["name"])
    cases.append({
        "name": mine["name"],
        "ours_median_ms": mine["median_ms"],
        "torch_median_ms": theirs["median_ms"],
        "torch_spelling": theirs["best"],
        "speedup_vs_torch": round(theirs["median_ms"] / mine["median_ms"], 2),
        "bandwidth_gbps": mine["bandwidth_gbps"],
        "pct_of_copy": mine["pct_of_copy"],
        "touched_pct_of_copy": mine["touched_pct_of_copy"],
        "host_us_per_call": mine["host_us_per_call"],
        "torch_pct_of_copy": round(100 * (mine["input_bytes"] + mine["output_bytes"]) / (theirs["median_ms"] * 1e6) / ours["copy"]["bandwidth_gbps"], 1),
    })
acceptance = cases[0]
targets = {"pct_of_copy_ge_60": acceptance["pct_of_copy"] >= 60, "speedup_vs_torch_ge_2": acceptance["speedup_vs_torch"] >= 2}
report = {
    "device": ours["device"], "sm": ours["sm"], "cuda_runtime": ours["cuda_runtime"], "cuda_driver": ours["cuda_driver"],
    "torch": torch["torch"], "copy_gbps": ours["copy"]["bandwidth_gbps"],
    "cpu_test": core, "gpu_test": ours["correctness"], "torch_check_vs_ours": torch.get("check_vs_ours"),
    "cases": cases, "targets": targets, "seconds": int(time.time()) - started,
}
text = json.dumps(report, indent=2)
print(text)
open(os.path.join(out, "ops-gpu-report.json"), "w").write(text + "\n")
failed = status != 0 or ours["correctness"]["failed"] != 0 or not core.endswith(" 0 failed") or not all(targets.values())
sys.exit(1 if failed else 0)
PY
