#!/usr/bin/env python3
"""Changes the ball detector's `model` faster than models load, on a live source, as an
application gone wrong would: every INTERVAL_MS for SECONDS, alternating between two models,
then leaves it on the last one until the frames carry its results (at most 60 s; its load and
the one before it are then over, so the process never exits in the middle of a load), and SETTLE
seconds more before EOS.

Usage: hot_swap_storm.py MODEL_A MODEL_B DUMP_LOCATION SECONDS INTERVAL_MS SETTLE

The source makes 30 frames a second. Samples this process's threads and resident memory every
250 ms. Prints one JSON line: {"expected": frames the source's clock made from PLAYING to EOS,
"in": n, "out": n, "changes": n, "last": the last model set, "threads": [min, max],
"rssMb": [first, max, last], "storm": [[changes made, resident MB], ...] (the samples taken
from the first change to the last), "elapsed": s}. MODEL_A is set first and last (an odd number
of changes), so the element ends on MODEL_A.
"""
import json
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

FPS = 30


def process_status():
    threads = rss_kb = 0
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("Threads:"):
                threads = int(line.split()[1])
            elif line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
    return threads, rss_kb / 1024


def main():
    model_a, model_b, location = sys.argv[1], sys.argv[2], sys.argv[3]
    seconds, interval_ms, settle = float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
    Gst.init(None)
    pipeline = Gst.parse_launch(
        "videotestsrc is-live=true pattern=ball ! "
        f"video/x-raw,format=RGB,width=320,height=240,framerate={FPS}/1 ! "
        f"balldetector name=detector model={model_b} ! dsmetadump location={location} ! fakesink"
    )
    detector = pipeline.get_by_name("detector")
    counts = {"in": 0, "out": 0, "changes": 0}
    samples = []
    storm = []
    state = {"started": None, "last": model_b}

    def on_sink(_pad, _info):
        counts["in"] += 1
        return Gst.PadProbeReturn.OK

    def on_src(_pad, _info):
        counts["out"] += 1
        return Gst.PadProbeReturn.OK

    detector.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_sink)
    detector.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_src)
    loop = GLib.MainLoop()
    result = {}

    def change():
        elapsed = time.monotonic() - state["started"]
        # An odd number of changes, the first and the last to MODEL_A.
        if elapsed >= seconds and counts["changes"] % 2 == 1:
            state["stormEnd"] = time.monotonic()
            GLib.timeout_add(200, settled)
            return False
        model = model_a if counts["changes"] % 2 == 0 else model_b
        detector.set_property("model", model)
        state["last"] = model
        counts["changes"] += 1
        return True

    def settled():
        # MODEL_A (ball.onnx) reports the ball as class 0, MODEL_B as class 1.
        try:
            with open(location) as dump:
                last = [json.loads(line) for line in dump.read().strip().split("\n")[-10:]]
        except (OSError, ValueError):
            last = []
        classes = [[o["classId"] for o in line["frameItems"][0]["objectItems"]] for line in last]
        if (len(classes) == 10 and all(found == [0] for found in classes)) or time.monotonic() - state["stormEnd"] > 60:
            GLib.timeout_add(int(settle * 1000), finish)
            return False
        return True

    def sample():
        samples.append(process_status())
        if counts["changes"] > 0 and "stormEnd" not in state:
            storm.append([counts["changes"], round(samples[-1][1])])
        return True

    def finish():
        result["elapsed"] = time.monotonic() - state["started"]
        pipeline.send_event(Gst.Event.new_eos())
        return False

    def on_message(_bus, message):
        if message.type == Gst.MessageType.ERROR:
            error, debug = message.parse_error()
            result["error"] = f"{message.src.get_name()}: {error.message}\n{debug}"
            loop.quit()
        elif message.type == Gst.MessageType.EOS:
            loop.quit()
        elif message.type == Gst.MessageType.STATE_CHANGED and message.src == pipeline:
            _old, new, _pending = message.parse_state_changed()
            if new == Gst.State.PLAYING and state["started"] is None:
                state["started"] = time.monotonic()
                samples.append(process_status())
                GLib.timeout_add(interval_ms, change)
                GLib.timeout_add(250, sample)

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    pipeline.set_state(Gst.State.PLAYING)
    GLib.timeout_add_seconds(int(seconds + settle + 180), loop.quit)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    if "error" in result:
        raise RuntimeError(result["error"])
    if "elapsed" not in result:
        raise RuntimeError("no EOS in time")
    threads = [s[0] for s in samples]
    rss = [s[1] for s in samples]
    print(json.dumps({
        "expected": int(result["elapsed"] * FPS),
        "in": counts["in"],
        "out": counts["out"],
        "changes": counts["changes"],
        "last": state["last"],
        "threads": [min(threads), max(threads)],
        "rssMb": [round(rss[0]), round(max(rss)), round(rss[-1])],
        "storm": storm,
        "elapsed": round(result["elapsed"], 1),
    }))


if __name__ == "__main__":
    main()
