// Compiled (never linked) wherever GStreamer's analytics headers are found (gstreamer-analytics-1.0,
// GStreamer >= 1.24): proves that meta/gst_analytics_library.h's own prototypes, GstAnalyticsMtd
// and the relation values match the real ones, function by function.
#include <gst/analytics/analytics.h>

#include <cstddef>
#include <type_traits>

#include "meta/gst_analytics_library.h"

namespace mirror = dsnode::meta;

static_assert(sizeof(GstAnalyticsMtd) == sizeof(mirror::AnalyticsMtd), "GstAnalyticsMtd size");
static_assert(offsetof(GstAnalyticsMtd, id) == offsetof(mirror::AnalyticsMtd, id), "GstAnalyticsMtd.id");
static_assert(offsetof(GstAnalyticsMtd, meta) == offsetof(mirror::AnalyticsMtd, meta), "GstAnalyticsMtd.meta");
static_assert(std::is_same_v<GstAnalyticsMtdType, mirror::AnalyticsMtdType>, "GstAnalyticsMtdType");
static_assert(sizeof(GstAnalyticsRelationMetaInitParams) == sizeof(mirror::AnalyticsRelationMetaInitParams),
    "GstAnalyticsRelationMetaInitParams size");
static_assert(offsetof(GstAnalyticsRelationMetaInitParams, initial_relation_order) ==
        offsetof(mirror::AnalyticsRelationMetaInitParams, initial_relation_order),
    "GstAnalyticsRelationMetaInitParams.initial_relation_order");
static_assert(offsetof(GstAnalyticsRelationMetaInitParams, initial_buf_size) ==
        offsetof(mirror::AnalyticsRelationMetaInitParams, initial_buf_size),
    "GstAnalyticsRelationMetaInitParams.initial_buf_size");
static_assert(sizeof(GstAnalyticsRelTypes) == sizeof(int), "GstAnalyticsRelTypes size");
static_assert(GST_ANALYTICS_REL_TYPE_NONE == mirror::kAnalyticsRelNone, "GST_ANALYTICS_REL_TYPE_NONE");
static_assert(GST_ANALYTICS_REL_TYPE_RELATE_TO == mirror::kAnalyticsRelRelateTo, "GST_ANALYTICS_REL_TYPE_RELATE_TO");
static_assert(GST_ANALYTICS_REL_TYPE_ANY == mirror::kAnalyticsRelAny, "GST_ANALYTICS_REL_TYPE_ANY");

// Same number of parameters, and each parameter and the result of the same size and pointer-ness
// (the mirror names GStreamer's structs by opaque types of its own).
template <typename A, typename B>
constexpr bool same_slot() {
  return sizeof(A) == sizeof(B) && std::is_pointer_v<A> == std::is_pointer_v<B>;
}
template <typename R1, typename... A1, typename R2, typename... A2>
constexpr bool same_shape(R1 (*)(A1...), R2 (*)(A2...)) {
  static_assert(sizeof...(A1) == sizeof...(A2), "number of parameters");
  return same_slot<R1, R2>() && (same_slot<A1, A2>() && ...);
}

#define DSNODE_CHECK(name, ...) \
  static_assert(same_shape(&::name, decltype(mirror::GstAnalyticsApi::name){}), #name);
DSNODE_GST_ANALYTICS_FUNCTIONS(DSNODE_CHECK)
#if GST_CHECK_VERSION(1, 26, 0)
DSNODE_GST_ANALYTICS_ORIENTED_FUNCTIONS(DSNODE_CHECK)
#endif
#undef DSNODE_CHECK
