// The event message functions of the binding's `meta` object (meta_kind_functions.h;
// sdk/src/native/event-msg-binding.ts documents the values): addEventMsg(callId, level, owner,
// msg) and readEventMsg(callId, userIndex), NativeEventMsg <-> meta::EventMsg member by member
// from the X-macro lists of meta/event_msg.h. The JS object carries NvDsEventMsgMeta's member names.
#include <limits>
#include <string>

#include "binding/meta_kind_functions.h"
#include "meta/event_msg.h"

namespace dsnode::metabind {

namespace {

constexpr uint64_t kUntracked = std::numeric_limits<uint64_t>::max();  // UNTRACKED_OBJECT_ID

// One member from a JS object, by its type (the JS key is the member's name).
bool read_member(FieldReader& in, const char* key, int32_t* out) { return in.integer(key, key, out); }
bool read_member(FieldReader& in, const char* key, double* out) { return in.number(key, key, out); }
bool read_member(FieldReader& in, const char* key, float* out) { return in.real(key, key, out); }
bool read_member(FieldReader& in, const char* key, std::string* out) { return in.string(key, key, out); }
// trackingId: -1 is UNTRACKED_OBJECT_ID, as ObjectMeta.objectId.
bool read_member(FieldReader& in, const char* key, uint64_t* out) {
  napi_value value;
  int64_t wide = 0;
  if (!in.get(key, &value) || !read_integer(in.env(), value, FieldName(in.path(), key), -1, kMaxSafeInteger, &wide)) {
    return false;
  }
  *out = wide < 0 ? kUntracked : static_cast<uint64_t>(wide);
  return true;
}

template <typename T>
double number_of(T value) { return static_cast<double>(value); }
double number_of(uint64_t value) { return value == kUntracked ? -1.0 : static_cast<double>(value); }

// A member object (bbox, location, coordinate, vehicle, ...) read with its own path; `present`
// false (and true returned) when optional and null.
bool member(FieldReader& in, const char* key, napi_value* value, bool optional, bool* present) {
  if (!in.get(key, value)) return false;
  *present = !(optional && is_nullish(in.env(), *value));
  return !*present || read_object(in.env(), *value, FieldName(in.path(), key));
}

bool parse_event_msg(napi_env env, napi_value value, meta::EventMsg* out) {
  const Path root{"NvDsEventMsgMeta"};
  if (!read_object(env, value, FieldName("msg"))) return false;
  FieldReader in(env, value, root);
  // The members of `LIST` (a list of meta/event_msg.h) from `reader` into `target`.
#define DSNODE_READ(name, ...) \
  if (!read_member(reader, #name, &target.name)) return false;
#define DSNODE_READ_ALL(from, into, LIST) \
  {                                       \
    FieldReader& reader = from;           \
    auto& target = into;                  \
    LIST(DSNODE_READ)                     \
  }
  DSNODE_READ_ALL(in, *out, DSNODE_EVENT_MSG_NUMBERS)
  DSNODE_READ_ALL(in, *out, DSNODE_EVENT_MSG_STRINGS)
  napi_value object;
  bool present = false;
  Path path{"NvDsEventMsgMeta"};
  std::string prefix;
  // A nested struct's members, named NvDsEventMsgMeta.<key>.<member> in messages; an optional
  // one (an extension) may be null.
#define DSNODE_NESTED(key, optional, LIST)                            \
  if (!member(in, #key, &object, optional, &present)) return false; \
  if (present) {                                                      \
    prefix = std::string("NvDsEventMsgMeta.") + #key;                 \
    path.root = prefix.c_str();                                       \
    FieldReader sub(env, object, path);                               \
    DSNODE_READ_ALL(sub, out->key, LIST)                              \
  }
  DSNODE_NESTED(bbox, false, DSNODE_EVENT_MSG_BBOX)
  DSNODE_NESTED(location, false, DSNODE_EVENT_MSG_LOCATION)
  DSNODE_NESTED(coordinate, false, DSNODE_EVENT_MSG_COORDINATE)
  // The extension present: its strings, then its age where it has one.
  int extensions = 0;
  auto extension = [&](meta::EventMsgExtension kind, uint32_t* age) {
    if (!present) return true;
    out->extension = kind;
    ++extensions;
    FieldReader sub(env, object, path);
    return age == nullptr || sub.integer("age", "age", age);
  };
  DSNODE_NESTED(vehicle, true, DSNODE_EVENT_MSG_VEHICLE)
  if (!extension(meta::EventMsgExtension::kVehicle, nullptr)) return false;
  DSNODE_NESTED(person, true, DSNODE_EVENT_MSG_PERSON)
  if (!extension(meta::EventMsgExtension::kPerson, &out->person.age)) return false;
  DSNODE_NESTED(face, true, DSNODE_EVENT_MSG_FACE)
  if (!extension(meta::EventMsgExtension::kFace, &out->face.age)) return false;
#undef DSNODE_NESTED
#undef DSNODE_READ_ALL
#undef DSNODE_READ
  if (extensions > 1) {
    throw_error(env, ErrorKind::kRange,
        "Expected at most one of vehicle, person and face for NvDsEventMsgMeta.extMsg but received " +
            std::to_string(extensions));
    return false;
  }
  if (!in.vector("objSignature", "objSignature", &out->objSignature)) return false;
  return true;  // the backend's add_event_msg validates it (meta/event_msg.cpp)
}

// One member onto a JS object: numbers (a tracking id of -1 for UNTRACKED_OBJECT_ID), strings.
template <typename T>
void put(ObjectBuilder& object, const char* key, T value) { object.number(key, number_of(value)); }
void put(ObjectBuilder& object, const char* key, const std::string& value) { object.string(key, value); }

napi_value event_msg_value(napi_env env, const meta::EventMsg& msg) {
  ObjectBuilder value(env), bbox(env), location(env), coordinate(env), vehicle(env), person(env), face(env);
  // The members of `LIST` (a list of meta/event_msg.h) of `from` onto `object`.
#define DSNODE_PUT(name, ...) put(object, #name, from.name);
#define DSNODE_BUILD(target, source, LIST) \
  {                                        \
    ObjectBuilder& object = target;        \
    const auto& from = source;             \
    LIST(DSNODE_PUT)                       \
  }
  DSNODE_BUILD(value, msg, DSNODE_EVENT_MSG_NUMBERS)
  DSNODE_BUILD(value, msg, DSNODE_EVENT_MSG_STRINGS)
  DSNODE_BUILD(bbox, msg.bbox, DSNODE_EVENT_MSG_BBOX)
  DSNODE_BUILD(location, msg.location, DSNODE_EVENT_MSG_LOCATION)
  DSNODE_BUILD(coordinate, msg.coordinate, DSNODE_EVENT_MSG_COORDINATE)
  // The extension present (person and face with their age); the others null.
  using meta::EventMsgExtension;
  if (msg.extension == EventMsgExtension::kVehicle) DSNODE_BUILD(vehicle, msg.vehicle, DSNODE_EVENT_MSG_VEHICLE)
  if (msg.extension == EventMsgExtension::kPerson) {
    DSNODE_BUILD(person, msg.person, DSNODE_EVENT_MSG_PERSON)
    person.number("age", msg.person.age);
  }
  if (msg.extension == EventMsgExtension::kFace) {
    DSNODE_BUILD(face, msg.face, DSNODE_EVENT_MSG_FACE)
    face.number("age", msg.face.age);
  }
#undef DSNODE_BUILD
#undef DSNODE_PUT
  auto extension = [&](EventMsgExtension kind, const ObjectBuilder& object) {
    return msg.extension == kind ? object.value() : make_null(env);
  };
  return value.set("bbox", bbox.value()).set("location", location.value()).set("coordinate", coordinate.value())
      .set("objSignature", make_typed_copy(env, msg.objSignature))
      .set("vehicle", extension(EventMsgExtension::kVehicle, vehicle))
      .set("person", extension(EventMsgExtension::kPerson, person))
      .set("face", extension(EventMsgExtension::kFace, face))
      .value();
}

napi_value add_event_msg(napi_env env, napi_callback_info info) {
  return add_user_meta_as(env, info, "addEventMsg", parse_event_msg, &meta::Batch::add_event_msg);
}

napi_value read_event_msg(napi_env env, napi_callback_info info) {
  static constexpr UserMetaKind kKind{"readEventMsg", "an event message user meta (NVDS_EVENT_MSG_META)", Received::kIndex};
  return read_user_meta_copy(env, info, kKind, &meta::Batch::read_event_msg, event_msg_value);
}

}  // namespace

const Export kEventMsgExports[2] = {
    {"addEventMsg", add_event_msg},
    {"readEventMsg", read_event_msg},
};

}  // namespace dsnode::metabind
