// Copies of values between the model (meta/model.h) and DeepStream's structs that the Batch
// interface (meta/deepstream_batch.cpp) uses, defined in meta/deepstream_backend.cpp (the
// table's part generated: npm run generate). Internal to the DeepStream backend: it includes
// DeepStream's headers.
#ifndef DSNODE_META_DEEPSTREAM_COPIES_H
#define DSNODE_META_DEEPSTREAM_COPIES_H

#include <string>

#include "meta/batch.h"
#include "nvdsmeta.h"

namespace dsnode::meta {

NvOSD_RectParams to_ds(const RectParams &from);
RectParams from_ds(const NvOSD_RectParams &from);
// Members of NvOSD_RectParams this DeepStream lacks must keep their default (`path` and `where`
// name the value in messages).
Status check_supported(const RectParams &value, const std::string &path, const char *where);

// Members of each record (an object's also those of its rect_params) this DeepStream lacks
// must keep their default: called before every write, so a value is refused, never dropped.
Status check_supported(const FrameFields &value);
Status check_supported(const ObjectFields &value);
Status check_supported(const ClassifierFields &value);
Status check_supported(const LabelInfoFields &value);

void read_frame_fields(const NvDsFrameMeta &from, FrameFields *to);
void write_frame_fields(const FrameFields &from, NvDsFrameMeta *to);
void read_object_fields(const NvDsObjectMeta &from, ObjectFields *to);
void write_object_fields(const ObjectFields &from, NvDsObjectMeta *to);

// NvDsLabelInfo's and NvDsClassifierMeta's members, model to DeepStream and back (generated;
// instantiated for both directions in deepstream_backend.cpp).
template <typename From, typename To>
void copy_label_info_fields(const From &from, To *to);
template <typename From, typename To>
void copy_classifier_fields(const From &from, To *to);

// A g_strdup'd copy DeepStream frees, or null for "".
char *dup_or_null(const std::string &text);
// DeepStream never frees classifier_type (nvinfer points it at its own string): an interned
// string, or null for "".
char *intern_or_null(const std::string &text);
// display_text is a copy DeepStream g_free()s; font_name is interned.
void to_ds(const TextParams &t, NvOSD_TextParams *d);
TextParams from_ds(const NvOSD_TextParams &d);
NvOSD_LineParams to_ds(const LineParams &l);
LineParams from_ds(const NvOSD_LineParams &d);
NvOSD_ArrowParams to_ds(const ArrowParams &a);
ArrowParams from_ds(const NvOSD_ArrowParams &d);
NvOSD_CircleParams to_ds(const CircleParams &c);
CircleParams from_ds(const NvOSD_CircleParams &d);

}  // namespace dsnode::meta

#endif
