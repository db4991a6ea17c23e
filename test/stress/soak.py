#!/usr/bin/env python3
"""Runs BUFFERS small buffers through PIPELINE (a gst-launch description between the source and
fakesink) in this process and samples its resident memory along the way.

Usage: soak.py BUFFERS "<elements>"
Prints one JSON object: {"end": "eos"|<error>, "seconds": s, "samples": [[buffers, rss_kib], ...]}
(a sample every 50 ms; buffers from the pipeline's position, the source running at 1000 fps of
stream time, as fast as it can).
"""
import json
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def main():
    buffers, elements = int(sys.argv[1]), sys.argv[2]
    Gst.init(None)
    pipeline = Gst.parse_launch(
        f"videotestsrc num-buffers={buffers} ! video/x-raw,format=GRAY8,width=16,height=16,framerate=1000/1 ! "
        f"{elements} ! fakesink sync=false"
    )
    bus = pipeline.get_bus()
    samples = []
    started = time.monotonic()
    pipeline.set_state(Gst.State.PLAYING)
    end = "timeout"
    while time.monotonic() - started < 600:
        message = bus.timed_pop_filtered(50 * Gst.MSECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if message is not None:
            end = "eos" if message.type == Gst.MessageType.EOS else message.parse_error()[0].message
            break
        ok, position = pipeline.query_position(Gst.Format.TIME)
        if ok:
            samples.append([position // Gst.MSECOND, rss_kib()])
    seconds = time.monotonic() - started
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps({"end": end, "seconds": round(seconds, 2), "samples": samples}))


if __name__ == "__main__":
    main()
