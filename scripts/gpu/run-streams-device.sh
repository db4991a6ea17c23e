#!/usr/bin/env bash
# The many-stream bench on the GPU machine (bench/README.md, "Many streams on the GPU"; issue 28):
# 1, 8, 32 and 64 streams of 1080p RGBA as NVMM batches (dsnvmmtestmux batch-size = streams,
# CUDA device memory, each batch pushed `repeat` times: a source that costs nothing), through
#   - yolostandin (bench/elements/src/yolo-standin.ts), the ds-element detector: extract(),
#     preprocess() on the GPU, the stand-in model (bench/gpu/standin/, a CUDA kernel writing a
#     YOLOv8 output: no TensorRT here), decodeYolo's GPU path, nms, mapBoxes, addObjects;
#   - dsyolopeer (bench/gpu/peer/yolo_peer.cpp), its C++ peer: the same kernels, no JavaScript;
# each in bench/streams/streams_bench.c (preroll, then PLAYING to EOS: the process's CPU time
# from getrusage and the wall time; a probe on the detector: the time it held each batch).
# Prints per configuration and element: frames/s (process: frames after preroll / wall), CPU ms
# per frame (getrusage of the whole process / frames), the detector's hold time per frame (probe),
# GPU ms per frame (CUDA events: the stand-in kernel for both; preprocess too for the peer),
# objects per frame, device-to-host bytes per frame; and TS/peer ratios. Both must write the same
# objects (equal checksums) or the configuration fails. A third run per configuration puts
# dstracker (sdk/builtin) after yolostandin ("+dstracker"; TS only: no nvtracker here).
#
#   bash scripts/gpu/run-streams-device.sh     # after scripts/gpu/device-run.sh (or alone: it unpacks)
#
# Environment: DS_STREAMS_LIST ("1 8 32 64"), DS_STREAMS_FRAMES (frames per run, 6400),
# DS_STREAMS_ROUNDS (rounds per run, the last one counts, 2), DS_STREAMS_TIMEOUT (s per run, 120),
# DS_STREAMS_BUDGET_S (s for all the runs, 420: runs past it are not started, the table still prints),
# DS_STREAMS_MEMORY (dsnvmmtestmux nvbuf-memory-type, 2: CUDA device; 6, system memory, runs both
# detectors' CPU paths: the script's own check where there is no GPU, which ends in FAIL (not on
# the GPU)), DS_GPU_WORK (/tmp/ds-gpu). Output: the printout, $OUT/streams/streams-results.json and every
# run's log and report there. Ends with `STREAMS RESULT: PASS` or `STREAMS RESULT: FAIL (<why>)`.
set -uo pipefail
cd "$(dirname "$0")/../.."
work=${DS_GPU_WORK:-/tmp/ds-gpu}
bundle="$work/bundle"
out="${OUT:-$work/out}/streams"
streams_list=${DS_STREAMS_LIST:-"1 8 32 64"}
frames_per_run=${DS_STREAMS_FRAMES:-6400}
rounds=${DS_STREAMS_ROUNDS:-2}
memory=${DS_STREAMS_MEMORY:-2}
run_timeout=${DS_STREAMS_TIMEOUT:-120}
budget=${DS_STREAMS_BUDGET_S:-420}
started=$(date +%s)
rm -rf "$out" && mkdir -p "$out"
fail() { echo "STREAMS RESULT: FAIL ($*)"; exit 1; }

card=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -n 1)
echo "card: ${card:-none (nvidia-smi found no GPU)}"
echo "cpus: $(nproc); repo: $(git rev-parse --short HEAD 2>/dev/null || echo '?'); bundle built from: $(sed -n 's/^repo: //p' gpu-bundle/MANIFEST 2>/dev/null | head -n 1)"
if [ ! -e "$bundle/env.sh" ]; then
  echo "no unpacked bundle at $bundle: unpacking it (scripts/gpu/device-run.sh with DS_GPU_STEPS=bundle)"
  OUT="$out/bundle-setup" DS_GPU_STEPS=bundle bash scripts/gpu/device-run.sh > "$out/bundle-setup.log" 2>&1 \
    || { tail -n 30 "$out/bundle-setup.log"; fail "the bundle did not unpack: gpu-bundle/ carried? (scripts/gpu/make-bundle.sh)"; }
fi
machine_ld="${LD_LIBRARY_PATH:-}"
export DS_GPU_BUNDLE="$bundle" DS_GPU_REGISTRY="$work/registry-streams.bin"
source scripts/gpu/bundle-env.sh
ds="$bundle/deepstream"
dist="$bundle/dists/bench-deepstream"
binding="$bundle/bench/dsbench_standin.node"
host="$bundle/bin/streams-bench"
for f in "$ds/lib/libnvds_meta.so" "$ds/test-plugins/libgstdsnvmmtestmux.so" "$ds/test-plugins/libgstdsyolopeer.so" \
    "$dist/ds-elements/yolostandin/index.js" "$binding" "$host"; do
  [ -e "$f" ] || fail "$f is missing from the bundle: build it on the development machine with the DeepStream build and CUDA (DS_BUILD_ONLY=1 npm run test:deepstream, then scripts/gpu/make-bundle.sh)"
done
export GST_PLUGIN_PATH="$dist:$ds/test-plugins" DS_ELEMENT_DEEPSTREAM_LIB_DIR="$ds/lib"
export LD_LIBRARY_PATH="$ds/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset GST_PLUGIN_PATH_1_0
for e in dsnvmmtestmux yolostandin dsyolopeer; do
  gst-inspect-1.0 "$e" > "$out/inspect-$e.txt" 2>&1 || { tail -n 20 "$out/inspect-$e.txt"; fail "$e is not registered ($GST_PLUGIN_PATH)"; }
done
grep -qE "^ +sources +:" "$out/inspect-dsnvmmtestmux.txt" \
  || fail "the bundle's dsnvmmtestmux has no sources property: an older DeepStream build; rebuild it (DS_BUILD_ONLY=1 npm run test:deepstream) and the bundle"
# The second variant: dstracker (sdk/builtin) after yolostandin; TS only (DeepStream's nvtracker is not here).
tracker=${DS_STREAMS_TRACKER:-1}
if [ "$tracker" = 1 ] && ! gst-inspect-1.0 dstracker > "$out/inspect-dstracker.txt" 2>&1; then
  echo "dstracker is not in the bundle's bench dist: the tracker variant is skipped"
  tracker=0
fi

# [after="ELEMENT ! "] run NAME STREAMS DETECTOR...: one streams-bench run (AFTER between the detector and the
# sink); its JSON in $out/NAME.json, the detector's report in $out/NAME.report.json.
run() {
  local name="$1" streams="$2"; shift 2
  local repeat=$(( frames_per_run / streams )) warmup
  [ "$repeat" -lt 20 ] && repeat=20
  warmup=$(( repeat / 10 )); [ "$warmup" -gt 50 ] && warmup=50
  local pipeline="videotestsrc num-buffers=$streams pattern=ball ! video/x-raw,format=RGBA,width=1920,height=1080,framerate=30/1"
  pipeline+=" ! dsnvmmtestmux batch-size=$streams sources=$streams nvbuf-memory-type=$memory repeat=$repeat"
  pipeline+=" ! $* name=det report=$out/$name.report.json warmup=$warmup ! ${after:-}fakesink sync=false"
  echo "$pipeline" > "$out/$name.pipeline"
  # Each run cut to what is left of the budget, so the table is printed inside the device call.
  local left=$(( started + budget - $(date +%s) )) limit=$run_timeout
  [ "$limit" -gt "$left" ] && limit=$left
  local rc=124
  if [ "$limit" -ge 10 ]; then
    timeout "$limit" "$host" "$rounds" "$pipeline" --probe det --warmup "$warmup" > "$out/$name.json" 2> "$out/$name.log"
    rc=$?
  else
    echo "out of time (DS_STREAMS_BUDGET_S=$budget): not run" > "$out/$name.log"
  fi
  if [ "$rc" -ne 0 ]; then
    echo "---- $name: exit status $rc$([ "$rc" -eq 124 ] && echo " (timed out or out of time: ${limit}s left of the run's ${run_timeout})")"
    tail -n 15 "$out/$name.log"
  fi
  echo "{\"name\": \"$name\", \"streams\": $streams, \"repeat\": $repeat, \"warmup\": $warmup, \"rc\": $rc}" > "$out/$name.run.json"
}

for streams in $streams_list; do
  echo "==== $streams stream(s) of 1080p, $frames_per_run frames a run"
  run "ts-$streams" "$streams" yolostandin binding="$binding" max-batch="$streams"
  run "peer-$streams" "$streams" dsyolopeer
  [ "$tracker" = 1 ] && after="dstracker ! " run "tracked-$streams" "$streams" yolostandin binding="$binding" max-batch="$streams"
done

LD_LIBRARY_PATH="$machine_ld" python3 - "$out" $streams_list <<'EOF'
import json, os, sys
out, streams_list = sys.argv[1], [int(s) for s in sys.argv[2:]]

def load(name):
    path = os.path.join(out, name)
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None

def figures(kind, streams, prefix=None):
    name = f"{prefix or kind}-{streams}"
    run, bench, report = load(f"{name}.run.json"), load(f"{name}.json"), load(f"{name}.report.json")
    if not run or run["rc"] != 0 or not bench or not bench.get("rounds") or not report:
        return {"error": f"{name} did not run (see {name}.log)"}
    last = bench["rounds"][-1]
    frames = streams * (run["repeat"] - 1)  # the batch pushed in preroll is not timed
    probe = last.get("probe") or {}
    ms = report.get("msPerFrame", {})
    gpu = {"model": ms.get("modelGpu")}
    if kind == "peer":
        gpu["preprocess"] = ms.get("preprocessGpu")
    return {
        "fps": frames / last["wall_s"],
        "cpu_ms_per_frame": last["cpu_s"] * 1000 / frames,
        "hold_ms_per_frame": probe.get("mean_us", 0) / 1000 / streams if probe else None,
        "element_fps": report.get("framesPerSecond"),
        "gpu_ms_per_frame": gpu,
        "ts_parts_ms_per_frame": ms if kind == "ts" else None,
        "objects_per_frame": report.get("objectsPerFrame"),
        # The peer: the candidates' copy (CopyStats). yolostandin: tensorStats' host copies (whole
        # tensors; 0 when decodeYolo took its GPU path), its candidates' copy is the same call's.
        "d2h_bytes_per_frame": report.get("hostCopyBytesPerFrame") if kind == "peer" else None,
        "host_copies": report.get("hostCopies"),
        "model_device": report.get("model"),
        "checksum": report.get("objectChecksum"),
        "rounds": bench["rounds"],
    }

rows, failures = [], []
for s in streams_list:
    ts, peer = figures("ts", s), figures("peer", s)
    row = {"streams": s, "ts": ts, "peer": peer}
    if "error" in ts or "error" in peer:
        failures.append(f"{s} streams: {ts.get('error') or peer.get('error')}")
    else:
        row["ts_over_peer"] = {"fps": ts["fps"] / peer["fps"], "cpu_per_frame": ts["cpu_ms_per_frame"] / peer["cpu_ms_per_frame"]}
        same = ts["checksum"] is not None and abs(ts["checksum"] - peer["checksum"]) <= 1e-6 * max(1.0, abs(peer["checksum"]))
        row["same_objects"] = same
        if not same:
            failures.append(f"{s} streams: the objects differ (checksum {ts['checksum']} vs {peer['checksum']})")
        if ts["model_device"] != "cuda" or peer["model_device"] != "cuda":
            failures.append(f"{s} streams: not on the GPU (model {ts['model_device']} / {peer['model_device']})")
        if ts["host_copies"]:
            failures.append(f"{s} streams: yolostandin copied {ts['host_copies']} whole tensors to the host (decodeYolo off its GPU path?)")
    if os.path.exists(os.path.join(out, f"tracked-{s}.run.json")):
        tracked = figures("ts", s, "tracked")
        row["tracked"] = tracked
        if "error" in tracked:
            failures.append(f"{s} streams: {tracked['error']}")
    rows.append(row)

def f(value, digits=3):
    return "-" if value is None else f"{value:.{digits}f}"

print()
print("streams  element      frames/s   CPU ms/frame  hold ms/frame  GPU ms/frame (CUDA events)          objects/frame  D2H B/frame (whole-tensor copies)")
for row in rows:
    for kind, label in (("ts", "yolostandin"), ("peer", "dsyolopeer"), ("tracked", "+dstracker")):
        if kind not in row:
            continue
        r = row[kind]
        if "error" in r:
            print(f"{row['streams']:>7}  {label:<11}  {r['error']}")
            continue
        gpu = r["gpu_ms_per_frame"]
        gpu_text = f"model {f(gpu['model'], 4)}" + (f" + preprocess {f(gpu['preprocess'], 4)}" if "preprocess" in gpu else "")
        print(f"{row['streams']:>7}  {label:<11}  {f(r['fps'], 1):>9}  {f(r['cpu_ms_per_frame'], 4):>12}  {f(r['hold_ms_per_frame'], 4):>13}"
              f"  {gpu_text:<34}  {f(r['objects_per_frame'], 2):>13}  {f(r['d2h_bytes_per_frame'], 0):>11} ({r['host_copies'] if r['host_copies'] is not None else '-'})")
    if "ts_over_peer" in row:
        ratio = row["ts_over_peer"]
        print(f"{'':>7}  TS/peer      fps {ratio['fps']:.3f}, CPU per frame {ratio['cpu_per_frame']:.3f}, same objects: {row['same_objects']}")
print()
print("yolostandin's parts, ms per frame (host clock; preprocess, modelCall and decode wait for the GPU):")
for row in rows:
    parts = row["ts"].get("ts_parts_ms_per_frame") if "error" not in row["ts"] else None
    if parts:
        print(f"{row['streams']:>7}  " + ", ".join(f"{k} {f(v, 4)}" for k, v in parts.items()))
result = {"rows": rows, "failures": failures}
json.dump(result, open(os.path.join(out, "streams-results.json"), "w"), indent=2)
print()
print("STREAMS JSON " + json.dumps([{"streams": r["streams"], **({"ts_over_peer": r["ts_over_peer"]} if "ts_over_peer" in r else {}),
                                   "ts_fps": r["ts"].get("fps"), "peer_fps": r["peer"].get("fps"),
                                   "ts_tracked_fps": r.get("tracked", {}).get("fps"),
                                   "ts_cpu_ms": r["ts"].get("cpu_ms_per_frame"), "peer_cpu_ms": r["peer"].get("cpu_ms_per_frame")} for r in rows]))
print("STREAMS RESULT: " + ("PASS" if not failures else "FAIL (" + "; ".join(failures) + ")"))
sys.exit(1 if failures else 0)
EOF
