#include "gst/property_notes.h"

#include <glib.h>

#include <mutex>

namespace dsnode {

namespace {

// The shortest text that reads back as `value` (0.25, 1, 1e+300).
std::string shortest(double value) {
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    g_snprintf(text, sizeof text, "%.*g", precision, value);
    if (g_ascii_strtod(text, nullptr) == value) break;
  }
  return text;
}

// "1 to 100", "items from 0 to 1", or empty when the type has no range.
std::string range_of(const PropertySpec &spec) {
  std::string bounds;
  switch (spec.type) {
    case PropertyType::Int:
    case PropertyType::Int64:
    case PropertyType::IntArray:
      bounds = std::to_string(spec.integer_minimum) + " to " + std::to_string(spec.integer_maximum);
      break;
    case PropertyType::Double:
    case PropertyType::DoubleArray:
      if (spec.double_minimum == -G_MAXDOUBLE && spec.double_maximum == G_MAXDOUBLE) return spec.is_array() ? "finite items" : "a finite number";
      bounds = shortest(spec.double_minimum) + " to " + shortest(spec.double_maximum);
      break;
    default:
      return std::string();
  }
  return spec.is_array() ? "items from " + bounds : bounds;
}

// A default as gst-launch spells it: 0.25, 1, "abc", <1, 2>.
std::string spell(const nlohmann::json &value) {
  if (value.is_number_float()) return shortest(value.get<double>());
  if (!value.is_array()) return value.dump();
  std::string items;
  for (const nlohmann::json &item : value) items += (items.empty() ? "" : ", ") + spell(item);
  return "<" + items + ">";
}

std::vector<const Manifest *> *watched = nullptr;  // set once, never freed: used until exit

void on_gobject_message(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer) {
  g_log_default_handler(domain, level, message, nullptr);
  if (watched == nullptr || message == nullptr) return;
  for (const std::string &note : property_refusal_notes(message, *watched)) g_printerr("%s\n", note.c_str());
}

}  // namespace

std::vector<std::string> property_refusal_notes(const std::string &message, const std::vector<const Manifest *> &manifests) {
  // GLib's words (gobject/gobject.c): value "<v>" of type '<t>' is invalid or out of range for property '<p>' of type '<t>'
  static const std::string kStart = "value \"", kType = "\" of type '", kRefused = "' is invalid or out of range for property '";
  const size_t refused = message.find(kRefused);
  if (message.compare(0, kStart.size(), kStart) != 0 || refused == std::string::npos) return {};
  const size_t type = message.rfind(kType, refused);
  const size_t name_start = refused + kRefused.size();
  const size_t name_end = message.find('\'', name_start);
  if (type == std::string::npos || type < kStart.size() || name_end == std::string::npos) return {};
  const std::string value = message.substr(kStart.size(), type - kStart.size());
  const std::string name = message.substr(name_start, name_end - name_start);
  std::vector<std::string> notes;
  for (const Manifest *manifest : manifests) {
    for (const PropertySpec &spec : manifest->properties) {
      if (spec.name != name) continue;
      const std::string range = range_of(spec);
      const std::string kept = spec.has_default
          ? "on a gst-launch line that is its default, " + spell(spec.initial_value)
          : "it has no default, so the element fails at start if nothing else sets it";
      notes.push_back("ds-element: " + manifest->name + " refused " + name + "=" + value +
          (range.empty() ? "" : " (it takes " + range + ")") + ": GObject kept " + name + "'s previous value; " + kept);
    }
  }
  return notes;
}

void install_property_notes(std::vector<const Manifest *> manifests) {
  static std::once_flag once;
  if (g_strcmp0(g_getenv("DS_ELEMENT_PROPERTY_NOTES"), "1") != 0) return;
  std::call_once(once, [&manifests] {
    watched = new std::vector<const Manifest *>(std::move(manifests));
    // GLib logs the refusal as a warning in 2.74 (Debian 12) and as a critical in 2.84 (Debian 13:
    // "GLib-GObject-CRITICAL **: value ... is invalid or out of range for property ...").
    g_log_set_handler("GLib-GObject", static_cast<GLogLevelFlags>(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL | G_LOG_FLAG_FATAL),
        on_gobject_message, nullptr);
  });
}

}  // namespace dsnode
