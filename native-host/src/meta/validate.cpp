#include "meta/validate.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dsnode::meta {

std::string describe_number(double value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "Infinity" : "-Infinity";
  // The shortest form that reads back; most fields are floats, so a value a float holds
  // exactly is shown as that float would be (1.01f, not 1.0099999904632568).
  // Whole numbers print in full up to 1e21, as JavaScript's String() does (2^53 is 9007199254740992).
  if (std::trunc(value) == value && std::fabs(value) < 1e21) {
    char integer[32];
    std::snprintf(integer, sizeof integer, "%.0f", value);
    return integer;
  }
  const bool is_float = static_cast<double>(static_cast<float>(value)) == value;
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    const double back = std::strtod(text, nullptr);
    if (is_float ? static_cast<float>(back) == static_cast<float>(value) : back == value)
      break;
  }
  return text;
}

namespace {

using names::expected;
using names::member;

auto root(const char *name) {
  return [name] { return std::string(name); };
}

#define DSNODE_RETURN_IF_ERROR(expression) \
  do { Status status_ = (expression); if (!status_.ok()) return status_; } while (0)

template <typename Name>
Status finite(double value, const Name &field) {
  if (std::isfinite(value))
    return Status::Ok();
  return expected("a finite number", field, describe_number(value));
}

template <typename Name>
Status non_negative(double value, const Name &field) {
  if (std::isfinite(value) && value >= 0)
    return Status::Ok();
  return expected("a finite number >= 0", field, describe_number(value));
}

template <typename Name>
Status unit_interval(double value, const Name &field) {
  if (std::isfinite(value) && value >= 0 && value <= 1)
    return Status::Ok();
  return expected("a number from 0 to 1", field, describe_number(value));
}

// DeepStream writes -0.1 where no confidence exists; everything else is a probability.
template <typename Name>
Status confidence(float value, const Name &field) {
  if (value == kNoConfidence || (std::isfinite(value) && value >= 0 && value <= 1))
    return Status::Ok();
  return expected("a number from 0 to 1 (or -0.1 for none)", field, describe_number(value));
}

template <typename Name>
Status c_string(const std::string &value, const Name &field) {
  const size_t nul = value.find('\0');
  if (nul == std::string::npos)
    return Status::Ok();
  return expected("a string without NUL characters", field, "a NUL at byte " + std::to_string(nul));
}

template <typename Name>
Status terminated(const char (&value)[kMaxLabelSize], const Name &field) {
  if (std::memchr(value, '\0', kMaxLabelSize) != nullptr)
    return Status::Ok();
  return expected("at most " + std::to_string(kMaxLabelSize - 1) + " bytes (UTF-8)", field,
      "an unterminated string");
}

// A string DeepStream keeps as a C string of at most MAX_LABEL_SIZE bytes (classifier_type).
template <typename Name>
Status bounded(const std::string &value, const Name &field) {
  DSNODE_RETURN_IF_ERROR(c_string(value, field));
  if (value.size() >= kMaxLabelSize)
    return expected("at most " + std::to_string(kMaxLabelSize - 1) + " bytes (UTF-8)", field,
        std::to_string(value.size()) + " bytes");
  return Status::Ok();
}

// NvOSD_Arrow_Head_Direction: START_HEAD, END_HEAD or BOTH_HEAD.
template <typename Name>
Status arrow_head(ArrowHead value, const Name &field) {
  const auto head = static_cast<int32_t>(value);
  if (head >= 0 && head <= 2)
    return Status::Ok();
  return expected("0 (START_HEAD), 1 (END_HEAD) or 2 (BOTH_HEAD)", field, std::to_string(head));
}

// An int32 that counts (num_surfaces_per_frame): its type holds negatives, the field does not.
template <typename Name>
Status count(int32_t value, const Name &field) {
  if (value >= 0)
    return Status::Ok();
  return expected("an integer >= 0", field, std::to_string(value));
}

// `before`'s type is the value's, not deduced from it (callers with nothing to compare pass nullptr).
template <typename T>
struct BeforeOf { using type = T; };
template <typename T>
using Before = typename BeforeOf<T>::type;

// What the meta held before a write, member by member (null: nothing to compare, check all).
template <typename Struct, typename Member>
const Member *member_of(const Struct *before, Member Struct::*member) {
  return before != nullptr ? &(before->*member) : nullptr;
}

// Whether the user wrote `value`: it differs, bit for bit, from what the meta held. Values
// read from the meta and sent back unchanged are upstream's (nvinfer passes a parser's
// confidence 1.25 through, crop mode gives negative widths): kept as they are, never checked.
template <typename Value>
bool written(const Value &value, const Value *before) {
  return before == nullptr || std::memcmp(&value, before, sizeof value) != 0;
}
inline bool written(const std::string &value, const std::string *before) {
  return before == nullptr || value != *before;
}

// The checks of every struct and record of the table (check_color_params, check_rect_params,
// ..., validate_frame_record, validate_object_record): one line per field with a range.
// generated: field validators (npm run generate)
// NvOSD_ColorParams: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_color_params(const Value &value, const Before<Value> *before, const Name &field) {
  if (written(value.red, member_of(before, &Value::red)))
    DSNODE_RETURN_IF_ERROR(unit_interval(value.red, member(field, "red")));
  if (written(value.green, member_of(before, &Value::green)))
    DSNODE_RETURN_IF_ERROR(unit_interval(value.green, member(field, "green")));
  if (written(value.blue, member_of(before, &Value::blue)))
    DSNODE_RETURN_IF_ERROR(unit_interval(value.blue, member(field, "blue")));
  if (written(value.alpha, member_of(before, &Value::alpha)))
    DSNODE_RETURN_IF_ERROR(unit_interval(value.alpha, member(field, "alpha")));
  return Status::Ok();
}

// NvBbox_Coords: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_bbox_coords(const Value &value, const Before<Value> *before, const Name &field) {
  if (written(value.left, member_of(before, &Value::left)))
    DSNODE_RETURN_IF_ERROR(finite(value.left, member(field, "left")));
  if (written(value.top, member_of(before, &Value::top)))
    DSNODE_RETURN_IF_ERROR(finite(value.top, member(field, "top")));
  if (written(value.width, member_of(before, &Value::width)))
    DSNODE_RETURN_IF_ERROR(non_negative(value.width, member(field, "width")));
  if (written(value.height, member_of(before, &Value::height)))
    DSNODE_RETURN_IF_ERROR(non_negative(value.height, member(field, "height")));
  return Status::Ok();
}

// NvOSD_FontParams: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_font_params(const Value &value, const Before<Value> *before, const Name &field) {
  if (written(value.font_name, member_of(before, &Value::font_name)))
    DSNODE_RETURN_IF_ERROR(c_string(value.font_name, member(field, "font_name")));
  DSNODE_RETURN_IF_ERROR(check_color_params(value.font_color, member_of(before, &Value::font_color), member(field, "font_color")));
  return Status::Ok();
}

// NvOSD_TextParams: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_text_params(const Value &value, const Before<Value> *before, const Name &field) {
  if (written(value.display_text, member_of(before, &Value::display_text)))
    DSNODE_RETURN_IF_ERROR(c_string(value.display_text, member(field, "display_text")));
  DSNODE_RETURN_IF_ERROR(check_font_params(value.font_params, member_of(before, &Value::font_params), member(field, "font_params")));
  DSNODE_RETURN_IF_ERROR(check_color_params(value.text_bg_clr, member_of(before, &Value::text_bg_clr), member(field, "text_bg_clr")));
  return Status::Ok();
}

// NvOSD_LineParams: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_line_params(const Value &value, const Before<Value> *before, const Name &field) {
  DSNODE_RETURN_IF_ERROR(check_color_params(value.line_color, member_of(before, &Value::line_color), member(field, "line_color")));
  return Status::Ok();
}

// NvOSD_ArrowParams: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_arrow_params(const Value &value, const Before<Value> *before, const Name &field) {
  if (written(value.arrow_head, member_of(before, &Value::arrow_head)))
    DSNODE_RETURN_IF_ERROR(arrow_head(value.arrow_head, member(field, "arrow_head")));
  DSNODE_RETURN_IF_ERROR(check_color_params(value.arrow_color, member_of(before, &Value::arrow_color), member(field, "arrow_color")));
  return Status::Ok();
}

// NvOSD_CircleParams: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_circle_params(const Value &value, const Before<Value> *before, const Name &field) {
  DSNODE_RETURN_IF_ERROR(check_color_params(value.circle_color, member_of(before, &Value::circle_color), member(field, "circle_color")));
  DSNODE_RETURN_IF_ERROR(check_color_params(value.bg_color, member_of(before, &Value::bg_color), member(field, "bg_color")));
  return Status::Ok();
}

// NvOSD_RectParams: every member the table gives a range (any struct with its members).
template <typename Value, typename Name>
Status check_rect_params(const Value &value, const Before<Value> *before, const Name &field) {
  DSNODE_RETURN_IF_ERROR(check_bbox_coords(value, before, field));
  DSNODE_RETURN_IF_ERROR(check_color_params(value.border_color, member_of(before, &Value::border_color), member(field, "border_color")));
  DSNODE_RETURN_IF_ERROR(check_color_params(value.bg_color, member_of(before, &Value::bg_color), member(field, "bg_color")));
  if (written(value.rotation_angle, member_of(before, &Value::rotation_angle)))
    DSNODE_RETURN_IF_ERROR(finite(value.rotation_angle, member(field, "rotation_angle")));
  return Status::Ok();
}

// NvDsFrameMeta's ranges beyond what its record's integer types hold.
Status validate_frame_record(const FrameFields &frame, const FrameFields *before) {
  const auto name = root("NvDsFrameMeta");
  if (written(frame.num_surfaces_per_frame, member_of(before, &FrameFields::num_surfaces_per_frame)))
    DSNODE_RETURN_IF_ERROR(count(frame.num_surfaces_per_frame, member(name, "num_surfaces_per_frame")));
  return Status::Ok();
}

// NvDsObjectMeta's numeric fields (those of its row).
Status validate_object_record(const ObjectFields &object, const ObjectFields *before) {
  const auto name = root("NvDsObjectMeta");
  if (written(object.confidence, member_of(before, &ObjectFields::confidence)))
    DSNODE_RETURN_IF_ERROR(confidence(object.confidence, member(name, "confidence")));
  if (written(object.tracker_confidence, member_of(before, &ObjectFields::tracker_confidence)))
    DSNODE_RETURN_IF_ERROR(confidence(object.tracker_confidence, member(name, "tracker_confidence")));
  DSNODE_RETURN_IF_ERROR(check_rect_params(object.rect_params, member_of(before, &ObjectFields::rect_params), member(name, "rect_params")));
  DSNODE_RETURN_IF_ERROR(check_bbox_coords(object.detector_bbox_info, member_of(before, &ObjectFields::detector_bbox_info), member(name, "detector_bbox_info.org_bbox_coords")));
  DSNODE_RETURN_IF_ERROR(check_bbox_coords(object.tracker_bbox_info, member_of(before, &ObjectFields::tracker_bbox_info), member(name, "tracker_bbox_info.org_bbox_coords")));
  return Status::Ok();
}

// NvDsLabelInfo's members, every one checked (validate_label_info adds the lists).
Status check_label_info_fields(const LabelInfoFields &value) {
  const auto name = root("NvDsLabelInfo");
  DSNODE_RETURN_IF_ERROR(terminated(value.result_label, member(name, "result_label")));
  DSNODE_RETURN_IF_ERROR(unit_interval(value.result_prob, member(name, "result_prob")));
  return Status::Ok();
}

// NvDsClassifierMeta's members, every one checked (validate_classifier adds the lists).
Status check_classifier_fields(const ClassifierFields &value) {
  const auto name = root("NvDsClassifierMeta");
  DSNODE_RETURN_IF_ERROR(bounded(value.classifier_type, member(name, "classifier_type")));
  return Status::Ok();
}
// end generated: field validators

template <typename Name>
Status text(const TextParams &value, const Name &field) {
  return check_text_params(value, nullptr, field);
}

bool same_text(const TextParams &a, const TextParams &b) {
  const auto same_color = [](const ColorParams &x, const ColorParams &y) { return !written(x, &y); };
  return a.display_text == b.display_text && a.x_offset == b.x_offset && a.y_offset == b.y_offset &&
      a.font_params.font_name == b.font_params.font_name && a.font_params.font_size == b.font_params.font_size &&
      same_color(a.font_params.font_color, b.font_params.font_color) && a.set_bg_clr == b.set_bg_clr &&
      same_color(a.text_bg_clr, b.text_bg_clr);
}

template <typename T, typename Check>
Status each(const T *items, size_t count, const char *leaf, Check check) {
  static const auto display = root("NvDsDisplayMeta");
  for (size_t i = 0; i < count; ++i)
    DSNODE_RETURN_IF_ERROR(check(items[i], names::item(display, leaf, i)));
  return Status::Ok();
}

const char *const kTypeForm = "a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -)";

}  // namespace

Status validate_color(const ColorParams &value, const char *field) {
  return check_color_params(value, nullptr, root(field));
}

Status validate_frame(const FrameFields &frame) {
  return validate_frame_record(frame, nullptr);
}

Status validate_object(const ObjectFields &object, const ObjectFields *before) {
  DSNODE_RETURN_IF_ERROR(validate_object_record(object, before));
  const auto name = root("NvDsObjectMeta");
  if (before == nullptr || !same_text(object.text_params, before->text_params))
    DSNODE_RETURN_IF_ERROR(text(object.text_params, member(name, "text_params")));
  DSNODE_RETURN_IF_ERROR(terminated(object.obj_label, member(name, "obj_label")));
  const MaskParams &mask = object.mask_params;
  const auto mask_name = member(name, "mask_params");
  DSNODE_RETURN_IF_ERROR(finite(mask.threshold, member(mask_name, "threshold")));
  const uint64_t cells = static_cast<uint64_t>(mask.width) * mask.height;
  if (mask.data.size() != cells)
    return expected(std::to_string(cells) + " values (width " + std::to_string(mask.width) +
        " x height " + std::to_string(mask.height) + ")", member(mask_name, "data"),
        std::to_string(mask.data.size()) + " values");
  return Status::Ok();
}

Status validate_classifier(const ClassifierFields &classifier) {
  return check_classifier_fields(classifier);
}

Status validate_label_info(const LabelInfoFields &label) {
  return check_label_info_fields(label);
}

Status validate_display(const DisplayFields &display) {
  const struct { uint32_t count; const char *field; } counts[] = {
    {display.num_rects, "NvDsDisplayMeta.num_rects"}, {display.num_labels, "NvDsDisplayMeta.num_labels"},
    {display.num_lines, "NvDsDisplayMeta.num_lines"}, {display.num_arrows, "NvDsDisplayMeta.num_arrows"},
    {display.num_circles, "NvDsDisplayMeta.num_circles"},
  };
  for (const auto &count : counts) {
    if (count.count > kMaxElementsInDisplayMeta)
      return expected("at most " + std::to_string(kMaxElementsInDisplayMeta), root(count.field),
          std::to_string(count.count));
  }
  auto rects = [](const RectParams &v, const auto &n) { return check_rect_params(v, nullptr, n); };
  auto texts = [](const TextParams &v, const auto &n) { return text(v, n); };
  auto lines = [](const LineParams &v, const auto &n) { return check_line_params(v, nullptr, n); };
  auto arrows = [](const ArrowParams &v, const auto &n) { return check_arrow_params(v, nullptr, n); };
  auto circles = [](const CircleParams &v, const auto &n) { return check_circle_params(v, nullptr, n); };
  DSNODE_RETURN_IF_ERROR(each(display.rect_params, display.num_rects, "rect_params", rects));
  DSNODE_RETURN_IF_ERROR(each(display.text_params, display.num_labels, "text_params", texts));
  DSNODE_RETURN_IF_ERROR(each(display.line_params, display.num_lines, "line_params", lines));
  DSNODE_RETURN_IF_ERROR(each(display.arrow_params, display.num_arrows, "arrow_params", arrows));
  return each(display.circle_params, display.num_circles, "circle_params", circles);
}

// Indices in messages are those of the logical display meta the user wrote, not of a link.
Status validate_display_content(const DisplayContent &content) {
  auto rects = [](const RectParams &v, const auto &n) { return check_rect_params(v, nullptr, n); };
  auto texts = [](const TextParams &v, const auto &n) { return text(v, n); };
  auto lines = [](const LineParams &v, const auto &n) { return check_line_params(v, nullptr, n); };
  auto arrows = [](const ArrowParams &v, const auto &n) { return check_arrow_params(v, nullptr, n); };
  auto circles = [](const CircleParams &v, const auto &n) { return check_circle_params(v, nullptr, n); };
  DSNODE_RETURN_IF_ERROR(each(content.rects.data(), content.rects.size(), "rect_params", rects));
  DSNODE_RETURN_IF_ERROR(each(content.texts.data(), content.texts.size(), "text_params", texts));
  DSNODE_RETURN_IF_ERROR(each(content.lines.data(), content.lines.size(), "line_params", lines));
  DSNODE_RETURN_IF_ERROR(each(content.arrows.data(), content.arrows.size(), "arrow_params", arrows));
  return each(content.circles.data(), content.circles.size(), "circle_params", circles);
}

Status validate_user_meta_type(std::string_view type, const std::string &field) {
  const auto name = [&field] { return field; };
  if (type.size() >= kMaxUserMetaTypeSize)
    return expected("at most " + std::to_string(kMaxUserMetaTypeSize - 1) + " bytes", name,
        std::to_string(type.size()) + " bytes");
  const std::string shown = "\"" + std::string(type) + "\"";
  size_t parts = 1, part_length = 0;
  bool empty_part = false;
  for (char c : type) {
    if (c == '.') {
      empty_part = empty_part || part_length == 0;
      part_length = 0;
      ++parts;
      continue;
    }
    const bool allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
        c == '_' || c == '-';
    if (!allowed)
      return expected(kTypeForm, name, shown);
    ++part_length;
  }
  if (parts < 3 || empty_part || part_length == 0)
    return expected(kTypeForm, name, shown);
  return Status::Ok();
}

// How messages name a user meta kind that cannot be written.
static const char *read_only_kind_name(PayloadKind kind) {
  switch (kind) {
    case PayloadKind::kTensorOutput: return "tensor output";
    case PayloadKind::kAnalyticsFrame: return "nvdsanalytics frame";
    case PayloadKind::kAnalyticsObject: return "nvdsanalytics object";
    case PayloadKind::kSegmentation: return "segmentation";
    case PayloadKind::kForeign: return "foreign";
    default: return "component";
  }
}

Status validate_user_meta(const UserMetaFields &user) {
  if (user.kind != PayloadKind::kBytes && user.kind != PayloadKind::kJson)
    return Status::State(std::string("Expected a bytes or JSON payload for NvDsUserMeta.user_meta_data "
        "but received a read-only ") + read_only_kind_name(user.kind) + " meta");
  return validate_user_meta_type(user.meta_type, "NvDsUserMeta.meta_type");
}

Status copy_bounded(char (&destination)[kMaxLabelSize], std::string_view value, const char *field) {
  if (value.size() >= kMaxLabelSize)
    return expected("at most " + std::to_string(kMaxLabelSize - 1) + " bytes (UTF-8)", root(field),
        std::to_string(value.size()) + " bytes");
  const size_t nul = value.find('\0');
  if (nul != std::string_view::npos)
    return expected("a string without NUL characters", root(field), "a NUL at byte " + std::to_string(nul));
  std::memcpy(destination, value.data(), value.size());
  std::memset(destination + value.size(), 0, kMaxLabelSize - value.size());
  return Status::Ok();
}

Status set_result_label(LabelInfoFields *label, std::string_view value, const char *field) {
  Status status = copy_bounded(label->result_label, value, field);
  if (status.ok()) label->long_label.clear();  // an upstream pResult_label goes with the label it held
  return status;
}

std::string_view result_label(const LabelInfoFields &label) {
  if (!label.long_label.empty()) return label.long_label;
  return std::string_view(label.result_label, strnlen(label.result_label, kMaxLabelSize));
}

Status checked_integer(double value, double minimum, double maximum, const char *field, int64_t *out) {
  if (!std::isfinite(value) || std::trunc(value) != value || value < minimum || value > maximum)
    return expected("an integer from " + describe_number(minimum) + " to " + describe_number(maximum),
        root(field), describe_number(value));
  *out = static_cast<int64_t>(value);
  return Status::Ok();
}

size_t tensor_element_size(TensorDataType type) {
  switch (type) {
    case TensorDataType::kFloat: return 4;
    case TensorDataType::kHalf: return 2;
    case TensorDataType::kInt8: return 1;
    case TensorDataType::kInt32: return 4;
    case TensorDataType::kInt64: return 8;
    case TensorDataType::kUint8: return 1;
  }
  return 0;
}

Status validate_tensor_output(const TensorOutput &output, const std::vector<std::vector<uint8_t>> &bytes) {
  if (bytes.size() != output.layers.size())
    return Status::Invalid("Expected " + std::to_string(output.layers.size()) +
        " layer buffers for NvDsInferTensorMeta.out_buf_ptrs_host but received " + std::to_string(bytes.size()));
  for (size_t i = 0; i < output.layers.size(); ++i) {
    const TensorLayer &layer = output.layers[i];
    const size_t needed = static_cast<size_t>(layer.num_elements) * tensor_element_size(layer.data_type);
    if (layer.num_dims > kMaxTensorDims || bytes[i].size() != needed)
      return Status::Invalid("Expected " + std::to_string(needed) + " bytes for NvDsInferTensorMeta"
          ".out_buf_ptrs_host[" + std::to_string(i) + "] but received " + std::to_string(bytes[i].size()));
  }
  return Status::Ok();
}

}  // namespace dsnode::meta
