#include "meta/gst_analytics_library.h"

#include <dlfcn.h>

#include <mutex>

namespace dsnode::meta {

namespace {

struct LoadedApi {
  GstAnalyticsApi api;
  bool loaded = false;
  std::string error;
};

std::string gst_version_string_copy() {
  gchar *text = gst_version_string();
  std::string copy = text;
  g_free(text);
  return copy;
}

LoadedApi load() {
  LoadedApi result;
  // RTLD_LOCAL: the library registers its GstMeta with GStreamer itself; nothing else needs its
  // symbols. A process that links it already (an upstream element) gets the same copy.
  void *library = dlopen(kGstAnalyticsLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char *why = dlerror();
    result.error = std::string(kGstAnalyticsLibrary) + " not found (" + (why != nullptr ? why : "dlopen failed") +
        "): GStreamer's analytics metadata needs GStreamer >= 1.24 (this is " + gst_version_string_copy() + ")";
    return result;
  }
#define DSNODE_RESOLVE(name, ...)                                                                   \
  result.api.name = reinterpret_cast<decltype(result.api.name)>(dlsym(library, #name));         \
  if (result.api.name == nullptr) {                                                                 \
    result.error = std::string(kGstAnalyticsLibrary) + " lacks " #name;                             \
    return result;                                                                                  \
  }
  DSNODE_GST_ANALYTICS_FUNCTIONS(DSNODE_RESOLVE)
#undef DSNODE_RESOLVE
#define DSNODE_RESOLVE_OPTIONAL(name, ...) \
  result.api.name = reinterpret_cast<decltype(result.api.name)>(dlsym(library, #name));
  DSNODE_GST_ANALYTICS_ORIENTED_FUNCTIONS(DSNODE_RESOLVE_OPTIONAL)
#undef DSNODE_RESOLVE_OPTIONAL
  result.loaded = true;
  return result;
}

}  // namespace

const GstAnalyticsApi *gst_analytics_api(std::string *error) {
  static std::once_flag once;
  static LoadedApi *loaded = nullptr;  // never freed: the library stays loaded
  std::call_once(once, [] { loaded = new LoadedApi(load()); });
  if (!loaded->loaded) {
    if (error != nullptr) *error = loaded->error;
    return nullptr;
  }
  return &loaded->api;
}

}  // namespace dsnode::meta
