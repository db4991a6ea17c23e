#!/usr/bin/env python3
"""Changes the ball detector's `model` property mid-stream from a python3-gi host, as an
application would, and counts the buffers going into and out of the detector.

Usage: hot_swap.py MODEL_AT_START NEW_MODEL DUMP_LOCATION FRAMES SWAP_AT

The new model is set from a probe on the detector's sink pad just before buffer SWAP_AT
reaches it, so the test knows exactly which buffer came first after the request. Prints one
JSON line: {"in": n, "out": n, "swapAt": SWAP_AT}.
"""
import json
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def main():
    first, second, location, frames, swap_at = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    Gst.init(None)
    pipeline = Gst.parse_launch(
        f"videotestsrc is-live=true pattern=ball num-buffers={frames} ! "
        "video/x-raw,format=RGB,width=320,height=240,framerate=60/1 ! "
        f"balldetector name=detector model={first} ! dsmetadump location={location} ! fakesink"
    )
    detector = pipeline.get_by_name("detector")
    counts = {"in": 0, "out": 0}

    def on_sink(_pad, _info):
        if counts["in"] == swap_at:
            detector.set_property("model", second)
        counts["in"] += 1
        return Gst.PadProbeReturn.OK

    def on_src(_pad, _info):
        counts["out"] += 1
        return Gst.PadProbeReturn.OK

    detector.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_sink)
    detector.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_src)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    message = bus.timed_pop_filtered(120 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is None:
        raise RuntimeError("no EOS within 120 s")
    if message.type == Gst.MessageType.ERROR:
        error, debug = message.parse_error()
        raise RuntimeError(f"{message.src.get_name()}: {error.message}\n{debug}")
    print(json.dumps({"in": counts["in"], "out": counts["out"], "swapAt": swap_at}))


if __name__ == "__main__":
    main()
