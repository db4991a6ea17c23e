#include "gst/downstream_muxer.h"

#include <cstring>

namespace dsnode {

namespace {

constexpr int kMaxDepth = 32;

bool is_muxer(GstElement *element) {
  GstElementFactory *factory = gst_element_get_factory(element);
  return factory != nullptr && std::strcmp(GST_OBJECT_NAME(factory), kMuxerFactory) == 0;
}

std::string search(GstPad *src, int depth);

// Every source pad of `element`, searched in turn.
std::string search_source_pads(GstElement *element, int depth) {
  std::string found;
  GstIterator *pads = gst_element_iterate_src_pads(element);
  GValue item = G_VALUE_INIT;
  bool done = false;
  while (!done && found.empty()) {
    switch (gst_iterator_next(pads, &item)) {
      case GST_ITERATOR_OK:
        found = search(GST_PAD(g_value_get_object(&item)), depth);
        g_value_reset(&item);
        break;
      case GST_ITERATOR_RESYNC:
        gst_iterator_resync(pads);
        break;
      default:
        done = true;
    }
  }
  g_value_unset(&item);
  gst_iterator_free(pads);
  return found;
}

std::string search(GstPad *src, int depth) {
  if (depth >= kMaxDepth) return "";
  GstPad *peer = gst_pad_get_peer(src);
  if (peer == nullptr) return "";
  std::string found;
  if (GST_IS_PROXY_PAD(peer)) {
    // Into or out of a bin: the ghost pad's internal pad carries the buffers on.
    if (GstProxyPad *internal = gst_proxy_pad_get_internal(GST_PROXY_PAD(peer))) {
      found = search(GST_PAD(internal), depth + 1);
      gst_object_unref(internal);
    }
  } else if (GstElement *element = gst_pad_get_parent_element(peer)) {
    if (is_muxer(element)) {
      found = std::string(GST_OBJECT_NAME(element)) + "." + GST_OBJECT_NAME(peer);
    } else {
      found = search_source_pads(element, depth + 1);
    }
    gst_object_unref(element);
  }
  gst_object_unref(peer);
  return found;
}

}  // namespace

std::string muxer_pad_downstream(GstPad *src) { return search(src, 0); }

}  // namespace dsnode
