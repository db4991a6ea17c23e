// NvDsEventMsgMeta to and from the model (event_msg_deepstream.h says how it is allocated).
#include "meta/event_msg_deepstream.h"

#include "meta/deepstream_copies.h"

#include <atomic>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <vector>

namespace dsnode::meta {

namespace {

std::atomic<int64_t> alive{0};

// The strings NvDsEventMsgMeta owns (g_strdup'd, NULL when empty) and the model's, one overload
// per direction (NULL reads as empty).
void copy_string(const std::string &from, gchar **to) { *to = dup_or_null(from); }
void copy_string(const gchar *from, std::string *to) { *to = from != nullptr ? from : ""; }

// NvDsEventMsgMeta's members to the model and back, from event_msg.h's lists: the model has
// DeepStream's names, so one copy serves both ways (into a zeroed meta: nothing to free). The
// signature and the extension object are the callers'.
template <typename From, typename To>
void copy_event_msg(const From &from, To *to) {
#define DSNODE_NUMBER(name, type, kind) to->name = static_cast<decltype(to->name)>(from.name);
#define DSNODE_BBOX(name) to->bbox.name = from.bbox.name;
#define DSNODE_LOCATION(name) to->location.name = from.location.name;
#define DSNODE_COORDINATE(name) to->coordinate.name = from.coordinate.name;
#define DSNODE_STRING(name) copy_string(from.name, &to->name);
  DSNODE_EVENT_MSG_NUMBERS(DSNODE_NUMBER)
  DSNODE_EVENT_MSG_BBOX(DSNODE_BBOX)
  DSNODE_EVENT_MSG_LOCATION(DSNODE_LOCATION)
  DSNODE_EVENT_MSG_COORDINATE(DSNODE_COORDINATE)
  DSNODE_EVENT_MSG_STRINGS(DSNODE_STRING)
#undef DSNODE_NUMBER
#undef DSNODE_BBOX
#undef DSNODE_LOCATION
#undef DSNODE_COORDINATE
#undef DSNODE_STRING
}

// An extension object's string member: the model's and NVIDIA's.
template <typename Model, typename Ds>
struct StringMember {
  std::string Model::*ours;
  gchar *Ds::*theirs;
};

// One extension object (extMsg): which EventMsgExtension and NvDsObjectType it belongs to, where
// EventMsg keeps it, its strings and its age (null for the vehicle, which has none).
template <typename Model, typename Ds>
struct Extension {
  using Theirs = Ds;
  EventMsgExtension kind;
  NvDsObjectType object_type;
  Model EventMsg::*member;
  std::vector<StringMember<Model, Ds>> strings;
  uint32_t Model::*age;
  guint Ds::*ds_age;
};

#define DSNODE_VEHICLE_STRING(name) {&EventMsgVehicle::name, &NvDsVehicleObject::name},
#define DSNODE_PERSON_STRING(name) {&EventMsgPerson::name, &NvDsPersonObject::name},
#define DSNODE_FACE_STRING(name) {&EventMsgFace::name, &NvDsFaceObject::name},
const std::tuple<Extension<EventMsgVehicle, NvDsVehicleObject>, Extension<EventMsgPerson, NvDsPersonObject>,
    Extension<EventMsgFace, NvDsFaceObject>>
    kExtensions{
        {EventMsgExtension::kVehicle, NVDS_OBJECT_TYPE_VEHICLE, &EventMsg::vehicle,
            {DSNODE_EVENT_MSG_VEHICLE(DSNODE_VEHICLE_STRING)}, nullptr, nullptr},
        {EventMsgExtension::kPerson, NVDS_OBJECT_TYPE_PERSON, &EventMsg::person,
            {DSNODE_EVENT_MSG_PERSON(DSNODE_PERSON_STRING)}, &EventMsgPerson::age, &NvDsPersonObject::age},
        {EventMsgExtension::kFace, NVDS_OBJECT_TYPE_FACE, &EventMsg::face,
            {DSNODE_EVENT_MSG_FACE(DSNODE_FACE_STRING)}, &EventMsgFace::age, &NvDsFaceObject::age}};
#undef DSNODE_VEHICLE_STRING
#undef DSNODE_PERSON_STRING
#undef DSNODE_FACE_STRING

// Calls visit(extension) for each of kExtensions.
template <typename Visit>
void each_extension(Visit visit) {
  std::apply([&](const auto &...extension) { (visit(extension), ...); }, kExtensions);
}

// msg's extension object as NVIDIA's struct, g_malloc0'd with g_strdup'd strings (null: none).
void *new_extension(const EventMsg &msg, guint *size) {
  void *made = nullptr;
  *size = 0;
  each_extension([&](const auto &extension) {
    if (msg.extension != extension.kind) return;
    using Ds = typename std::decay_t<decltype(extension)>::Theirs;
    const auto &from = msg.*extension.member;
    auto *to = static_cast<Ds *>(g_malloc0(sizeof(Ds)));
    // As NVIDIA's samples make them: every string g_strdup'd, "" included (not NULL).
    for (const auto &string : extension.strings) to->*string.theirs = g_strdup((from.*string.ours).c_str());
    if (extension.age != nullptr) to->*extension.ds_age = from.*extension.age;
    *size = sizeof(Ds);
    made = to;
  });
  return made;
}

// Frees the extension object of one of our metas (its struct is the one of the meta's objType).
void free_extension(NvDsEventMsgMeta *meta) {
  if (meta->extMsg == nullptr) return;
  each_extension([&](const auto &extension) {
    if (meta->objType != extension.object_type) return;
    using Ds = typename std::decay_t<decltype(extension)>::Theirs;
    auto *from = static_cast<Ds *>(meta->extMsg);
    for (const auto &string : extension.strings) g_free(from->*string.theirs);
  });
  g_free(meta->extMsg);
  meta->extMsg = nullptr;
  meta->extMsgSize = 0;
}

// Reads the extension object of objType when extMsgSize covers its struct.
void read_extension(const NvDsEventMsgMeta &meta, EventMsg *out) {
  if (meta.extMsg == nullptr) return;
  each_extension([&](const auto &extension) {
    using Ds = typename std::decay_t<decltype(extension)>::Theirs;
    if (meta.objType != extension.object_type || meta.extMsgSize < sizeof(Ds)) return;
    const auto *from = static_cast<const Ds *>(meta.extMsg);
    auto &to = out->*extension.member;
    out->extension = extension.kind;
    for (const auto &string : extension.strings) copy_string(from->*string.theirs, &(to.*string.ours));
    if (extension.age != nullptr) to.*extension.age = from->*extension.ds_age;
  });
}

}  // namespace

NvDsEventMsgMeta *new_event_msg_meta(const EventMsg &msg) {
  auto *meta = static_cast<NvDsEventMsgMeta *>(g_malloc0(sizeof(NvDsEventMsgMeta)));
  copy_event_msg(msg, meta);
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
  copy_event_msg(meta, out);
  if (meta.objSignature.signature != nullptr)
    out->objSignature.assign(meta.objSignature.signature, meta.objSignature.signature + meta.objSignature.size);
  read_extension(meta, out);
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
