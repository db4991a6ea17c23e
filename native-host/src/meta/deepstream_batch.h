// The Batch interface over one NvDsBatchMeta, for one call (meta/deepstream_batch.cpp), and
// what the DeepStream backend's other files need of it beyond the interface. Internal to the
// DeepStream backend (meta/deepstream_*.cpp): it includes DeepStream's headers; callers use
// meta/deepstream_backend.h.
#ifndef DSNODE_META_DEEPSTREAM_BATCH_H
#define DSNODE_META_DEEPSTREAM_BATCH_H

#include <memory>

#include "meta/batch.h"
#include "nvdsmeta.h"

namespace dsnode::meta {

// A Batch over `batch` for one call; its destructor ends the call.
std::unique_ptr<Batch> open_batch_meta(NvDsBatchMeta *batch);

// The NvDsBatchMeta under `batch` (from open_batch_meta); null for another backend's Batch.
NvDsBatchMeta *batch_meta_of(const Batch &batch);

// Adds a frame to `batch` (from open_batch_meta) as it is, unvalidated; null past
// max_frames_in_batch.
FrameHandle append_frame(Batch &batch, const FrameFields &fields);

// Rewrites the first frame of `batch` (from open_batch_meta, with a frame): the detached
// spare's one frame for the next buffer, not a change the call made.
void reset_first_frame(Batch &batch, const FrameFields &fields);

}  // namespace dsnode::meta

#endif
