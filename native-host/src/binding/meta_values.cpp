#include "binding/meta_values.h"

#include <algorithm>
#include <cstring>

#include "meta/validate.h"

namespace dsnode::metabind {

namespace {

using meta::Status;

// Validators name fields without an index (NvDsLabelInfo.result_label); inside a list the index
// tells the user which element: NvDsLabelInfo[2].result_label.
Status with_index(Status status, const Path& path) {
  if (status.ok() || path.index < 0) return status;
  const std::string plain = std::string("for ") + path.root + ".";
  const size_t at = status.message.find(plain);
  if (at != std::string::npos) {
    status.message.replace(at, plain.size(),
        std::string("for ") + path.root + "[" + std::to_string(path.index) + "].");
  }
  return status;
}

bool fail(napi_env env, const Status& status) {
  throw_status(env, status);
  return false;
}

template <typename Value>
bool parse_members(napi_env env, napi_value value, const Path& path, Value* out);

// Each element of the array member `key` of `object` read as a struct, named root[i] in messages.
template <typename T>
bool parse_list(napi_env env, napi_value object, const char* key, const char* argument,
    const char* root, std::vector<T>* out) {
  napi_value list;
  uint32_t length = 0;
  if (napi_get_named_property(env, object, key, &list) != napi_ok ||
      !read_array(env, list, FieldName(argument), &length)) {
    return false;
  }
  out->resize(length);
  for (uint32_t i = 0; i < length; ++i) {
    const Path path{root, static_cast<long>(i)};
    napi_value element;
    if (napi_get_element(env, list, i, &element) != napi_ok ||
        !read_object(env, element, FieldName(path, nullptr)) || !parse_members(env, element, path, &(*out)[i])) {
      return false;
    }
  }
  return true;
}

// The members of the table's structs and records (sdk/src/protocol/meta-fields.mjs), one line each:
// read_members (JS → model) and add_members (model → JS), overloaded by the model type.
// generated: js values (npm run generate)
// NvOSD_RectParams's members from a JS object.
bool read_members(FieldReader &in, meta::RectParams *out) {
  bool has_bg_color = false;
  bool has_color_info = false;
  if (!(in.real("left", "left", &out->left) &&
        in.real("top", "top", &out->top) &&
        in.real("width", "width", &out->width) &&
        in.real("height", "height", &out->height) &&
        in.integer("borderWidth", "border_width", &out->border_width) &&
        in.color("borderColor", "border_color", &out->border_color) &&
        in.flag("hasBgColor", "has_bg_color", &has_bg_color) &&
        in.color("bgColor", "bg_color", &out->bg_color) &&
        in.flag("hasColorInfo", "has_color_info", &has_color_info) &&
        in.integer("colorId", "color_id", &out->color_id) &&
        in.real("rotationAngle", "rotation_angle", &out->rotation_angle)))
    return false;
  out->has_bg_color = has_bg_color ? 1 : 0;
  out->has_color_info = has_color_info ? 1 : 0;
  return true;
}

// NvOSD_RectParams's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::RectParams &value) {
  object.number("left", value.left);
  object.number("top", value.top);
  object.number("width", value.width);
  object.number("height", value.height);
  object.number("borderWidth", value.border_width);
  object.set("borderColor", color_value(env, value.border_color));
  object.boolean("hasBgColor", value.has_bg_color != 0);
  object.set("bgColor", color_value(env, value.bg_color));
  object.boolean("hasColorInfo", value.has_color_info != 0);
  object.number("colorId", value.color_id);
  object.number("rotationAngle", value.rotation_angle);
}

// NvOSD_FontParams's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::FontParams &value) {
  object.string("name", value.font_name);
  object.number("size", value.font_size);
  object.set("color", color_value(env, value.font_color));
}

// NvOSD_TextParams's members from a JS object.
bool read_members(FieldReader &in, meta::TextParams *out) {
  napi_value font_params = nullptr;
  bool set_bg_clr = false;
  if (!(in.string("displayText", "display_text", &out->display_text) &&
        in.integer("xOffset", "x_offset", &out->x_offset) &&
        in.integer("yOffset", "y_offset", &out->y_offset) &&
        in.object("font", "font_params", &font_params) &&
        FieldReader(in.env(), font_params, in.path()).string("name", "font_params.font_name", &out->font_params.font_name) &&
        FieldReader(in.env(), font_params, in.path()).integer("size", "font_params.font_size", &out->font_params.font_size) &&
        FieldReader(in.env(), font_params, in.path()).color("color", "font_params.font_color", &out->font_params.font_color) &&
        in.flag("setBgColor", "set_bg_clr", &set_bg_clr) &&
        in.color("bgColor", "text_bg_clr", &out->text_bg_clr)))
    return false;
  out->set_bg_clr = set_bg_clr ? 1 : 0;
  return true;
}

// NvOSD_TextParams's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::TextParams &value) {
  object.string("displayText", value.display_text);
  object.number("xOffset", value.x_offset);
  object.number("yOffset", value.y_offset);
  ObjectBuilder font_params(env);
  add_members(font_params, env, value.font_params);
  object.set("font", font_params.value());
  object.boolean("setBgColor", value.set_bg_clr != 0);
  object.set("bgColor", color_value(env, value.text_bg_clr));
}

// NvOSD_LineParams's members from a JS object.
bool read_members(FieldReader &in, meta::LineParams *out) {
  if (!(in.integer("x1", "x1", &out->x1) &&
        in.integer("y1", "y1", &out->y1) &&
        in.integer("x2", "x2", &out->x2) &&
        in.integer("y2", "y2", &out->y2) &&
        in.integer("lineWidth", "line_width", &out->line_width) &&
        in.color("lineColor", "line_color", &out->line_color)))
    return false;
  return true;
}

// NvOSD_LineParams's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::LineParams &value) {
  object.number("x1", value.x1);
  object.number("y1", value.y1);
  object.number("x2", value.x2);
  object.number("y2", value.y2);
  object.number("lineWidth", value.line_width);
  object.set("lineColor", color_value(env, value.line_color));
}

// NvOSD_ArrowParams's members from a JS object.
bool read_members(FieldReader &in, meta::ArrowParams *out) {
  napi_value arrow_head_value = nullptr;
  int64_t arrow_head = 0;
  if (!(in.integer("x1", "x1", &out->x1) &&
        in.integer("y1", "y1", &out->y1) &&
        in.integer("x2", "x2", &out->x2) &&
        in.integer("y2", "y2", &out->y2) &&
        in.integer("arrowWidth", "arrow_width", &out->arrow_width) &&
        in.get("arrowHead", &arrow_head_value) &&
        read_integer(in.env(), arrow_head_value, FieldName(in.path(), "arrow_head"), 0, 2, &arrow_head) &&
        in.color("arrowColor", "arrow_color", &out->arrow_color)))
    return false;
  out->arrow_head = static_cast<meta::ArrowHead>(arrow_head);
  return true;
}

// NvOSD_ArrowParams's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::ArrowParams &value) {
  object.number("x1", value.x1);
  object.number("y1", value.y1);
  object.number("x2", value.x2);
  object.number("y2", value.y2);
  object.number("arrowWidth", value.arrow_width);
  object.number("arrowHead", static_cast<int32_t>(value.arrow_head));
  object.set("arrowColor", color_value(env, value.arrow_color));
}

// NvOSD_CircleParams's members from a JS object.
bool read_members(FieldReader &in, meta::CircleParams *out) {
  bool has_bg_color = false;
  if (!(in.integer("xc", "xc", &out->xc) &&
        in.integer("yc", "yc", &out->yc) &&
        in.integer("radius", "radius", &out->radius) &&
        in.color("circleColor", "circle_color", &out->circle_color) &&
        in.flag("hasBgColor", "has_bg_color", &has_bg_color) &&
        in.color("bgColor", "bg_color", &out->bg_color) &&
        in.integer("circleWidth", "circle_width", &out->circle_width)))
    return false;
  out->has_bg_color = has_bg_color ? 1 : 0;
  return true;
}

// NvOSD_CircleParams's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::CircleParams &value) {
  object.number("xc", value.xc);
  object.number("yc", value.yc);
  object.number("radius", value.radius);
  object.set("circleColor", color_value(env, value.circle_color));
  object.boolean("hasBgColor", value.has_bg_color != 0);
  object.set("bgColor", color_value(env, value.bg_color));
  object.number("circleWidth", value.circle_width);
}

// NvDsLabelInfo's members from a JS object.
bool read_members(FieldReader &in, meta::LabelInfoFields *out) {
  std::string result_label;
  if (!(in.integer("numClasses", "num_classes", &out->num_classes) &&
        in.string("resultLabel", "result_label", &result_label) &&
        in.integer("resultClassId", "result_class_id", &out->result_class_id) &&
        in.integer("labelId", "label_id", &out->label_id) &&
        in.real("resultProb", "result_prob", &out->result_prob)))
    return false;
  if (Status status = meta::copy_bounded(out->result_label, result_label, "NvDsLabelInfo.result_label"); !status.ok())
    return fail(in.env(), with_index(status, in.path()));
  return true;
}

// NvDsLabelInfo's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::LabelInfoFields &value) {
  (void)env;
  object.number("numClasses", value.num_classes);
  const std::string_view result_label = meta::result_label(value);
  object.string("resultLabel", result_label.data(), result_label.size());
  object.number("resultClassId", value.result_class_id);
  object.number("labelId", value.label_id);
  object.number("resultProb", value.result_prob);
}

// NvDsClassifierMeta's members from a JS object.
bool read_members(FieldReader &in, meta::ClassifierFields *out) {
  if (!(in.integer("numLabels", "num_labels", &out->num_labels) &&
        in.integer("uniqueComponentId", "unique_component_id", &out->unique_component_id) &&
        in.string("classifierType", "classifier_type", &out->classifier_type)))
    return false;
  return true;
}

// NvDsClassifierMeta's members onto a JS object.
void add_members(ObjectBuilder &object, napi_env env, const meta::ClassifierFields &value) {
  (void)env;
  object.number("numLabels", value.num_labels);
  object.number("uniqueComponentId", value.unique_component_id);
  object.string("classifierType", value.classifier_type);
}
// end generated: js values

// A struct's members from the JS object `value`, named under `path` in messages.
template <typename Value>
bool parse_members(napi_env env, napi_value value, const Path& path, Value* out) {
  FieldReader in(env, value, path);
  return read_members(in, out);
}

// A struct's members as a new JS object.
template <typename Value>
napi_value members_value(napi_env env, const Value& value) {
  ObjectBuilder object(env);
  add_members(object, env, value);
  return object.value();
}

}  // namespace

// ---------------------------------------------------------------- JS → model

bool parse_text(napi_env env, napi_value value, const Path& path, meta::TextParams* out) {
  return parse_members(env, value, path, out);
}

bool parse_mask(napi_env env, napi_value value, const Path& path, meta::MaskParams* out) {
  FieldReader in(env, value, path);
  return in.vector("data", "data", &out->data) && in.real("threshold", "threshold", &out->threshold) &&
         in.integer("width", "width", &out->width) && in.integer("height", "height", &out->height);
}

bool parse_display_content(napi_env env, napi_value value, meta::DisplayContent* out) {
  return read_object(env, value, FieldName("content")) &&
         parse_list(env, value, "rects", "content.rects", "NvDsDisplayMeta.rect_params", &out->rects) &&
         parse_list(env, value, "texts", "content.texts", "NvDsDisplayMeta.text_params", &out->texts) &&
         parse_list(env, value, "lines", "content.lines", "NvDsDisplayMeta.line_params", &out->lines) &&
         parse_list(env, value, "arrows", "content.arrows", "NvDsDisplayMeta.arrow_params", &out->arrows) &&
         parse_list(env, value, "circles", "content.circles", "NvDsDisplayMeta.circle_params", &out->circles);
}

bool parse_label_info(napi_env env, napi_value value, const Path& path, meta::LabelInfoFields* out) {
  FieldReader in(env, value, path);
  meta::LabelInfoFields label;
  if (!(read_object(env, value, FieldName(path, nullptr)) && read_members(in, &label))) return false;
  Status status = meta::validate_label_info(label);
  if (!status.ok()) return fail(env, with_index(status, path));
  *out = label;
  return true;
}

bool parse_classifier(napi_env env, napi_value value, meta::ClassifierFields* out,
    std::vector<meta::LabelInfoFields>* labels) {
  static const Path path{"NvDsClassifierMeta"};
  if (!read_object(env, value, FieldName("classifier"))) return false;
  FieldReader in(env, value, path);
  napi_value list;
  uint32_t length = 0;
  if (!(read_members(in, out) && in.get("labels", &list) &&
          read_array(env, list, FieldName(path, "label_info_list"), &length))) {
    return false;
  }
  Status status = meta::validate_classifier(*out);
  if (!status.ok()) return fail(env, status);
  labels->resize(length);
  for (uint32_t i = 0; i < length; ++i) {
    napi_value element;
    if (napi_get_element(env, list, i, &element) != napi_ok ||
        !parse_label_info(env, element, Path{"NvDsLabelInfo", static_cast<long>(i)}, &(*labels)[i])) {
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------- model → JS

namespace {

napi_value numbers_value(napi_env env, const double* values, size_t count) {
  return array_of(env, values, count, [env](double value) { return make_number(env, value); });
}

}  // namespace

napi_value color_value(napi_env env, const meta::ColorParams& color) {
  return ObjectBuilder(env)
      .number("red", color.red).number("green", color.green).number("blue", color.blue).number("alpha", color.alpha)
      .value();
}

napi_value text_value(napi_env env, const meta::TextParams& text) { return members_value(env, text); }

napi_value mask_value(napi_env env, const meta::MaskParams& mask) {
  if (mask.data.empty()) return make_null(env);
  return ObjectBuilder(env)
      .set("data", make_typed_copy(env, mask.data)).number("threshold", mask.threshold).number("width", mask.width).number("height", mask.height)
      .value();
}

napi_value display_value(napi_env env, uint32_t index, const meta::DisplayFields& display) {
  double misc[meta::kMaxUserFields];
  for (size_t i = 0; i < meta::kMaxUserFields; ++i) misc[i] = static_cast<double>(display.misc_osd_data[i]);
  return ObjectBuilder(env)
      .number("index", index)
      .set("rects", array_of(env, display.rect_params, display.num_rects,
          [env](const meta::RectParams& v) { return members_value(env, v); }))
      .set("texts", array_of(env, display.text_params, display.num_labels,
          [env](const meta::TextParams& v) { return members_value(env, v); }))
      .set("lines", array_of(env, display.line_params, display.num_lines,
          [env](const meta::LineParams& v) { return members_value(env, v); }))
      .set("arrows", array_of(env, display.arrow_params, display.num_arrows,
          [env](const meta::ArrowParams& v) { return members_value(env, v); }))
      .set("circles", array_of(env, display.circle_params, display.num_circles,
          [env](const meta::CircleParams& v) { return members_value(env, v); }))
      .set("miscOsdData", numbers_value(env, misc, meta::kMaxUserFields))
      .value();
}

napi_value label_info_value(napi_env env, uint32_t index, const meta::LabelInfoFields& label) {
  ObjectBuilder object(env);
  add_members(object.number("index", index), env, label);
  return object.value();
}

napi_value classifier_value(napi_env env, uint32_t index, const meta::ClassifierFields& classifier,
    const std::vector<std::pair<uint32_t, meta::LabelInfoFields>>& labels) {
  napi_value label_values = array_of(env, labels.data(), labels.size(),
      [env](const std::pair<uint32_t, meta::LabelInfoFields>& l) { return label_info_value(env, l.first, l.second); });
  ObjectBuilder object(env);
  add_members(object.number("index", index), env, classifier);
  return object.set("labels", label_values).value();
}

napi_value user_meta_value(napi_env env, uint32_t index, const meta::UserMetaFields& user) {
  const bool has_payload = user.kind == meta::PayloadKind::kBytes || user.kind == meta::PayloadKind::kJson;
  return ObjectBuilder(env)
      .number("index", index).string("metaType", user.meta_type).number("metaTypeId", user.meta_type_id)
      .number("kind", static_cast<int>(user.kind))
      .set("payload", has_payload ? make_bytes(env, user.payload.data(), user.payload.size()) : make_null(env))
      .value();
}

napi_value tensor_output_value(napi_env env, const meta::TensorOutput& output,
    const std::vector<napi_value>& host_views) {
  napi_value layers = nullptr;
  if (napi_create_array_with_length(env, output.layers.size(), &layers) != napi_ok) return nullptr;
  for (size_t i = 0; i < output.layers.size(); ++i) {
    const meta::TensorLayer& layer = output.layers[i];
    double dims[meta::kMaxTensorDims];
    const size_t num_dims = std::min<size_t>(layer.num_dims, meta::kMaxTensorDims);
    for (size_t d = 0; d < num_dims; ++d) dims[d] = layer.dims[d];
    napi_value device = nullptr;
    if (napi_create_bigint_uint64(env, reinterpret_cast<uintptr_t>(layer.device_buffer), &device) != napi_ok) {
      return nullptr;
    }
    napi_value value = ObjectBuilder(env)
        .string("layerName", layer.layer_name).number("dataType", static_cast<int32_t>(layer.data_type))
        .set("dims", numbers_value(env, dims, num_dims)).number("numElements", layer.num_elements)
        .number("bindingIndex", layer.binding_index)
        .set("host", host_views[i] != nullptr ? host_views[i] : make_null(env)).set("devicePointer", device)
        .value();
    if (value == nullptr || napi_set_element(env, layers, static_cast<uint32_t>(i), value) != napi_ok) return nullptr;
  }
  return ObjectBuilder(env)
      .number("uniqueId", output.unique_id).number("gpuId", output.gpu_id)
      .number("networkWidth", output.network_width).number("networkHeight", output.network_height)
      .number("networkChannels", output.network_channels)
      .boolean("maintainAspectRatio", output.maintain_aspect_ratio)
      .boolean("symmetricPadding", output.symmetric_padding).set("layers", layers)
      .value();
}

}  // namespace dsnode::metabind
