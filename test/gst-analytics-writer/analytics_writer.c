/*
 * Two elements that speak GStreamer's own analytics metadata through GStreamer's library, for
 * test/gst-analytics.test.ts.
 *
 * `dsanalyticswriter`: an upstream element that attaches GStreamer's own analytics metadata
 * (GstAnalyticsRelationMeta, GStreamer >= 1.24) through GStreamer's library, as an inference
 * element of GStreamer's (onnxinference with its decoders) would: on every buffer, two object
 * detections, a classification and a tracking id related to the first, a classification related
 * to the second in the other direction (IS_PART_OF, cls to od: producers differ in which way
 * they relate them). The test reads them through a ds-element. With `oriented=true` (GStreamer
 * >= 1.26), a third detection, "sign", an oriented box: 100, 100, 40 x 20 turned by pi / 2.
 *
 * `dsanalyticsreader`: a downstream consumer; prints each buffer's object detections with the
 * classifications and tracking ids related to them (either direction), one line per buffer:
 *   analytics: od car 40 60 80 50 0.875 [cls red 0.750 blue 0.250] [track 42]; od person ...
 * An oriented box (GStreamer >= 1.26) has its rotation after the confidence: `... 0.500 r 0.0087`.
 *
 *   videotestsrc ! dsanalyticswriter ! <ds-element> ! fakesink
 *   videotestsrc ! <ds-element detector> ! dsanalyticsreader ! fakesink
 *
 * Built by native-host/CMakeLists.txt (target dsnode-gst-analytics-writer) into test-plugins/
 * where gstreamer-analytics-1.0 is found. In the repository only: the package does not ship test/.
 */
#include <gst/analytics/analytics.h>
#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>

#ifndef PACKAGE
#define PACKAGE "ds-element-tests"
#endif

typedef struct {
  GstBaseTransform parent;
  gboolean oriented;
} DsAnalyticsWriter;

typedef struct {
  GstBaseTransformClass parent_class;
} DsAnalyticsWriterClass;

G_DEFINE_TYPE(DsAnalyticsWriter, ds_analytics_writer, GST_TYPE_BASE_TRANSFORM)

static GstFlowReturn writer_transform_ip(GstBaseTransform *trans, GstBuffer *buffer) {
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta(buffer);
  GstAnalyticsODMtd car, person;
  GstAnalyticsClsMtd colour, age;
  GstAnalyticsTrackingMtd track;
  gfloat colour_levels[] = {0.75f, 0.25f};
  GQuark colour_quarks[] = {g_quark_from_static_string("red"), g_quark_from_static_string("blue")};
  if (meta == NULL ||
      !gst_analytics_relation_meta_add_od_mtd(meta, g_quark_from_static_string("car"), 40, 60, 80, 50, 0.875f, &car) ||
      !gst_analytics_relation_meta_add_cls_mtd(meta, 2, colour_levels, colour_quarks, &colour) ||
      !gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_RELATE_TO, car.id, colour.id) ||
      !gst_analytics_relation_meta_add_tracking_mtd(meta, 42, GST_BUFFER_PTS(buffer), &track) ||
      !gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_RELATE_TO, car.id, track.id) ||
      !gst_analytics_relation_meta_add_od_mtd(meta, g_quark_from_static_string("person"), 200, 5, 60, 40, 0.5f, &person) ||
      !gst_analytics_relation_meta_add_one_cls_mtd(meta, 0.625f, g_quark_from_static_string("adult"), &age) ||
      !gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_IS_PART_OF, age.id, person.id)) {
    GST_ELEMENT_ERROR(trans, CORE, FAILED, ("cannot attach the analytics metadata"), (NULL));
    return GST_FLOW_ERROR;
  }
#if GST_CHECK_VERSION(1, 26, 0)
  GstAnalyticsODMtd sign;
  if (((DsAnalyticsWriter *)trans)->oriented &&
      !gst_analytics_relation_meta_add_oriented_od_mtd(meta, g_quark_from_static_string("sign"), 100, 100, 40, 20,
          (gfloat)G_PI_2, 0.25f, &sign)) {
    GST_ELEMENT_ERROR(trans, CORE, FAILED, ("cannot attach the oriented box"), (NULL));
    return GST_FLOW_ERROR;
  }
#endif
  return GST_FLOW_OK;
}

static void writer_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  if (id == 1) ((DsAnalyticsWriter *)object)->oriented = g_value_get_boolean(value);
  else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

static void writer_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  if (id == 1) g_value_set_boolean(value, ((DsAnalyticsWriter *)object)->oriented);
  else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

/* Both elements: in-place transforms of ANY caps. */
static void init_transform_class(GstBaseTransformClass *klass, const char *long_name, const char *description,
    GstFlowReturn (*transform_ip)(GstBaseTransform *, GstBuffer *)) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCaps *caps = gst_caps_new_any();
  gst_element_class_add_pad_template(element_class, gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template(element_class, gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref(caps);
  gst_element_class_set_static_metadata(element_class, long_name, "Filter/Analyzer/Video", description, "ds-element tests");
  klass->transform_ip = transform_ip;
}

static void ds_analytics_writer_class_init(DsAnalyticsWriterClass *klass) {
  init_transform_class(GST_BASE_TRANSFORM_CLASS(klass), "GstAnalytics writer (test)",
      "Attaches fixed object detections, classifications and a tracking id as GstAnalyticsRelationMeta",
      writer_transform_ip);
  G_OBJECT_CLASS(klass)->set_property = writer_set_property;
  G_OBJECT_CLASS(klass)->get_property = writer_get_property;
  g_object_class_install_property(G_OBJECT_CLASS(klass), 1,
      g_param_spec_boolean("oriented", "Oriented", "Also attach an oriented box (GStreamer >= 1.26)", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void ds_analytics_writer_init(DsAnalyticsWriter *self) {
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
}

typedef struct {
  GstBaseTransform parent;
} DsAnalyticsReader;

typedef struct {
  GstBaseTransformClass parent_class;
} DsAnalyticsReaderClass;

G_DEFINE_TYPE(DsAnalyticsReader, ds_analytics_reader, GST_TYPE_BASE_TRANSFORM)

static gboolean related(GstAnalyticsRelationMeta *meta, guint a, guint b) {
  return gst_analytics_relation_meta_get_relation(meta, a, b) != GST_ANALYTICS_REL_TYPE_NONE ||
      gst_analytics_relation_meta_get_relation(meta, b, a) != GST_ANALYTICS_REL_TYPE_NONE;
}

static void print_related(GString *line, GstAnalyticsRelationMeta *meta, guint od_id) {
  gpointer state = NULL;
  GstAnalyticsMtd mtd;
  while (gst_analytics_relation_meta_iterate(meta, &state, GST_ANALYTICS_MTD_TYPE_ANY, &mtd)) {
    if (!related(meta, od_id, mtd.id)) continue;
    GstAnalyticsMtdType type = gst_analytics_mtd_get_mtd_type(&mtd);
    if (type == gst_analytics_cls_mtd_get_mtd_type()) {
      g_string_append(line, " [cls");
      for (gsize i = 0; i < gst_analytics_cls_mtd_get_length(&mtd); ++i)
        g_string_append_printf(line, " %s %.3f", g_quark_to_string(gst_analytics_cls_mtd_get_quark(&mtd, i)),
            gst_analytics_cls_mtd_get_level(&mtd, i));
      g_string_append(line, "]");
    } else if (type == gst_analytics_tracking_mtd_get_mtd_type()) {
      guint64 id = 0;
      GstClockTime first_seen = 0, last_seen = 0;
      gboolean lost = FALSE;
      gst_analytics_tracking_mtd_get_info(&mtd, &id, &first_seen, &last_seen, &lost);
      g_string_append_printf(line, " [track %" G_GUINT64_FORMAT "]", id);
    }
  }
}

static GstFlowReturn reader_transform_ip(GstBaseTransform *trans, GstBuffer *buffer) {
  GstAnalyticsRelationMeta *meta = gst_buffer_get_analytics_relation_meta(buffer);
  GString *line = g_string_new("analytics:");
  gpointer state = NULL;
  GstAnalyticsODMtd od;
  while (meta != NULL && gst_analytics_relation_meta_iterate(meta, &state, gst_analytics_od_mtd_get_mtd_type(), &od)) {
    gint x, y, w, h;
    gfloat level, r = 0;
#if GST_CHECK_VERSION(1, 26, 0)
    gst_analytics_od_mtd_get_oriented_location(&od, &x, &y, &w, &h, &r, &level);
#else
    gst_analytics_od_mtd_get_location(&od, &x, &y, &w, &h, &level);
#endif
    g_string_append_printf(line, "%s od %s %d %d %d %d %.3f", line->len > 10 ? ";" : "",
        g_quark_to_string(gst_analytics_od_mtd_get_obj_type(&od)), x, y, w, h, level);
    if (r != 0) g_string_append_printf(line, " r %.4f", r);
    print_related(line, meta, od.id);
  }
  g_print("%s\n", line->str);
  g_string_free(line, TRUE);
  return GST_FLOW_OK;
}

static void ds_analytics_reader_class_init(DsAnalyticsReaderClass *klass) {
  init_transform_class(GST_BASE_TRANSFORM_CLASS(klass), "GstAnalytics reader (test)",
      "Prints each buffer's GstAnalyticsRelationMeta object detections and what is related to them",
      reader_transform_ip);
}

static void ds_analytics_reader_init(DsAnalyticsReader *self) {
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
}

static gboolean plugin_init(GstPlugin *plugin) {
  return gst_element_register(plugin, "dsanalyticswriter", GST_RANK_NONE, ds_analytics_writer_get_type()) &&
      gst_element_register(plugin, "dsanalyticsreader", GST_RANK_NONE, ds_analytics_reader_get_type());
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, dsanalyticswriter,
    "GstAnalytics metadata writer for ds-element's tests", plugin_init, "0.1", "Apache 2.0", PACKAGE,
    "https://github.com/ds-element")
