// NVIDIA's typed user metas on the DeepStream backend, through NVIDIA's own struct layouts
// (nvds_analytics_meta.h, gstnvdsinfer.h): what kind a user meta is, reading one into the model
// (meta/analytics_meta.h, meta/segmentation_meta.h), and filling a pool-acquired NvDsUserMeta
// with one of ours, with the copy and release functions that let it survive a buffer copy (tee)
// and be freed with the batch. Used by deepstream_backend.cpp; DeepStream builds only.
#ifndef DSNODE_META_DEEPSTREAM_TYPED_METAS_H
#define DSNODE_META_DEEPSTREAM_TYPED_METAS_H

#include <cstddef>

#include "meta/analytics_meta.h"
#include "meta/model.h"
#include "meta/segmentation_meta.h"
#include "nvdsmeta.h"

namespace dsnode::meta::nvds {

// The kind of a user meta that is not ours (no ds-element payload header): kTensorOutput,
// kAnalyticsFrame, kAnalyticsObject, kSegmentation by its meta_type, else kForeign.
PayloadKind kind_of_nvidia_meta(const NvDsUserMeta *user);

// False when `user` is not of that kind (or has no data).
bool read_analytics_frame(const NvDsUserMeta *user, AnalyticsFrameMeta *out);
bool read_analytics_object(const NvDsUserMeta *user, AnalyticsObjectInfo *out);
bool read_segmentation(const NvDsUserMeta *user, SegmentationView *out);

// Fill a freshly acquired user meta: user_meta_data, meta_type, copy_func, release_func.
// Analytics: an error on a DeepStream older than 8.0, whose analytics type is a string this
// backend does not resolve.
Status fill_analytics_frame(NvDsUserMeta *user, const AnalyticsFrameMeta &value);
Status fill_analytics_object(NvDsUserMeta *user, const AnalyticsObjectInfo &value);
void fill_segmentation(NvDsUserMeta *user, const Segmentation &value);

// Segmentation metas this backend allocated (written or copied) and not yet released: what the
// native tests check returns to its start (no leak through copies and releases).
size_t live_segmentation_metas();

}  // namespace dsnode::meta::nvds

#endif
