#!/usr/bin/env bash
# On the GPU machine, after scripts/gpu/device-run.sh has unpacked the bundle (it needs no GPU:
# the GPU machine is where 16 cores are): bench section 9 (bench/harness/js-threads.mjs) without
# Node on the machine. N streams, each `videotestsrc ! busyts busy-us=1000 ! fakesink`, in one
# streams-bench process (bench/streams/streams_bench.c), with every element on the shared
# JavaScript thread and then each in an isolate of its own (isolate=own); buffers per second of
# wall time from PLAYING to EOS and the ratio to one element of the same configuration.
#
#   GPU_BUNDLE_DISTS=bench/out/dist bash scripts/gpu/make-bundle.sh    # here: busyts in dists/out
#   bash scripts/gpu/run-jsthreads-device.sh /path/to/streams-bench    # there, after device-run.sh
#
# Environment: DS_GPU_WORK (the bundle's scratch folder, /tmp/ds-gpu), JSTHREADS_COUNTS
# ("1 2 4 8 16"), JSTHREADS_BUFFERS (400 a stream), JSTHREADS_BUSY_US (1000), JSTHREADS_ROUNDS
# (3, the first not counted).
set -uo pipefail
streams_bench=${1:?usage: run-jsthreads-device.sh STREAMS_BENCH}
work=${DS_GPU_WORK:-/tmp/ds-gpu}
bundle="$work/bundle"
[ -e "$bundle/env.sh" ] || { echo "run-jsthreads-device: no unpacked bundle in $bundle (run scripts/gpu/device-run.sh first)" >&2; exit 2; }
[ -d "$bundle/dists/out/ds-elements/busyts" ] || { echo "run-jsthreads-device: the bundle has no busyts (make it with GPU_BUNDLE_DISTS=bench/out/dist)" >&2; exit 2; }
# shellcheck disable=SC1091
source "$bundle/env.sh"
export GST_PLUGIN_PATH="$bundle/dists/out"
counts=${JSTHREADS_COUNTS:-1 2 4 8 16}
buffers=${JSTHREADS_BUFFERS:-400}
busy_us=${JSTHREADS_BUSY_US:-1000}
rounds=${JSTHREADS_ROUNDS:-3}
caps="video/x-raw,format=GRAY8,width=16,height=16"
echo "js-threads on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), ${busy_us} µs a buffer, ${buffers} buffers a stream"
for properties in "" "isolate=own"; do
  for n in $counts; do
    pipeline=""
    for _ in $(seq "$n"); do
      pipeline+="videotestsrc num-buffers=$buffers ! $caps ! busyts busy-us=$busy_us $properties ! fakesink "
    done
    line=$("$streams_bench" "$rounds" "$pipeline" 2>/tmp/jsthreads-stderr.txt | grep '^{"rounds"') \
      || { echo "run-jsthreads-device: streams-bench failed ($n × busyts $properties)" >&2; tail -5 /tmp/jsthreads-stderr.txt >&2; exit 1; }
    echo "JSTHREADS ${properties:-shared} $n $((n * buffers)) $line"
  done
done | python3 -c '
import json, statistics, sys
one = {}
for text in sys.stdin:
    if not text.startswith("JSTHREADS "):
        print(text, end=""); continue
    _, config, n, buffers, payload = text.split(" ", 4)
    rounds = json.loads(payload)["rounds"][1:]
    wall = statistics.median(r["wall_s"] for r in rounds)
    cpu = statistics.median(r["cpu_s"] for r in rounds)
    rate = int(buffers) / wall
    one.setdefault(config, rate)
    print(f"JSTHREADS RESULT {config:7} elements {int(n):3}  {rate:8.0f} buffers/s  {rate / one[config]:5.2f} x one element  {cpu / wall:5.2f} cores busy", flush=True)
'
