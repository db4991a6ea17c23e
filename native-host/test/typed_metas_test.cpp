// NVIDIA's typed user metas the DeepStream backend writes, read through NVIDIA's own headers as
// a consumer reads them: nvinfer's NvDsInferSegmentationMeta (gstnvdsinfer.h; what nvsegvisual
// reads) and nvdsanalytics' NvDsAnalyticsFrameMeta / NvDsAnalyticsObjInfo
// (nvds_analytics_meta.h, C++ containers: compiled with the same standard library as
// libnvds_dsanalytics). A buffer copy (NVIDIA's batch copy -> each meta's copy_func) gives
// independent copies that outlive the original, and the releases free every segmentation meta
// (live_segmentation_metas back to 0). DeepStream build only (CMake target dsnode-typed-metas-test;
// test/typed-metas-deepstream.test.ts). Prints "N passed, M failed".
#include <dlfcn.h>
#include <gst/gst.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "gstnvdsinfer.h"
#include "gstnvdsmeta.h"
#include "meta/analytics_meta.h"
#include "meta/deepstream_backend.h"
#include "meta/deepstream_typed_metas.h"
#include "meta/segmentation_meta.h"
#include "nvds_analytics_meta.h"
#include "nvdsmeta.h"

using namespace dsnode::meta;
using dsnode_test::check;
using dsnode_test::failed;
using dsnode_test::passed;

namespace {

decltype(&::gst_buffer_get_nvds_batch_meta) get_batch_meta = nullptr;

const std::vector<int32_t> kClassMap = {0, 1, 2, 0, 0, 1, 2, -1};  // 4 x 2, 3 classes

struct Found {
  NvDsUserMeta *segmentation = nullptr, *analytics_frame = nullptr, *analytics_object = nullptr;
};

// The typed user metas on the buffer's first frame and its first object.
Found find(GstBuffer *buffer) {
  Found found;
  NvDsBatchMeta *batch = get_batch_meta(buffer);
  if (batch == nullptr || batch->frame_meta_list == nullptr) return found;
  auto *frame = static_cast<NvDsFrameMeta *>(batch->frame_meta_list->data);
  for (GList *l = frame->frame_user_meta_list; l != nullptr; l = l->next) {
    auto *user = static_cast<NvDsUserMeta *>(l->data);
    if (user->base_meta.meta_type == NVDSINFER_SEGMENTATION_META) found.segmentation = user;
    if (user->base_meta.meta_type == NVDS_USER_FRAME_META_NVDSANALYTICS) found.analytics_frame = user;
  }
  if (frame->obj_meta_list != nullptr) {
    auto *object = static_cast<NvDsObjectMeta *>(frame->obj_meta_list->data);
    for (GList *l = object->obj_user_meta_list; l != nullptr; l = l->next) {
      auto *user = static_cast<NvDsUserMeta *>(l->data);
      if (user->base_meta.meta_type == NVDS_USER_OBJ_META_NVDSANALYTICS) found.analytics_object = user;
    }
  }
  return found;
}

bool segmentation_holds_values(const NvDsInferSegmentationMeta *meta) {
  if (meta == nullptr || meta->classes != 3 || meta->width != 4 || meta->height != 2 || meta->unique_id != 7 ||
      meta->class_map == nullptr || meta->class_probabilities_map == nullptr) {
    return false;
  }
  if (std::memcmp(meta->class_map, kClassMap.data(), kClassMap.size() * sizeof(int32_t)) != 0) return false;
  for (int i = 0; i < 24; ++i)
    if (meta->class_probabilities_map[i] != static_cast<float>(i) / 32) return false;
  return true;
}

bool frame_holds_values(const NvDsAnalyticsFrameMeta *meta) {
  return meta != nullptr && meta->ocStatus.at("Lobby") && !meta->ocStatus.at("Door") && meta->objInROIcnt.at("Lobby") == 4 &&
      meta->objLCCurrCnt.at("Entrance") == 1 && meta->objLCCumCnt.at("Entrance") == (1ull << 40) && meta->unique_id == 5 &&
      meta->objCnt.at(2) == 3 && meta->objCnt.size() == 1;
}

bool object_holds_values(const NvDsAnalyticsObjInfo *meta) {
  return meta != nullptr && meta->roiStatus == std::vector<std::string>{"Lobby", "Door"} &&
      meta->lcStatus == std::vector<std::string>{"Entrance"} && meta->ocStatus.empty() && meta->dirStatus == "North" &&
      meta->unique_id == 5 && meta->objStatus == "loitering";
}

int finish() {
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  std::string error;
  if (!load_deepstream(&error)) {
    std::printf("not ok - load NVIDIA's libnvds_meta.so: %s\n0 passed, 1 failed\n", error.c_str());
    return 1;
  }
  get_batch_meta = reinterpret_cast<decltype(get_batch_meta)>(dlsym(RTLD_DEFAULT, "gst_buffer_get_nvds_batch_meta"));
  check(get_batch_meta != nullptr, "gst_buffer_get_nvds_batch_meta is exported by the loaded libnvdsgst_meta.so");
  if (get_batch_meta == nullptr) return finish();
  const size_t live_before = nvds::live_segmentation_metas();

  // --- written through the Batch interface, as an element (segmentation) and the harness (analytics) do
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, 64, nullptr);
  {
    std::unique_ptr<Batch> batch = open_deepstream_batch(buffer, 1);
    check(batch != nullptr, "open_deepstream_batch attaches an NvDsBatchMeta");
    if (batch == nullptr) return finish();
    FrameHandle frame = add_deepstream_frame(*batch, FrameFields());
    ObjectHandle object = batch->acquire_object();
    check(batch->add_object(frame, object, ObjectHandle{}).ok(), "an object is added");

    Segmentation segmentation;
    segmentation.classes = 3;
    segmentation.width = 4;
    segmentation.height = 2;
    segmentation.unique_id = 7;
    segmentation.class_map = kClassMap;
    for (int i = 0; i < 24; ++i) segmentation.class_probabilities_map.push_back(static_cast<float>(i) / 32);
    Status status = batch->add_segmentation(UserMetaLevel::kFrame, frame.ptr, segmentation, nullptr);
    check(status.ok(), "add_segmentation succeeds", status.message);

    Segmentation wrong = segmentation;
    wrong.class_map[3] = 3;
    status = batch->add_segmentation(UserMetaLevel::kFrame, frame.ptr, wrong, nullptr);
    check(status.message == "Expected a class id in [-1, 2] for NvDsInferSegmentationMeta.class_map[3] but received 3",
        "a class id past classes is refused", status.message);

    AnalyticsFrameMeta counts;
    counts.ocStatus = {{"Lobby", true}, {"Door", false}};
    counts.objInROIcnt = {{"Lobby", 4}};
    counts.objLCCurrCnt = {{"Entrance", 1}};
    counts.objLCCumCnt = {{"Entrance", 1ull << 40}};
    counts.unique_id = 5;
    counts.objCnt = {{2, 3}};
    status = batch->add_analytics_frame(UserMetaLevel::kFrame, frame.ptr, counts, nullptr);
    check(status.ok(), "add_analytics_frame succeeds", status.message);
    AnalyticsObjectInfo info;
    info.roiStatus = {"Lobby", "Door"};
    info.lcStatus = {"Entrance"};
    info.dirStatus = "North";
    info.unique_id = 5;
    info.objStatus = "loitering";
    status = batch->add_analytics_object(UserMetaLevel::kObject, object.ptr, info, nullptr);
    check(status.ok(), "add_analytics_object succeeds", status.message);
  }
  check(nvds::live_segmentation_metas() == live_before + 1, "one segmentation meta is alive",
      std::to_string(nvds::live_segmentation_metas() - live_before));

  // --- read through NVIDIA's structs
  Found found = find(buffer);
  check(found.segmentation != nullptr && found.analytics_frame != nullptr && found.analytics_object != nullptr,
      "the frame carries NVDSINFER_SEGMENTATION_META and NVDS_USER_FRAME_META_NVDSANALYTICS, the object NVDS_USER_OBJ_META_NVDSANALYTICS");
  if (found.segmentation == nullptr || found.analytics_frame == nullptr || found.analytics_object == nullptr) return finish();
  auto *segmentation = static_cast<NvDsInferSegmentationMeta *>(found.segmentation->user_meta_data);
  check(segmentation_holds_values(segmentation), "NvDsInferSegmentationMeta holds classes, width, height, unique_id and both maps");
  check(segmentation->priv_data == nullptr, "its priv_data is NULL (the maps are its own, as in nvinfer's copies)");
  check(found.segmentation->base_meta.copy_func != nullptr && found.segmentation->base_meta.release_func != nullptr,
      "the segmentation meta has a copy_func and a release_func");
  check(frame_holds_values(static_cast<NvDsAnalyticsFrameMeta *>(found.analytics_frame->user_meta_data)),
      "NvDsAnalyticsFrameMeta's maps hold the counts (read with std::unordered_map::at)");
  check(object_holds_values(static_cast<NvDsAnalyticsObjInfo *>(found.analytics_object->user_meta_data)),
      "NvDsAnalyticsObjInfo's vectors and strings hold the statuses");

  // --- the backend reads NVIDIA's structs back into the model
  {
    std::unique_ptr<Batch> batch = open_deepstream_batch(buffer, 1);
    std::vector<UserHandle> users;
    batch->user_metas(UserMetaLevel::kFrame, batch->frame_at(0).ptr, &users);
    SegmentationView view;
    AnalyticsFrameMeta counts;
    bool read_view = false, read_counts = false;
    for (UserHandle user : users) {
      read_view = read_view || batch->read_segmentation(user, &view);
      read_counts = read_counts || batch->read_analytics_frame(user, &counts);
    }
    check(read_view && view.class_map == segmentation->class_map && view.classes == 3,
        "read_segmentation points at the meta's own class map (zero copy)");
    check(read_counts && counts.objLCCumCnt.at("Entrance") == (1ull << 40) && counts.objCnt.at(2) == 3,
        "read_analytics_frame copies NVIDIA's maps");
  }

  // --- a buffer copy: each meta's copy_func; then the original goes
  GstBuffer *copy = gst_buffer_copy(buffer);
  Found copied = find(copy);
  check(copied.segmentation != nullptr && copied.segmentation != found.segmentation &&
      copied.segmentation->user_meta_data != found.segmentation->user_meta_data,
      "the copy carries its own NvDsInferSegmentationMeta");
  check(nvds::live_segmentation_metas() == live_before + 2, "the copy's segmentation meta is alive too");
  check(copied.analytics_frame != nullptr && copied.analytics_frame->user_meta_data != found.analytics_frame->user_meta_data &&
      copied.analytics_object != nullptr && copied.analytics_object->user_meta_data != found.analytics_object->user_meta_data,
      "the copy carries its own analytics metas");
  gst_buffer_unref(buffer);
  check(nvds::live_segmentation_metas() == live_before + 1, "releasing the original frees its segmentation meta");
  if (copied.segmentation != nullptr)
    check(segmentation_holds_values(static_cast<NvDsInferSegmentationMeta *>(copied.segmentation->user_meta_data)),
        "the copy's maps hold the values after the original is released");
  if (copied.analytics_frame != nullptr && copied.analytics_object != nullptr) {
    check(frame_holds_values(static_cast<NvDsAnalyticsFrameMeta *>(copied.analytics_frame->user_meta_data)) &&
        object_holds_values(static_cast<NvDsAnalyticsObjInfo *>(copied.analytics_object->user_meta_data)),
        "the copy's analytics metas hold the values after the original is released");
  }
  gst_buffer_unref(copy);
  check(nvds::live_segmentation_metas() == live_before, "releasing the copy frees the last segmentation meta (no leak)",
      std::to_string(nvds::live_segmentation_metas() - live_before) + " left");
  return finish();
}
