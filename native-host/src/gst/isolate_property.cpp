#include "gst/isolate_property.h"

namespace dsnode {

namespace {

GType isolate_mode_type() {
  static GType type = 0;
  if (g_once_init_enter(&type)) {
    static const GEnumValue values[] = {
        {static_cast<gint>(IsolateMode::kShared), "In the process's shared Node environment (one JS thread for all such elements)", "shared"},
        {static_cast<gint>(IsolateMode::kOwn), "In a Node environment of its own (isolate, event loop, JS thread)", "own"},
        {0, nullptr, nullptr},
    };
    g_once_init_leave(&type, g_enum_register_static("DsNodeIsolate", values));
  }
  return type;
}

}  // namespace

IsolateMode default_isolate_mode() {
  static const IsolateMode mode = [] {
    const char *value = g_getenv("DS_ELEMENT_ISOLATE");
    if (value == nullptr || *value == '\0' || g_strcmp0(value, "shared") == 0) return IsolateMode::kShared;
    if (g_strcmp0(value, "own") == 0) return IsolateMode::kOwn;
    g_warning("dsnode: ignoring DS_ELEMENT_ISOLATE=\"%s\": expected \"shared\" or \"own\"", value);
    return IsolateMode::kShared;
  }();
  return mode;
}

void install_isolate_property(GObjectClass *klass, guint id) {
  g_object_class_install_property(klass, id,
      g_param_spec_enum(kIsolateProperty, "JavaScript isolate",
          "Where the element's JavaScript runs: shared (the process's one Node environment, one JS thread for every "
          "element set so) or own (a Node environment of its own, with its own isolate, event loop and JS thread, "
          "started and stopped with the element: busy elements then run on separate cores). DS_ELEMENT_ISOLATE sets "
          "the default; read at start",
          isolate_mode_type(), static_cast<gint>(default_isolate_mode()),
          static_cast<GParamFlags>(G_PARAM_READWRITE | GST_PARAM_MUTABLE_READY | G_PARAM_STATIC_STRINGS)));
}

}  // namespace dsnode
