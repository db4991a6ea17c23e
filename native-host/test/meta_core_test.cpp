// The metadata core (src/meta/) on its own: the portable backend through the Batch interface,
// its GstMeta on real GstBuffers, validation texts. Prints "N passed, M failed".
#include <gst/gst.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "meta/batch.h"
#include "meta/portable_backend.h"
#include "check.h"
#include "meta/portable_gst_meta.h"
#include "meta/validate.h"

using namespace dsnode::meta;

namespace {

using dsnode_test::check;
using dsnode_test::failed;
using dsnode_test::passed;

void check_error(const Status &status, const std::string &expected_message, const std::string &name) {
  check(!status.ok() && status.message == expected_message, name,
      status.ok() ? "succeeded" : "message: " + status.message);
}

ColorParams color(double r, double g, double b, double a) { return {r, g, b, a}; }
bool same(const ColorParams &a, const ColorParams &b) {
  return a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha;
}
bool same(const BboxCoords &a, const BboxCoords &b) {
  return a.left == b.left && a.top == b.top && a.width == b.width && a.height == b.height;
}
bool same(const RectParams &a, const RectParams &b) {
  return a.left == b.left && a.top == b.top && a.width == b.width && a.height == b.height &&
      a.border_width == b.border_width && same(a.border_color, b.border_color) && a.has_bg_color == b.has_bg_color &&
      a.reserved == b.reserved && same(a.bg_color, b.bg_color) && a.has_color_info == b.has_color_info &&
      a.color_id == b.color_id && a.rotation_angle == b.rotation_angle;
}
bool same(const TextParams &a, const TextParams &b) {
  return a.display_text == b.display_text && a.x_offset == b.x_offset && a.y_offset == b.y_offset &&
      a.font_params.font_name == b.font_params.font_name && a.font_params.font_size == b.font_params.font_size &&
      same(a.font_params.font_color, b.font_params.font_color) && a.set_bg_clr == b.set_bg_clr &&
      same(a.text_bg_clr, b.text_bg_clr);
}
bool same(const LineParams &a, const LineParams &b) {
  return a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2 && a.line_width == b.line_width &&
      same(a.line_color, b.line_color);
}
bool same(const ArrowParams &a, const ArrowParams &b) {
  return a.x1 == b.x1 && a.y1 == b.y1 && a.x2 == b.x2 && a.y2 == b.y2 && a.arrow_width == b.arrow_width &&
      a.arrow_head == b.arrow_head && same(a.arrow_color, b.arrow_color) && a.reserved == b.reserved;
}
bool same(const CircleParams &a, const CircleParams &b) {
  return a.xc == b.xc && a.yc == b.yc && a.radius == b.radius && same(a.circle_color, b.circle_color) &&
      a.has_bg_color == b.has_bg_color && same(a.bg_color, b.bg_color) && a.circle_width == b.circle_width &&
      a.reserved == b.reserved;
}
bool same(const ObjectFields &a, const ObjectFields &b) {
  return a.unique_component_id == b.unique_component_id && a.class_id == b.class_id && a.object_id == b.object_id &&
      same(a.detector_bbox_info, b.detector_bbox_info) && same(a.tracker_bbox_info, b.tracker_bbox_info) &&
      a.confidence == b.confidence && a.tracker_confidence == b.tracker_confidence &&
      same(a.rect_params, b.rect_params) && a.mask_params.data == b.mask_params.data &&
      a.mask_params.threshold == b.mask_params.threshold && a.mask_params.width == b.mask_params.width &&
      a.mask_params.height == b.mask_params.height && same(a.text_params, b.text_params) &&
      std::strcmp(a.obj_label, b.obj_label) == 0 && std::memcmp(a.misc_obj_info, b.misc_obj_info, sizeof a.misc_obj_info) == 0;
}
bool same(const FrameFields &a, const FrameFields &b) {
  return a.pad_index == b.pad_index && a.batch_id == b.batch_id && a.frame_num == b.frame_num && a.buf_pts == b.buf_pts &&
      a.ntp_timestamp == b.ntp_timestamp && a.source_id == b.source_id &&
      a.num_surfaces_per_frame == b.num_surfaces_per_frame && a.source_frame_width == b.source_frame_width &&
      a.source_frame_height == b.source_frame_height && a.surface_type == b.surface_type &&
      a.surface_index == b.surface_index && a.bInferDone == b.bInferDone && a.pipeline_width == b.pipeline_width &&
      a.pipeline_height == b.pipeline_height &&
      std::memcmp(a.misc_frame_info, b.misc_frame_info, sizeof a.misc_frame_info) == 0;
}

FrameFields sample_frame(uint32_t batch_id) {
  FrameFields frame;
  frame.pad_index = 3;
  frame.batch_id = batch_id;
  frame.frame_num = 41;
  frame.buf_pts = 1'000'000'000ull;
  frame.ntp_timestamp = 1'700'000'000'000'000'000ull;
  frame.source_id = 7;
  frame.num_surfaces_per_frame = 2;
  frame.source_frame_width = 1920;
  frame.source_frame_height = 1080;
  frame.surface_type = 1;
  frame.surface_index = 1;
  frame.bInferDone = 1;
  frame.pipeline_width = 1280;
  frame.pipeline_height = 720;
  frame.misc_frame_info[0] = -5;
  frame.misc_frame_info[3] = 1ll << 40;
  return frame;
}

TextParams sample_text(const std::string &text) {
  TextParams value;
  value.display_text = text;
  value.x_offset = 10;
  value.y_offset = 20;
  value.font_params.font_name = "Serif";
  value.font_params.font_size = 12;
  value.font_params.font_color = color(1, 1, 1, 1);
  value.set_bg_clr = 1;
  value.text_bg_clr = color(0, 0, 0, 0.5);
  return value;
}

RectParams sample_rect(float left) {
  RectParams rect;
  rect.left = left;
  rect.top = 20.5f;
  rect.width = 100;
  rect.height = 50.25f;
  rect.border_width = 3;
  rect.border_color = color(1, 0, 0, 1);
  rect.has_bg_color = 1;
  rect.reserved = 9;
  rect.bg_color = color(0, 0.5, 0, 0.25);
  rect.has_color_info = 1;
  rect.color_id = 4;
  rect.rotation_angle = 12.5f;
  return rect;
}

ObjectFields sample_object() {
  ObjectFields object;
  object.unique_component_id = 2;
  object.class_id = 5;
  object.object_id = 123456789012ull;
  object.detector_bbox_info = {1, 2, 3, 4};
  object.tracker_bbox_info = {5, 6, 7, 8};
  object.confidence = 0.875f;
  object.tracker_confidence = 0.5f;
  object.rect_params = sample_rect(10.25f);
  object.mask_params.data = {0.1f, 0.9f, 0.5f, 0.0f, 1.0f, 0.25f};
  object.mask_params.threshold = 0.5f;
  object.mask_params.width = 3;
  object.mask_params.height = 2;
  object.text_params = sample_text("car 0.88");
  copy_bounded(object.obj_label, "car", "obj_label");
  object.misc_obj_info[1] = 77;
  return object;
}

// A buffer carrying a portable batch with `frames` frames.
GstBuffer *make_buffer(PortableBatchMeta **out, uint32_t frames = 2) {
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, 64, nullptr);
  PortableBatchMeta *batch = attach_portable_batch(buffer, 4);
  for (uint32_t i = 0; i < frames; ++i) batch->add_frame(sample_frame(i));
  *out = batch;
  return buffer;
}

void test_round_trips() {
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data);
  PortableBackend batch(data);
  check(batch.num_frames() == 2 && batch.max_frames_in_batch() == 4, "batch counts frames and max_frames_in_batch");
  FrameHandle frame = batch.frame_at(1);
  check(!batch.frame_at(2), "frame_at past the end is null");
  FrameFields frame_read;
  batch.read_frame(frame, &frame_read);
  check(same(frame_read, sample_frame(1)), "every frame field round-trips");
  FrameFields changed = sample_frame(1);
  changed.bInferDone = 0;
  changed.misc_frame_info[2] = 99;
  check(batch.write_frame(frame, changed).ok(), "write_frame accepts valid values");
  batch.read_frame(frame, &frame_read);
  check(same(frame_read, changed), "written frame fields read back");

  ObjectHandle object = batch.acquire_object();
  ObjectFields written = sample_object();
  Status status = batch.write_object(object, written);
  check(status.ok(), "write_object accepts a full object", status.message);
  check(batch.add_object(frame, object, {}).ok(), "add_object");
  ObjectFields read;
  batch.read_object(object, &read);
  check(same(read, written), "every object field round-trips (rect, colours, rotation, bboxes, mask, text, label, misc)");
  std::vector<ObjectHandle> objects;
  batch.objects(frame, &objects);
  check(objects.size() == 1 && objects[0] == object && batch.num_objects(frame) == 1, "object listed in its frame");

  ObjectHandle child = batch.acquire_object();
  check(batch.add_object(frame, child, object).ok() && batch.parent_of(child) == object, "parent round-trips");

  ClassifierHandle classifier = batch.acquire_classifier();
  ClassifierFields classifier_fields;
  classifier_fields.num_labels = 2;
  classifier_fields.unique_component_id = 3;
  classifier_fields.classifier_type = "vehicletype";
  check(batch.write_classifier(classifier, classifier_fields).ok() && batch.add_classifier(object, classifier).ok(),
      "classifier written and added");
  LabelInfoFields label_fields;
  label_fields.num_classes = 6;
  copy_bounded(label_fields.result_label, "sedan", "result_label");
  label_fields.result_class_id = 4;
  label_fields.label_id = 1;
  label_fields.result_prob = 0.625f;
  LabelInfoHandle label = batch.acquire_label_info();
  check(batch.write_label_info(label, label_fields).ok() && batch.add_label_info(classifier, label).ok(),
      "label info written and added");
  std::vector<ClassifierHandle> classifiers;
  batch.classifiers(object, &classifiers);
  ClassifierFields classifier_read;
  batch.read_classifier(classifiers.at(0), &classifier_read);
  check(classifier_read.num_labels == 2 && classifier_read.unique_component_id == 3 &&
      classifier_read.classifier_type == "vehicletype", "every classifier field round-trips");
  std::vector<LabelInfoHandle> labels;
  batch.label_infos(classifier, &labels);
  LabelInfoFields label_read;
  batch.read_label_info(labels.at(0), &label_read);
  check(labels.size() == 1 && label_read.num_classes == 6 && std::strcmp(label_read.result_label, "sedan") == 0 &&
      label_read.result_class_id == 4 && label_read.label_id == 1 && label_read.result_prob == 0.625f,
      "every label info field round-trips");

  DisplayHandle display = batch.acquire_display();
  DisplayFields display_fields;
  display_fields.num_rects = 1;
  display_fields.rect_params[0] = sample_rect(1);
  display_fields.num_labels = 1;
  display_fields.text_params[0] = sample_text("count: 3");
  display_fields.num_lines = 1;
  display_fields.line_params[0] = {1, 2, 3, 4, 5, color(0, 1, 0, 1)};
  display_fields.num_arrows = 1;
  display_fields.arrow_params[0] = {6, 7, 8, 9, 2, ArrowHead::kBoth, color(0, 0, 1, 1), 0};
  display_fields.num_circles = 1;
  display_fields.circle_params[0] = {50, 60, 70, color(1, 1, 0, 1), 1, color(0, 0, 0, 0.5), 2, 0};
  display_fields.misc_osd_data[0] = 8;
  check(batch.write_display(display, display_fields).ok() && batch.add_display(frame, display).ok(),
      "display meta written and added");
  DisplayFields display_read;
  batch.read_display(display, &display_read);
  check(display_read.num_rects == 1 && same(display_read.rect_params[0], display_fields.rect_params[0]) &&
      display_read.num_labels == 1 && same(display_read.text_params[0], display_fields.text_params[0]) &&
      display_read.num_lines == 1 && same(display_read.line_params[0], display_fields.line_params[0]) &&
      display_read.num_arrows == 1 && same(display_read.arrow_params[0], display_fields.arrow_params[0]) &&
      display_read.num_circles == 1 && same(display_read.circle_params[0], display_fields.circle_params[0]) &&
      display_read.misc_osd_data[0] == 8, "every display field round-trips (rects, texts, lines, arrows, circles)");

  const UserMetaLevel levels[] = {UserMetaLevel::kBatch, UserMetaLevel::kFrame, UserMetaLevel::kObject};
  void *owners[] = {nullptr, frame.ptr, object.ptr};
  for (int i = 0; i < 3; ++i) {
    UserHandle user = batch.acquire_user_meta();
    UserMetaFields fields;
    fields.meta_type = "ACME.COUNTER.STATS";
    fields.kind = i == 1 ? PayloadKind::kBytes : PayloadKind::kJson;
    const std::string json = "{\"level\":" + std::to_string(i) + "}";
    fields.payload = i == 1 ? std::vector<uint8_t>{0, 1, 2, 255} : std::vector<uint8_t>(json.begin(), json.end());
    check(batch.write_user_meta(user, fields).ok() && batch.add_user_meta(levels[i], owners[i], user).ok(),
        "user meta added at level " + std::to_string(i));
    std::vector<UserHandle> users;
    batch.user_metas(levels[i], owners[i], &users);
    UserMetaFields read_user;
    batch.read_user_meta(users.at(0), &read_user);
    check(users.size() == 1 && read_user.meta_type == fields.meta_type && read_user.kind == fields.kind &&
        read_user.payload == fields.payload && read_user.meta_type_id >= kMetaTypeStartUser,
        "user meta type, kind and payload round-trip at level " + std::to_string(i));
  }

  TensorOutput output;
  output.unique_id = 1;
  output.network_width = 640;
  output.network_height = 640;
  output.network_channels = 3;
  output.maintain_aspect_ratio = true;
  TensorLayer layer;
  layer.layer_name = "output0";
  layer.data_type = TensorDataType::kFloat;
  layer.num_dims = 2;
  layer.dims[0] = 2;
  layer.dims[1] = 3;
  layer.num_elements = 6;
  output.layers.push_back(layer);
  std::vector<uint8_t> bytes(24);
  const float values[6] = {1, 2, 3, 4, 5, 6};
  std::memcpy(bytes.data(), values, 24);
  UserHandle tensor_user;
  check(batch.add_tensor_output(UserMetaLevel::kFrame, frame.ptr, output, {bytes}, &tensor_user).ok(),
      "tensor output attached");
  TensorOutput tensor_read;
  check(batch.read_tensor_output(tensor_user, &tensor_read) && tensor_read.layers.size() == 1 &&
      tensor_read.layers[0].layer_name == "output0" && tensor_read.layers[0].num_elements == 6 &&
      static_cast<const float *>(tensor_read.layers[0].host_buffer)[5] == 6.0f && tensor_read.network_width == 640 &&
      tensor_read.maintain_aspect_ratio, "tensor output reads back (layers, dims, host data, network info)");
  UserMetaFields tensor_fields;
  batch.read_user_meta(tensor_user, &tensor_fields);
  check(tensor_fields.kind == PayloadKind::kTensorOutput && tensor_fields.meta_type_id == kMetaTypeTensorOutput,
      "tensor output meta says NVDSINFER_TENSOR_OUTPUT_META");
  UserMetaFields overwrite;
  overwrite.meta_type = "ACME.X.Y";
  check_error(batch.write_user_meta(tensor_user, overwrite),
      "Expected a bytes or JSON payload for NvDsUserMeta.user_meta_data but received a read-only tensor output meta",
      "tensor output meta is read-only");
  batch.end_call();
  gst_buffer_unref(buffer);
}

void test_pools() {
  // A batch of its own: one attached to a buffer may come recycled with warm pools.
  PortableBatchMeta local(1);
  local.add_frame(FrameFields());
  PortableBatchMeta *data = &local;
  {
    PortableBackend batch(data);
    ObjectHandle first = batch.acquire_object();
    batch.acquire_classifier();
    batch.acquire_display();
    batch.acquire_user_meta();
    batch.acquire_label_info();
    batch.end_call();
    check(data->object_pool.free_count() == 1 && data->classifier_pool.free_count() == 1 &&
        data->display_pool.free_count() == 1 && data->user_pool.free_count() == 1 &&
        data->label_info_pool.free_count() == 1, "metas acquired but never added return to their pools at end_call");
    ObjectHandle again = batch.acquire_object();
    check(again == first && data->object_pool.allocated() == 1, "the pool hands the same meta out again");
    ObjectFields fields;
    batch.read_object(again, &fields);
    check(fields.obj_label[0] == '\0' && fields.object_id == kUntrackedObjectId && fields.class_id == 0,
        "a reused meta starts from defaults (object_id UNTRACKED_OBJECT_ID)");
    check(batch.add_object(batch.frame_at(0), again, {}).ok(), "add a reused meta");
    batch.end_call();
    check(data->object_pool.free_count() == 0 && batch.num_objects(batch.frame_at(0)) == 1,
        "added metas stay after end_call");
    ObjectHandle un_added = batch.acquire_object();
    ClassifierHandle classifier = batch.acquire_classifier();
    batch.add_classifier(un_added, classifier);
    batch.end_call();
    check(data->object_pool.free_count() == 1 && data->classifier_pool.free_count() == 1,
        "an un-added object returns with the classifiers added to it");
  }
}

void test_recycling() {
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data, 1);
  {
    PortableBackend batch(data);
    for (int i = 0; i < 3; ++i) batch.add_object(batch.frame_at(0), batch.acquire_object(), {});
  }
  PortableBatchMeta *freed = data;
  gst_buffer_unref(buffer);
  buffer = make_buffer(&data, 1);
  {
    PortableBackend batch(data);
    check(data == freed && batch.num_frames() == 1 && batch.num_objects(batch.frame_at(0)) == 0 &&
        data->object_pool.free_count() == 3,
        "a freed buffer's batch is reused empty by the next buffer, with its pools warm");
  }
  gst_buffer_unref(buffer);
}

void test_ten_thousand() {
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data, 1);
  PortableBackend batch(data);
  FrameHandle frame = batch.frame_at(0);
  const size_t n = 10000;
  std::vector<float> left(n), top(n), width(n), height(n), confidence(n);
  std::vector<int32_t> class_id(n);
  for (size_t i = 0; i < n; ++i) {
    left[i] = static_cast<float>(i % 1900);
    top[i] = static_cast<float>(i % 1000);
    width[i] = 20;
    height[i] = 30;
    confidence[i] = static_cast<float>(i % 100) / 100.0f;
    class_id[i] = static_cast<int32_t>(i % 4);
  }
  const std::vector<std::string> labels = {"car", "bicycle", "person", "roadsign"};
  ObjectColumns columns;
  columns.count = n;
  columns.left = left.data();
  columns.top = top.data();
  columns.width = width.data();
  columns.height = height.data();
  columns.confidence = confidence.data();
  columns.class_id = class_id.data();
  columns.unique_component_id = 1;
  columns.labels_by_class = &labels;
  auto start = std::chrono::steady_clock::now();
  Status status = batch.add_objects(frame, columns);
  const double bulk_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  check(status.ok() && batch.num_objects(frame) == n, "add_objects adds 10 000 objects", status.message);
  ObjectFields fields;
  std::vector<ObjectHandle> objects;
  batch.objects(frame, &objects);
  batch.read_object(objects[9999], &fields);
  check(fields.rect_params.left == left[9999] && fields.class_id == 3 && std::strcmp(fields.obj_label, "roadsign") == 0 &&
      fields.confidence == confidence[9999] && fields.unique_component_id == 1, "bulk rows land in their objects");
  // nvinfer's attach_metadata_detector (gstnvinfer_meta_utils.cpp:173-206): box as detector_bbox_info,
  // 3 px red border, the label as text above the box in Serif 11 white on black.
  const TextParams &text = fields.text_params;
  check(fields.object_id == kUntrackedObjectId && fields.detector_bbox_info.left == left[9999] &&
      fields.rect_params.border_width == 3 && fields.rect_params.border_color.red == 1 && fields.rect_params.border_color.alpha == 1 &&
      text.display_text == "roadsign" && text.x_offset == static_cast<uint32_t>(left[9999]) &&
      text.y_offset == static_cast<uint32_t>(std::max(0.0f, top[9999] - 10)) && text.font_params.font_name == "Serif" &&
      text.font_params.font_size == 11 && text.set_bg_clr == 1 && text.text_bg_clr.alpha == 1,
      "bulk objects are what nvinfer's detector writes");
  batch.end_call();

  // Remove them all (back to the pool), then add 10 000 one by one: no new allocation.
  start = std::chrono::steady_clock::now();
  for (size_t i = objects.size(); i-- > 0;) batch.remove_object(frame, objects[i]);
  const double remove_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  check(batch.num_objects(frame) == 0 && data->object_pool.free_count() == n, "10 000 objects removed back to the pool");
  start = std::chrono::steady_clock::now();
  ObjectFields one = sample_object();
  for (size_t i = 0; i < n; ++i) {
    ObjectHandle object = batch.acquire_object();
    one.rect_params.left = static_cast<float>(i);
    batch.write_object(object, one);
    batch.add_object(frame, object, {});
  }
  const double single_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  check(batch.num_objects(frame) == n && data->object_pool.allocated() == n,
      "10 000 objects one by one reuse the pool (no new allocation)");
  start = std::chrono::steady_clock::now();
  GstBuffer *copy = gst_buffer_copy(buffer);
  const double copy_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  check(find_portable_batch(copy)->frame_meta_list[0]->obj_meta_list.size() == n, "a copy carries all 10 000");
  std::printf("# 10 000 objects: bulk add %.0f us, remove %.0f us, one by one (full objects) %.0f us, buffer copy %.0f us\n",
      bulk_us, remove_us, single_us, copy_us);
  for (size_t i = objects.size(); i-- > 0;) batch.remove_object(frame, objects[i]);
  batch.objects(frame, &objects);
  for (size_t i = objects.size(); i-- > 0;) batch.remove_object(frame, objects[i]);
  start = std::chrono::steady_clock::now();
  batch.add_objects(frame, columns);
  const double warm_bulk_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  std::printf("# 10 000 objects: bulk add on a warm pool %.0f us\n", warm_bulk_us);
  check(bulk_us < 100000 && single_us < 200000, "10 000 objects are cheap (bulk < 100 ms, one by one < 200 ms)");
  gst_buffer_unref(copy);
  batch.end_call();
  gst_buffer_unref(buffer);
}

void test_remove() {
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data);
  PortableBackend batch(data);
  FrameHandle frame = batch.frame_at(0), other = batch.frame_at(1);
  ObjectHandle parent = batch.acquire_object(), child = batch.acquire_object(), keep = batch.acquire_object();
  batch.add_object(frame, parent, {});
  batch.add_object(frame, child, parent);
  batch.add_object(frame, keep, {});
  ClassifierHandle classifier = batch.acquire_classifier();
  batch.add_classifier(parent, classifier);
  LabelInfoHandle label = batch.acquire_label_info();
  batch.add_label_info(classifier, label);
  check_error(batch.remove_object(other, parent),
      "Expected an ObjectMeta of this frame for removeObjectMeta but received one that is not in it",
      "removing from the wrong frame is an error");
  check(batch.remove_object(frame, parent).ok(), "remove_object");
  std::vector<ObjectHandle> objects;
  batch.objects(frame, &objects);
  check(objects.size() == 2 && objects[0] == child && objects[1] == keep, "the others keep their order");
  check(!batch.parent_of(child), "a removed parent leaves its children without a parent (not dangling)");
  check(data->object_pool.free_count() == 1 && data->classifier_pool.free_count() == 1 &&
      data->label_info_pool.free_count() == 1, "a removed object returns with its classifiers and labels");
  check_error(batch.remove_object(frame, parent),
      "Expected an ObjectMeta of this frame for removeObjectMeta but received one that is not in it",
      "removing twice is an error");
  check_error(batch.add_object(frame, keep, {}),
      "Expected a newly acquired ObjectMeta for addObjectMeta but received one already added",
      "adding twice is an error");
  ObjectHandle orphan = batch.acquire_object();
  ObjectHandle second = batch.acquire_object();
  check_error(batch.add_object(frame, second, orphan),
      "Expected an ObjectMeta added to a frame for parent but received one acquired but never added",
      "a parent must be added first");
  DisplayHandle display = batch.acquire_display();
  batch.add_display(frame, display);
  check(batch.remove_display(frame, display).ok() && data->display_pool.free_count() == 1, "remove_display");
  UserHandle user = batch.acquire_user_meta();
  UserMetaFields fields;
  fields.meta_type = "ACME.A.B";
  batch.write_user_meta(user, fields);
  batch.add_user_meta(UserMetaLevel::kObject, keep.ptr, user);
  check_error(batch.remove_user_meta(UserMetaLevel::kFrame, frame.ptr, user),
      "Expected a UserMeta of this frame for removeUserMeta but received one that is not in it",
      "removing a user meta from the wrong level is an error");
  check(batch.remove_user_meta(UserMetaLevel::kObject, keep.ptr, user).ok(), "remove_user_meta");
  UserHandle untyped = batch.acquire_user_meta();
  check_error(batch.add_user_meta(UserMetaLevel::kBatch, nullptr, untyped),
      "Expected a UserMeta with a type (ORG.COMPONENT.DESCRIPTION) for addUserMeta but received one never written",
      "a user meta needs a type before it is added");
  batch.end_call();
  gst_buffer_unref(buffer);
}

void test_display_chaining() {
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data, 1);
  PortableBackend batch(data);
  FrameHandle frame = batch.frame_at(0);
  DisplayContent content;
  for (int i = 0; i < 40; ++i) content.rects.push_back(sample_rect(static_cast<float>(i)));
  for (int i = 0; i < 3; ++i) content.texts.push_back(sample_text("t" + std::to_string(i)));
  for (int i = 0; i < 17; ++i) content.circles.push_back({static_cast<uint32_t>(i), 1, 2, color(1, 1, 1, 1), 0, {}, 1, 0});
  content.lines.push_back({0, 0, 9, 9, 1, color(1, 0, 0, 1)});
  content.arrows.push_back({0, 0, 9, 9, 1, ArrowHead::kEnd, color(1, 0, 0, 1), 0});
  std::vector<DisplayHandle> created;
  Status status = batch.add_display_content(frame, content, &created);
  check(status.ok() && created.size() == 3, "40 rects chain three display metas", status.message);
  std::vector<DisplayHandle> displays;
  batch.displays(frame, &displays);
  DisplayFields a, b, c;
  batch.read_display(displays.at(0), &a);
  batch.read_display(displays.at(1), &b);
  batch.read_display(displays.at(2), &c);
  check(a.num_rects == 16 && b.num_rects == 16 && c.num_rects == 8, "rects split 16 + 16 + 8");
  check(a.num_labels == 3 && b.num_labels == 0 && a.num_circles == 16 && b.num_circles == 1 && c.num_circles == 0 &&
      a.num_lines == 1 && a.num_arrows == 1, "each kind fills links in order");
  check(c.rect_params[7].left == 39.0f && b.circle_params[0].xc == 16 && a.text_params[2].display_text == "t2",
      "elements keep their order across links");
  DisplayContent bad = content;
  bad.rects[20].width = -1;
  check_error(batch.add_display_content(frame, bad),
      "Expected a finite number >= 0 for NvDsDisplayMeta.rect_params[20].width but received -1",
      "chained display errors name the logical index");
  batch.displays(frame, &displays);
  check(displays.size() == 3, "an invalid display meta adds nothing");
  DisplayFields too_many;
  too_many.num_rects = 17;
  check_error(batch.write_display(batch.acquire_display(), too_many),
      "Expected at most 16 for NvDsDisplayMeta.num_rects but received 17", "a physical display meta holds at most 16");
  batch.end_call();
  gst_buffer_unref(buffer);
}

// A buffer copy does what NVIDIA's nvds_batch_meta_copy_func does on DeepStream
// (docs/internals/metadata-design.md §2.4), so that a tee branch reads the same on both builds.
void test_copies_like_deepstream() {
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data, 1);
  {
    PortableBackend batch(data);
    FrameHandle frame = batch.frame_at(0);
    FrameFields frame_fields;
    batch.read_frame(frame, &frame_fields);
    frame_fields.pipeline_width = 640;
    frame_fields.pipeline_height = 480;
    batch.write_frame(frame, frame_fields);
    ObjectHandle objects[3];
    for (int i = 0; i < 3; ++i) {
      objects[i] = batch.acquire_object();
      ObjectFields fields = sample_object();
      fields.class_id = i;
      batch.write_object(objects[i], fields);
      batch.add_object(frame, objects[i], i == 1 ? objects[0] : ObjectHandle{});
    }
    ClassifierHandle classifier = batch.acquire_classifier();
    ClassifierFields classifier_fields;
    classifier_fields.num_labels = 5;
    classifier_fields.unique_component_id = 3;
    classifier_fields.classifier_type = "color";
    batch.write_classifier(classifier, classifier_fields);
    for (int i = 0; i < 2; ++i) {
      LabelInfoHandle label = batch.acquire_label_info();
      LabelInfoFields fields;
      fields.label_id = static_cast<uint32_t>(i);
      batch.write_label_info(label, fields);
      batch.add_label_info(classifier, label);
    }
    batch.add_classifier(objects[0], classifier);
    for (int i = 0; i < 2; ++i) {
      UserHandle user = batch.acquire_user_meta();
      UserMetaFields fields;
      fields.meta_type = "ACME.ORDER.TEST";
      fields.payload = {static_cast<uint8_t>(i)};
      batch.write_user_meta(user, fields);
      batch.add_user_meta(UserMetaLevel::kFrame, frame.ptr, user);
    }
    batch.end_call();
  }
  GstBuffer *copy = gst_buffer_copy(buffer);
  PortableFrame *frame = find_portable_batch(copy)->frame_meta_list[0];
  const auto &objects = frame->obj_meta_list;
  check(objects.size() == 3 && objects[0]->fields.class_id == 2 && objects[1]->fields.class_id == 1 &&
      objects[2]->fields.class_id == 0, "a copy reverses the object list (DeepStream prepends; its copy adds anew)");
  check(objects[1]->parent == nullptr, "a child added after its parent loses it in the copy (NVIDIA copies it first)");
  PortableClassifier *classifier = objects[2]->classifier_meta_list.at(0);
  check(classifier->fields.num_labels == 2 && classifier->fields.classifier_type.empty() &&
      classifier->fields.unique_component_id == 3, "a copied classifier counts its labels anew and has no classifier_type");
  check(classifier->label_info_list.at(0)->fields.label_id == 1 && classifier->label_info_list.at(1)->fields.label_id == 0,
      "a copy reverses label infos");
  check(frame->frame_user_meta_list.size() == 2 && frame->frame_user_meta_list[0]->fields.payload[0] == 1,
      "a copy reverses frame user metas");
  check(frame->fields.pipeline_width == 0 && frame->fields.pipeline_height == 0, "a copy drops pipeline_width/height");
  GstBuffer *again = gst_buffer_copy(copy);
  const auto &twice = find_portable_batch(again)->frame_meta_list[0]->obj_meta_list;
  check(twice[0]->fields.class_id == 0 && twice[2]->fields.class_id == 2, "a second copy restores the order");
  gst_buffer_unref(again);
  gst_buffer_unref(copy);
  gst_buffer_unref(buffer);
}

void test_buffer_copies() {
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data);
  {
    PortableBackend batch(data);
    FrameHandle frame = batch.frame_at(0);
    ObjectHandle parent = batch.acquire_object(), child = batch.acquire_object();
    batch.write_object(parent, sample_object());
    batch.add_object(frame, parent, {});
    batch.add_object(batch.frame_at(1), child, parent);  // a parent in another frame
    ClassifierHandle classifier = batch.acquire_classifier();
    batch.add_classifier(parent, classifier);
    LabelInfoHandle label = batch.acquire_label_info();
    batch.add_label_info(classifier, label);
    UserHandle user = batch.acquire_user_meta();
    UserMetaFields fields;
    fields.meta_type = "ACME.COPY.TEST";
    fields.payload = {1, 2, 3};
    batch.write_user_meta(user, fields);
    batch.add_user_meta(UserMetaLevel::kBatch, nullptr, user);
    DisplayContent content;
    content.texts.push_back(sample_text("hello"));
    batch.add_display_content(frame, content);
    batch.end_call();
  }
  GstBuffer *copy = gst_buffer_copy(buffer);
  PortableBatchMeta *copied = find_portable_batch(copy);
  check(copied != nullptr && copied != data, "gst_buffer_copy carries a batch of its own");
  PortableObject *copied_parent = copied->frame_meta_list[0]->obj_meta_list[0];
  PortableObject *copied_child = copied->frame_meta_list[1]->obj_meta_list[0];
  check(copied_parent != data->frame_meta_list[0]->obj_meta_list[0] && same(copied_parent->fields, sample_object()),
      "objects are deep-copied with every field");
  // NVIDIA's nvds_batch_meta_copy_func links a parent only when it copied it first, in the same
  // frame: a parent in another frame is lost, as on DeepStream.
  check(copied_child->parent == nullptr && copied_parent->num_children == 0,
      "a parent in another frame is not linked in the copy (as NVIDIA's copy)");
  check(copied_parent->classifier_meta_list.size() == 1 && copied_parent->classifier_meta_list[0]->label_info_list.size() == 1 &&
      copied_parent->classifier_meta_list[0]->owner == copied_parent, "classifiers and labels are copied");
  check(copied->batch_user_meta_list.size() == 1 && copied->batch_user_meta_list[0]->fields.payload == std::vector<uint8_t>{1, 2, 3} &&
      copied->batch_user_meta_list[0] != data->batch_user_meta_list[0], "user meta payloads are copied");
  check(copied->frame_meta_list[0]->display_meta_list.size() == 1 &&
      copied->frame_meta_list[0]->display_meta_list[0]->fields.text_params[0].display_text == "hello", "display metas are copied");
  {
    PortableBackend batch(copied);
    ObjectFields changed = sample_object();
    changed.class_id = 99;
    batch.write_object(ObjectHandle{copied_parent}, changed);
    ObjectHandle extra = batch.acquire_object();
    batch.add_object(batch.frame_at(0), extra, {});
    batch.end_call();
  }
  check(data->frame_meta_list[0]->obj_meta_list.size() == 1 &&
      data->frame_meta_list[0]->obj_meta_list[0]->fields.class_id == 5, "writing the copy leaves the original alone");

  // make_writable on a shared buffer (what an in-place element does after a tee) copies too.
  gst_buffer_ref(buffer);
  GstBuffer *writable = gst_buffer_make_writable(buffer);
  check(writable != buffer && find_portable_batch(writable) != data &&
      find_portable_batch(writable)->frame_meta_list[0]->obj_meta_list.size() == 1,
      "gst_buffer_make_writable of a shared buffer deep-copies the batch");
  gst_buffer_unref(writable);
  // A destination that already has a batch keeps it.
  GstBuffer *prepared = gst_buffer_new();
  attach_portable_batch(prepared, 1);
  gst_buffer_copy_into(prepared, buffer, GST_BUFFER_COPY_METADATA, 0, static_cast<gsize>(-1));
  check(find_portable_batch(prepared)->frame_meta_list.empty(), "copy_into keeps the destination's own batch");
  gst_buffer_unref(prepared);
  gst_buffer_unref(copy);
  gst_buffer_unref(buffer);
}

void test_strings() {
  ObjectFields object;
  const std::string longest(127, 'x');
  check(copy_bounded(object.obj_label, longest, "NvDsObjectMeta.obj_label").ok() && std::strlen(object.obj_label) == 127,
      "127 bytes fit obj_label (MAX_LABEL_SIZE 128 with the NUL)");
  check_error(copy_bounded(object.obj_label, std::string(128, 'x'), "NvDsObjectMeta.obj_label"),
      "Expected at most 127 bytes (UTF-8) for NvDsObjectMeta.obj_label but received 128 bytes",
      "128 bytes for obj_label is an error, not truncation");
  check(std::strlen(object.obj_label) == 127, "a rejected label leaves the old value");
  LabelInfoFields label;
  check_error(copy_bounded(label.result_label, std::string("caf\xC3\xA9") + std::string(123, 'e'), "NvDsLabelInfo.result_label"),
      "Expected at most 127 bytes (UTF-8) for NvDsLabelInfo.result_label but received 128 bytes",
      "the bound counts UTF-8 bytes, not characters");
  {
    // A label over 127 bytes is an error, never cut: nvinfer writes no pResult_label and
    // deepstream-app copies one into 128 bytes (deepstream_app.c ~1336-1364).
    LabelInfoFields long_label;
    long_label.long_label = "an upstream pResult_label";
    check_error(set_result_label(&long_label, std::string(126, 'a') + "\xC3\xA9", "NvDsLabelInfo.result_label"),
        "Expected at most 127 bytes (UTF-8) for NvDsLabelInfo.result_label but received 128 bytes",
        "a label past 127 bytes is an error");
    check(result_label(long_label) == "an upstream pResult_label", "an upstream pResult_label is what a reader sees");
    check(set_result_label(&long_label, std::string(127, 'b'), "NvDsLabelInfo.result_label").ok() && long_label.long_label.empty() &&
            result_label(long_label) == std::string(127, 'b'),
        "127 bytes fill result_label, and a label written clears an upstream pResult_label");
  }
  check_error(copy_bounded(label.result_label, std::string("a\0b", 3), "NvDsLabelInfo.result_label"),
      "Expected a string without NUL characters for NvDsLabelInfo.result_label but received a NUL at byte 1",
      "an embedded NUL is an error");
  ClassifierFields classifier;
  classifier.classifier_type = std::string(128, 't');
  check_error(validate_classifier(classifier),
      "Expected at most 127 bytes (UTF-8) for NvDsClassifierMeta.classifier_type but received 128 bytes",
      "classifier_type is bounded too");
  check_error(validate_user_meta_type("ACME.ONLYTWO", "NvDsUserMeta.meta_type"),
      "Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for NvDsUserMeta.meta_type but "
      "received \"ACME.ONLYTWO\"", "a user meta type needs three parts");
  check_error(validate_user_meta_type("ACME..X", "NvDsUserMeta.meta_type"),
      "Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for NvDsUserMeta.meta_type but "
      "received \"ACME..X\"", "a user meta type has no empty part");
  check_error(validate_user_meta_type("ACME.A B.X", "NvDsUserMeta.meta_type"),
      "Expected a type of the form ORG.COMPONENT.DESCRIPTION (letters, digits, _ and -) for NvDsUserMeta.meta_type but "
      "received \"ACME.A B.X\"", "a user meta type has no spaces");
  check(validate_user_meta_type("NVIDIA.NVINFER.TENSOR_METADATA", "t").ok(), "DeepStream's own example type is valid");
  check_error(validate_user_meta_type(std::string(60, 'A') + "." + std::string(60, 'B') + "." + std::string(6, 'C'), "NvDsUserMeta.meta_type"),
      "Expected at most 127 bytes for NvDsUserMeta.meta_type but received 128 bytes", "a user meta type is bounded");
  TextParams text = sample_text(std::string("a\0", 2));
  ObjectFields with_text = sample_object();
  with_text.text_params = text;
  check_error(validate_object(with_text),
      "Expected a string without NUL characters for NvDsObjectMeta.text_params.display_text but received a NUL at byte 1",
      "display_text cannot hold a NUL");
}

void test_invalid_values() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Case { void (*mutate)(ObjectFields &); const char *message; };
  const Case cases[] = {
    {[](ObjectFields &o) { o.rect_params.width = std::numeric_limits<float>::quiet_NaN(); },
     "Expected a finite number >= 0 for NvDsObjectMeta.rect_params.width but received NaN"},
    {[](ObjectFields &o) { o.rect_params.height = -2.5f; },
     "Expected a finite number >= 0 for NvDsObjectMeta.rect_params.height but received -2.5"},
    {[](ObjectFields &o) { o.rect_params.left = std::numeric_limits<float>::infinity(); },
     "Expected a finite number for NvDsObjectMeta.rect_params.left but received Infinity"},
    {[](ObjectFields &o) { o.rect_params.rotation_angle = std::numeric_limits<float>::quiet_NaN(); },
     "Expected a finite number for NvDsObjectMeta.rect_params.rotation_angle but received NaN"},
    {[](ObjectFields &o) { o.confidence = 1.5f; },
     "Expected a number from 0 to 1 (or -0.1 for none) for NvDsObjectMeta.confidence but received 1.5"},
    {[](ObjectFields &o) { o.confidence = -0.5f; },
     "Expected a number from 0 to 1 (or -0.1 for none) for NvDsObjectMeta.confidence but received -0.5"},
    {[](ObjectFields &o) { o.tracker_confidence = 2; },
     "Expected a number from 0 to 1 (or -0.1 for none) for NvDsObjectMeta.tracker_confidence but received 2"},
    {[](ObjectFields &o) { o.rect_params.border_color.red = 1.25; },
     "Expected a number from 0 to 1 for NvDsObjectMeta.rect_params.border_color.red but received 1.25"},
    {[](ObjectFields &o) { o.rect_params.bg_color.alpha = -0.25; },
     "Expected a number from 0 to 1 for NvDsObjectMeta.rect_params.bg_color.alpha but received -0.25"},
    {[](ObjectFields &o) { o.text_params.font_params.font_color.green = 3; },
     "Expected a number from 0 to 1 for NvDsObjectMeta.text_params.font_params.font_color.green but received 3"},
    {[](ObjectFields &o) { o.text_params.text_bg_clr.blue = std::numeric_limits<double>::quiet_NaN(); },
     "Expected a number from 0 to 1 for NvDsObjectMeta.text_params.text_bg_clr.blue but received NaN"},
    {[](ObjectFields &o) { o.detector_bbox_info.width = -1; },
     "Expected a finite number >= 0 for NvDsObjectMeta.detector_bbox_info.org_bbox_coords.width but received -1"},
    {[](ObjectFields &o) { o.tracker_bbox_info.top = std::numeric_limits<float>::quiet_NaN(); },
     "Expected a finite number for NvDsObjectMeta.tracker_bbox_info.org_bbox_coords.top but received NaN"},
    {[](ObjectFields &o) { o.mask_params.width = 4; },
     "Expected 8 values (width 4 x height 2) for NvDsObjectMeta.mask_params.data but received 6 values"},
    {[](ObjectFields &o) { o.mask_params.threshold = std::numeric_limits<float>::quiet_NaN(); },
     "Expected a finite number for NvDsObjectMeta.mask_params.threshold but received NaN"},
    {[](ObjectFields &o) { std::memset(o.obj_label, 'x', sizeof o.obj_label); },
     "Expected at most 127 bytes (UTF-8) for NvDsObjectMeta.obj_label but received an unterminated string"},
  };
  PortableBatchMeta *data;
  GstBuffer *buffer = make_buffer(&data, 1);
  PortableBackend batch(data);
  ObjectHandle object = batch.acquire_object();
  for (const Case &c : cases) {
    ObjectFields fields = sample_object();
    c.mutate(fields);
    check_error(batch.write_object(object, fields), c.message, std::string("rejects: ") + c.message);
  }
  ObjectFields read;
  batch.read_object(object, &read);
  check(read.class_id == 0, "a rejected write changes nothing");
  ObjectFields none = sample_object();
  none.confidence = kNoConfidence;
  none.tracker_confidence = kNoConfidence;
  check(batch.write_object(object, none).ok(), "-0.1 (DeepStream's no-confidence marker) is accepted");
  ObjectFields offscreen = sample_object();
  offscreen.rect_params.left = -5;
  check(batch.write_object(object, offscreen).ok(), "a box may start left of the frame (negative left)");
  // Values an upstream writer (nvinfer) left outside our ranges are kept when the user writes
  // another member: only what differs from `before` is checked.
  ObjectFields upstream = sample_object();
  upstream.confidence = 1.25f;
  upstream.rect_params.width = -4;
  ObjectFields relabelled = upstream;
  std::strcpy(relabelled.obj_label, "pedestrian");
  check(batch.write_object(object, relabelled, &upstream).ok(), "upstream's confidence 1.25 and width -4 are kept on a relabel");
  relabelled.tracker_confidence = 1.5f;
  check_error(batch.write_object(object, relabelled, &upstream),
      "Expected a number from 0 to 1 (or -0.1 for none) for NvDsObjectMeta.tracker_confidence but received 1.5",
      "what the user writes is still checked");

  LabelInfoFields label;
  label.result_prob = 1.01f;
  check_error(validate_label_info(label), "Expected a number from 0 to 1 for NvDsLabelInfo.result_prob but received 1.01",
      "label result_prob out of range");
  DisplayFields display;
  display.num_arrows = 1;
  display.arrow_params[0].arrow_head = static_cast<ArrowHead>(5);
  check_error(validate_display(display),
      "Expected 0 (START_HEAD), 1 (END_HEAD) or 2 (BOTH_HEAD) for NvDsDisplayMeta.arrow_params[0].arrow_head but received 5",
      "arrow head out of range");
  display = DisplayFields();
  display.num_lines = 2;
  display.line_params[1].line_color.alpha = 7;
  check_error(validate_display(display), "Expected a number from 0 to 1 for NvDsDisplayMeta.line_params[1].line_color.alpha but received 7",
      "line colour out of range");
  FrameFields frame;
  frame.num_surfaces_per_frame = -1;
  check_error(validate_frame(frame), "Expected an integer >= 0 for NvDsFrameMeta.num_surfaces_per_frame but received -1",
      "negative num_surfaces_per_frame");

  int64_t value = 0;
  check_error(checked_integer(1.5, -2147483648.0, 2147483647.0, "NvDsObjectMeta.class_id", &value),
      "Expected an integer from -2147483648 to 2147483647 for NvDsObjectMeta.class_id but received 1.5", "non-integer id");
  check_error(checked_integer(std::nan(""), 0, 4294967295.0, "NvDsLabelInfo.result_class_id", &value),
      "Expected an integer from 0 to 4294967295 for NvDsLabelInfo.result_class_id but received NaN", "NaN id");
  check_error(checked_integer(-1, 0, 4294967295.0, "NvDsLabelInfo.label_id", &value),
      "Expected an integer from 0 to 4294967295 for NvDsLabelInfo.label_id but received -1", "negative unsigned id");
  check(checked_integer(42, 0, 100, "x", &value).ok() && value == 42, "an integer in range converts");

  std::vector<float> left = {1, 2}, top = {1, 2}, width = {10, nan}, height = {1, 1};
  ObjectColumns columns;
  columns.count = 2;
  columns.left = left.data();
  columns.top = top.data();
  columns.width = width.data();
  columns.height = height.data();
  FrameHandle frame_handle = batch.frame_at(0);
  check_error(batch.add_objects(frame_handle, columns),
      "Expected a finite number >= 0 for NvDsObjectMeta[1].rect_params.width but received NaN", "bulk errors name the row");
  check(batch.num_objects(frame_handle) == 0, "a rejected bulk add adds nothing");
  std::vector<float> confidence = {0.5f, 1.5f};
  width[1] = 3;
  columns.confidence = confidence.data();
  check_error(batch.add_objects(frame_handle, columns),
      "Expected a number from 0 to 1 (or -0.1 for none) for NvDsObjectMeta[1].confidence but received 1.5",
      "bulk confidence out of range");
  batch.end_call();
  gst_buffer_unref(buffer);
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  test_round_trips();
  test_pools();
  test_recycling();
  test_ten_thousand();
  test_remove();
  test_display_chaining();
  test_buffer_copies();
  test_copies_like_deepstream();
  test_strings();
  test_invalid_values();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
