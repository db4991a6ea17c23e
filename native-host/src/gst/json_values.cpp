#include "gst/json_values.h"

#include <cmath>
#include <limits>

namespace dsnode {

using nlohmann::json;

namespace {

// GstClockTime/offset fields use all ones for "none"; JS sees -1 like in the frame info.
json clock_value(guint64 value) {
  if (value == GST_CLOCK_TIME_NONE)
    return -1;
  return value;
}

json segment_to_json(const GstSegment *segment) {
  if (segment == nullptr)
    return nullptr;
  return {
    {"format", gst_format_get_name(segment->format)},
    {"flags", static_cast<unsigned>(segment->flags)},
    {"rate", segment->rate},
    {"applied-rate", segment->applied_rate},
    {"base", clock_value(segment->base)},
    {"offset", clock_value(segment->offset)},
    {"start", clock_value(segment->start)},
    {"stop", clock_value(segment->stop)},
    {"time", clock_value(segment->time)},
    {"position", clock_value(segment->position)},
    {"duration", clock_value(segment->duration)},
  };
}

json serialized(const GValue *value) {
  gchar *text = gst_value_serialize(value);
  if (text == nullptr)
    return nullptr;
  json out = text;
  g_free(text);
  return out;
}

json enum_nick(const GValue *value) {
  GEnumClass *klass = static_cast<GEnumClass *>(g_type_class_ref(G_VALUE_TYPE(value)));
  GEnumValue *ev = g_enum_get_value(klass, g_value_get_enum(value));
  json out = ev != nullptr ? json(ev->value_nick) : json(g_value_get_enum(value));
  g_type_class_unref(klass);
  return out;
}

gboolean add_field(GQuark field, const GValue *value, gpointer user_data) {
  (*static_cast<json *>(user_data))[g_quark_to_string(field)] = gvalue_to_json(value);
  return TRUE;
}

json double_json(double d) {
  // JSON has no NaN/Infinity; null is what JSON.stringify would give too.
  if (!std::isfinite(d))
    return nullptr;
  return d;
}

// JSON integers that fit int64 (nlohmann keeps large positive ones as uint64).
bool as_int64(const json &value, int64_t *out) {
  if (!value.is_number_integer())
    return false;
  if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(G_MAXINT64))
    return false;
  *out = value.get<int64_t>();
  return true;
}

bool expect(bool condition, const std::string &what, const json &value, std::string *error) {
  if (!condition)
    *error = "Expected " + what + " but received " + dump_json(value);
  return condition;
}

}  // namespace

std::string dump_json(const json &value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

json gvalue_to_json(const GValue *value) {
  if (value == nullptr || !G_IS_VALUE(value))
    return nullptr;
  GType type = G_VALUE_TYPE(value);
  switch (G_TYPE_FUNDAMENTAL(type)) {
    case G_TYPE_BOOLEAN:
      return static_cast<bool>(g_value_get_boolean(value));
    case G_TYPE_CHAR:
      return g_value_get_schar(value);
    case G_TYPE_UCHAR:
      return g_value_get_uchar(value);
    case G_TYPE_INT:
      return g_value_get_int(value);
    case G_TYPE_UINT:
      return g_value_get_uint(value);
    case G_TYPE_LONG:
      return g_value_get_long(value);
    case G_TYPE_ULONG:
      return g_value_get_ulong(value);
    case G_TYPE_INT64:
      return g_value_get_int64(value);
    case G_TYPE_UINT64:
      return g_value_get_uint64(value);
    case G_TYPE_FLOAT:
      return double_json(g_value_get_float(value));
    case G_TYPE_DOUBLE:
      return double_json(g_value_get_double(value));
    case G_TYPE_STRING: {
      const gchar *s = g_value_get_string(value);
      return s != nullptr ? json(s) : json(nullptr);
    }
    case G_TYPE_ENUM:
      return enum_nick(value);
    default:
      break;
  }
  if (type == GST_TYPE_FRACTION)
    return {{"num", gst_value_get_fraction_numerator(value)},
      {"den", gst_value_get_fraction_denominator(value)}};
  if (type == GST_TYPE_ARRAY || type == GST_TYPE_LIST) {
    json out = json::array();
    bool is_array = type == GST_TYPE_ARRAY;
    guint n = is_array ? gst_value_array_get_size(value) : gst_value_list_get_size(value);
    for (guint i = 0; i < n; ++i)
      out.push_back(gvalue_to_json(is_array ? gst_value_array_get_value(value, i)
              : gst_value_list_get_value(value, i)));
    return out;
  }
  if (type == GST_TYPE_STRUCTURE)
    return structure_to_json(gst_value_get_structure(value));
  if (type == GST_TYPE_CAPS) {
    const GstCaps *caps = gst_value_get_caps(value);
    return caps != nullptr ? caps_to_json(caps) : json(nullptr);
  }
  if (type == GST_TYPE_SEGMENT)
    return segment_to_json(static_cast<const GstSegment *>(g_value_get_boxed(value)));
  // Ranges, flags, bitmasks, buffers...: the text gst-launch would accept is the most useful
  // thing JS can get without a type of its own for each.
  return serialized(value);
}

bool json_to_gvalue(const json &value, GParamSpec *pspec, GValue *out, std::string *error) {
  GType type = pspec->value_type;
  const std::string name = g_param_spec_get_name(pspec);
  g_value_init(out, type);
  bool ok = false;
  switch (G_TYPE_FUNDAMENTAL(type)) {
    case G_TYPE_BOOLEAN:
      if ((ok = expect(value.is_boolean(), "boolean for " + name, value, error)))
        g_value_set_boolean(out, value.get<bool>());
      break;
    case G_TYPE_INT: {
      int64_t number = 0;
      ok = expect(as_int64(value, &number) && number >= G_MININT && number <= G_MAXINT,
          "32-bit integer for " + name, value, error);
      if (ok)
        g_value_set_int(out, static_cast<gint>(number));
      break;
    }
    case G_TYPE_INT64: {
      int64_t number = 0;
      if ((ok = expect(as_int64(value, &number), "integer for " + name, value, error)))
        g_value_set_int64(out, number);
      break;
    }
    case G_TYPE_DOUBLE:
      if ((ok = expect(value.is_number(), "number for " + name, value, error)))
        g_value_set_double(out, value.get<double>());
      break;
    case G_TYPE_STRING:
      ok = expect(value.is_string() || value.is_null(), "string for " + name, value, error);
      if (ok)
        g_value_set_string(out, value.is_null() ? nullptr : value.get<std::string>().c_str());
      break;
    case G_TYPE_ENUM: {
      GEnumClass *klass = static_cast<GEnumClass *>(g_type_class_ref(type));
      GEnumValue *ev = nullptr;
      if (value.is_string()) {
        const std::string text = value.get<std::string>();
        ev = g_enum_get_value_by_nick(klass, text.c_str());
        if (ev == nullptr)
          ev = g_enum_get_value_by_name(klass, text.c_str());
      } else if (value.is_number_integer()) {
        ev = g_enum_get_value(klass, static_cast<gint>(value.get<int64_t>()));
      }
      std::string nicks;
      for (guint i = 0; i < klass->n_values; ++i)
        nicks += std::string(i ? ", " : "") + klass->values[i].value_nick;
      if ((ok = expect(ev != nullptr, "one of " + nicks + " for " + name, value, error)))
        g_value_set_enum(out, ev->value);
      g_type_class_unref(klass);
      break;
    }
    default:
      if (type == GST_TYPE_ARRAY && GST_IS_PARAM_SPEC_ARRAY_LIST(pspec)) {
        GParamSpec *item_spec = GST_PARAM_SPEC_ARRAY_LIST(pspec)->element_spec;
        if (!(ok = expect(value.is_array() && item_spec != nullptr, "array for " + name, value,
                  error)))
          break;
        for (const json &item : value) {
          GValue item_value = G_VALUE_INIT;
          if (!json_to_gvalue(item, item_spec, &item_value, error)) {
            *error = "Expected array of " + std::string(g_type_name(item_spec->value_type)) +
                " for " + name + " but received " + dump_json(value);
            ok = false;
            break;
          }
          gst_value_array_append_and_take_value(out, &item_value);
        }
        break;
      }
      *error = "unsupported property type " + std::string(g_type_name(type)) + " for " + name;
      break;
  }
  if (!ok)
    g_value_unset(out);
  return ok;
}

json structure_to_json(const GstStructure *structure) {
  if (structure == nullptr)
    return nullptr;
  json fields = json::object();
  gst_structure_foreach(structure, add_field, &fields);
  return {{"name", gst_structure_get_name(structure)}, {"fields", std::move(fields)}};
}

json caps_to_json(const GstCaps *caps) {
  json out = json::object();
  gchar *text = gst_caps_to_string(caps);
  out["string"] = text != nullptr ? text : "";
  g_free(text);
  json structures = json::array();
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    json s = structure_to_json(gst_caps_get_structure(caps, i));
    GstCapsFeatures *features = gst_caps_get_features(caps, i);
    if (features != nullptr && !gst_caps_features_is_equal(features,
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
      gchar *features_text = gst_caps_features_to_string(features);
      s["features"] = features_text;
      g_free(features_text);
    }
    structures.push_back(std::move(s));
  }
  out["structures"] = std::move(structures);
  return out;
}

json event_to_json(GstEvent *event) {
  return {{"type", gst_event_type_get_name(GST_EVENT_TYPE(event))},
    {"structure", structure_to_json(gst_event_get_structure(event))}};
}

}  // namespace dsnode
