// NVIDIA components' metas read from DeepStream's structs (component_meta.h says which), as
// nvtracker and nvdspreprocess attach them; the frame's sensor information read and (for the
// testing harness) written as the source bin writes it. DeepStream build only.
#ifndef DSNODE_META_COMPONENT_META_DEEPSTREAM_H
#define DSNODE_META_COMPONENT_META_DEEPSTREAM_H

#include "meta/component_meta.h"
#include "nvdsmeta.h"

namespace dsnode::meta {

// False when `user` is not of the kind (or carries no data).
bool read_deepstream_tracker_targets(const NvDsUserMeta &user, TrackerTargetBatch *out);
bool read_deepstream_reid(const NvDsUserMeta &user, ReidTensor *out);
bool read_deepstream_preprocess_batch(const NvDsUserMeta &user, PreprocessBatch *out);
bool read_deepstream_roi(const NvDsUserMeta &user, RoiMeta *out);

void read_deepstream_sensor_info(const NvDsFrameMeta &frame, SensorInfo *out);
// g_strdup's the strings into the frame (its release g_free's them), freeing what it held.
void write_deepstream_sensor_info(const SensorInfo &info, NvDsFrameMeta *frame);

}  // namespace dsnode::meta

#endif
