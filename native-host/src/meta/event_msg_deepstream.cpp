// NvDsEventMsgMeta to and from the model (event_msg_deepstream.h says how it is allocated).
#include "meta/event_msg_deepstream.h"

#include "meta/deepstream_copies.h"

#include <atomic>
#include <cstring>

namespace dsnode::meta {

namespace {

std::atomic<int64_t> alive{0};

std::string read_string(const gchar *text) { return text != nullptr ? text : ""; }

template <typename Ds>
Ds *new_extension() {
  return static_cast<Ds *>(g_malloc0(sizeof(Ds)));
}

void *new_extension(const EventMsg &msg, guint *size) {
  switch (msg.extension) {
    case EventMsgExtension::kVehicle: {
      auto *to = new_extension<NvDsVehicleObject>();
#define DSNODE_TO_DS(name) to->name = g_strdup(msg.vehicle.name.c_str());
      DSNODE_EVENT_MSG_VEHICLE(DSNODE_TO_DS)
#undef DSNODE_TO_DS
      *size = sizeof *to;
      return to;
    }
    case EventMsgExtension::kPerson: {
      auto *to = new_extension<NvDsPersonObject>();
#define DSNODE_TO_DS(name) to->name = g_strdup(msg.person.name.c_str());
      DSNODE_EVENT_MSG_PERSON(DSNODE_TO_DS)
#undef DSNODE_TO_DS
      to->age = msg.person.age;
      *size = sizeof *to;
      return to;
    }
    case EventMsgExtension::kFace: {
      auto *to = new_extension<NvDsFaceObject>();
#define DSNODE_TO_DS(name) to->name = g_strdup(msg.face.name.c_str());
      DSNODE_EVENT_MSG_FACE(DSNODE_TO_DS)
#undef DSNODE_TO_DS
      to->age = msg.face.age;
      *size = sizeof *to;
      return to;
    }
    case EventMsgExtension::kNone: break;
  }
  *size = 0;
  return nullptr;
}

// Frees the extension object of one of our metas (its type is the meta's objType).
void free_extension(NvDsEventMsgMeta *meta) {
  if (meta->extMsg == nullptr) return;
#define DSNODE_FREE(name) g_free(from->name);
  if (meta->objType == NVDS_OBJECT_TYPE_VEHICLE) {
    auto *from = static_cast<NvDsVehicleObject *>(meta->extMsg);
    DSNODE_EVENT_MSG_VEHICLE(DSNODE_FREE)
  } else if (meta->objType == NVDS_OBJECT_TYPE_PERSON) {
    auto *from = static_cast<NvDsPersonObject *>(meta->extMsg);
    DSNODE_EVENT_MSG_PERSON(DSNODE_FREE)
  } else if (meta->objType == NVDS_OBJECT_TYPE_FACE) {
    auto *from = static_cast<NvDsFaceObject *>(meta->extMsg);
    DSNODE_EVENT_MSG_FACE(DSNODE_FREE)
  }
#undef DSNODE_FREE
  g_free(meta->extMsg);
  meta->extMsg = nullptr;
  meta->extMsgSize = 0;
}

}  // namespace

NvDsEventMsgMeta *new_event_msg_meta(const EventMsg &msg) {
  auto *meta = static_cast<NvDsEventMsgMeta *>(g_malloc0(sizeof(NvDsEventMsgMeta)));
#define DSNODE_TO_DS(name, type, kind) meta->name = static_cast<decltype(meta->name)>(msg.name);
  DSNODE_EVENT_MSG_NUMBERS(DSNODE_TO_DS)
#undef DSNODE_TO_DS
#define DSNODE_TO_DS(name) meta->bbox.name = msg.bbox.name;
  DSNODE_EVENT_MSG_BBOX(DSNODE_TO_DS)
#undef DSNODE_TO_DS
#define DSNODE_TO_DS(name) meta->location.name = msg.location.name;
  DSNODE_EVENT_MSG_LOCATION(DSNODE_TO_DS)
#undef DSNODE_TO_DS
#define DSNODE_TO_DS(name) meta->coordinate.name = msg.coordinate.name;
  DSNODE_EVENT_MSG_COORDINATE(DSNODE_TO_DS)
#undef DSNODE_TO_DS
#define DSNODE_TO_DS(name) meta->name = dup_or_null(msg.name);
  DSNODE_EVENT_MSG_STRINGS(DSNODE_TO_DS)
#undef DSNODE_TO_DS
  if (!msg.objSignature.empty()) {
    meta->objSignature.signature = static_cast<gdouble *>(g_memdup2(msg.objSignature.data(), msg.objSignature.size() * sizeof(gdouble)));
    meta->objSignature.size = static_cast<guint>(msg.objSignature.size());
  }
  meta->extMsg = new_extension(msg, &meta->extMsgSize);
  alive.fetch_add(1, std::memory_order_relaxed);
  return meta;
}

void read_event_msg_meta(const NvDsEventMsgMeta &meta, EventMsg *out) {
  *out = EventMsg();
#define DSNODE_FROM_DS(name, type, kind) out->name = static_cast<type>(meta.name);
  DSNODE_EVENT_MSG_NUMBERS(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
#define DSNODE_FROM_DS(name) out->bbox.name = meta.bbox.name;
  DSNODE_EVENT_MSG_BBOX(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
#define DSNODE_FROM_DS(name) out->location.name = meta.location.name;
  DSNODE_EVENT_MSG_LOCATION(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
#define DSNODE_FROM_DS(name) out->coordinate.name = meta.coordinate.name;
  DSNODE_EVENT_MSG_COORDINATE(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
#define DSNODE_FROM_DS(name) out->name = read_string(meta.name);
  DSNODE_EVENT_MSG_STRINGS(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
  if (meta.objSignature.signature != nullptr)
    out->objSignature.assign(meta.objSignature.signature, meta.objSignature.signature + meta.objSignature.size);
  if (meta.extMsg == nullptr) return;
  if (meta.objType == NVDS_OBJECT_TYPE_VEHICLE && meta.extMsgSize >= sizeof(NvDsVehicleObject)) {
    const auto *from = static_cast<const NvDsVehicleObject *>(meta.extMsg);
    out->extension = EventMsgExtension::kVehicle;
#define DSNODE_FROM_DS(name) out->vehicle.name = read_string(from->name);
    DSNODE_EVENT_MSG_VEHICLE(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
  } else if (meta.objType == NVDS_OBJECT_TYPE_PERSON && meta.extMsgSize >= sizeof(NvDsPersonObject)) {
    const auto *from = static_cast<const NvDsPersonObject *>(meta.extMsg);
    out->extension = EventMsgExtension::kPerson;
#define DSNODE_FROM_DS(name) out->person.name = read_string(from->name);
    DSNODE_EVENT_MSG_PERSON(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
    out->person.age = from->age;
  } else if (meta.objType == NVDS_OBJECT_TYPE_FACE && meta.extMsgSize >= sizeof(NvDsFaceObject)) {
    const auto *from = static_cast<const NvDsFaceObject *>(meta.extMsg);
    out->extension = EventMsgExtension::kFace;
#define DSNODE_FROM_DS(name) out->face.name = read_string(from->name);
    DSNODE_EVENT_MSG_FACE(DSNODE_FROM_DS)
#undef DSNODE_FROM_DS
    out->face.age = from->age;
  }
}

// Our metas hold only what the model has: the copy is a new meta from what the original reads as.
gpointer event_msg_meta_copy(gpointer user_meta, gpointer) {
  const auto *from = static_cast<const NvDsEventMsgMeta *>(static_cast<NvDsUserMeta *>(user_meta)->user_meta_data);
  EventMsg msg;
  read_event_msg_meta(*from, &msg);
  return new_event_msg_meta(msg);
}

void event_msg_meta_release(gpointer user_meta, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(user_meta);
  auto *meta = static_cast<NvDsEventMsgMeta *>(user->user_meta_data);
  if (meta == nullptr) return;
#define DSNODE_FREE(name) g_free(meta->name);
  DSNODE_EVENT_MSG_STRINGS(DSNODE_FREE)
#undef DSNODE_FREE
  g_free(meta->objSignature.signature);
  free_extension(meta);
  g_free(meta);
  user->user_meta_data = nullptr;
  alive.fetch_sub(1, std::memory_order_relaxed);
}

int64_t event_msgs_alive() { return alive.load(std::memory_order_relaxed); }

}  // namespace dsnode::meta
