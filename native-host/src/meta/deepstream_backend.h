// The DeepStream backend: the Batch interface over DeepStream's NvDsBatchMeta (libnvds_meta +
// libnvdsgst_meta), for its metadata source (meta/deepstream_source.cpp) and the tests.
// Compiled only when the DeepStream SDK is found (CMake: DS_SDK_ROOT, DSNODE_HAVE_DEEPSTREAM).
// The header names no DeepStream type, so callers need not see DeepStream's headers. Its files,
// one job each: deepstream_library.cpp (NVIDIA's libraries, opened with dlopen),
// deepstream_attach.cpp (batches on buffers), deepstream_batch.cpp (the Batch interface),
// deepstream_user_payload.cpp (user meta payloads and their type strings),
// deepstream_tensor_output.cpp (NVDSINFER_TENSOR_OUTPUT_META), deepstream_backend.cpp (copies
// of values between the model and DeepStream's structs).
#ifndef DSNODE_META_DEEPSTREAM_BACKEND_H
#define DSNODE_META_DEEPSTREAM_BACKEND_H

#include <gst/gst.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meta/batch.h"

namespace dsnode::meta {

// Opens NVIDIA's libnvds_meta.so and libnvdsgst_meta.so (once; dlopen, they are not linked).
// False with *error saying which library is missing and how to get it or a portable build.
// Every other function here acts as if no buffer had DeepStream metadata until this is true.
bool load_deepstream(std::string *error);

// The libnvds_meta.so that was loaded ("" when none).
std::string deepstream_library_path();

// True when the buffer carries an NvDsBatchMeta (gst_buffer_get_nvds_batch_meta).
bool has_deepstream_batch(GstBuffer *buffer);

// A Batch over the buffer's NvDsBatchMeta. When the buffer has none (plain GStreamer upstream
// on a DeepStream build), creates one with nvds_create_batch_meta(max_frames_in_batch) and
// attaches it with gst_buffer_add_nvds_meta, as nvstreammux would; the caller then adds
// frames with add_frame. `buffer` must be writable. Null when no batch can be made, or when
// the buffer's batch is not a video batch (nvstreammux's audio batch: NVDS_AUDIO_BATCH_META,
// NvDsAudioFrameMeta frames), which is never read as one: then *refused (when given) says what
// the batch is.
std::unique_ptr<Batch> open_deepstream_batch(GstBuffer *buffer, uint32_t max_frames_in_batch,
    std::string *refused = nullptr);

// A one-frame NvDsBatchMeta not yet on any buffer, for buffers that arrive without one: it
// goes onto a buffer only when the call wrote to it, as the portable spare batch does
// (gst/element.cpp), so that a reading element attaches nothing.
struct DetachedDeepStreamBatch;

// A Batch over *spare (created with one frame of `frame` when null; else its frame is
// rewritten to `frame`). Null when no batch can be made.
std::unique_ptr<Batch> open_detached_deepstream_batch(DetachedDeepStreamBatch **spare, const FrameFields &frame);

// Ends the call on `batch` (from open_detached_deepstream_batch); when the call changed it, it
// goes onto `buffer` (gst_buffer_add_nvds_meta, as nvstreammux attaches) and *spare becomes
// null. False when it cannot be attached.
bool finish_detached_deepstream_batch(GstBuffer *buffer, Batch &batch, DetachedDeepStreamBatch **spare);

void release_detached_deepstream_batch(DetachedDeepStreamBatch *spare);

// User meta type strings are never freed on this backend: nvds_get_user_meta_type keeps the
// string it is given for the process's life (a GQuark, nvdsmeta.c:457-463), so each distinct
// "ORG.COMP.DESC" costs memory until exit, and types built from data (an id per stream or
// object) grow without bound. Past this many distinct types (DS_ELEMENT_USER_META_TYPES_WARN
// overrides it; 0: never), the first element to notice warns once per process.
inline constexpr size_t kUserMetaTypesWarningBound = 4096;

// The bound in force (kUserMetaTypesWarningBound or DS_ELEMENT_USER_META_TYPES_WARN).
size_t user_meta_types_warning_bound();

// True exactly once per process, when more distinct user meta types than the bound have been
// interned; *count is how many. Any thread.
bool take_user_meta_types_warning(size_t *count);

// True when the call on `batch` (a DeepStream batch) changed it.
bool deepstream_batch_modified(const Batch &batch);

// Adds a frame to a batch opened by open_deepstream_batch (nvds_acquire_frame_meta_from_pool +
// nvds_add_frame_meta_to_batch). Null past max_frames_in_batch.
FrameHandle add_deepstream_frame(Batch &batch, const FrameFields &fields);

// Attaches an nvinfer-shaped tensor output (an NvDsInferTensorMeta user meta of type
// NVDSINFER_TENSOR_OUTPUT_META over host copies of `bytes`, copied with the buffer) at `level`
// of `owner`, as the portable backend's add_tensor_output does. For the testing harness.
Status add_deepstream_tensor_output(Batch &batch, UserMetaLevel level, void *owner, const TensorOutput &output,
    std::vector<std::vector<uint8_t>> bytes, UserHandle *created);

}  // namespace dsnode::meta

#endif
