// Where a run's batch metadata comes from: the metadata backend of this build (the portable
// GstMeta, or DeepStream's NvDsBatchMeta), chosen once when a run starts (open_metadata_source)
// and used through this one interface by the element shell (gst/element.cpp) and the
// standalone binding (binding/standalone_binding.cpp) alike. What depends on the buffer (the
// batch it carries, DeepStream's or a portable one, or none) is decided inside one call of the
// source (open_call, open_batch), never by its callers.
//
// One source per run: an element's from start() to stop(), the standalone harness's per Node
// environment. A source is used by one thread at a time (the element's streaming thread, the
// harness's JS thread) and keeps at most one transform call open.
#ifndef DSNODE_META_METADATA_SOURCE_H
#define DSNODE_META_METADATA_SOURCE_H

#include <gst/gst.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meta/batch.h"

namespace dsnode::meta {

class MetadataSource {
 public:
  virtual ~MetadataSource() = default;

  // The libnvds_meta.so this source opened ("" on the portable backend).
  virtual std::string library_path() const = 0;

  // --- the element: one transform call per buffer

  // The buffer's batch for one transform call: the batch the buffer carries, else this
  // source's one-frame batch holding `frame`, which goes onto the buffer only when the call
  // wrote to it (finish_call), so that an element that only reads attaches nothing. Null when
  // no batch can be had; when the buffer's batch is not a video batch (nvstreammux's audio
  // batch) *refused says what it is. Valid until finish_call or discard_own_batch.
  virtual Batch *open_call(GstBuffer *buffer, const FrameFields &frame, std::string *refused) = 0;
  // True when the open call wrote to this source's own batch (not on the buffer yet).
  virtual bool wrote_own_batch() const = 0;
  // True when the open call is on this source's own one-frame batch: the buffer carried none.
  virtual bool on_own_batch() const = 0;
  // Ends the open call: metas acquired and never added go back to their pool, and the
  // source's own batch, when the call changed it, goes onto `buffer` (writable) and the next
  // call gets a fresh one. False when it cannot be attached.
  virtual bool finish_call(GstBuffer *buffer) = 0;
  // Ends the open call and throws the source's own batch away instead of attaching it.
  virtual void discard_own_batch() = 0;
  // True once per process, after a call, when more distinct user meta types than the
  // backend's bound were written (*count of them, past *bound): DeepStream keeps each type
  // string until exit. Never on the portable backend.
  virtual bool take_user_meta_types_warning(size_t *count, size_t *bound) = 0;

  // --- the standalone harness: buffers made outside a pipeline

  // Attaches an empty batch (no frames) of this backend to a writable buffer, as nvstreammux
  // attaches one; false when it cannot.
  virtual bool attach_new_batch(GstBuffer *buffer, uint32_t max_frames_in_batch) = 0;
  // A Batch over the batch of this backend that `buffer` carries; null when it carries none.
  // Its destructor ends the call.
  virtual std::unique_ptr<Batch> open_batch(GstBuffer *buffer) = 0;
  // Adds a frame to `batch` (from open_batch); false when the frame cannot be added.
  virtual bool add_frame(Batch &batch, const FrameFields &fields) = 0;
  // Attaches an nvinfer-shaped tensor output (NVDSINFER_TENSOR_OUTPUT_META over host copies of
  // `bytes`, layer i in bytes[i]) at `level` of `owner` in `batch` (from open_batch), as nvinfer
  // with output-tensor-meta=1 would.
  virtual Status add_tensor_output(Batch &batch, UserMetaLevel level, void *owner, const TensorOutput &output,
      std::vector<std::vector<uint8_t>> bytes, UserHandle *created) = 0;
};

// The metadata backend this build speaks: "portable" or "deepstream".
const char *metadata_backend_name();

// This build's metadata source for one run. Null when its backend cannot be used (a
// DeepStream build where NVIDIA's libraries are missing or of another version): then *error
// says why and what to do.
std::unique_ptr<MetadataSource> open_metadata_source(std::string *error);

}  // namespace dsnode::meta

#endif
