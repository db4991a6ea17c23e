// DeepStream's event message (NvDsEventMsgMeta, nvdsmeta_schema.h) in the metadata model: what
// nvmsgconv turns into a message by default (a frame user meta of type NVDS_EVENT_MSG_META, as
// deepstream-test4 attaches). Members carry DeepStream's names, so one copy serves both ways
// (event_msg_deepstream.cpp); the binding reads and writes them under the same names
// (binding/event_msg_binding.cpp). The fields are listed once, below, as X-macros: the model
// struct, its validator, the DeepStream copies and the JS reader and builder are made from them
// (sdk/src/metadata/event-msg-meta.ts is the TypeScript list, with each field's TSDoc).
//
// Strings: empty means absent (NULL in DeepStream) for the message's own strings; the strings of
// an extension object are always allocated, as deepstream-test4 does.
#ifndef DSNODE_META_EVENT_MSG_H
#define DSNODE_META_EVENT_MSG_H

#include <cstdint>
#include <string>
#include <vector>

#include "meta/batch.h"

namespace dsnode::meta {

inline constexpr int32_t kMetaTypeEventMsg = 9;  // NVDS_EVENT_MSG_META (nvdsmeta.h enum order)

// NvDsObjectType values whose extension object (extMsg) the model carries.
inline constexpr int32_t kObjectTypeVehicle = 0;  // NVDS_OBJECT_TYPE_VEHICLE: NvDsVehicleObject
inline constexpr int32_t kObjectTypePerson = 1;   // NVDS_OBJECT_TYPE_PERSON: NvDsPersonObject
inline constexpr int32_t kObjectTypeFace = 2;     // NVDS_OBJECT_TYPE_FACE: NvDsFaceObject

// X(struct, member, C type, kind): NvDsEventMsgMeta's value members. kind: int32, float, double,
// objectId (guint64 trackingId: JS -1 is UNTRACKED_OBJECT_ID).
#define DSNODE_EVENT_MSG_NUMBERS(X) \
  X(type, int32_t, int32) \
  X(objType, int32_t, int32) \
  X(objClassId, int32_t, int32) \
  X(sensorId, int32_t, int32) \
  X(moduleId, int32_t, int32) \
  X(placeId, int32_t, int32) \
  X(componentId, int32_t, int32) \
  X(frameId, int32_t, int32) \
  X(confidence, double, double) \
  X(trackingId, uint64_t, objectId)
// NvDsRect (top first, as DeepStream declares it), NvDsGeoLocation, NvDsCoordinate.
#define DSNODE_EVENT_MSG_BBOX(X) X(top) X(left) X(width) X(height)
#define DSNODE_EVENT_MSG_LOCATION(X) X(lat) X(lon) X(alt)
#define DSNODE_EVENT_MSG_COORDINATE(X) X(x) X(y) X(z)
// The message's strings (gchar*, NULL when empty).
#define DSNODE_EVENT_MSG_STRINGS(X) X(ts) X(objectId) X(sensorStr) X(otherAttrs) X(videoPath)
// The extension objects: their strings, then `age` where they have one.
#define DSNODE_EVENT_MSG_VEHICLE(X) X(type) X(make) X(model) X(color) X(region) X(license)
#define DSNODE_EVENT_MSG_PERSON(X) X(gender) X(hair) X(cap) X(apparel)
#define DSNODE_EVENT_MSG_FACE(X) X(gender) X(hair) X(cap) X(glasses) X(facialhair) X(name) X(eyecolor)

#define DSNODE_EVENT_MSG_STRING_MEMBER(name) std::string name;

struct EventMsgRect {
  float top = 0, left = 0, width = 0, height = 0;
};
struct EventMsgLocation {  // NvDsGeoLocation
  double lat = 0, lon = 0, alt = 0;
};
struct EventMsgCoordinate {  // NvDsCoordinate
  double x = 0, y = 0, z = 0;
};
struct EventMsgVehicle {
  DSNODE_EVENT_MSG_VEHICLE(DSNODE_EVENT_MSG_STRING_MEMBER)
};
struct EventMsgPerson {
  DSNODE_EVENT_MSG_PERSON(DSNODE_EVENT_MSG_STRING_MEMBER)
  uint32_t age = 0;
};
struct EventMsgFace {
  DSNODE_EVENT_MSG_FACE(DSNODE_EVENT_MSG_STRING_MEMBER)
  uint32_t age = 0;
};

// Which extension object extMsg holds: the one of objType (vehicle, person, face), or none.
enum class EventMsgExtension : int32_t { kNone = 0, kVehicle = 1, kPerson = 2, kFace = 3 };

struct EventMsg {
#define DSNODE_EVENT_MSG_NUMBER_MEMBER(name, type, kind) type name = 0;
  DSNODE_EVENT_MSG_NUMBERS(DSNODE_EVENT_MSG_NUMBER_MEMBER)
#undef DSNODE_EVENT_MSG_NUMBER_MEMBER
  EventMsgRect bbox;
  EventMsgLocation location;
  EventMsgCoordinate coordinate;
  std::vector<double> objSignature;  // NvDsObjectSignature (signature, size)
  DSNODE_EVENT_MSG_STRINGS(DSNODE_EVENT_MSG_STRING_MEMBER)
  EventMsgExtension extension = EventMsgExtension::kNone;
  EventMsgVehicle vehicle;
  EventMsgPerson person;
  EventMsgFace face;
};

// The NvDsObjectType an extension belongs to (-1 for none).
int32_t event_msg_extension_object_type(EventMsgExtension extension);

// Finite numbers, strings without NUL, an extension only on its own object type (nvmsgconv
// reads extMsg as the struct of objType). Names NvDsEventMsgMeta's members.
Status validate_event_msg(const EventMsg &msg);

}  // namespace dsnode::meta

#endif
