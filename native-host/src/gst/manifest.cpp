#include "gst/manifest.h"

#include <gst/gst.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "gst/gst_analytics_meta.h"
#include "gst/isolate_property.h"

namespace dsnode {

using nlohmann::json;

namespace {

// "confidence-threshold" -> "confidenceThreshold" (or "ConfidenceThreshold" with capitalize_first).
void append_camel_case(std::string *out, std::string_view kebab, bool capitalize_first) {
  bool upper = capitalize_first;
  for (char c : kebab) {
    if (c == '-') {
      upper = true;
      continue;
    }
    *out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
}


// JS numbers are doubles: integers beyond 2^53 would silently change on the way to JS.
constexpr int64_t kJsIntegerLimit = int64_t{1} << 53;
constexpr int64_t kJsSafeIntegerMax = kJsIntegerLimit - 1;

// Names a base class already uses: installing them again would shadow GstObject's or
// GstBaseTransform's property and confuse every tool that sets them.
const std::set<std::string, std::less<>> kReservedPropertyNames = {"name", "parent", "qos"};

const int kManifestVersion = 1;

struct PropertyTypeName {
  const char *name;
  PropertyType type;
};

const PropertyTypeName kPropertyTypes[] = {
  // generated: property types (scripts/generate-shared-names.mjs: do not edit)
  {"boolean", PropertyType::Boolean},
  {"int", PropertyType::Int},
  {"int64", PropertyType::Int64},
  {"double", PropertyType::Double},
  {"string", PropertyType::String},
  {"enum", PropertyType::Enum},
  {"double-array", PropertyType::DoubleArray},
  {"int-array", PropertyType::IntArray},
  {"string-array", PropertyType::StringArray},
  // end generated: property types
};

std::string json_quoted(std::string_view s) {
  return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string shown(const json &value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 60)
    text = text.substr(0, 57) + "...";
  return text;
}

// Reads an optional string member. Absent or null leaves *out alone.
bool read_string(const json &object, const char *key, bool required, std::string *out,
    std::string *error) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) {
      *error = std::string("missing \"") + key + "\"";
      return false;
    }
    return true;
  }
  if (!it->is_string()) {
    *error = std::string("\"") + key + "\" must be a string, got " + shown(*it);
    return false;
  }
  *out = it->get<std::string>();
  if (required && out->empty()) {
    *error = std::string("\"") + key + "\" must not be empty";
    return false;
  }
  return true;
}

// JSON integers, and doubles with an integral value (some writers emit 5.0).
bool as_integer(const json &value, int64_t *out) {
  if (value.is_number_integer()) {
    if (value.is_number_unsigned()) {
      uint64_t u = value.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return false;
      *out = static_cast<int64_t>(u);
    } else {
      *out = value.get<int64_t>();
    }
    return true;
  }
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (std::trunc(d) != d || std::fabs(d) > 9.2e18)
      return false;
    *out = static_cast<int64_t>(d);
    return true;
  }
  return false;
}

class PropertyParser {
 public:
  PropertyParser(const json &object, std::string *error) : object_(object), error_(error) {}

  bool parse(PropertySpec *spec) {
    spec_ = spec;
    if (!object_.is_object())
      return fail("is not an object");
    if (!read_string(object_, "name", true, &spec->name, error_))
      return false;
    if (!is_valid_property_name(spec->name))
      return fail("\"name\" " + json_quoted(spec->name) +
          " is not a kebab-case property name (lowercase letters, digits and dashes, "
          "starting with a letter)");
    if (kReservedPropertyNames.count(spec->name))
      return fail("the name is reserved by GstObject/GstBaseTransform");
    if (spec->name == kGstAnalyticsProperty)
      return fail("the name is reserved by the ds-element host (docs/gst-analytics.md)");
    if (spec->name == kIsolateProperty)
      return fail("the name is reserved by the ds-element host (docs/internals/isolates.md)");

    if (!read_string(object_, "jsName", false, &spec->js_name, error_))
      return fail_with_context();
    if (spec->js_name.empty())
      spec->js_name = camel_case(spec->name);
    if (!is_valid_js_name(spec->js_name))
      return fail("\"jsName\" " + json_quoted(spec->js_name) + " is not a JS identifier");

    std::string type_name;
    if (!read_string(object_, "type", true, &type_name, error_))
      return fail_with_context();
    auto type = std::find_if(std::begin(kPropertyTypes), std::end(kPropertyTypes),
        [&](const PropertyTypeName &t) { return type_name == t.name; });
    if (type == std::end(kPropertyTypes))
      return fail("unsupported type " + json_quoted(type_name) +
          " (expected boolean, int, int64, double, string, enum, double-array, int-array "
          "or string-array)");
    spec->type = type->type;

    if (!read_string(object_, "nick", false, &spec->nick, error_) ||
        !read_string(object_, "blurb", false, &spec->blurb, error_))
      return fail_with_context();
    if (spec->nick.empty())
      spec->nick = spec->name;
    if (spec->blurb.empty())
      spec->blurb = spec->nick;

    auto optional = object_.find("optional");
    if (optional != object_.end() && !optional->is_null()) {
      if (!optional->is_boolean())
        return fail("\"optional\" must be a boolean, got " + shown(*optional));
      spec->optional = optional->get<bool>();
    }

    auto def = object_.find("default");
    spec->has_default = def != object_.end() && !def->is_null();
    const json default_value = spec->has_default ? *def : json();
    // GObject has no "unset": gst-inspect would show the type's zero as if it were a default.
    if (!spec->has_default)
      spec->blurb += spec->optional ? " (optional; unset by default)" : " (required: no default)";

    switch (spec->type) {
      case PropertyType::Boolean:
        if (spec->has_default && !default_value.is_boolean())
          return fail("\"default\" must be a boolean, got " + shown(default_value));
        spec->initial_value = spec->has_default ? default_value : json(false);
        return true;
      case PropertyType::Int:
      case PropertyType::Int64:
        return parse_integer(default_value);
      case PropertyType::Double:
        return parse_double(default_value);
      case PropertyType::String:
        if (spec->has_default && !default_value.is_string())
          return fail("\"default\" must be a string, got " + shown(default_value));
        spec->initial_value = default_value;
        return true;
      case PropertyType::Enum:
        return parse_enum(default_value);
      case PropertyType::DoubleArray:
      case PropertyType::IntArray:
      case PropertyType::StringArray:
        return parse_array(default_value);
    }
    return fail("unhandled type");
  }

 private:
  bool fail(const std::string &reason) {
    *error_ = "property " + json_quoted(spec_->name.empty() ? "?" : spec_->name) + ": " + reason;
    return false;
  }

  bool fail_with_context() { return fail(*error_); }

  static std::string camel_case(const std::string &kebab) {
    std::string out;
    append_camel_case(&out, kebab, false);
    return out;
  }

  // Reads minimum/maximum into the spec's integer range, bounded by what the type holds.
  bool parse_integer_range(int64_t lowest, int64_t highest) {
    spec_->integer_minimum = lowest;
    spec_->integer_maximum = highest;
    for (const char *key : {"minimum", "maximum"}) {
      auto it = object_.find(key);
      if (it == object_.end() || it->is_null())
        continue;
      int64_t v;
      if (!as_integer(*it, &v))
        return fail(std::string("\"") + key + "\" must be an integer, got " + shown(*it));
      if (v < lowest || v > highest)
        return fail(std::string("\"") + key + "\" " + std::to_string(v) + " is outside " +
            std::to_string(lowest) + ".." + std::to_string(highest));
      (std::string_view(key) == "minimum" ? spec_->integer_minimum : spec_->integer_maximum) = v;
    }
    if (spec_->integer_minimum > spec_->integer_maximum)
      return fail("\"minimum\" " + std::to_string(spec_->integer_minimum) +
          " is greater than \"maximum\" " + std::to_string(spec_->integer_maximum));
    return true;
  }

  bool parse_double_range() {
    spec_->double_minimum = -std::numeric_limits<double>::max();
    spec_->double_maximum = std::numeric_limits<double>::max();
    for (const char *key : {"minimum", "maximum"}) {
      auto it = object_.find(key);
      if (it == object_.end() || it->is_null())
        continue;
      if (!it->is_number())
        return fail(std::string("\"") + key + "\" must be a number, got " + shown(*it));
      (std::string_view(key) == "minimum" ? spec_->double_minimum : spec_->double_maximum) =
          it->get<double>();
    }
    if (spec_->double_minimum > spec_->double_maximum)
      return fail("\"minimum\" is greater than \"maximum\"");
    return true;
  }

  bool check_integer_value(const json &value, const char *what, int64_t *out) {
    if (!as_integer(value, out))
      return fail(std::string(what) + " must be an integer, got " + shown(value));
    if (*out < spec_->integer_minimum || *out > spec_->integer_maximum)
      return fail(std::string(what) + " " + std::to_string(*out) + " is outside " +
          std::to_string(spec_->integer_minimum) + ".." + std::to_string(spec_->integer_maximum));
    return true;
  }

  bool check_double_value(const json &value, const char *what, double *out) {
    if (!value.is_number())
      return fail(std::string(what) + " must be a number, got " + shown(value));
    *out = value.get<double>();
    if (*out < spec_->double_minimum || *out > spec_->double_maximum)
      return fail(std::string(what) + " " + shown(value) + " is outside the range " +
          shown(spec_->double_minimum) + ".." + shown(spec_->double_maximum));
    return true;
  }

  bool parse_integer(const json &default_value) {
    if (spec_->type == PropertyType::Int) {
      if (!parse_integer_range(std::numeric_limits<int32_t>::min(),
              std::numeric_limits<int32_t>::max()))
        return false;
    } else {
      if (!parse_integer_range(-kJsIntegerLimit, kJsIntegerLimit))
        return false;
      // Unbounded int64 defaults to the JS-safe range so every value reaches JS intact.
      if (object_.find("minimum") == object_.end())
        spec_->integer_minimum = std::max(spec_->integer_minimum, -kJsSafeIntegerMax);
      if (object_.find("maximum") == object_.end())
        spec_->integer_maximum = std::min(spec_->integer_maximum, kJsSafeIntegerMax);
    }
    int64_t value = std::clamp<int64_t>(0, spec_->integer_minimum, spec_->integer_maximum);
    if (spec_->has_default && !check_integer_value(default_value, "\"default\"", &value))
      return false;
    spec_->initial_value = value;
    return true;
  }

  bool parse_double(const json &default_value) {
    if (!parse_double_range())
      return false;
    double value = std::clamp(0.0, spec_->double_minimum, spec_->double_maximum);
    if (spec_->has_default && !check_double_value(default_value, "\"default\"", &value))
      return false;
    spec_->initial_value = value;
    return true;
  }

  bool parse_enum(const json &default_value) {
    auto values = object_.find("values");
    if (values == object_.end() || !values->is_array() || values->empty())
      return fail("an enum needs a non-empty \"values\" array");
    std::set<int> seen_values;
    std::set<std::string> seen_nicks, seen_names;
    for (const json &item : *values) {
      if (!item.is_object())
        return fail("enum value " + shown(item) + " is not an object");
      EnumValue ev;
      auto v = item.find("value");
      int64_t number;
      if (v == item.end() || !as_integer(*v, &number) || number < std::numeric_limits<int>::min() ||
          number > std::numeric_limits<int>::max())
        return fail("enum value " + shown(item) + " needs an integer \"value\" within int32");
      ev.value = static_cast<int>(number);
      if (!read_string(item, "nick", true, &ev.nick, error_) ||
          !read_string(item, "name", false, &ev.name, error_))
        return fail("enum value " + shown(item) + ": " + *error_);
      if (ev.name.empty())
        ev.name = ev.nick;
      if (!seen_values.insert(ev.value).second)
        return fail("enum value " + std::to_string(ev.value) + " appears twice");
      if (!seen_nicks.insert(ev.nick).second)
        return fail("enum nick " + json_quoted(ev.nick) + " appears twice");
      if (!seen_names.insert(ev.name).second)
        return fail("enum name " + json_quoted(ev.name) + " appears twice");
      spec_->enum_values.push_back(std::move(ev));
    }
    if (!spec_->has_default) {
      spec_->initial_value = spec_->enum_values.front().nick;
      return true;
    }
    if (!default_value.is_string())
      return fail("\"default\" must be one of the enum nicks, got " + shown(default_value));
    const std::string nick = default_value.get<std::string>();
    auto found = std::find_if(spec_->enum_values.begin(), spec_->enum_values.end(),
        [&](const EnumValue &ev) { return ev.nick == nick; });
    if (found == spec_->enum_values.end()) {
      std::string nicks;
      for (const EnumValue &ev : spec_->enum_values)
        nicks += (nicks.empty() ? "" : ", ") + ev.nick;
      return fail("\"default\" " + json_quoted(nick) + " is not one of the enum nicks (" + nicks + ")");
    }
    spec_->initial_value = nick;
    return true;
  }

  bool parse_array(const json &default_value) {
    // minimum/maximum, when given, bound the items of numeric arrays.
    if (spec_->type == PropertyType::IntArray &&
        !parse_integer_range(std::numeric_limits<int32_t>::min(),
            std::numeric_limits<int32_t>::max()))
      return false;
    if (spec_->type == PropertyType::DoubleArray && !parse_double_range())
      return false;
    if (!spec_->has_default) {
      spec_->initial_value = json::array();
      return true;
    }
    if (!default_value.is_array())
      return fail("\"default\" must be an array, got " + shown(default_value));
    json items = json::array();
    for (const json &item : default_value) {
      switch (spec_->type) {
        case PropertyType::DoubleArray: {
          double d;
          if (!check_double_value(item, "\"default\" item", &d))
            return false;
          items.push_back(d);
          break;
        }
        case PropertyType::IntArray: {
          int64_t i;
          if (!check_integer_value(item, "\"default\" item", &i))
            return false;
          items.push_back(i);
          break;
        }
        default:
          if (!item.is_string())
            return fail("\"default\" item must be a string, got " + shown(item));
          items.push_back(item);
          break;
      }
    }
    spec_->initial_value = std::move(items);
    return true;
  }

  const json &object_;
  std::string *error_;
  PropertySpec *spec_ = nullptr;
};

// Parses a caps string for a pad template; an unparsable one would only fail at
// registration with a g_critical, far from the manifest that caused it.
bool check_caps(const std::string &text, const char *key, GstCaps **out, std::string *error) {
  *out = gst_caps_from_string(text.c_str());
  if (*out == nullptr) {
    *error = std::string("\"") + key + "\" " + json_quoted(text) + " is not a valid caps string";
    return false;
  }
  return true;
}

bool escapes_directory(const std::string &relative) {
  std::stringstream parts(relative);
  std::string part;
  while (std::getline(parts, part, '/'))
    if (part == "..")
      return true;
  return false;
}

}  // namespace

const char *property_type_name(PropertyType type) {
  for (const PropertyTypeName &t : kPropertyTypes)
    if (t.type == type)
      return t.name;
  return "?";
}

bool is_valid_element_name(std::string_view name) {
  // The SDK's rule (sdk/src/element/declaration.ts), so whatever it builds registers.
  if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z'))
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return false;
  return true;
}

bool is_valid_property_name(std::string_view name) {
  // GObject's canonical names without uppercase (the SDK writes kebab-case).
  return is_valid_element_name(name);
}

bool is_valid_js_name(std::string_view name) {
  if (name.empty())
    return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
    bool digit = c >= '0' && c <= '9';
    if (!(letter || (digit && i > 0)))
      return false;
  }
  return true;
}

std::string element_type_name(std::string_view element_name) {
  std::string out = "DsNode_";
  for (char c : element_name)
    out += c == '-' ? '_' : c;
  return out;
}

std::string enum_type_name(std::string_view element_name, std::string_view property_name) {
  std::string out;
  append_camel_case(&out, element_name, true);
  append_camel_case(&out, property_name, true);
  return out;
}

bool parse_manifest(std::string_view text, Manifest *out, std::string *error) {
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::exception &e) {
    // what() starts with "[json.exception.parse_error.101] ", which tells a user nothing.
    std::string what = e.what();
    size_t bracket = what.find("] ");
    *error = "not valid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2));
    return false;
  }
  if (!root.is_object()) {
    *error = "the top level is not a JSON object";
    return false;
  }

  auto version = root.find("manifestVersion");
  if (version != root.end()) {
    int64_t v;
    if (!as_integer(*version, &v) || v != kManifestVersion) {
      *error = "unsupported \"manifestVersion\" " + shown(*version) + " (this plugin reads " +
          std::to_string(kManifestVersion) + "; rebuild the element with a matching ds-element)";
      return false;
    }
  }

  Manifest m;
  if (!read_string(root, "name", true, &m.name, error))
    return false;
  if (!is_valid_element_name(m.name)) {
    *error = "\"name\" " + json_quoted(m.name) +
        " is not a valid element name (lowercase letters, digits and dashes, starting "
        "with a letter)";
    return false;
  }
  if (!read_string(root, "entry", true, &m.entry, error))
    return false;
  if (m.entry[0] == '/' || escapes_directory(m.entry)) {
    *error = "\"entry\" " + json_quoted(m.entry) + " must be a path inside the element folder";
    return false;
  }
  if (!read_string(root, "longName", false, &m.long_name, error) ||
      !read_string(root, "klass", false, &m.klass, error) ||
      !read_string(root, "description", false, &m.description, error) ||
      !read_string(root, "author", false, &m.author, error) ||
      !read_string(root, "sdkVersion", false, &m.sdk_version, error))
    return false;
  if (auto timeout = root.find("callTimeoutSeconds"); timeout != root.end() && !timeout->is_null()) {
    if (!timeout->is_number() || !(timeout->get<double>() >= 0) || timeout->get<double>() > 86400) {
      *error = "\"callTimeoutSeconds\" must be a number of seconds from 0 (no deadline) to 86400, got " +
          shown(*timeout);
      return false;
    }
    m.call_timeout_s = timeout->get<double>();
  }
  if (m.long_name.empty())
    m.long_name = m.name;
  if (m.klass.empty())
    m.klass = "Filter";
  if (m.description.empty())
    m.description = m.long_name;
  if (m.author.empty())
    m.author = "unknown";

  // DESIGN §8 declares one `caps` for both pads; build output splits it, but accept either.
  std::string both_caps = "ANY";
  if (!read_string(root, "caps", false, &both_caps, error))
    return false;
  m.sink_caps = m.src_caps = both_caps;
  if (!read_string(root, "sinkCaps", false, &m.sink_caps, error) ||
      !read_string(root, "srcCaps", false, &m.src_caps, error))
    return false;
  GstCaps *sink = nullptr, *src = nullptr;
  bool caps_ok = check_caps(m.sink_caps, "sinkCaps", &sink, error) &&
      check_caps(m.src_caps, "srcCaps", &src, error);
  // An in-place element hands the same buffer on: caps no buffer can satisfy on both pads
  // would make the element impossible to link.
  if (caps_ok && !gst_caps_can_intersect(sink, src)) {
    *error = "\"sinkCaps\" and \"srcCaps\" have nothing in common; an in-place element "
        "outputs the caps it receives";
    caps_ok = false;
  }
  if (sink)
    gst_caps_unref(sink);
  if (src)
    gst_caps_unref(src);
  if (!caps_ok)
    return false;

  auto properties = root.find("properties");
  if (properties != root.end() && !properties->is_null()) {
    if (!properties->is_array()) {
      *error = "\"properties\" must be an array";
      return false;
    }
    std::set<std::string> names, js_names;
    for (const json &item : *properties) {
      PropertySpec spec;
      if (!PropertyParser(item, error).parse(&spec))
        return false;
      if (!names.insert(spec.name).second) {
        *error = "property " + json_quoted(spec.name) + " is declared twice";
        return false;
      }
      if (!js_names.insert(spec.js_name).second) {
        *error = "property " + json_quoted(spec.name) + ": \"jsName\" " + json_quoted(spec.js_name) +
            " is used by another property";
        return false;
      }
      m.properties.push_back(std::move(spec));
    }
  }

  *out = std::move(m);
  return true;
}

bool load_manifest(const std::string &file, Manifest *out, std::string *error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    *error = "cannot be read";
    return false;
  }
  // Refused by its size before reading (a 4 GiB sparse file took a minute and 8 GB to be
  // called invalid JSON), and read no further than the cap should it grow meanwhile.
  struct stat st;
  const bool sized = stat(file.c_str(), &st) == 0;
  std::string text;
  if (!sized || static_cast<uint64_t>(st.st_size) <= kMaxManifestBytes) {
    char chunk[65536];
    while (text.size() <= kMaxManifestBytes && in.read(chunk, sizeof chunk).gcount() > 0)
      text.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (text.size() > kMaxManifestBytes || (sized && static_cast<uint64_t>(st.st_size) > kMaxManifestBytes)) {
    const std::string size = sized ? std::to_string(st.st_size) + " bytes" : "larger";
    *error = "it is " + size + ", more than a manifest may be (" + std::to_string(kMaxManifestBytes) +
        " bytes, 4 MiB); `ds-element build` writes a valid one";
    return false;
  }
  if (!parse_manifest(text, out, error))
    return false;

  out->file = file;
  std::string directory = file.substr(0, file.find_last_of('/'));
  if (char *resolved = realpath(directory.c_str(), nullptr)) {
    out->directory = resolved;
    free(resolved);
  } else {
    out->directory = directory;
  }
  out->bundle_path = out->directory + "/" + out->entry;
  // A missing bundle is not a reason to hide the element: the manifest alone describes it, and
  // failing at start() gives the user a pipeline error naming the file instead of "no element".
  return true;

}

}  // namespace dsnode
