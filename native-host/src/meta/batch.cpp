#include "meta/batch.h"

#include <algorithm>
#include <cmath>

#include "meta/validate.h"

namespace dsnode::meta {

namespace {

// Number of physical metas a logical one needs: the largest kind decides.
size_t chain_length(const DisplayContent &content) {
  const size_t largest = std::max({content.rects.size(), content.texts.size(), content.lines.size(),
      content.arrows.size(), content.circles.size()});
  return std::max<size_t>(1, (largest + kMaxElementsInDisplayMeta - 1) / kMaxElementsInDisplayMeta);
}

template <typename T>
uint32_t fill_slice(const std::vector<T> &source, size_t link, T (&destination)[kMaxElementsInDisplayMeta]) {
  const size_t begin = link * kMaxElementsInDisplayMeta;
  if (begin >= source.size())
    return 0;
  const size_t count = std::min(kMaxElementsInDisplayMeta, source.size() - begin);
  std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(begin), count, destination);
  return static_cast<uint32_t>(count);
}

}  // namespace

const ListedKindNames &names_of(ListedKind kind) {
  static const ListedKindNames kNames[] = {
      {"ObjectMeta", "an ObjectMeta", "frame", "addObjectMeta", "removeObjectMeta"},
      {"ClassifierMeta", "a ClassifierMeta", "object", "addClassifierMeta", "removeClassifierMeta"},
      {"LabelInfo", "a LabelInfo", "classifier", "addLabelInfo", "removeLabelInfo"},
      {"DisplayMeta", "a DisplayMeta", "frame", "addDisplayMeta", "removeDisplayMeta"},
  };
  return kNames[static_cast<size_t>(kind)];
}

Status not_newly_acquired(const char *meta, const char *operation, const char *received) {
  return Status::State(std::string("Expected a newly acquired ") + meta + " for " + operation + " but received " +
      received);
}

Status not_in(const char *a_meta, const char *parent, const char *operation) {
  return Status::State(std::string("Expected ") + a_meta + " of this " + parent + " for " + operation +
      " but received one that is not in it");
}

TextParams nvinfer_text_params() {
  TextParams text;
  text.font_params.font_name = kNvinferFontName;
  text.font_params.font_size = kNvinferFontSize;
  text.font_params.font_color = kNvinferFontColor;
  text.set_bg_clr = kNvinferSetBgColor;
  text.text_bg_clr = kNvinferTextBgColor;
  return text;
}

void place_label(const RectParams &rect, TextParams *text) {
  // In double, as the SDK derives a label's place (labelOffsets): top - 10 in float would round
  // where the box's top is past 2^24.
  const auto offset = [](double value) {
    return value > 0 ? static_cast<uint32_t>(std::min(value, 4294967295.0)) : 0u;
  };
  text->x_offset = offset(rect.left);
  text->y_offset = offset(static_cast<double>(rect.top) - kNvinferTextAbove);
}

Status Batch::add_display_content(FrameHandle frame, const DisplayContent &content,
    std::vector<DisplayHandle> *created) {
  Status status = validate_display_content(content);
  if (!status.ok())
    return status;
  const size_t links = chain_length(content);
  // One DisplayFields is ~10 KB: one scratch copy, reused for every link.
  DisplayFields fields;
  for (size_t link = 0; link < links; ++link) {
    DisplayHandle display = acquire_display();
    fields = DisplayFields();
    fields.num_rects = fill_slice(content.rects, link, fields.rect_params);
    fields.num_labels = fill_slice(content.texts, link, fields.text_params);
    fields.num_lines = fill_slice(content.lines, link, fields.line_params);
    fields.num_arrows = fill_slice(content.arrows, link, fields.arrow_params);
    fields.num_circles = fill_slice(content.circles, link, fields.circle_params);
    if (!(status = write_display(display, fields)).ok() || !(status = add_display(frame, display)).ok())
      return status;  // cannot happen after validation; the un-added meta returns at end_call
    if (created != nullptr)
      created->push_back(display);
  }
  return Status::Ok();
}

Status Batch::add_objects(FrameHandle frame, const ObjectColumns &columns,
    std::vector<ObjectHandle> *created) {
  if (columns.count > 0 && (columns.left == nullptr || columns.top == nullptr ||
      columns.width == nullptr || columns.height == nullptr))
    return Status::Invalid("Expected left, top, width and height columns for add_objects but "
        "received a missing column");
  // Validate every row before touching the batch, so an error adds nothing.
  ObjectFields fields;
  fields.unique_component_id = columns.unique_component_id;
  fields.rect_params.border_width = columns.border_width;
  fields.rect_params.border_color = columns.border_color;
  Status status = validate_color(columns.border_color, "NvDsObjectMeta.rect_params.border_color");
  if (status.ok() && columns.label_text) {
    ObjectFields with_text;
    with_text.text_params = columns.text;
    status = validate_object(with_text);
  }
  if (!status.ok())
    return status;
  for (size_t row = 0; row < columns.count; ++row) {
    auto at = [row] { return "[" + std::to_string(row) + "]"; };  // built only for a message
    const float values[] = {columns.left[row], columns.top[row]};
    const char *names[] = {"left", "top"};
    for (int i = 0; i < 2; ++i) {
      if (!std::isfinite(values[i]))
        return Status::Invalid("Expected a finite number for NvDsObjectMeta" + at() + ".rect_params." +
            names[i] + " but received " + describe_number(values[i]));
    }
    const float sizes[] = {columns.width[row], columns.height[row]};
    const char *size_names[] = {"width", "height"};
    for (int i = 0; i < 2; ++i) {
      if (!(std::isfinite(sizes[i]) && sizes[i] >= 0))
        return Status::Invalid("Expected a finite number >= 0 for NvDsObjectMeta" + at() + ".rect_params." +
            size_names[i] + " but received " + describe_number(sizes[i]));
    }
    if (columns.confidence != nullptr) {
      const float value = columns.confidence[row];
      if (!(value == kNoConfidence || (std::isfinite(value) && value >= 0 && value <= 1)))
        return Status::Invalid("Expected a number from 0 to 1 (or -0.1 for none) for NvDsObjectMeta" + at() +
            ".confidence but received " + describe_number(value));
    }
  }
  if (columns.labels_by_class != nullptr) {
    for (size_t i = 0; i < columns.labels_by_class->size(); ++i) {
      char scratch[kMaxLabelSize];
      const std::string field = "labels[" + std::to_string(i) + "]";
      if (!(status = copy_bounded(scratch, (*columns.labels_by_class)[i], field.c_str())).ok())
        return status;
    }
  }
  if (created != nullptr)
    created->reserve(created->size() + columns.count);
  for (size_t row = 0; row < columns.count; ++row) {
    RectParams &rect = fields.rect_params;
    rect.left = columns.left[row];
    rect.top = columns.top[row];
    rect.width = columns.width[row];
    rect.height = columns.height[row];
    fields.detector_bbox_info = {rect.left, rect.top, rect.width, rect.height};
    fields.confidence = columns.confidence != nullptr ? columns.confidence[row] : 0.0f;
    fields.class_id = columns.class_id != nullptr ? columns.class_id[row] : 0;
    fields.obj_label[0] = '\0';
    if (columns.labels_by_class != nullptr && fields.class_id >= 0 &&
        static_cast<size_t>(fields.class_id) < columns.labels_by_class->size())
      copy_bounded(fields.obj_label, (*columns.labels_by_class)[static_cast<size_t>(fields.class_id)], "obj_label");
    if (columns.label_text) {
      // nvinfer: display_text = g_strdup(label), above the box (gstnvinfer_meta_utils.cpp:194-197).
      fields.text_params = columns.text;
      fields.text_params.display_text = fields.obj_label;
      place_label(rect, &fields.text_params);
    }
    ObjectHandle object = acquire_object();
    if (!(status = write_object(object, fields)).ok() ||
        !(status = add_object(frame, object, ObjectHandle{})).ok())
      return status;
    if (created != nullptr)
      created->push_back(object);
  }
  return Status::Ok();
}

}  // namespace dsnode::meta
