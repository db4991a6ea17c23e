// DeepStream's event message (NvDsEventMsgMeta, nvdsmeta_schema.h) in the metadata model: what
// nvmsgconv turns into a message by default (a frame user meta of type NVDS_EVENT_MSG_META, as
// deepstream-test4 attaches). Members carry DeepStream's names, so one copy serves both ways
// (event_msg_deepstream.cpp); the binding reads and writes them under the same names
// (binding/event_msg_binding.cpp). The members are rows of sdk/src/protocol/meta-fields.mjs
// (EVENT_MSG), generated below as the model structs and X-macro lists: its validator, the
// DeepStream copies and the JS reader and builder expand them (TypeScript has the same rows in
// sdk/src/protocol/kind-fields.ts).
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

// generated: event msg lists (npm run generate)
// X(member, C type, kind): NvDsEventMsgMeta's value members. kind: int32, double, objectId
// (guint64 trackingId: JS -1 is UNTRACKED_OBJECT_ID); the enums (type, objType) are int32.
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
// NvDsRect, NvDsGeoLocation, NvDsCoordinate: X(member), in DeepStream's order.
#define DSNODE_EVENT_MSG_BBOX(X) X(top) X(left) X(width) X(height)
#define DSNODE_EVENT_MSG_LOCATION(X) X(lat) X(lon) X(alt)
#define DSNODE_EVENT_MSG_COORDINATE(X) X(x) X(y) X(z)
// The message's strings (gchar*, NULL when empty).
#define DSNODE_EVENT_MSG_STRINGS(X) X(ts) X(objectId) X(sensorStr) X(otherAttrs) X(videoPath)
// The extension objects' strings; `age`, where they have one, is carried beside them.
#define DSNODE_EVENT_MSG_VEHICLE(X) X(type) X(make) X(model) X(color) X(region) X(license)
#define DSNODE_EVENT_MSG_PERSON(X) X(gender) X(hair) X(cap) X(apparel)
#define DSNODE_EVENT_MSG_FACE(X) \
  X(gender) \
  X(hair) \
  X(cap) \
  X(glasses) \
  X(facialhair) \
  X(name) \
  X(eyecolor)
// end generated: event msg lists

// generated: event msg structs (npm run generate)
struct EventMsgRect {  // NvDsRect
  float top = 0, left = 0, width = 0, height = 0;
};
struct EventMsgLocation {  // NvDsGeoLocation
  double lat = 0, lon = 0, alt = 0;
};
struct EventMsgCoordinate {  // NvDsCoordinate
  double x = 0, y = 0, z = 0;
};
struct EventMsgVehicle {  // NvDsVehicleObject
  std::string type, make, model, color, region, license;
};
struct EventMsgPerson {  // NvDsPersonObject
  std::string gender, hair, cap, apparel;
  uint32_t age = 0;
};
struct EventMsgFace {  // NvDsFaceObject
  std::string gender, hair, cap, glasses, facialhair, name, eyecolor;
  uint32_t age = 0;
};

// Which extension object extMsg holds: the one of objType (vehicle, person, face), or none.
enum class EventMsgExtension : int32_t { kNone = 0, kVehicle = 1, kPerson = 2, kFace = 3 };

struct EventMsg {  // NvDsEventMsgMeta
  int32_t type = 0, objType = 0;
  EventMsgRect bbox;
  EventMsgLocation location;
  EventMsgCoordinate coordinate;
  std::vector<double> objSignature;
  int32_t objClassId = 0, sensorId = 0, moduleId = 0, placeId = 0, componentId = 0, frameId = 0;
  double confidence = 0;
  uint64_t trackingId = 0;
  std::string ts, objectId, sensorStr, otherAttrs, videoPath;
  EventMsgExtension extension = EventMsgExtension::kNone;
  EventMsgVehicle vehicle;
  EventMsgPerson person;
  EventMsgFace face;
};
// end generated: event msg structs

// The NvDsObjectType an extension belongs to (-1 for none).
int32_t event_msg_extension_object_type(EventMsgExtension extension);

// Finite numbers, strings without NUL, an extension only on its own object type (nvmsgconv
// reads extMsg as the struct of objType). Names NvDsEventMsgMeta's members.
Status validate_event_msg(const EventMsg &msg);

}  // namespace dsnode::meta

#endif
