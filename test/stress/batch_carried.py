#!/usr/bin/env python3
"""Counts which buffers leave an element with a batch meta on them: ds-element's portable one
or DeepStream's NvDsMeta, whichever the build attaches.

Usage: batch_carried.py PIPELINE_DESCRIPTION

The description must name the element whose output is watched `watched`. Prints one JSON
line: {"buffers": n, "withBatch": [indices of the buffers that carried a batch meta],
"apis": [names of the meta APIs seen]}.
"""
import json
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GObject, Gst  # noqa: E402


def main():
    Gst.init(None)
    pipeline = Gst.parse_launch(sys.argv[1])
    seen = {"buffers": 0, "withBatch": [], "apis": []}

    def on_src(_pad, info):
        # Registered the first time a batch is attached (by the plugin, or by libnvdsgst_meta);
        # until then none can be on.
        carried = False
        for name in ("DsNodePortableBatchMetaAPI", "NvDsMetaAPI"):
            try:
                api = GObject.type_from_name(name)
            except RuntimeError:  # not registered (yet)
                continue
            if api != GObject.TYPE_INVALID and info.get_buffer().get_n_meta(api) > 0:
                carried = True
                if name not in seen["apis"]:
                    seen["apis"].append(name)
        if carried:
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
