# The gst-python peer of bench/elements/src/noop.ts: an in-place transform that touches the
# buffer's timestamp and returns. Loaded by gstreamer1.0-python3-plugin-loader from
# <GST_PLUGIN_PATH entry>/python/.
import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstBase", "1.0")
from gi.repository import GObject, Gst, GstBase  # noqa: E402

Gst.init(None)


class NoopPy(GstBase.BaseTransform):
    __gstmetadata__ = ("No-op (Python)", "Filter", "Does nothing per buffer, in Python", "ds-element")
    __gsttemplates__ = (
        Gst.PadTemplate.new("src", Gst.PadDirection.SRC, Gst.PadPresence.ALWAYS, Gst.Caps.new_any()),
        Gst.PadTemplate.new("sink", Gst.PadDirection.SINK, Gst.PadPresence.ALWAYS, Gst.Caps.new_any()),
    )

    def __init__(self):
        super().__init__()
        self.count = 0

    def do_transform_ip(self, buffer):
        self.count += 1 if buffer.pts != Gst.CLOCK_TIME_NONE else 0
        return Gst.FlowReturn.OK


GObject.type_register(NoopPy)
__gstelementfactory__ = ("noopy", Gst.Rank.NONE, NoopPy)
