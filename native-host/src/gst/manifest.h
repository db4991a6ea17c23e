// element.json (manifest version 1, docs/internals/host-protocol.md) parsed into plain data.
// Parsing and the name rules are pure so they can be unit-tested without a plugin; only
// load_manifest() touches the file system.
#ifndef DSNODE_GST_MANIFEST_H
#define DSNODE_GST_MANIFEST_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace dsnode {

enum class PropertyType {
  Boolean,
  Int,
  Int64,
  Double,
  String,
  Enum,
  DoubleArray,
  IntArray,
  StringArray,
};

// The manifest spelling ("double-array"), for messages.
const char *property_type_name(PropertyType type);

struct EnumValue {
  int value = 0;
  std::string nick;
  std::string name;
};

struct PropertySpec {
  std::string name;             // kebab-case, the GObject property name
  std::string js_name;          // camelCase, the key in props JSON
  PropertyType type = PropertyType::Boolean;
  std::string nick;
  std::string blurb;

  // False when the schema has no default: the property is then required unless `optional`.
  bool has_default = false;
  bool optional = false;

  // Ranges of int/int64/double properties and of the items of numeric arrays.
  int64_t integer_minimum = 0;
  int64_t integer_maximum = 0;
  double double_minimum = 0;
  double double_maximum = 0;

  // The value a fresh instance holds, already validated against the type and range: the
  // manifest's default, or a placeholder inside the range when there is none (GParamSpecs
  // need some default; has_default tells the two apart).
  nlohmann::json initial_value;

  std::vector<EnumValue> enum_values;   // Enum only

  bool is_array() const {
    return type == PropertyType::DoubleArray || type == PropertyType::IntArray ||
        type == PropertyType::StringArray;
  }
};

struct Manifest {
  std::string file;             // path of element.json, for messages
  std::string directory;        // absolute directory holding element.json
  std::string name;
  std::string long_name;
  std::string klass;
  std::string description;
  std::string author;
  std::string sink_caps;
  std::string src_caps;
  std::string entry;            // relative to directory
  std::string bundle_path;      // absolute: directory/entry
  std::string sdk_version;
  // "callTimeoutSeconds": the deadline of each call into the element's JS; negative when the
  // manifest declares none (the runtime's default applies).
  double call_timeout_s = -1;
  std::vector<PropertySpec> properties;
};

// Parses and validates manifest text. On failure returns false with a one-line reason in
// *error; *out is then unspecified. Needs gst_init() (caps strings are parsed).
bool parse_manifest(std::string_view text, Manifest *out, std::string *error);

// The largest element.json read (4 MiB): manifests `ds-element build` writes are a few KB, a
// thousand enum values included; a larger file is refused unread.
inline constexpr size_t kMaxManifestBytes = size_t{4} << 20;

// Reads `file` (at most kMaxManifestBytes), parses it and resolves the entry against the file's directory; fails when
// the entry file does not exist.
bool load_manifest(const std::string &file, Manifest *out, std::string *error);

// Element names: lowercase letters, digits and dashes, starting with a letter (what the SDK
// accepts, and what gst-launch parses as a factory name).
bool is_valid_element_name(std::string_view name);
// GObject canonical property names, kebab-case.
bool is_valid_property_name(std::string_view name);
// JS identifiers (ASCII).
bool is_valid_js_name(std::string_view name);

// "DsNode_frame_counter" for "frame-counter": unique per element name (names have no '_').
std::string element_type_name(std::string_view element_name);
// "FramecounterMode" for framecounter's "mode" (the GEnum of an enum property).
std::string enum_type_name(std::string_view element_name, std::string_view property_name);

}  // namespace dsnode

#endif
