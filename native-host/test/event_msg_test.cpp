// The event messages the DeepStream backend writes (Batch::add_event_msg), read through NVIDIA's
// headers as nvmsgconv reads them: frame user metas of type NVDS_EVENT_MSG_META whose
// user_meta_data is an NvDsEventMsgMeta holding its own strings and, in extMsg, the
// NvDsVehicleObject / NvDsPersonObject / NvDsFaceObject of its objType (extMsgSize its size), as
// deepstream-test4 attaches them. A buffer copy (NVIDIA's gst_nvds_meta_transform ->
// nvds_batch_meta_copy_func -> the meta's copy_func) gets a deep copy: its own struct, strings and
// extension, readable after the original is freed; every release frees its own (the count of
// live messages returns to 0; test/event-msg.test.ts also runs this program under valgrind).
// DeepStream build only (CMake target dsnode-event-msg-test). Prints "N passed, M failed".
#include <dlfcn.h>
#include <gst/gst.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "check.h"
#include "gstnvdsmeta.h"
#include "meta/deepstream_backend.h"
#include "meta/event_msg.h"
#include "meta/event_msg_deepstream.h"
#include "nvdsmeta.h"
#include "nvdsmeta_schema.h"

using namespace dsnode::meta;
using dsnode_test::check;
using dsnode_test::failed;
using dsnode_test::passed;

namespace {

decltype(&::gst_buffer_get_nvds_batch_meta) get_batch_meta = nullptr;

bool same(const gchar *text, const char *expected) { return text != nullptr && std::strcmp(text, expected) == 0; }

// The frame's NVDS_EVENT_MSG_META metas, in list order.
std::vector<NvDsEventMsgMeta *> event_msgs(GstBuffer *buffer) {
  std::vector<NvDsEventMsgMeta *> out;
  NvDsBatchMeta *batch = get_batch_meta(buffer);
  if (batch == nullptr || batch->frame_meta_list == nullptr) return out;
  auto *frame = static_cast<NvDsFrameMeta *>(batch->frame_meta_list->data);
  for (NvDsUserMetaList *l = frame->frame_user_meta_list; l != nullptr; l = l->next) {
    auto *user = static_cast<NvDsUserMeta *>(l->data);
    if (user->base_meta.meta_type == NVDS_EVENT_MSG_META && user->base_meta.copy_func != nullptr &&
        user->base_meta.release_func != nullptr)
      out.push_back(static_cast<NvDsEventMsgMeta *>(user->user_meta_data));
  }
  return out;
}

EventMsg vehicle_msg() {
  EventMsg msg;
  msg.type = NVDS_EVENT_MOVING;
  msg.objType = NVDS_OBJECT_TYPE_VEHICLE;
  msg.bbox = {20.25f, 10.5f, 30.0f, 40.0f};
  msg.location = {45.29, -75.83, 48.15};
  msg.coordinate = {5.2, 10.1, 11.2};
  msg.objSignature = {0.25, -1.0, 3.5};
  msg.objClassId = 2;
  msg.sensorId = 1;
  msg.moduleId = 3;
  msg.placeId = 4;
  msg.componentId = 5;
  msg.frameId = 77;
  msg.confidence = 0.875;
  msg.trackingId = 1ull << 40;
  msg.ts = "2026-04-11T04:59:59.828Z";
  msg.objectId = "car";
  msg.sensorStr = "sensor-0";
  msg.otherAttrs = "doors=4";
  msg.videoPath = "/videos/entrance.mp4";
  msg.extension = EventMsgExtension::kVehicle;
  msg.vehicle = {"sedan", "Bugatti", "M", "blue", "CA", "XX1234"};
  return msg;
}

// The vehicle message as vehicle_msg() wrote it, read through NVIDIA's struct.
bool holds_vehicle(const NvDsEventMsgMeta *m) {
  if (m == nullptr || m->type != NVDS_EVENT_MOVING || m->objType != NVDS_OBJECT_TYPE_VEHICLE) return false;
  const auto *v = static_cast<const NvDsVehicleObject *>(m->extMsg);
  return m->bbox.top == 20.25f && m->bbox.left == 10.5f && m->bbox.width == 30.0f && m->bbox.height == 40.0f &&
      m->location.lat == 45.29 && m->coordinate.z == 11.2 && m->objSignature.size == 3 && m->objSignature.signature != nullptr &&
      m->objSignature.signature[2] == 3.5 && m->objClassId == 2 && m->sensorId == 1 && m->moduleId == 3 && m->placeId == 4 &&
      m->componentId == 5 && m->frameId == 77 && m->confidence == 0.875 && m->trackingId == (1ull << 40) &&
      same(m->ts, "2026-04-11T04:59:59.828Z") && same(m->objectId, "car") && same(m->sensorStr, "sensor-0") &&
      same(m->otherAttrs, "doors=4") && same(m->videoPath, "/videos/entrance.mp4") &&
      m->extMsgSize == sizeof(NvDsVehicleObject) && v != nullptr && same(v->type, "sedan") && same(v->make, "Bugatti") &&
      same(v->model, "M") && same(v->color, "blue") && same(v->region, "CA") && same(v->license, "XX1234");
}

bool holds_person(const NvDsEventMsgMeta *m) {
  if (m == nullptr || m->objType != NVDS_OBJECT_TYPE_PERSON || m->extMsgSize != sizeof(NvDsPersonObject)) return false;
  const auto *p = static_cast<const NvDsPersonObject *>(m->extMsg);
  return m->type == NVDS_EVENT_ENTRY && p != nullptr && p->age == 45 && same(p->gender, "male") && same(p->hair, "black") &&
      same(p->cap, "none") && same(p->apparel, "formal") && m->sensorStr == nullptr && m->objSignature.signature == nullptr;
}

bool holds_face(const NvDsEventMsgMeta *m) {
  if (m == nullptr || m->objType != NVDS_OBJECT_TYPE_FACE || m->extMsgSize != sizeof(NvDsFaceObject)) return false;
  const auto *f = static_cast<const NvDsFaceObject *>(m->extMsg);
  return f != nullptr && f->age == 30 && same(f->name, "Ada") && same(f->eyecolor, "green") && same(f->glasses, "none") &&
      same(f->facialhair, "");
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
  if (get_batch_meta == nullptr) {
    std::printf("not ok - gst_buffer_get_nvds_batch_meta is exported\n0 passed, 1 failed\n");
    return 1;
  }

  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, 64, nullptr);
  {
    std::unique_ptr<Batch> batch = open_deepstream_batch(buffer, 1);
    FrameHandle frame = batch ? add_deepstream_frame(*batch, FrameFields()) : FrameHandle();
    check(static_cast<bool>(frame), "a DeepStream batch with one frame");
    if (!frame) return 1;
    EventMsg person;
    person.type = NVDS_EVENT_ENTRY;
    person.objType = NVDS_OBJECT_TYPE_PERSON;
    person.extension = EventMsgExtension::kPerson;
    person.person = {"male", "black", "none", "formal", 45};
    EventMsg face;
    face.type = NVDS_EVENT_EXIT;
    face.objType = NVDS_OBJECT_TYPE_FACE;
    face.extension = EventMsgExtension::kFace;
    face.face = {"female", "brown", "", "none", "", "Ada", "green", 30};
    UserHandle created;
    for (const EventMsg &msg : {vehicle_msg(), person, face}) {
      Status status = batch->add_event_msg(UserMetaLevel::kFrame, frame.ptr, msg, &created);
      check(status.ok(), "add_event_msg adds a message", status.message);
    }
    EventMsg wrong = person;
    wrong.objType = NVDS_OBJECT_TYPE_VEHICLE;
    check(!batch->add_event_msg(UserMetaLevel::kFrame, frame.ptr, wrong, &created).ok(),
        "a person object on a vehicle message is refused (nvmsgconv casts extMsg by objType)");
    EventMsg back;
    check(batch->read_event_msg(created, &back) && back.extension == EventMsgExtension::kFace && back.face.name == "Ada",
        "read_event_msg reads the last one back");
  }  // ends the call

  // DeepStream prepends frame user metas: the list holds face, person, vehicle.
  std::vector<NvDsEventMsgMeta *> original = event_msgs(buffer);
  check(original.size() == 3, "the frame carries 3 NVDS_EVENT_MSG_META user metas with copy and release functions",
      std::to_string(original.size()));
  if (original.size() != 3) return 1;
  check(holds_face(original[0]), "the face message, its NvDsFaceObject in extMsg");
  check(holds_person(original[1]), "the person message, its NvDsPersonObject in extMsg, no sensorStr (NULL)");
  check(holds_vehicle(original[2]), "the vehicle message: every member, its NvDsVehicleObject in extMsg");
  check(event_msgs_alive() == 3, "3 messages alive", std::to_string(event_msgs_alive()));

  GstBuffer *copy = gst_buffer_copy(buffer);
  std::vector<NvDsEventMsgMeta *> copied = event_msgs(copy);
  check(copied.size() == 3, "the copy carries 3 event messages", std::to_string(copied.size()));
  check(event_msgs_alive() == 6, "the copy made 3 more", std::to_string(event_msgs_alive()));
  bool distinct = copied.size() == 3;
  for (const NvDsEventMsgMeta *m : copied)
    for (const NvDsEventMsgMeta *o : original)
      distinct = distinct && m != o && (m->ts == nullptr || m->ts != o->ts) && (m->extMsg == nullptr || m->extMsg != o->extMsg);
  check(distinct, "the copies have their own struct, strings and extension objects");
  gst_buffer_unref(buffer);
  check(event_msgs_alive() == 3, "releasing the original frees its 3", std::to_string(event_msgs_alive()));
  // The copy's list is the original's reversed (the copy walks and prepends): vehicle first.
  const bool read_after = copied.size() == 3 && holds_vehicle(copied[0]) && holds_person(copied[1]) && holds_face(copied[2]);
  check(read_after, "the copy reads the same after the original is gone");
  gst_buffer_unref(copy);
  check(event_msgs_alive() == 0, "releasing the copy frees its 3: none left", std::to_string(event_msgs_alive()));

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
