#!/usr/bin/env bash
# GPU hook (docs/internals/gpu-testing.md, "Hooks"): Buffer.extract on GstCudaMemory, the GPU
# half of test/extract.test.ts, without Node on the machine (the element runs inside
# GStreamer's embedded Node). pixelprobe records each frame it extracts: on
# `video/x-raw(memory:CUDAMemory)` it must get a "cuda" handle with the device pointer and the
# pitch-aligned stride, read the pixels through a toHost() copy (cudaMemcpy2D from the frame's
# own CUDA context), and run preprocess on the GPU ("cuda" output). NV12 and I420 CUDA frames
# come as one handle with their planes, and their GPU preprocess equals the CPU's.
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

# Every format of issue 26 on GstCudaMemory: NV12 and I420 frames are extracted as one CUDA
# handle with its planes, RGBx and BGRA as one packed handle, zero-copy, and preprocess converts
# each on the GPU to exactly what the CPU path gives for the same frame in system memory.
for format in NV12 I420 RGBx BGRA; do
  lower=$(echo "$format" | tr 'A-Z' 'a-z')
  source="videotestsrc num-buffers=2 pattern=solid-color foreground-color=0xff4080c0 ! video/x-raw,format=$format,width=32,height=16"
  gst-launch-1.0 -q $source ! pixelprobe location="$out/$lower-cpu.jsonl" ! fakesink > "$out/$lower-cpu.log" 2>&1
  cpu_rc=$?
  gst-launch-1.0 -q $source ! cudaupload ! "video/x-raw(memory:CUDAMemory),format=$format" \
    ! pixelprobe location="$out/$lower-cuda.jsonl" ! cudadownload ! fakesink > "$out/$lower-cuda.log" 2>&1
  cuda_rc=$?
  cat "$out/$lower-cuda.log"
  check "$format pipelines run (system memory, CUDA)" test "$cpu_rc" -eq 0 -a "$cuda_rc" -eq 0
  check "$format on CUDA: one cuda handle (planar: with its planes), preprocess on the GPU equal to the CPU's" \
    python3 - "$out/$lower-cpu.jsonl" "$out/$lower-cuda.jsonl" "$format" <<'EOF2'
import json, sys
cpu = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cuda = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
fmt = sys.argv[3]
problems = []
if len(cpu) != 2 or len(cuda) != 2:
    problems.append(f"{len(cpu)} CPU and {len(cuda)} CUDA lines, expected 2 each")
for c, g in zip(cpu, cuda):
    if g.get("device") != {"type": "cuda", "id": 0} or g.get("format") != fmt:
        problems.append(f"CUDA frame {g.get('frameNum')}: device {g.get('device')!r} format {g.get('format')!r}")
    planes = g.get("planes") or []
    if len(planes) != {"NV12": 2, "I420": 3}.get(fmt, 0):
        problems.append(f"CUDA frame {g.get('frameNum')}: planes {planes!r}")
    if int(g.get("dataPtr", "0")) == 0:
        problems.append("dataPtr is 0")
    pre_c, pre_g = c.get("preprocess", {}), g.get("preprocess", {})
    if pre_g.get("device", {}).get("type") != "cuda":
        problems.append(f"preprocess ran on {pre_g.get('device')!r}")
    if pre_g.get("firstRgb") != pre_c.get("firstRgb") or pre_c.get("firstRgb") is None:
        problems.append(f"preprocess RGB: CUDA {pre_g.get('firstRgb')!r}, CPU {pre_c.get('firstRgb')!r}")
    if g.get("first") != c.get("first"):
        problems.append(f"first pixel (planar: of the Y plane): CUDA {g.get('first')!r}, CPU {c.get('first')!r}")
print(json.dumps(cuda[0]) if cuda else "no lines")
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
EOF2
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
