#!/usr/bin/env bash
# GPU hook (docs/internals/gpu-testing.md, "TensorRT completion"): the TensorRT runner's
# completion mechanism (native-host/src/runners/gpu_completion.cpp, the very file the runner
# links) with kernels that succeed and one that faults, each mode in a process of its own (a
# fault poisons the CUDA context): test/gpu/gpu_completion_fault.cu. The machine has no
# TensorRT; what sits on top (the runner failing the job with "CUDA reported <error>", the
# binding rejecting the Promise with it) is not run here.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="${DS_GPU_HOOK_OUT:-$(mktemp -d)}/gpu-completion"
mkdir -p "$out"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[ -x "$nvcc" ] || { echo "nvcc not found: cannot build gpu_completion_fault.cu"; echo "0 passed, 1 failed"; exit 1; }
if ! "$nvcc" -O2 -std=c++17 -I"$repo/native-host/src" -o "$out/gpu_completion_fault" \
    "$repo/test/gpu/gpu_completion_fault.cu" "$repo/native-host/src/runners/gpu_completion.cpp" > "$out/build.log" 2>&1; then
  cat "$out/build.log"; echo "building gpu_completion_fault.cu failed"; echo "0 passed, 1 failed"; exit 1
fi

passed=0
failed=0
check() {  # check NAME COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}
mode() {  # mode NAME: runs it in its own process, 60 s at most; its output in $out/NAME.log
  timeout -k 5 60 "$out/gpu_completion_fault" "$1" > "$out/$1.log" 2>&1
  local rc=$?
  cat "$out/$1.log"
  return $rc
}
check "kernels that succeed: every job reported with cudaSuccess, in order, data written" mode ok
check "a kernel that faults: it and the next job reported with the CUDA error, and the process exits" mode fault
check "the fault is reported as an illegal address" grep -q '"faultingJob":"cudaErrorIllegalAddress"' "$out/fault.log"
# What the runner did before (not a check: the driver's behaviour, recorded for the note).
mode hostfunc > /dev/null; echo "for the record, cudaLaunchHostFunc after a fault: $(grep -o 'RESULT.*' "$out/hostfunc.log" || echo "no result (exit status $?)")"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
