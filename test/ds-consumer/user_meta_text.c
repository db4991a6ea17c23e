/*
 * A C consumer of a typed user meta (defineUserMeta): it finds the user metas of one type as
 * DeepStream components find theirs, by nvds_get_user_meta_type("ORG.COMPONENT.DESCRIPTION"),
 * and reads user_meta_data as a NUL-terminated string, the JSON text of the value.
 * test/typed-user-meta.test.ts runs it behind a ds-element element and parses what it prints.
 *
 *   user_meta_text '<gst-launch description with an element named "probe">' ORG.COMPONENT.DESCRIPTION
 *
 * For every buffer leaving `probe`, and for a gst_buffer_copy() of it (our copy function at work),
 * one line per user meta of that type, tab-separated:
 *   <copy 0|1> <buffer> <level: batch, frame <f> or object <f>.<o>> <strlen> <text>
 * Lists are walked in DeepStream's order (frame and object lists hold the newest first).
 */
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#include "gstnvdsmeta.h"
#include "nvdsmeta.h"
#include "probed_pipeline.h"

static NvDsMetaType wanted;
static unsigned buffers;

static void print_texts(GList *list, int copy, const char *level) {
  for (GList *l = list; l != NULL; l = l->next) {
    const NvDsUserMeta *user = (const NvDsUserMeta *)l->data;
    if (user->base_meta.meta_type != wanted) continue;
    const char *text = (const char *)user->user_meta_data;
    printf("%d\t%u\t%s\t%zu\t%s\n", copy, buffers, level, strlen(text), text);
  }
}

static void print_buffer(GstBuffer *buffer, int copy) {
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(buffer);
  if (batch == NULL) return;
  nvds_acquire_meta_lock(batch);
  print_texts(batch->batch_user_meta_list, copy, "batch");
  unsigned f = 0;
  for (GList *fl = batch->frame_meta_list; fl != NULL; fl = fl->next, ++f) {
    const NvDsFrameMeta *frame = (const NvDsFrameMeta *)fl->data;
    char level[64];
    snprintf(level, sizeof level, "frame %u", f);
    print_texts(frame->frame_user_meta_list, copy, level);
    unsigned o = 0;
    for (GList *ol = frame->obj_meta_list; ol != NULL; ol = ol->next, ++o) {
      snprintf(level, sizeof level, "object %u.%u", f, o);
      print_texts(((const NvDsObjectMeta *)ol->data)->obj_user_meta_list, copy, level);
    }
  }
  nvds_release_meta_lock(batch);
  if (copy) ++buffers;
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: %s '<pipeline with an element named probe>' ORG.COMPONENT.DESCRIPTION\n", argv[0]);
    return 2;
  }
  wanted = nvds_get_user_meta_type(argv[2]);
  return run_probed_pipeline("user_meta_text", argv[1], print_buffer_and_copy, (gpointer)print_buffer);
}
