// nvdspreprocess's metas (nvdspreprocess_meta.h, nvds_roi_meta.h) as plain values:
// GstNvDsPreProcessBatchMeta (batch level, NVDS_PREPROCESS_BATCH_META: the ROIs of the batch and
// the tensor it prepared) and NvDsRoiMeta (NVDS_ROI_META, which nvinfer attaches to frames and
// objects when it infers on that tensor). Read-only. The members are rows of
// sdk/src/protocol/meta-fields.mjs (PREPROCESS_STRUCTS).
#ifndef DSNODE_META_PREPROCESS_META_H
#define DSNODE_META_PREPROCESS_META_H

#include <cstdint>
#include <string>
#include <vector>

#include "meta/model.h"

namespace dsnode::meta {

// NvDsMetaType values (nvdsmeta.h; checked in preprocess_meta_deepstream.cpp).
inline constexpr int32_t kMetaTypePreprocessBatch = 28;  // NVDS_PREPROCESS_BATCH_META
inline constexpr int32_t kMetaTypeRoi = 30;              // NVDS_ROI_META

// generated: struct RoiMeta (npm run generate)
// The frame and object it belongs to are given by what they hold that JS can name.
struct RoiMeta {  // NvDsRoiMeta
  BboxCoords roi;  // roi's geometry
  bool has_frame = false;  // frame_meta != NULL
  uint32_t frame_batch_id = 0;  // frame_meta->batch_id
  uint32_t frame_source_id = 0;  // frame_meta->source_id
  bool has_object = false;  // object_meta != NULL
  uint64_t object_id = 0;  // object_meta->object_id
  double scale_ratio_x = 0, scale_ratio_y = 0, offset_left = 0, offset_top = 0;
};
// end generated: struct RoiMeta

// NvDsDataType (nvds_roi_meta.h order).
enum class PreprocessDataType : int32_t { kFp32 = 0, kUint8, kInt8, kUint32, kInt32, kInt64, kUint64, kFp16 };

// generated: struct PreprocessTensor (npm run generate)
// raw_tensor_buffer is device memory (nvdspreprocess's CUDA tensor pool, on gpu_id).
struct PreprocessTensor {  // NvDsPreProcessTensorMeta
  const void *raw_tensor_buffer = nullptr;  // device memory: its address only
  uint64_t buffer_size = 0;
  std::vector<int32_t> tensor_shape;
  PreprocessDataType data_type = PreprocessDataType::kFp32;
  std::string tensor_name;
  uint32_t gpu_id = 0, meta_id = 0;
  bool maintain_aspect_ratio = false;
};
// end generated: struct PreprocessTensor

// generated: struct PreprocessBatch (npm run generate)
struct PreprocessBatch {  // GstNvDsPreProcessBatchMeta
  std::vector<uint64_t> target_unique_ids;
  bool has_tensor = false;  // tensor_meta != NULL
  PreprocessTensor tensor;  // tensor_meta
  std::vector<RoiMeta> rois;  // roi_vector
};
// end generated: struct PreprocessBatch

}  // namespace dsnode::meta

#endif
