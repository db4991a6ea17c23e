#!/usr/bin/env bash
# `npm run test:gpu`: the GPU acceptance tests (docs/internals/gpu-testing.md).
#
# On a machine with an NVIDIA GPU (nvidia-smi lists one) and everything installed (scripts/setup.sh:
# GStreamer, libnode, nvcc for the CUDA build): builds, then runs scripts/gpu/device-run.sh on this
# machine's GStreamer and libnode (DS_GPU_MODE=local), then the Node-side tests under test/gpu/.
#
# Elsewhere (no GPU, like CI and the development machines): builds, packs gpu-bundle/ for the
# lent GPU machine (scripts/gpu/make-bundle.sh), prints the device call that runs it there, and
# exits 0 with "GPU tests not run here: no GPU".
#
#   npm run test:gpu      # DS_GPU_FORCE_BUNDLE=1: pack the bundle even with a GPU;
#                         # DS_GPU_SKIP_SETUP=1: take the build as it is (no scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

has_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '
}

[ "${DS_GPU_SKIP_SETUP:-0}" = 1 ] || bash scripts/setup.sh

if has_gpu && [ "${DS_GPU_FORCE_BUNDLE:-0}" != 1 ]; then
  echo "[test:gpu] $(nvidia-smi -L | head -n 1)"
  command -v nvcc >/dev/null || echo "[test:gpu] WARNING: nvcc not found: the native build has no CUDA ops" >&2
  # The TensorRT runner (docs/internals/runners.md) is built where CMake finds TensorRT; with
  # TENSORRT_ROOT set, reconfigure so that a build made before TensorRT was there picks it up.
  if [ -n "${TENSORRT_ROOT:-}" ]; then
    (cd native-host && npx cmake-js compile --out build --CDCMAKE_BUILD_TYPE=Release --CDTENSORRT_ROOT="$TENSORRT_ROOT")
  fi
  node -e 'const a = require(require("ds-element-native").standaloneBindingPath);
    console.log("[test:gpu] TensorRT runner: " + (a.loadTensorRT ? "built, TensorRT " + a.tensorRTVersion
      : "not built (CMake found no TensorRT; set TENSORRT_ROOT): test/gpu/tensorrt-runner.test.ts is skipped"))' || true
  # The fixture elements, built as the integration tests build them.
  node sdk/bin/ds-element.js build --project test/fixtures/elements --out test/out/fixture-elements
  status=0
  DS_GPU_MODE=local bash scripts/gpu/device-run.sh || status=$?
  if compgen -G "test/gpu/*.test.ts" >/dev/null; then
    npx vitest run --project integration test/gpu || status=$?
  fi
  exit "$status"
fi

# The DeepStream build for the NVMM hook (test/gpu/nvmm.sh), from NVIDIA's source of the
# metadata libraries where it is here (DS_META_SOURCE, default ../shared/deepstream-9.1) or an
# installed SDK (DS_SDK_ROOT); without either the bundle has no deepstream/ and that hook fails.
ds_source="${DS_META_SOURCE:-../shared/deepstream-9.1}"
if [ -d "$ds_source" ] || [ -n "${DS_SDK_ROOT:-}" ]; then
  [ -d "$ds_source" ] && export DS_META_SOURCE="$ds_source"
  DS_BUILD_ONLY=1 DS_SKIP_SETUP=1 bash scripts/test-deepstream.sh
else
  echo "[test:gpu] WARNING: no DeepStream metadata source ($ds_source) nor DS_SDK_ROOT: the bundle leaves out the NVMM test" >&2
  export GPU_BUNDLE_DEEPSTREAM_DIR=none
fi
bash scripts/gpu/make-bundle.sh
cat <<'EOF'

GPU tests not run here: no GPU (nvidia-smi lists none).
Run them on the lent GPU machine with ONE device call (the lead's `run` tool), from this checkout:

  run(
    command   = "PYTHONUNBUFFERED=1 bash scripts/gpu/device-run.sh",
    carry     = ["gpu-bundle"],
    timeout_s = 600,
  )

It prints everything and returns $OUT/gpu-results.json and $OUT/gpu-run.log; the last line reads
"GPU RESULT: PASS" or "GPU RESULT: FAIL (<steps>)". Record that output in the issue's note.
EOF
exit 0
