#!/usr/bin/env python3
"""Builds, runs and tears down a pipeline with two TypeScript elements on two streaming
threads (tee + queues) many times in one process, and reports resident memory along the way.

Usage: pipeline_cycles.py ELEMENT OUT_DIR ITERATIONS BUFFERS
Prints one JSON object: {"iterations": N, "rss_kib": {"1": ..., "2": ..., ...} (after each iteration), "counts": [[a, b], ...]}
"""
import json
import os
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def count_lines(path):
    with open(path) as f:
        return sum(1 for line in f if '"frameNum"' in line)


def run_once(element, out_dir, index, buffers):
    left = os.path.join(out_dir, f"left-{index}.jsonl")
    right = os.path.join(out_dir, f"right-{index}.jsonl")
    pipeline = Gst.parse_launch(
        f"videotestsrc num-buffers={buffers} ! video/x-raw,format=RGB,width=64,height=48 ! tee name=t "
        f"t. ! queue ! {element} name=left location={left} ! fakesink sync=false "
        f"t. ! queue ! {element} name=right location={right} ! fakesink sync=false"
    )
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    message = bus.timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is None:
        raise RuntimeError(f"iteration {index}: no EOS within 60 s")
    if message.type == Gst.MessageType.ERROR:
        error, debug = message.parse_error()
        raise RuntimeError(f"iteration {index}: {error.message}\n{debug}")
    counts = [count_lines(left), count_lines(right)]
    os.unlink(left)
    os.unlink(right)
    return counts


def main():
    element, out_dir, iterations, buffers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    Gst.init(None)
    rss = {}
    counts = []
    for index in range(1, iterations + 1):
        counts.append(run_once(element, out_dir, index, buffers))
        rss[str(index)] = rss_kib()
    print(json.dumps({"iterations": iterations, "rss_kib": rss, "counts": counts}))


if __name__ == "__main__":
    main()
