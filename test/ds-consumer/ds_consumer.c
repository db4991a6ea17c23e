/*
 * A DeepStream consumer written the way nvtracker, nvdsosd and nvmsgconv read metadata: plain C,
 * linked only against NVIDIA's libnvds_meta / libnvdsgst_meta and GStreamer, walking the
 * NvDsBatchMeta of each buffer through DeepStream's own API (gst_buffer_get_nvds_batch_meta,
 * the GLists of nvdsmeta.h, nvds_get_user_meta_type). test/ds-consumer.test.ts runs it behind
 * a ds-element element and compares what it prints with what the element wrote.
 *
 *   ds_consumer '<gst-launch description with an element named "probe">'
 *
 * For every buffer leaving `probe` it prints one JSON line of the batch as C code sees it, then
 * one line of a gst_buffer_copy() of the buffer (NVIDIA's nvds_batch_meta_copy_func calls the
 * user metas' copy functions; unref'ing the copy calls their release functions), marked
 * "copy": 1. Lists are printed in DeepStream's list order.
 *
 * Each object also carries "reads": what NVIDIA's consumers that cannot be built here take from
 * it, computed the way their published source (DeepStream 9.1) does, each with its line:
 *   nvdsosd draws an object's text only when display_text is set (gst-nvdsosd/gstnvdsosd.c:472);
 *   nvtracker passes bInferDone to its tracker as detectionDone (gst-nvtracker/nvtracker_proc.cpp:1444),
 *   labels a tracked object "<display_text> <id>" with snprintf("%s ") (nvtracker_proc.cpp:1881, glibc
 *   prints a NULL display_text as "(null)"), and after tracking removes every object still
 *   UNTRACKED_OBJECT_ID (nvtracker_proc.cpp:2181-2192), so a detector's objects must start untracked;
 *   nvtracker keeps detector_bbox_info as the detector's box (it sets rect_params, 1831-1835).
 */
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#include "gstnvdsmeta.h"
#include "nvdsmeta.h"
#include "probed_pipeline.h"

/* The user meta types the test element writes, looked up as a C consumer would. */
static const char *const kTypes[] = {"DSELEMENT.TEST.BATCH", "DSELEMENT.TEST.FRAME", "DSELEMENT.TEST.OBJECT",
                                     "DSELEMENT.TEST.BYTES"};
#define NUM_TYPES (sizeof kTypes / sizeof kTypes[0])
static NvDsMetaType type_ids[NUM_TYPES];

static void print_string(const char *text) {
  putchar('"');
  for (const unsigned char *c = (const unsigned char *)(text != NULL ? text : ""); *c != 0; ++c) {
    if (*c == '"' || *c == '\\')
      printf("\\%c", *c);
    else if (*c < 0x20)
      printf("\\u%04x", *c);
    else
      putchar(*c);
  }
  putchar('"');
}

static void print_color(const NvOSD_ColorParams *c) {
  printf("[%g,%g,%g,%g]", c->red, c->green, c->blue, c->alpha);
}

/* Known types print their name and payload: JSON text as a string, bytes as the first four. */
static void print_user_metas(GList *list) {
  putchar('[');
  for (GList *l = list; l != NULL; l = l->next) {
    const NvDsUserMeta *user = (const NvDsUserMeta *)l->data;
    const char *name = NULL;
    for (size_t i = 0; i < NUM_TYPES; ++i)
      if (user->base_meta.meta_type == type_ids[i]) name = kTypes[i];
    printf("%s{\"type\":", l == list ? "" : ",");
    print_string(name != NULL ? name : "unknown");
    printf(",\"hasCopy\":%d,\"hasRelease\":%d,\"data\":", user->base_meta.copy_func != NULL,
        user->base_meta.release_func != NULL);
    if (name != NULL && strcmp(name, "DSELEMENT.TEST.BYTES") == 0) {
      const unsigned char *bytes = (const unsigned char *)user->user_meta_data;
      printf("[%u,%u,%u,%u]", bytes[0], bytes[1], bytes[2], bytes[3]);
    } else if (name != NULL) {
      print_string((const char *)user->user_meta_data);
    } else {
      printf("null");
    }
    putchar('}');
  }
  putchar(']');
}

static void print_object(const NvDsObjectMeta *o) {
  const NvOSD_RectParams *r = &o->rect_params;
  const NvBbox_Coords *d = &o->detector_bbox_info.org_bbox_coords;
  printf("{\"classId\":%d,\"objectId\":%llu,\"uniqueComponentId\":%d,\"confidence\":%.6f,\"label\":", o->class_id,
      (unsigned long long)o->object_id, o->unique_component_id, o->confidence);
  print_string(o->obj_label);
  printf(",\"rect\":[%g,%g,%g,%g],\"borderWidth\":%u,\"borderColor\":", r->left, r->top, r->width, r->height,
      r->border_width);
  print_color(&r->border_color);
  printf(",\"hasBgColor\":%d,\"bgColor\":", r->has_bg_color);
  print_color(&r->bg_color);
  printf(",\"detector\":[%g,%g,%g,%g],\"parentObjectId\":", d->left, d->top, d->width, d->height);
  if (o->parent != NULL)
    printf("%llu", (unsigned long long)o->parent->object_id);
  else
    printf("null");
  printf(",\"displayText\":");
  print_string(o->text_params.display_text);
  printf(",\"font\":");
  print_string(o->text_params.font_params.font_name);
  printf(",\"fontSize\":%u,\"fontColor\":", o->text_params.font_params.font_size);
  print_color(&o->text_params.font_params.font_color);
  printf(",\"xOffset\":%u,\"yOffset\":%u,\"setBgClr\":%d,\"textBgColor\":", o->text_params.x_offset,
      o->text_params.y_offset, o->text_params.set_bg_clr);
  print_color(&o->text_params.text_bg_clr);
  char tracker_label[256];
  snprintf(tracker_label, sizeof tracker_label, "%s %d", o->text_params.display_text, 5); /* track id 5 */
  printf(",\"reads\":{\"nvdsosdDrawsText\":%d,\"nvtrackerLabel\":", o->text_params.display_text != NULL);
  print_string(tracker_label);
  printf(",\"untracked\":%d,\"detectorIsBox\":%d}", o->object_id == UNTRACKED_OBJECT_ID,
      d->left == r->left && d->top == r->top && d->width == r->width && d->height == r->height);
  printf(",\"classifiers\":[");
  for (GList *c = o->classifier_meta_list; c != NULL; c = c->next) {
    const NvDsClassifierMeta *classifier = (const NvDsClassifierMeta *)c->data;
    printf("%s{\"uniqueComponentId\":%d,\"numLabels\":%u,\"classifierType\":", c == o->classifier_meta_list ? "" : ",",
        classifier->unique_component_id, classifier->num_labels);
    print_string(classifier->classifier_type);
    printf(",\"labels\":[");
    for (GList *l = classifier->label_info_list; l != NULL; l = l->next) {
      const NvDsLabelInfo *label = (const NvDsLabelInfo *)l->data;
      printf("%s{\"resultLabel\":", l == classifier->label_info_list ? "" : ",");
      print_string(label->result_label);
      printf(",\"pResultLabel\":");
      if (label->pResult_label != NULL)
        print_string(label->pResult_label);
      else
        printf("null");
      printf(",\"resultClassId\":%u,\"labelId\":%u,\"resultProb\":%.6f,\"numClasses\":%u}", label->result_class_id,
          label->label_id, label->result_prob, label->num_classes);
    }
    printf("]}");
  }
  printf("],\"userMetas\":");
  print_user_metas(o->obj_user_meta_list);
  putchar('}');
}

static void print_display(const NvDsDisplayMeta *d) {
  printf("{\"numRects\":%u,\"rects\":[", d->num_rects);
  for (guint i = 0; i < d->num_rects && i < MAX_ELEMENTS_IN_DISPLAY_META; ++i) {
    const NvOSD_RectParams *r = &d->rect_params[i];
    printf("%s[%g,%g,%g,%g]", i == 0 ? "" : ",", r->left, r->top, r->width, r->height);
  }
  printf("],\"texts\":[");
  for (guint i = 0; i < d->num_labels && i < MAX_ELEMENTS_IN_DISPLAY_META; ++i) {
    printf("%s", i == 0 ? "" : ",");
    print_string(d->text_params[i].display_text);
  }
  printf("],\"lines\":[");
  for (guint i = 0; i < d->num_lines && i < MAX_ELEMENTS_IN_DISPLAY_META; ++i) {
    const NvOSD_LineParams *l = &d->line_params[i];
    printf("%s[%u,%u,%u,%u,%u]", i == 0 ? "" : ",", l->x1, l->y1, l->x2, l->y2, l->line_width);
  }
  printf("],\"numArrows\":%u,\"numCircles\":%u}", d->num_arrows, d->num_circles);
}

static void print_batch(GstBuffer *buffer, int copy) {
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(buffer);
  if (batch == NULL) {
    printf("{\"copy\":%d,\"batch\":null}\n", copy);
    return;
  }
  nvds_acquire_meta_lock(batch);
  printf("{\"copy\":%d,\"maxFramesInBatch\":%u,\"numFramesInBatch\":%u,\"frames\":[", copy, batch->max_frames_in_batch,
      batch->num_frames_in_batch);
  for (GList *f = batch->frame_meta_list; f != NULL; f = f->next) {
    const NvDsFrameMeta *frame = (const NvDsFrameMeta *)f->data;
    printf("%s{\"frameNum\":%d,\"numObjMeta\":%u,\"bInferDone\":%d,\"objects\":[", f == batch->frame_meta_list ? "" : ",",
        frame->frame_num, frame->num_obj_meta, frame->bInferDone);
    for (GList *o = frame->obj_meta_list; o != NULL; o = o->next) {
      printf("%s", o == frame->obj_meta_list ? "" : ",");
      print_object((const NvDsObjectMeta *)o->data);
    }
    printf("],\"displays\":[");
    for (GList *d = frame->display_meta_list; d != NULL; d = d->next) {
      printf("%s", d == frame->display_meta_list ? "" : ",");
      print_display((const NvDsDisplayMeta *)d->data);
    }
    printf("],\"userMetas\":");
    print_user_metas(frame->frame_user_meta_list);
    putchar('}');
  }
  printf("],\"userMetas\":");
  print_user_metas(batch->batch_user_meta_list);
  printf("}\n");
  nvds_release_meta_lock(batch);
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc != 2) {
    fprintf(stderr, "usage: %s '<pipeline with an element named probe>'\n", argv[0]);
    return 2;
  }
  for (size_t i = 0; i < NUM_TYPES; ++i) type_ids[i] = nvds_get_user_meta_type((gchar *)kTypes[i]);
  return run_probed_pipeline("ds_consumer", argv[1], print_buffer_and_copy, (gpointer)print_batch);
}
