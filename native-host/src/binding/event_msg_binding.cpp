// addEventMsg / readEventMsg (event_msg_binding.h): NativeEventMsg <-> meta::EventMsg, member by
// member from the X-macro lists of meta/event_msg.h.
#include "binding/event_msg_binding.h"

#include <cstring>
#include <limits>
#include <string>

#include "binding/meta_call.h"
#include "meta/event_msg.h"

#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames on the JS thread"
#endif

namespace dsnode::metabind {

namespace {

constexpr uint64_t kUntracked = std::numeric_limits<uint64_t>::max();  // UNTRACKED_OBJECT_ID

bool read_number(FieldReader& in, const char* key, int32_t* out) { return in.integer(key, key, out); }
bool read_number(FieldReader& in, const char* key, double* out) { return in.number(key, key, out); }
bool read_number(FieldReader& in, const char* key, float* out) { return in.real(key, key, out); }
// trackingId: -1 is UNTRACKED_OBJECT_ID, as ObjectMeta.objectId.
bool read_number(FieldReader& in, const char* key, uint64_t* out) {
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
#define DSNODE_READ(name, type, kind) \
  if (!read_number(in, #name, &out->name)) return false;
  DSNODE_EVENT_MSG_NUMBERS(DSNODE_READ)
#undef DSNODE_READ
#define DSNODE_READ(name) \
  if (!in.string(#name, #name, &out->name)) return false;
  DSNODE_EVENT_MSG_STRINGS(DSNODE_READ)
#undef DSNODE_READ
  napi_value object;
  bool present = false;
  Path path{"NvDsEventMsgMeta"};
  std::string prefix;
  // A nested struct's members, named NvDsEventMsgMeta.<key>.<member> in messages.
#define DSNODE_NESTED(key, optional, LIST, READ)                            \
  if (!member(in, #key, &object, optional, &present)) return false;       \
  if (present) {                                                            \
    prefix = std::string("NvDsEventMsgMeta.") + #key;                       \
    path.root = prefix.c_str();                                             \
    FieldReader sub(env, object, path);                                     \
    LIST(READ)                                                              \
  }
#define DSNODE_READ_BBOX(name) if (!read_number(sub, #name, &out->bbox.name)) return false;
#define DSNODE_READ_LOCATION(name) if (!read_number(sub, #name, &out->location.name)) return false;
#define DSNODE_READ_COORDINATE(name) if (!read_number(sub, #name, &out->coordinate.name)) return false;
  DSNODE_NESTED(bbox, false, DSNODE_EVENT_MSG_BBOX, DSNODE_READ_BBOX)
  DSNODE_NESTED(location, false, DSNODE_EVENT_MSG_LOCATION, DSNODE_READ_LOCATION)
  DSNODE_NESTED(coordinate, false, DSNODE_EVENT_MSG_COORDINATE, DSNODE_READ_COORDINATE)
  int extensions = 0;
#define DSNODE_READ_VEHICLE(name) if (!sub.string(#name, #name, &out->vehicle.name)) return false;
#define DSNODE_READ_PERSON(name) if (!sub.string(#name, #name, &out->person.name)) return false;
#define DSNODE_READ_FACE(name) if (!sub.string(#name, #name, &out->face.name)) return false;
  DSNODE_NESTED(vehicle, true, DSNODE_EVENT_MSG_VEHICLE, DSNODE_READ_VEHICLE)
  if (present) { out->extension = meta::EventMsgExtension::kVehicle; ++extensions; }
  DSNODE_NESTED(person, true, DSNODE_EVENT_MSG_PERSON, DSNODE_READ_PERSON)
  if (present) {
    FieldReader sub(env, object, path);
    if (!sub.integer("age", "age", &out->person.age)) return false;
    out->extension = meta::EventMsgExtension::kPerson;
    ++extensions;
  }
  DSNODE_NESTED(face, true, DSNODE_EVENT_MSG_FACE, DSNODE_READ_FACE)
  if (present) {
    FieldReader sub(env, object, path);
    if (!sub.integer("age", "age", &out->face.age)) return false;
    out->extension = meta::EventMsgExtension::kFace;
    ++extensions;
  }
#undef DSNODE_READ_FACE
#undef DSNODE_READ_PERSON
#undef DSNODE_READ_VEHICLE
#undef DSNODE_READ_COORDINATE
#undef DSNODE_READ_LOCATION
#undef DSNODE_READ_BBOX
#undef DSNODE_NESTED
  if (extensions > 1) {
    throw_error(env, ErrorKind::kRange,
        "Expected at most one of vehicle, person and face for NvDsEventMsgMeta.extMsg but received " +
            std::to_string(extensions));
    return false;
  }
  void* data = nullptr;
  size_t length = 0;
  if (!in.get("objSignature", &object) ||
      !read_typed_array(env, object, FieldName(root, "objSignature"), napi_float64_array, &data, &length)) {
    return false;
  }
  const double* signature = static_cast<const double*>(data);
  out->objSignature.assign(signature, signature + length);
  return true;  // the backend's add_event_msg validates it (meta/event_msg.cpp)
}

napi_value event_msg_value(napi_env env, const meta::EventMsg& msg) {
  ObjectBuilder value(env);
#define DSNODE_BUILD(name, type, kind) value.number(#name, number_of(msg.name));
  DSNODE_EVENT_MSG_NUMBERS(DSNODE_BUILD)
#undef DSNODE_BUILD
#define DSNODE_BUILD(name) value.string(#name, msg.name);
  DSNODE_EVENT_MSG_STRINGS(DSNODE_BUILD)
#undef DSNODE_BUILD
  ObjectBuilder bbox(env), location(env), coordinate(env);
#define DSNODE_BUILD(name) bbox.number(#name, msg.bbox.name);
  DSNODE_EVENT_MSG_BBOX(DSNODE_BUILD)
#undef DSNODE_BUILD
#define DSNODE_BUILD(name) location.number(#name, msg.location.name);
  DSNODE_EVENT_MSG_LOCATION(DSNODE_BUILD)
#undef DSNODE_BUILD
#define DSNODE_BUILD(name) coordinate.number(#name, msg.coordinate.name);
  DSNODE_EVENT_MSG_COORDINATE(DSNODE_BUILD)
#undef DSNODE_BUILD
  napi_value signature = nullptr;
  napi_value signature_buffer = nullptr;
  void* signature_data = nullptr;
  const size_t signature_bytes = msg.objSignature.size() * sizeof(double);
  if (napi_create_arraybuffer(env, signature_bytes, &signature_data, &signature_buffer) != napi_ok ||
      napi_create_typedarray(env, napi_float64_array, msg.objSignature.size(), signature_buffer, 0, &signature) != napi_ok) {
    return nullptr;
  }
  if (signature_bytes > 0) std::memcpy(signature_data, msg.objSignature.data(), signature_bytes);
  napi_value vehicle = make_null(env), person = make_null(env), face = make_null(env);
  if (msg.extension == meta::EventMsgExtension::kVehicle) {
    ObjectBuilder ext(env);
#define DSNODE_BUILD(name) ext.string(#name, msg.vehicle.name);
    DSNODE_EVENT_MSG_VEHICLE(DSNODE_BUILD)
#undef DSNODE_BUILD
    vehicle = ext.value();
  } else if (msg.extension == meta::EventMsgExtension::kPerson) {
    ObjectBuilder ext(env);
#define DSNODE_BUILD(name) ext.string(#name, msg.person.name);
    DSNODE_EVENT_MSG_PERSON(DSNODE_BUILD)
#undef DSNODE_BUILD
    person = ext.number("age", msg.person.age).value();
  } else if (msg.extension == meta::EventMsgExtension::kFace) {
    ObjectBuilder ext(env);
#define DSNODE_BUILD(name) ext.string(#name, msg.face.name);
    DSNODE_EVENT_MSG_FACE(DSNODE_BUILD)
#undef DSNODE_BUILD
    face = ext.number("age", msg.face.age).value();
  }
  if (vehicle == nullptr || person == nullptr || face == nullptr) return nullptr;
  return value.set("bbox", bbox.value()).set("location", location.value()).set("coordinate", coordinate.value())
      .set("objSignature", signature).set("vehicle", vehicle).set("person", person).set("face", face)
      .value();
}

}  // namespace

napi_value add_event_msg(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  meta::EventMsg msg;
  if (!args.ok || !parse_event_msg(env, args[3], &msg)) return nullptr;
  return attach_user_meta(env, args.id, args[1], args[2],
      [&](meta::Batch* batch, meta::UserMetaLevel level, void* owner, meta::UserHandle* created) {
        return batch->add_event_msg(level, owner, msg, created);
      }, "addEventMsg");
}

napi_value read_event_msg(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "readEventMsg");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t index = 0;
  meta::UserHandle user;
  if (!read_live(env, call.users, kUserKind, args[1], "userIndex", "readEventMsg", &index, &user)) return nullptr;
  meta::EventMsg msg;
  if (!call.batch->read_event_msg(user, &msg)) {
    return throw_error(env, ErrorKind::kState,
        "Expected an event message user meta (NVDS_EVENT_MSG_META) for readEventMsg but received user meta index " +
            std::to_string(index) + " of another type");
  }
  scope.unlock();
  return event_msg_value(env, msg);
}

}  // namespace dsnode::metabind
