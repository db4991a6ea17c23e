// Validation of the event message model (event_msg.h), for both backends.
#include "meta/event_msg.h"

#include <cmath>
#include <string>

#include "meta/validate.h"

namespace dsnode::meta {

namespace {

std::string field(const char *member) { return std::string("NvDsEventMsgMeta.") + member; }

Status finite(double value, const char *member) {
  if (std::isfinite(value)) return Status::Ok();
  return Status::Invalid("Expected a finite number for " + field(member) + " but received " + describe_number(value));
}

Status c_string(const std::string &value, const char *member) {
  const size_t nul = value.find('\0');
  if (nul == std::string::npos) return Status::Ok();
  return Status::Invalid("Expected a string without NUL characters for " + field(member) + " but received a NUL at byte " +
      std::to_string(nul));
}

}  // namespace

int32_t event_msg_extension_object_type(EventMsgExtension extension) {
  switch (extension) {
    case EventMsgExtension::kVehicle: return kObjectTypeVehicle;
    case EventMsgExtension::kPerson: return kObjectTypePerson;
    case EventMsgExtension::kFace: return kObjectTypeFace;
    case EventMsgExtension::kNone: break;
  }
  return -1;
}

Status validate_event_msg(const EventMsg &msg) {
  Status status;
#define DSNODE_CHECK(expression) \
  if (!(status = (expression)).ok()) return status;
  DSNODE_CHECK(finite(msg.confidence, "confidence"))
#define DSNODE_CHECK_BBOX(name) DSNODE_CHECK(finite(msg.bbox.name, "bbox." #name))
  DSNODE_EVENT_MSG_BBOX(DSNODE_CHECK_BBOX)
#define DSNODE_CHECK_LOCATION(name) DSNODE_CHECK(finite(msg.location.name, "location." #name))
  DSNODE_EVENT_MSG_LOCATION(DSNODE_CHECK_LOCATION)
#define DSNODE_CHECK_COORDINATE(name) DSNODE_CHECK(finite(msg.coordinate.name, "coordinate." #name))
  DSNODE_EVENT_MSG_COORDINATE(DSNODE_CHECK_COORDINATE)
  for (double value : msg.objSignature) DSNODE_CHECK(finite(value, "objSignature.signature"))
#define DSNODE_CHECK_STRING(name) DSNODE_CHECK(c_string(msg.name, #name))
  DSNODE_EVENT_MSG_STRINGS(DSNODE_CHECK_STRING)
#define DSNODE_CHECK_VEHICLE(name) DSNODE_CHECK(c_string(msg.vehicle.name, "extMsg (NvDsVehicleObject)." #name))
#define DSNODE_CHECK_PERSON(name) DSNODE_CHECK(c_string(msg.person.name, "extMsg (NvDsPersonObject)." #name))
#define DSNODE_CHECK_FACE(name) DSNODE_CHECK(c_string(msg.face.name, "extMsg (NvDsFaceObject)." #name))
  switch (msg.extension) {
    case EventMsgExtension::kVehicle: DSNODE_EVENT_MSG_VEHICLE(DSNODE_CHECK_VEHICLE) break;
    case EventMsgExtension::kPerson: DSNODE_EVENT_MSG_PERSON(DSNODE_CHECK_PERSON) break;
    case EventMsgExtension::kFace: DSNODE_EVENT_MSG_FACE(DSNODE_CHECK_FACE) break;
    case EventMsgExtension::kNone: break;
  }
#undef DSNODE_CHECK_FACE
#undef DSNODE_CHECK_PERSON
#undef DSNODE_CHECK_VEHICLE
#undef DSNODE_CHECK_STRING
#undef DSNODE_CHECK_COORDINATE
#undef DSNODE_CHECK_LOCATION
#undef DSNODE_CHECK_BBOX
#undef DSNODE_CHECK
  const int32_t owner = event_msg_extension_object_type(msg.extension);
  if (owner >= 0 && owner != msg.objType) {
    return Status::Invalid("Expected objType " + std::to_string(owner) + " (the type of its extension object) for " +
        field("objType") + " but received " + std::to_string(msg.objType));
  }
  return Status::Ok();
}

}  // namespace dsnode::meta
