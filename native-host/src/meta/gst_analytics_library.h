// GStreamer's analytics library (libgstanalytics-1.0.so.0, GStreamer >= 1.24): the functions of
// GstAnalyticsRelationMeta that the interop (meta/gst_analytics_interop.h) calls, as one table.
//
// Opened at run time (dlopen), never linked and built without its headers: one build of the
// plugin runs on GStreamer 1.22, where the library does not exist (the feature is then absent
// and says so), and on 1.24 to 1.28, where it is used. The prototypes below are ours, written
// from GStreamer's headers (gst/analytics/*.h, 1.24 to 1.28 keep them unchanged); where those
// headers are found at build time, gst_analytics_abi_check.cpp compares every one with them.
#ifndef DSNODE_META_GST_ANALYTICS_LIBRARY_H
#define DSNODE_META_GST_ANALYTICS_LIBRARY_H

#include <gst/gst.h>

#include <string>

namespace dsnode::meta {

// The library's soname, as GStreamer >= 1.24 installs it.
inline constexpr const char *kGstAnalyticsLibrary = "libgstanalytics-1.0.so.0";

// GstAnalyticsMtd (gstanalyticsmeta.h): a handle of one entry, {id, meta}, on the stack. The
// same struct is GstAnalyticsODMtd, GstAnalyticsClsMtd and GstAnalyticsTrackingMtd.
struct GstAnalyticsRelationMetaOpaque;
struct AnalyticsMtd {
  guint id;
  GstAnalyticsRelationMetaOpaque *meta;
};
using AnalyticsMtdType = guintptr;  // GstAnalyticsMtdType

// GstAnalyticsRelationMetaInitParams (gstanalyticsmeta.h): the entries and bytes a new relation
// meta holds before it grows. It grows its entries' relation matrix (order x order bytes) by
// initial_relation_order at a time, copying the whole matrix each time.
struct AnalyticsRelationMetaInitParams {
  gsize initial_relation_order;
  gsize initial_buf_size;
};

// GstAnalyticsRelTypes values (gstanalyticsmeta.h).
inline constexpr int kAnalyticsRelNone = 0;
inline constexpr int kAnalyticsRelRelateTo = 1 << 3;
inline constexpr int kAnalyticsRelAny = G_MAXINT;

// name, return type, parameter types: one row per function.
#define DSNODE_GST_ANALYTICS_FUNCTIONS(X)                                                          \
  X(gst_buffer_add_analytics_relation_meta_full, GstAnalyticsRelationMetaOpaque *, GstBuffer *,   \
      AnalyticsRelationMetaInitParams *)                                                           \
  X(gst_buffer_get_analytics_relation_meta, GstAnalyticsRelationMetaOpaque *, GstBuffer *)         \
  X(gst_analytics_relation_meta_set_relation, gboolean, GstAnalyticsRelationMetaOpaque *, int,     \
      guint, guint)                                                                                \
  X(gst_analytics_relation_meta_get_relation, int, const GstAnalyticsRelationMetaOpaque *, guint,  \
      guint)                                                                                       \
  X(gst_analytics_relation_meta_iterate, gboolean, GstAnalyticsRelationMetaOpaque *, gpointer *,   \
      AnalyticsMtdType, AnalyticsMtd *)                                                            \
  X(gst_analytics_od_mtd_get_mtd_type, AnalyticsMtdType)                                           \
  X(gst_analytics_relation_meta_add_od_mtd, gboolean, GstAnalyticsRelationMetaOpaque *, GQuark,   \
      gint, gint, gint, gint, gfloat, AnalyticsMtd *)                                              \
  X(gst_analytics_od_mtd_get_location, gboolean, const AnalyticsMtd *, gint *, gint *, gint *,     \
      gint *, gfloat *)                                                                            \
  X(gst_analytics_od_mtd_get_obj_type, GQuark, const AnalyticsMtd *)                               \
  X(gst_analytics_cls_mtd_get_mtd_type, AnalyticsMtdType)                                          \
  X(gst_analytics_relation_meta_add_cls_mtd, gboolean, GstAnalyticsRelationMetaOpaque *, gsize,    \
      gfloat *, GQuark *, AnalyticsMtd *)                                                          \
  X(gst_analytics_cls_mtd_get_length, gsize, const AnalyticsMtd *)                                 \
  X(gst_analytics_cls_mtd_get_quark, GQuark, const AnalyticsMtd *, gsize)                          \
  X(gst_analytics_cls_mtd_get_level, gfloat, const AnalyticsMtd *, gsize)                          \
  X(gst_analytics_tracking_mtd_get_mtd_type, AnalyticsMtdType)                                     \
  X(gst_analytics_relation_meta_add_tracking_mtd, gboolean, GstAnalyticsRelationMetaOpaque *,      \
      guint64, GstClockTime, AnalyticsMtd *)                                                       \
  X(gst_analytics_tracking_mtd_get_info, gboolean, const AnalyticsMtd *, guint64 *,                \
      GstClockTime *, GstClockTime *, gboolean *)

// Oriented boxes (GStreamer >= 1.26): null where the running library lacks them.
#define DSNODE_GST_ANALYTICS_ORIENTED_FUNCTIONS(X)                                                 \
  X(gst_analytics_relation_meta_add_oriented_od_mtd, gboolean, GstAnalyticsRelationMetaOpaque *,   \
      GQuark, gint, gint, gint, gint, gfloat, gfloat, AnalyticsMtd *)                              \
  X(gst_analytics_od_mtd_get_oriented_location, gboolean, const AnalyticsMtd *, gint *, gint *,    \
      gint *, gint *, gfloat *, gfloat *)

struct GstAnalyticsApi {
#define DSNODE_DECLARE(name, result, ...) result (*name)(__VA_ARGS__) = nullptr;
  DSNODE_GST_ANALYTICS_FUNCTIONS(DSNODE_DECLARE)
  DSNODE_GST_ANALYTICS_ORIENTED_FUNCTIONS(DSNODE_DECLARE)
#undef DSNODE_DECLARE
};

// The library's functions, opened once per process on the first call (thread-safe). Null when
// this GStreamer has no analytics library (< 1.24) or it lacks a function: then *error (when
// given) says which and why; the oriented-box functions alone may be null. Never unloaded.
const GstAnalyticsApi *gst_analytics_api(std::string *error = nullptr);

}  // namespace dsnode::meta

#endif
