// Checks of a segmentation meta before either backend attaches it (segmentation_meta.h).
#include "meta/segmentation_meta.h"

#include <cmath>
#include <string>

namespace dsnode::meta {

namespace {

Status expected(const std::string &what, const std::string &member, const std::string &received) {
  return Status::Invalid("Expected " + what + " for NvDsInferSegmentationMeta." + member + " but received " + received);
}

}  // namespace

Status validate_segmentation(const Segmentation &value) {
  if (value.classes == 0) return expected("at least 1 class", "classes", "0");
  if (value.width == 0 || value.height == 0)
    return expected("a class map of at least 1 x 1", "width", std::to_string(value.width) + " x " + std::to_string(value.height));
  const size_t pixels = static_cast<size_t>(value.width) * value.height;
  if (value.class_map.size() != pixels)
    return expected(std::to_string(pixels) + " entries (width x height)", "class_map",
        std::to_string(value.class_map.size()));
  for (size_t i = 0; i < pixels; ++i) {
    const int32_t id = value.class_map[i];
    if (id < -1 || id >= static_cast<int64_t>(value.classes))
      return expected("a class id in [-1, " + std::to_string(value.classes - 1) + "]",
          "class_map[" + std::to_string(i) + "]", std::to_string(id));
  }
  const size_t probabilities = pixels * value.classes;
  if (!value.class_probabilities_map.empty() && value.class_probabilities_map.size() != probabilities)
    return expected(std::to_string(probabilities) + " entries (classes x width x height) or none",
        "class_probabilities_map", std::to_string(value.class_probabilities_map.size()));
  for (size_t i = 0; i < value.class_probabilities_map.size(); ++i) {
    if (!std::isfinite(value.class_probabilities_map[i]))
      return expected("a finite number", "class_probabilities_map[" + std::to_string(i) + "]",
          std::to_string(value.class_probabilities_map[i]));
  }
  return Status::Ok();
}

}  // namespace dsnode::meta
