#!/usr/bin/env bash
# GPU hook (docs/internals/gpu-testing.md, "Hooks"): Buffer.extract on GstCudaMemory, the GPU
# half of test/extract.test.ts, without Node on the machine (the element runs inside
# GStreamer's embedded Node). pixelprobe records each frame it extracts: on
# `video/x-raw(memory:CUDAMemory)` it must get a "cuda" handle with the device pointer and the
# pitch-aligned stride, read the pixels through a toHost() copy (cudaMemcpy2D from the frame's
# own CUDA context), and run preprocess on the GPU ("cuda" output). An NV12 CUDA frame must
# fail with the error that suggests cudaconvert.
set -uo pipefail
[ -n "${DS_GPU_BUNDLE_ENV:-}" ] && source "$DS_GPU_BUNDLE_ENV"
dist="${DS_GPU_FIXTURES_DIST:?}"
out="${DS_GPU_HOOK_OUT:-$(mktemp -d)}/frame-access"
mkdir -p "$out"
export GST_PLUGIN_PATH="$dist"
unset GST_PLUGIN_PATH_1_0

passed=0
failed=0
check() {  # check NAME COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}

if ! gst-inspect-1.0 pixelprobe > /dev/null 2>&1; then
  echo "pixelprobe is not in $dist (bundle made with GPU_BUNDLE_ELEMENTS without it)"
  exit 1
fi

# ARGB 0xff102030: R 16, G 32, B 48.
gst-launch-1.0 -q videotestsrc num-buffers=3 pattern=solid-color foreground-color=0xff102030 \
  ! video/x-raw,format=RGBA,width=33,height=17 ! cudaupload ! 'video/x-raw(memory:CUDAMemory),format=RGBA' \
  ! pixelprobe location="$out/cuda.jsonl" ! cudadownload ! fakesink > "$out/cuda.log" 2>&1
rc=$?
cat "$out/cuda.log"
check "CUDA pipeline runs" test "$rc" -eq 0
check "CUDA frames as cuda handles, pixels via toHost, preprocess on the GPU" python3 - "$out/cuda.jsonl" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
problems = []
if len(lines) != 3:
    problems.append(f"{len(lines)} lines, expected 3")
for line in lines:
    want = {"device": {"type": "cuda", "id": 0}, "dtype": "uint8", "shape": [17, 33, 4], "format": "RGBA",
            "owned": False, "first": [16, 32, 48, 255], "last": [16, 32, 48, 255]}
    for key, value in want.items():
        if line.get(key) != value:
            problems.append(f"frame {line.get('frameNum')}: {key} {line.get(key)!r}, expected {value!r}")
    strides = line.get("strides", [])
    if len(strides) != 3 or strides[0] < 33 * 4 or strides[1:] != [4, 1]:
        problems.append(f"frame {line.get('frameNum')}: strides {strides!r}")
    if int(line.get("dataPtr", "0")) == 0:
        problems.append("dataPtr is 0")
    pre = line.get("preprocess", {})
    if pre.get("device", {}).get("type") != "cuda" or pre.get("shape") != [1, 3, 16, 16] or pre.get("first") != 16:
        problems.append(f"frame {line.get('frameNum')}: preprocess {pre!r}")
print(json.dumps(lines[0]) if lines else "no lines")
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
EOF

gst-launch-1.0 -q videotestsrc num-buffers=1 ! video/x-raw,format=NV12,width=32,height=16 ! cudaupload \
  ! 'video/x-raw(memory:CUDAMemory),format=NV12' ! pixelprobe location="$out/nv12.jsonl" ! cudadownload ! fakesink \
  > "$out/nv12.log" 2>&1
rc=$?
check "NV12 on CUDA fails" test "$rc" -ne 0
check "NV12 error names the caps and cudaconvert" grep -q \
  'but received NV12 (video/x-raw(memory:CUDAMemory), format=(string)NV12.*convert first, e.g. "cudaconvert ! video/x-raw(memory:CUDAMemory),format=RGBA"' \
  "$out/nv12.log"
grep -m1 'Expected a packed' "$out/nv12.log" || tail -n 5 "$out/nv12.log"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
