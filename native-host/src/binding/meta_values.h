// The metadata values that travel as JS objects rather than table rows (meta-binding.ts:
// NativeText, NativeMask, NativeDisplayContent, NativeClassifier, ...) to and from the model
// structs of meta/model.h. Readers check types and integers and name DeepStream fields
// (NvDsDisplayMeta.rect_params[3].border_width); value ranges are validate.h's, run by the
// backend. Readers return false and builders null with a JS exception pending.
#ifndef DSNODE_BINDING_META_VALUES_H
#define DSNODE_BINDING_META_VALUES_H

#include <node_api.h>

#include <string>
#include <vector>

#include "binding/js_values.h"
#include "meta/batch.h"
#include "meta/model.h"

namespace dsnode::metabind {

// --- JS → model
bool parse_text(napi_env env, napi_value value, const Path& path, meta::TextParams* out);
bool parse_mask(napi_env env, napi_value value, const Path& path, meta::MaskParams* out);
bool parse_display_content(napi_env env, napi_value value, meta::DisplayContent* out);
bool parse_label_info(napi_env env, napi_value value, const Path& path, meta::LabelInfoFields* out);
// NativeClassifier: the classifier's fields and its label infos, validated (all or nothing).
bool parse_classifier(napi_env env, napi_value value, meta::ClassifierFields* out,
    std::vector<meta::LabelInfoFields>* labels);

// --- model → JS
napi_value color_value(napi_env env, const meta::ColorParams& color);
napi_value text_value(napi_env env, const meta::TextParams& text);
// null when the object has no mask (no data).
napi_value mask_value(napi_env env, const meta::MaskParams& mask);
napi_value display_value(napi_env env, uint32_t index, const meta::DisplayFields& display);
napi_value label_info_value(napi_env env, uint32_t index, const meta::LabelInfoFields& label);
napi_value classifier_value(napi_env env, uint32_t index, const meta::ClassifierFields& classifier,
    const std::vector<std::pair<uint32_t, meta::LabelInfoFields>>& labels);
napi_value user_meta_value(napi_env env, uint32_t index, const meta::UserMetaFields& user);
// NativeTensorOutput; `host_views[i]` is layer i's view (null for none).
napi_value tensor_output_value(napi_env env, const meta::TensorOutput& output,
    const std::vector<napi_value>& host_views);

}  // namespace dsnode::metabind

#endif
