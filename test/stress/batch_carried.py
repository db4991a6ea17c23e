#!/usr/bin/env python3
"""Counts which buffers leave an element with ds-element's portable batch meta on them.

Usage: batch_carried.py PIPELINE_DESCRIPTION

The description must name the element whose output is watched `watched`. Prints one JSON
line: {"buffers": n, "withBatch": [indices of the buffers that carried the meta]}.
"""
import json
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GObject, Gst  # noqa: E402


def main():
    Gst.init(None)
    pipeline = Gst.parse_launch(sys.argv[1])
    seen = {"buffers": 0, "withBatch": []}

    def on_src(_pad, info):
        # Registered by the plugin the first time it attaches a batch; until then none can be on.
        api = GObject.type_from_name("DsNodePortableBatchMetaAPI")
        if api != GObject.TYPE_INVALID and info.get_buffer().get_n_meta(api) > 0:
            seen["withBatch"].append(seen["buffers"])
        seen["buffers"] += 1
        return Gst.PadProbeReturn.OK

    pipeline.get_by_name("watched").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_src)
    pipeline.set_state(Gst.State.PLAYING)
    message = pipeline.get_bus().timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if message is None or message.type != Gst.MessageType.EOS:
        detail = message.parse_error() if message is not None else "no EOS within 60 s"
        print(f"batch_carried.py: pipeline did not finish: {detail}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
