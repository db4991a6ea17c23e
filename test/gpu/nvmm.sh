#!/usr/bin/env bash
# GPU hook (docs/internals/gpu-testing.md, "NVMM batches"): DeepStream's NVMM on the GPU, with
# the DeepStream build of the native host on NVIDIA's own libnvds_meta. dsnvmmtestmux
# (test/nvmm-testmux/, the nvstreammux stand-in) batches frames into `video/x-raw(memory:NVMM)`
# buffers whose NvBufSurface holds one pitch-linear surface per frame in CUDA memory, with an
# NvDsBatchMeta of that many frames; then
#   1. batch-size 4, CUDA device memory (nvbuf-memory-type=2), unified (3) and the default (0, device
#      memory on a discrete GPU): cudaprobe must
#      extract() every frame as a CUDA tensor handle with no host copy and letterbox it on the
#      GPU to exactly the CPU path's bytes (scripts/gpu/compare-element.py), seeing 4 frames a batch;
#   2. the bench: 16 × 1080p RGBA NVMM batches through batchrate (extract() + one preprocess of
#      the 16 frames to 16×3×640×640 fp16), frames/s of the whole pipeline, next to the same
#      pipeline doing nothing / extract() only, and PyTorch's letterbox of the same 16 frames
#      already on the GPU (bench/gpu/torch_peer.py's pipeline) as the peer; then the same three
#      with NV12 batches (the colour conversion fused into the letterbox); JSON in
#      $DS_GPU_HOOK_OUT/nvmm/nvmm-bench.json.
# Bundle mode: the bundle's deepstream/ and dists/fixtures-deepstream (scripts/gpu/make-bundle.sh
# with the DeepStream build). Local mode: native-host/build-deepstream and
# test/out-deepstream/fixture-elements (DS_BUILD_ONLY=1 bash scripts/test-deepstream.sh, then
# npm run test:deepstream once).
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
out="${DS_GPU_HOOK_OUT:-$(mktemp -d)}/nvmm"
rm -rf "$out" && mkdir -p "$out"
if [ -d "${DS_GPU_BUNDLE:-/nonexistent}/deepstream" ]; then
  libs="$DS_GPU_BUNDLE/deepstream/lib"
  plugins="$DS_GPU_BUNDLE/deepstream/test-plugins"
  dist="$DS_GPU_BUNDLE/dists/fixtures-deepstream"
elif [ -e "$repo/native-host/build-deepstream/deepstream-lib-dir" ]; then
  libs=$(cat "$repo/native-host/build-deepstream/deepstream-lib-dir")
  plugins="$repo/native-host/build-deepstream/test-plugins"
  dist="$repo/test/out-deepstream/fixture-elements"
else
  echo "no DeepStream build: the bundle has no deepstream/ (make-bundle.sh without native-host/build-deepstream)"
  echo "0 passed, 1 failed"
  exit 1
fi
# Python (numpy, PyTorch) runs on the machine's own libraries, not the bundle's.
machine_ld="${LD_LIBRARY_PATH:-}"
py() { LD_LIBRARY_PATH="$machine_ld" python3 "$@"; }
[ -n "${DS_GPU_BUNDLE_ENV:-}" ] && source "$DS_GPU_BUNDLE_ENV"
export GST_PLUGIN_PATH="$dist:$plugins" DS_ELEMENT_DEEPSTREAM_LIB_DIR="$libs"
export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset GST_PLUGIN_PATH_1_0

passed=0
failed=0
check() {  # check NAME COMMAND...
  if "${@:2}"; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}
launch() {  # launch LOG PIPELINE...: gst-launch-1.0, its output in LOG and on stdout
  local log="$1"; shift
  gst-launch-1.0 -q "$@" > "$log" 2>&1
  local rc=$?
  tail -n 20 "$log"
  return $rc
}

for e in dsnvmmtestmux cudaprobe batchrate; do
  gst-inspect-1.0 "$e" > "$out/inspect-$e.txt" 2>&1 || { cat "$out/inspect-$e.txt"; echo "$e is not registered ($GST_PLUGIN_PATH)"; echo "0 passed, 1 failed"; exit 1; }
done

# 1. Batch-size 4 on CUDA memory against the CPU path.
frames=8
source="videotestsrc num-buffers=$frames pattern=ball ! video/x-raw,format=RGBA,width=1280,height=720"
# shellcheck disable=SC2086
launch "$out/cpu.log" $source ! cudaprobe location="$out/cpu" ! fakesink
check "CPU reference pipeline runs" test $? -eq 0
# 0 is NVBUF_MEM_DEFAULT: CUDA device memory on a discrete GPU, decided at run time from CUDA's
# "integrated" attribute (native-host/src/tensor/default_memory.cpp), not from the build's architecture.
for memory in 0 2 3; do
  case $memory in 0) name=default ;; 2) name=device ;; *) name=unified ;; esac
  # shellcheck disable=SC2086
  launch "$out/$name.log" $source ! dsnvmmtestmux batch-size=4 nvbuf-memory-type=$memory ! cudaprobe location="$out/$name" ! fakesink
  check "NVMM batch-size 4 on CUDA $name memory runs" test $? -eq 0
  check "NVMM ($name): CUDA handles, 0 host copies, letterbox equal to the CPU path" \
    py "$repo/scripts/gpu/compare-element.py" --cpu "$out/cpu" --cuda "$out/$name" --frames "$frames" --json "$out/compare-$name.json"
  check "NVMM ($name): 4 frames a batch, batch ids and frame numbers from the NvDsBatchMeta" python3 - "$out/$name/frames.jsonl" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
got = [(l["frameNum"], l["batchId"], l["framesInBatch"]) for l in lines]
want = [(n, n % 4, 4) for n in range(8)]
print(got)
sys.exit(0 if got == want else 1)
EOF
done

# 2. The bench: 16 x 1080p.
repeat=${DS_GPU_NVMM_REPEAT:-400}
bench_source="videotestsrc num-buffers=16 pattern=ball ! video/x-raw,format=RGBA,width=1920,height=1080 ! dsnvmmtestmux batch-size=16 nvbuf-memory-type=2 repeat=$repeat"
for work in none extract preprocess; do
  # shellcheck disable=SC2086
  launch "$out/bench-$work.log" $bench_source ! batchrate work=$work report="$out/bench-$work.json" ! fakesink
  check "bench pipeline ($work) runs" test $? -eq 0
done
# The same batches as NV12, what decoders and nvstreammux give by default (the colour conversion,
# fused into the letterbox, follows the caps: BT.709 limited range at 1080p).
nv12_source="${bench_source/format=RGBA/format=NV12}"
for work in none extract preprocess; do
  # shellcheck disable=SC2086
  launch "$out/bench-nv12-$work.log" $nv12_source ! batchrate work=$work report="$out/bench-nv12-$work.json" ! fakesink
  check "bench pipeline (NV12, $work) runs" test $? -eq 0
done
py - "$repo/bench/gpu" "$out/torch.json" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[1])
import torch
from torch_peer import make_pipeline, time_cuda
frames = torch.randint(0, 256, (16, 1080, 1920, 4), dtype=torch.uint8, device="cuda")
best = None
for channels_last in (False, True):
    run = make_pipeline(1920, 1080, channels_last)
    timing = time_cuda(lambda: run(frames[..., :3]), 200)
    best = timing if best is None or timing["median_ms"] < best["median_ms"] else best
json.dump({"torch": torch.__version__, "median_ms": best["median_ms"], "framesPerSecond": 16 * 1000 / best["median_ms"]},
          open(sys.argv[2], "w"))
EOF
check "PyTorch peer runs" test $? -eq 0
check "bench: 0 host copies, frames and output on the GPU (RGBA and NV12)" py - "$out" <<'EOF'
import json, os, sys
out = sys.argv[1]
runs = {w: json.load(open(os.path.join(out, f"bench-{w}.json"))) for w in ("none", "extract", "preprocess")}
torch = json.load(open(os.path.join(out, "torch.json")))
ours = runs["preprocess"]
report = {
    "case": "16 x 1920x1080 RGBA NVMM (CUDA device) -> extract() x16 + preprocess -> 16x3x640x640 fp16",
    "pipeline_fps": {w: round(r["framesPerSecond"], 1) for w, r in runs.items()},
    "ms_per_batch": {w: round(r["msPerBatch"], 4) for w, r in runs.items()},
    "timed_batches": ours["timedBatches"],
    "host_copies": {w: r["hostCopies"] for w, r in runs.items()},
    "devices": ours["devices"],
    "torch_letterbox_alone_fps": round(torch["framesPerSecond"], 1),
    "torch_ms_per_batch": torch["median_ms"],
    "pipeline_vs_torch_letterbox_alone": round(ours["framesPerSecond"] / torch["framesPerSecond"], 3),
    "extract_ms_per_frame": round((runs["extract"]["msPerBatch"] - runs["none"]["msPerBatch"]) / 16, 5),
    # Inside the element: extract() alone, and listing the frames before it (JS timers).
    "extract_us_per_frame_in_js": {w: runs[w].get("extractUsPerFrame") for w in ("extract", "preprocess")},
    "frame_items_us_per_frame_in_js": {w: runs[w].get("frameItemsUsPerFrame") for w in ("extract", "preprocess")},
}
nv12 = {w: json.load(open(os.path.join(out, f"bench-nv12-{w}.json"))) for w in ("none", "extract", "preprocess")}
report["nv12"] = {
    "case": "16 x 1920x1080 NV12 NVMM (CUDA device) -> extract() x16 + preprocess -> 16x3x640x640 fp16",
    "pipeline_fps": {w: round(r["framesPerSecond"], 1) for w, r in nv12.items()},
    "ms_per_batch": {w: round(r["msPerBatch"], 4) for w, r in nv12.items()},
    "host_copies": {w: r["hostCopies"] for w, r in nv12.items()},
    "devices": nv12["preprocess"]["devices"],
    "extract_us_per_frame_in_js": {w: nv12[w].get("extractUsPerFrame") for w in ("extract", "preprocess")},
    "preprocess_fps_nv12_over_rgba": round(nv12["preprocess"]["framesPerSecond"] / ours["framesPerSecond"], 3),
}
print("NVMM BENCH " + json.dumps(report))
json.dump(report, open(os.path.join(out, "nvmm-bench.json"), "w"), indent=2)
ok = all(r["hostCopies"] == 0 for r in [*runs.values(), *nv12.values()]) and ours["devices"] == ["frame:cuda", "output:cuda"] \
    and nv12["preprocess"]["devices"] == ["frame:cuda", "output:cuda"]
sys.exit(0 if ok else 1)
EOF
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
