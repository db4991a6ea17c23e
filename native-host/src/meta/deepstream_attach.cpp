// Batches on buffers, as nvstreammux attaches them: the buffer's NvDsBatchMeta when it carries
// a video batch; else a new one, attached at once or kept detached until a call writes to it.
#include <gst/gst.h>

#include <memory>
#include <string>

#include "meta/deepstream_backend.h"
#include "meta/deepstream_batch.h"
#include "meta/deepstream_library.h"

namespace dsnode::meta {

bool has_deepstream_batch(GstBuffer *buffer) {
  return deepstream_api().loaded && ds().gst_buffer_get_nvds_batch_meta(buffer) != nullptr;
}

namespace {

NvDsBatchMeta *create_batch(uint32_t max_frames_in_batch) {
  NvDsBatchMeta *batch = ds().nvds_create_batch_meta(max_frames_in_batch);
  if (batch == nullptr)
    return nullptr;
  // nvds_create_batch_meta sizes the pools but leaves this 0, as nvstreammux sets it itself;
  // at 0 no frame fits and NVIDIA's copy makes pools that cannot grow.
  batch->max_frames_in_batch = max_frames_in_batch;
  batch->base_meta.batch_meta = batch;
  batch->base_meta.copy_func = ds().nvds_batch_meta_copy_func;
  batch->base_meta.release_func = ds().nvds_batch_meta_release_func;
  return batch;
}

bool attach_batch(GstBuffer *buffer, NvDsBatchMeta *batch) {
  NvDsMeta *meta = ds().gst_buffer_add_nvds_meta(buffer, batch, nullptr, ds().nvds_batch_meta_copy_func,
      ds().nvds_batch_meta_release_func);
  if (meta == nullptr)
    return false;
  // What nvstreammux sets: downstream finds the batch by this type.
  meta->meta_type = NVDS_BATCH_GST_META;
  return true;
}

const char *meta_type_name(NvDsMetaType type) {
  switch (type) {
    case NVDS_BATCH_META: return "NVDS_BATCH_META";
    case NVDS_FRAME_META: return "NVDS_FRAME_META";
    case NVDS_AUDIO_BATCH_META: return "NVDS_AUDIO_BATCH_META";
    case NVDS_AUDIO_FRAME_META: return "NVDS_AUDIO_FRAME_META";
    default: return nullptr;
  }
}

std::string describe_meta_type(NvDsMetaType type) {
  const char *name = meta_type_name(type);
  return name != nullptr ? name : "meta_type " + std::to_string(static_cast<int>(type));
}

// Why a batch found on a buffer is not a video batch ("" when it is one). nvstreammux's audio
// path attaches an NvDsBatchMeta too, under the same NVDS_BATCH_GST_META (gstnvstreammux.cpp
// ~1437-1450), made by nvds_create_audio_batch_meta: base_meta.meta_type NVDS_AUDIO_BATCH_META
// (nvds_audio_meta.c ~56) and frames that are NvDsAudioFrameMeta, whose layout is not
// NvDsFrameMeta's: read as video frames they crash the reader. DeepStream's own copy tells the
// two apart the same way (gstnvdsmeta.c ~96-105).
std::string non_video_batch(const NvDsBatchMeta *batch) {
  if (batch->base_meta.meta_type != NVDS_BATCH_META) {
    return "an NvDsBatchMeta of " + describe_meta_type(batch->base_meta.meta_type) +
        (batch->base_meta.meta_type == NVDS_AUDIO_BATCH_META ? " (audio, from nvstreammux's audio path)" : "") +
        " where a video batch (NVDS_BATCH_META) was expected";
  }
  for (const GList *l = batch->frame_meta_list; l != nullptr; l = l->next) {
    const auto *frame = static_cast<const NvDsBaseMeta *>(l->data);
    if (frame != nullptr && frame->meta_type != NVDS_FRAME_META)
      return "a video NvDsBatchMeta holding a frame of " + describe_meta_type(frame->meta_type) +
          " where video frames (NVDS_FRAME_META) were expected";
  }
  return "";
}

}  // namespace

std::unique_ptr<Batch> open_deepstream_batch(GstBuffer *buffer, uint32_t max_frames_in_batch, std::string *refused) {
  if (!deepstream_api().loaded)
    return nullptr;
  NvDsBatchMeta *batch = ds().gst_buffer_get_nvds_batch_meta(buffer);
  if (batch != nullptr) {
    if (std::string why = non_video_batch(batch); !why.empty()) {
      if (refused != nullptr) *refused = std::move(why);
      return nullptr;
    }
  }
  if (batch == nullptr) {
    if (!gst_buffer_is_writable(buffer) || max_frames_in_batch == 0)
      return nullptr;
    batch = create_batch(max_frames_in_batch);
    if (batch == nullptr)
      return nullptr;
    if (!attach_batch(buffer, batch)) {
      ds().nvds_destroy_batch_meta(batch);
      return nullptr;
    }
  }
  return open_batch_meta(batch);
}

struct DetachedDeepStreamBatch {
  NvDsBatchMeta *batch = nullptr;
};

std::unique_ptr<Batch> open_detached_deepstream_batch(DetachedDeepStreamBatch **spare, const FrameFields &frame) {
  if (!deepstream_api().loaded)
    return nullptr;
  if (*spare == nullptr) {
    NvDsBatchMeta *batch = create_batch(1);
    if (batch == nullptr)
      return nullptr;
    *spare = new DetachedDeepStreamBatch{batch};
    std::unique_ptr<Batch> backend = open_batch_meta(batch);
    if (!append_frame(*backend, frame))
      return nullptr;
    return backend;
  }
  std::unique_ptr<Batch> backend = open_batch_meta((*spare)->batch);
  reset_first_frame(*backend, frame);
  return backend;
}

bool finish_detached_deepstream_batch(GstBuffer *buffer, Batch &batch, DetachedDeepStreamBatch **spare) {
  batch.end_call();
  if (*spare == nullptr || batch_meta_of(batch) != (*spare)->batch || !deepstream_batch_modified(batch))
    return true;
  NvDsBatchMeta *changed = (*spare)->batch;
  delete *spare;
  *spare = nullptr;
  if (!gst_buffer_is_writable(buffer) || !attach_batch(buffer, changed)) {
    ds().nvds_destroy_batch_meta(changed);
    return false;
  }
  return true;
}

void release_detached_deepstream_batch(DetachedDeepStreamBatch *spare) {
  if (spare == nullptr)
    return;
  ds().nvds_destroy_batch_meta(spare->batch);
  delete spare;
}

}  // namespace dsnode::meta
