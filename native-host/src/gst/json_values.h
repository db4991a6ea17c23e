// GStreamer values as the JSON the runtime hands to JS (and back, for property values).
// Everything here is total: unknown types degrade to their serialized string or null, and
// nothing throws, because these run on streaming threads inside C callbacks.
#ifndef DSNODE_GST_JSON_VALUES_H
#define DSNODE_GST_JSON_VALUES_H

#include <gst/gst.h>

#include <string>

#include <nlohmann/json.hpp>

namespace dsnode {

// Property values: boolean, numbers, string (NULL → null), enum (→ nick), GstValueArray
// (→ array). Structure fields additionally: fraction (→ {"num","den"}), list (→ array),
// nested structure/caps, GstSegment; anything else → gst_value_serialize() text.
nlohmann::json gvalue_to_json(const GValue *value);

// Converts JSON to a value of pspec's type (out must be unset). Enums take a nick, a name or
// the number; arrays take JSON arrays of their item type. Range checks are left to
// g_param_value_validate by the caller. On failure returns false with *error set.
bool json_to_gvalue(const nlohmann::json &json, GParamSpec *pspec, GValue *out,
    std::string *error);

// {"name": ..., "fields": {...}}
nlohmann::json structure_to_json(const GstStructure *structure);

// {"string": gst_caps_to_string(), "structures": [...]}; "features" per structure when not
// plain system memory (e.g. "memory:NVMM").
nlohmann::json caps_to_json(const GstCaps *caps);

// {"type": "eos"|"flush-start"|..., "structure": {...}|null}; a segment event carries the
// segment as a "segment" structure.
nlohmann::json event_to_json(GstEvent *event);

// Compact text; invalid UTF-8 is replaced instead of throwing.
std::string dump_json(const nlohmann::json &json);

}  // namespace dsnode

#endif
