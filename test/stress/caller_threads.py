#!/usr/bin/env python3
"""Pushes buffers into a TS element from short-lived threads of its own, as an application
calling the element's sink pad directly would: each thread makes direct calls into JavaScript
(it holds the isolate's lock for them and keeps the isolate entered while it lives), then ends.
The last thread is still alive, blocked, when the process exits. Nothing may crash or hang.

Usage: caller_threads.py ELEMENT LOCATION THREADS BUFFERS_PER_THREAD

ELEMENT is created with location=LOCATION. Prints one JSON line: {"threads": n, "pushed": n,
"flows": [the distinct flow returns]}.
"""
import json
import sys
import threading

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def main():
    name, location, threads, per_thread = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    Gst.init(None)
    pipeline = Gst.Pipeline.new("callers")
    element = Gst.ElementFactory.make(name, "subject")
    if element is None:
        raise RuntimeError(f"no element {name} on GST_PLUGIN_PATH")
    element.set_property("location", location)
    sink = Gst.ElementFactory.make("fakesink", "sink")
    pipeline.add(element)
    pipeline.add(sink)
    element.link(sink)
    pipeline.set_state(Gst.State.PLAYING)

    pad = element.get_static_pad("sink")
    pad.send_event(Gst.Event.new_stream_start("callers"))
    pad.send_event(Gst.Event.new_caps(Gst.Caps.from_string("video/x-raw,format=RGB,width=8,height=8,framerate=30/1")))
    segment = Gst.Segment()
    segment.init(Gst.Format.TIME)
    pad.send_event(Gst.Event.new_segment(segment))

    state = {"pushed": 0, "flows": set()}

    def push():
        for _ in range(per_thread):
            buffer = Gst.Buffer.new_allocate(None, 8 * 8 * 3, None)
            buffer.pts = state["pushed"] * Gst.SECOND // 30
            state["flows"].add(pad.chain(buffer).value_nick)
            state["pushed"] += 1

    for _ in range(threads - 1):
        thread = threading.Thread(target=push)
        thread.start()
        thread.join()  # the thread has ended: its hold on the isolate went with it

    # The last one pushes and stays alive (blocked) while the process exits.
    release = threading.Event()
    pushed_last = threading.Event()

    def push_and_wait():
        push()
        pushed_last.set()
        release.wait()

    threading.Thread(target=push_and_wait, daemon=True).start()
    pushed_last.wait(60)
    pad.send_event(Gst.Event.new_eos())
    pipeline.set_state(Gst.State.NULL)
    print(json.dumps({"threads": threads, "pushed": state["pushed"], "flows": sorted(state["flows"])}), flush=True)


if __name__ == "__main__":
    main()
