// nvinfer's semantic segmentation output (gstnvdsinfer.h NvDsInferSegmentationMeta): an
// NvDsUserMeta of type NVDSINFER_SEGMENTATION_META on a frame (full-frame inference) or an
// object (secondary), read by nvsegvisual and by elements downstream. ds-element reads it and
// writes it, on both backends, so a TypeScript segmentation element can feed nvsegvisual.
//
// The scalar members are rows of sdk/src/protocol/meta-fields.mjs (SEGMENTATION), generated as
// DSNODE_SEGMENTATION_MEMBERS; the two maps travel beside them: views into the meta when read
// (valid for the transform call), owned vectors when written.
#ifndef DSNODE_META_SEGMENTATION_META_H
#define DSNODE_META_SEGMENTATION_META_H

#include <cstdint>
#include <vector>

#include "meta/batch.h"

namespace dsnode::meta {

// NVDSINFER_SEGMENTATION_META (nvdsmeta.h enum order; static_assert in deepstream_typed_metas.cpp).
inline constexpr int32_t kMetaTypeSegmentation = 13;

// X(type, NVIDIA's member, JS name, what it holds)
// generated: segmentation members (npm run generate)
#define DSNODE_SEGMENTATION_MEMBERS(X) \
  X(uint32_t, classes, "classes", "Number of classes.") \
  X(uint32_t, width, "width", "Width of the class map in pixels: the network's output width, not the frame's.") \
  X(uint32_t, height, "height", "Height of the class map in pixels.") \
  X(int32_t, unique_id, "uniqueId", "Id of the element that attached it.")
// end generated: segmentation members

#define DSNODE_DECLARE_MEMBER(type, member, js, what) type member{};
struct SegmentationFields {
  DSNODE_SEGMENTATION_MEMBERS(DSNODE_DECLARE_MEMBER)
};
#undef DSNODE_DECLARE_MEMBER

// A segmentation meta as read: the maps point into it (not owned).
struct SegmentationView : SegmentationFields {
  const int32_t *class_map = nullptr;                // width * height, index y * width + x
  const float *class_probabilities_map = nullptr;    // classes * width * height, or null
};

// A segmentation meta to write: the maps owned.
struct Segmentation : SegmentationFields {
  std::vector<int32_t> class_map;                    // width * height
  std::vector<float> class_probabilities_map;        // classes * width * height, or empty
};

// The maps' sizes agree with classes, width and height (none of them 0); every class_map entry
// is a class id or -1 (no class above nvinfer's threshold); probabilities are finite.
Status validate_segmentation(const Segmentation &value);

}  // namespace dsnode::meta

#endif
