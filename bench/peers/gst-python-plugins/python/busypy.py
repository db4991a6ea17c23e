# The gst-python peer of bench/elements/src/busy.ts (bench section 9): an in-place transform that
# keeps the interpreter busy for busy-us microseconds per buffer, holding the GIL as pure-Python
# post-processing does. Loaded by gstreamer1.0-python3-plugin-loader from
# <GST_PLUGIN_PATH entry>/python/.
import time

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstBase", "1.0")
from gi.repository import GObject, Gst, GstBase  # noqa: E402

Gst.init(None)


class BusyPy(GstBase.BaseTransform):
    __gstmetadata__ = ("Busy (Python)", "Filter", "Spends busy-us microseconds of Python per buffer", "ds-element")
    __gsttemplates__ = (
        Gst.PadTemplate.new("src", Gst.PadDirection.SRC, Gst.PadPresence.ALWAYS, Gst.Caps.new_any()),
        Gst.PadTemplate.new("sink", Gst.PadDirection.SINK, Gst.PadPresence.ALWAYS, Gst.Caps.new_any()),
    )
    __gproperties__ = {
        "busy-us": (int, "Busy microseconds", "Microseconds of Python per buffer", 0, 1_000_000, 1000, GObject.ParamFlags.READWRITE),
    }

    def __init__(self):
        super().__init__()
        self.busy_us = 1000
        self.spins = 0

    def do_get_property(self, prop):
        return self.busy_us

    def do_set_property(self, prop, value):
        self.busy_us = value

    def do_transform_ip(self, buffer):
        until = time.perf_counter() + self.busy_us / 1e6
        while time.perf_counter() < until:
            self.spins += 1
        return Gst.FlowReturn.OK


GObject.type_register(BusyPy)
__gstelementfactory__ = ("busypy", Gst.Rank.NONE, BusyPy)
