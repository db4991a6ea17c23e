#!/usr/bin/env python3
"""Drives the lifecycle hooks of a running element from a python3-gi host: a property
change while PLAYING, a custom downstream event, a flushing seek, then EOS.

Usage: hooks.py LOCATION            (the framecounter writes its JSON lines there)
       hooks.py LOCATION --invalid  sets a value the schema rejects while PLAYING instead, and
                                    prints the error message the bus carried
"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def wait_for_frames(location, at_least, bus):
    # Poll the element's own output so each step happens while it is really PLAYING.
    for _ in range(500):
        message = bus.timed_pop_filtered(10 * Gst.MSECOND, Gst.MessageType.ERROR)
        if message is not None:
            error, debug = message.parse_error()
            raise RuntimeError(f"{error.message}\n{debug}")
        with open(location) as f:
            if sum(1 for line in f if '"type":"frame"' in line) >= at_least:
                return
    raise RuntimeError(f"fewer than {at_least} frames written to {location}")


def main():
    location = sys.argv[1]
    Gst.init(None)
    pipeline = Gst.parse_launch(
        "videotestsrc is-live=true ! video/x-raw,format=RGB,width=64,height=48,framerate=100/1 ! "
        f"framecounter name=counter location={location} mode=accurate ! fakesink"
    )
    counter = pipeline.get_by_name("counter")
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    wait_for_frames(location, 5, bus)

    if len(sys.argv) > 2 and sys.argv[2] == "--invalid":
        # GObject accepts any string; the element's schema (z.string().min(1)) does not.
        counter.set_property("location", "")
        message = bus.timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.ERROR | Gst.MessageType.EOS)
        pipeline.set_state(Gst.State.NULL)
        if message is None or message.type != Gst.MessageType.ERROR:
            raise RuntimeError("no ERROR after an invalid property value")
        error, debug = message.parse_error()
        print(f"{message.src.get_name()}: {error.message}")
        return

    counter.set_property("label", "relabelled")
    wait_for_frames(location, 10, bus)

    structure = Gst.Structure.new_from_string("ds-test-marker, answer=(int)42, note=(string)hello")
    counter.get_static_pad("sink").send_event(Gst.Event.new_custom(Gst.EventType.CUSTOM_DOWNSTREAM, structure))
    pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH, 0)
    wait_for_frames(location, 20, bus)

    pipeline.send_event(Gst.Event.new_eos())
    message = bus.timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is None or message.type != Gst.MessageType.EOS:
        raise RuntimeError("no EOS after the hooks")
    print("done")


if __name__ == "__main__":
    main()
