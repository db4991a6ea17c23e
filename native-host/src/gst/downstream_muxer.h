// Whether an element's buffers flow into nvstreammux: an element that finds no batch on a
// buffer is either in a plain GStreamer pipeline or before the muxer, and only the second must
// not attach an NvDsBatchMeta (docs/metadata.md, "Where an element may stand").
#ifndef DSNODE_GST_DOWNSTREAM_MUXER_H
#define DSNODE_GST_DOWNSTREAM_MUXER_H

#include <gst/gst.h>

#include <string>

namespace dsnode {

// The factory name NVIDIA's muxer registers (gst-nvmultistream2/gstnvmultistream.cpp:47).
inline constexpr const char *kMuxerFactory = "nvstreammux";

// "mux.sink_3" when buffers leaving `src` reach a sink pad of an nvstreammux, following links
// through bins (ghost and proxy pads) and every source pad of the elements in between (queue,
// capsfilter, nvvideoconvert, tee, ...), at most 32 elements deep; "" when they do not. Takes
// the pads' object locks briefly; any thread.
std::string muxer_pad_downstream(GstPad *src);

}  // namespace dsnode

#endif
