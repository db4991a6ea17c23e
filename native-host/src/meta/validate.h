// Validation of metadata values, shared by both backends. Every message has one shape,
// "Expected <what> for <field> but received <value>", and names the field by its DeepStream
// path (e.g. NvDsObjectMeta.rect_params.width) so a log line points at the struct member.
// TypeScript validates first and names its own members; this is the native defence.
// The success path builds no strings: names are produced only when a check fails, so
// validating an object costs tens of nanoseconds (the bulk path validates every row).
#ifndef DSNODE_META_VALIDATE_H
#define DSNODE_META_VALIDATE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "meta/batch.h"
#include "meta/model.h"

namespace dsnode::meta {

Status validate_frame(const FrameFields &frame);
// `before`: what the meta held before this write (null for a fresh object): members equal to it
// are upstream's, kept as they are; only what differs (what the user wrote) is checked.
Status validate_object(const ObjectFields &object, const ObjectFields *before = nullptr);
Status validate_classifier(const ClassifierFields &classifier);
Status validate_label_info(const LabelInfoFields &label);
Status validate_display(const DisplayFields &display);
Status validate_display_content(const DisplayContent &content);
Status validate_user_meta(const UserMetaFields &user);
// One host buffer per layer, each num_elements × the element size of its data type (what the
// testing harness attaches as an nvinfer-shaped tensor output).
Status validate_tensor_output(const TensorOutput &output, const std::vector<std::vector<uint8_t>> &bytes);

// `field` names the value in messages (e.g. "NvDsObjectMeta.rect_params.border_color").
Status validate_color(const ColorParams &color, const char *field);

// "ORG.COMP.DESC": three or more dot-separated parts of [A-Za-z0-9_-], at most 127 bytes.
Status validate_user_meta_type(std::string_view type, const std::string &field);

// Copies `value` into a DeepStream fixed-size string (MAX_LABEL_SIZE bytes incl. the NUL).
// Too long a value is an error, never truncated.
Status copy_bounded(char (&destination)[kMaxLabelSize], std::string_view value, const char *field);

// A label info's result label, into result_label (at most 127 bytes, no NUL; longer is an error,
// never cut). pResult_label is never written: nvinfer writes none (it copies labels into
// result_label, gstnvinfer_meta_utils.cpp:317) and deepstream-app copies pResult_label into 128
// bytes (deepstream_app.c ~1336-1364). Clears long_label (an upstream pResult_label).
Status set_result_label(LabelInfoFields *label, std::string_view value, const char *field);
// What a reader of the label info sees: pResult_label when set, else result_label.
std::string_view result_label(const LabelInfoFields &label);

// A JS number to an integer field: integral, finite and within [minimum, maximum].
Status checked_integer(double value, double minimum, double maximum, const char *field, int64_t *out);

// Formats a number the way messages show it (NaN, Infinity, 1.5, -3).
std::string describe_number(double value);

// Messages naming a field lazily: `field` is a callable returning the name, called only when
// a check fails, so checking 10 000 objects builds no string. Used by validate.cpp and the
// overlay's own checks (osd/overlay.cpp).
namespace names {

template <typename Name>
Status expected(const std::string &what, const Name &field, const std::string &received) {
  return Status::Invalid("Expected " + what + " for " + field() + " but received " + received);
}

// "<parent>.<leaf>"
template <typename Name>
auto member(const Name &parent, const char *leaf) {
  return [&parent, leaf] { return parent() + "." + leaf; };
}

// "<parent>.<list>[<index>]"
template <typename Name>
auto item(const Name &parent, const char *list, size_t index) {
  return [&parent, list, index] { return parent() + "." + list + "[" + std::to_string(index) + "]"; };
}

}  // namespace names

}  // namespace dsnode::meta

#endif
