#!/usr/bin/env python3
"""A python3-gi host for the hard failures of ds-element elements: several pipelines in one
process, so a test sees what an application embedding the elements sees.

Usage:
  hard_failures.py neighbours MODE LOCATION
      Pipeline A: `stuck mode=MODE after=5` (its call's deadline ends it with an error).
      Pipeline B, at the same time: a live source at 100 fps, 300 buffers, through
      `asyncwait location=LOCATION delay-ms=0`. Prints {"a": <A's error>, "b": "eos"|<error>,
      "stalled_ms": <B's longest gap between buffers>}.
  hard_failures.py seek
      `stuck mode=slow slow-ms=60000 after=5` playing; once it waits, a flushing seek. Prints
      {"seek_ms": <how long seek_simple took>, "end": "eos"|<error>}.
  hard_failures.py property
      `stuck hook=property mode=loop` playing; its `marker` property changed: the change's
      onPropertyChange() loops. Prints {"end": <the error>, "ms": <from the change to the error>}.
  hard_failures.py heap
      Three pipelines one after the other: `heaphog` until its heap error, set to NULL; again;
      then `stuck mode=none` for 100 buffers. Prints {"runs": [<buffers before the error>,
      <...>], "after": "eos"|<error>, "errors": [<messages>]}.
  hard_failures.py errors PIPELINE
      PIPELINE played to its end (EOS, or 30 s), with every ERROR message its bus carried (an
      application sees them all, where gst-launch may stop at the first). Prints {"end":
      "eos"|"timeout", "errors": [[<source element>, <message>], ...]}.
"""
import json
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

SOURCE = "video/x-raw,format=RGB,width=64,height=48"


def wait_end(pipeline, timeout_s):
    """The first EOS or ERROR on the bus: "eos", or the error's message."""
    message = pipeline.get_bus().timed_pop_filtered(int(timeout_s * Gst.SECOND), Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if message is None:
        return "timeout"
    if message.type == Gst.MessageType.EOS:
        return "eos"
    error, _debug = message.parse_error()
    return error.message


def neighbours(mode, location):
    a = Gst.parse_launch(f"videotestsrc ! {SOURCE} ! stuck mode={mode} after=5 ! fakesink")
    b = Gst.parse_launch(
        f"videotestsrc is-live=true num-buffers=300 ! {SOURCE},framerate=100/1 ! "
        f"asyncwait location={location} delay-ms=0 ! identity name=probe ! fakesink sync=false"
    )
    gaps = {"last": None, "max": 0.0}

    def on_buffer(_pad, _info):
        now = time.monotonic()
        if gaps["last"] is not None:
            gaps["max"] = max(gaps["max"], now - gaps["last"])
        gaps["last"] = now
        return Gst.PadProbeReturn.OK

    b.get_by_name("probe").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    b.set_state(Gst.State.PLAYING)
    a.set_state(Gst.State.PLAYING)
    a_end = wait_end(a, 30)
    a.set_state(Gst.State.NULL)
    b_end = wait_end(b, 30)
    b.set_state(Gst.State.NULL)
    print(json.dumps({"a": a_end, "b": b_end, "stalled_ms": round(gaps["max"] * 1000)}))


def seek():
    pipeline = Gst.parse_launch(f"videotestsrc num-buffers=40 ! {SOURCE} ! stuck mode=slow slow-ms=60000 after=5 ! fakesink")
    pipeline.set_state(Gst.State.PLAYING)
    pipeline.get_state(Gst.CLOCK_TIME_NONE)
    time.sleep(0.5)  # the 6th buffer's transform is waiting on its 60 s Promise by now
    started = time.monotonic()
    pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH, 0)
    seek_ms = round((time.monotonic() - started) * 1000)
    # After the flush the element waits again on the 6th buffer: end it as a user would.
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps({"seek_ms": seek_ms, "stop_ms": round((time.monotonic() - started) * 1000) - seek_ms}))


def property_change():
    pipeline = Gst.parse_launch(f"videotestsrc is-live=true num-buffers=600 ! {SOURCE},framerate=30/1 ! stuck name=subject hook=property mode=loop ! fakesink")
    pipeline.set_state(Gst.State.PLAYING)
    pipeline.get_state(Gst.CLOCK_TIME_NONE)
    time.sleep(0.3)
    started = time.monotonic()
    pipeline.get_by_name("subject").set_property("marker", "changed")
    end = wait_end(pipeline, 30)
    ms = round((time.monotonic() - started) * 1000)
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps({"end": end, "ms": ms}))


def heap():
    runs, errors = [], []
    for _ in range(2):
        pipeline = Gst.parse_launch(f"videotestsrc num-buffers=1000 ! {SOURCE} ! heaphog mb-per-buffer=8 ! identity name=probe ! fakesink")
        counted = {"buffers": 0}

        def on_buffer(_pad, _info, counted=counted):
            counted["buffers"] += 1
            return Gst.PadProbeReturn.OK

        pipeline.get_by_name("probe").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
        pipeline.set_state(Gst.State.PLAYING)
        errors.append(wait_end(pipeline, 60))
        pipeline.set_state(Gst.State.NULL)
        runs.append(counted["buffers"])
    pipeline = Gst.parse_launch(f"videotestsrc num-buffers=100 ! {SOURCE} ! stuck mode=none ! fakesink")
    pipeline.set_state(Gst.State.PLAYING)
    after = wait_end(pipeline, 30)
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps({"runs": runs, "after": after, "errors": errors}))


def errors(description):
    pipeline = Gst.parse_launch(description)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    posted, end = [], "timeout"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        message = bus.timed_pop_filtered(int((deadline - time.monotonic()) * Gst.SECOND), Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if message is None:
            break
        if message.type == Gst.MessageType.EOS:
            end = "eos"
            break
        error, _debug = message.parse_error()
        posted.append([message.src.get_name(), error.message])
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps({"end": end, "errors": posted}))


def main():
    Gst.init(None)
    command = sys.argv[1]
    if command == "neighbours":
        neighbours(sys.argv[2], sys.argv[3])
    elif command == "seek":
        seek()
    elif command == "property":
        property_change()
    elif command == "heap":
        heap()
    elif command == "errors":
        errors(" ".join(sys.argv[2:]))
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main()
