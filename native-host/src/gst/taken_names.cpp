// Where the names of other plugins come from:
// - In an application, the registry was read from its cache before any plugin loads: it knows
//   every feature of every plugin, loaded or not. gst_registry_lookup_feature answers.
// - GStreamer scans a changed plugin in gst-plugin-scanner, a helper process whose registry
//   starts empty (no cache, no scan): there, a name another plugin provides looks free, and the
//   parent would let our feature replace that plugin's in the registry it then saves (the bug:
//   an element.json named `identity` left GStreamer without coreelements' identity). In that
//   process the registry does not know coreelements, GStreamer's own core plugin, and the
//   registry cache file still holds the previous scan's answer: gst-inspect-1.0 lists it, with
//   registry updates off (it reads the cache, loads no plugin and scans nothing), once per scan.
//   Where the cache does not exist yet (a first scan), no other plugin is in it to lose: our
//   plugin is scanned before the system's, whose later registrations replace ours.
#include "gst/taken_names.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gst/gst.h>

#include "gst/plugin.h"

#define GST_CAT_DEFAULT dsnode_debug

namespace dsnode {

namespace {

// Set in gst-inspect-1.0's environment: a plugin_init in a process it starts never probes.
const char kProbeVariable[] = "DS_ELEMENT_NAME_PROBE";
const int kProbeTimeoutMs = 10000;

// The registry cache file the scanning application reads and will write.
bool registry_cache_exists() {
  for (const char *variable : {"GST_REGISTRY_1_0", "GST_REGISTRY"}) {
    const char *value = g_getenv(variable);
    if (value != nullptr) return g_file_test(value, G_FILE_TEST_IS_REGULAR);
  }
  // The default, registry.<cpu>.bin under the user's cache folder: any such file.
  gchar *folder = g_build_filename(g_get_user_cache_dir(), "gstreamer-1.0", nullptr);
  bool found = false;
  if (GDir *dir = g_dir_open(folder, 0, nullptr)) {
    while (const gchar *name = g_dir_read_name(dir))
      found = found || (g_str_has_prefix(name, "registry.") && g_str_has_suffix(name, ".bin"));
    g_dir_close(dir);
  }
  g_free(folder);
  return found;
}

// Runs `argv` with `envp` and returns its standard output; false on failure or past the timeout
// (the child is then killed): a registry scan must never hang on it.
bool run_for_output(gchar **argv, gchar **envp, std::string *out) {
  GPid pid = 0;
  gint out_fd = -1;
  GError *error = nullptr;
  if (!g_spawn_async_with_pipes(nullptr, argv, envp,
          static_cast<GSpawnFlags>(G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL), nullptr,
          nullptr, &pid, nullptr, &out_fd, nullptr, &error)) {
    GST_INFO("cannot run %s: %s", argv[0], error->message);
    g_error_free(error);
    return false;
  }
  const gint64 deadline = g_get_monotonic_time() + static_cast<gint64>(kProbeTimeoutMs) * 1000;
  bool complete = false;
  char chunk[65536];
  for (;;) {
    const gint64 left_ms = (deadline - g_get_monotonic_time()) / 1000;
    if (left_ms <= 0) break;
    struct pollfd ready = {out_fd, POLLIN, 0};
    const int polled = poll(&ready, 1, static_cast<int>(left_ms));
    if (polled < 0 && errno == EINTR) continue;
    if (polled <= 0) break;
    const ssize_t count = read(out_fd, chunk, sizeof chunk);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      complete = count == 0;
      break;
    }
    out->append(chunk, static_cast<size_t>(count));
  }
  close(out_fd);
  if (!complete) {
    GST_WARNING("%s did not answer within %d ms: names of other plugins are not checked", argv[0], kProbeTimeoutMs);
    kill(pid, SIGKILL);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_spawn_close_pid(pid);
  return complete && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// "plugin:  feature: description" lines of gst-inspect-1.0's listing.
void parse_listing(const std::string &listing, std::map<std::string, std::string> *features) {
  size_t start = 0;
  while (start < listing.size()) {
    size_t end = listing.find('\n', start);
    if (end == std::string::npos) end = listing.size();
    const std::string line = listing.substr(start, end - start);
    start = end + 1;
    const size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0 || line.find(' ') < colon) continue;
    const size_t feature_start = line.find_first_not_of(' ', colon + 1);
    if (feature_start == std::string::npos || feature_start == colon + 1) continue;
    const size_t feature_end = line.find(": ", feature_start);
    if (feature_end == std::string::npos) continue;
    const std::string feature = line.substr(feature_start, feature_end - feature_start);
    if (feature.find(' ') != std::string::npos) continue;
    features->emplace(feature, line.substr(0, colon));
  }
}

// The features of the registry cache, by gst-inspect-1.0 (see the top of this file).
void probe_registry_cache(std::map<std::string, std::string> *features) {
  if (g_getenv(kProbeVariable) != nullptr || !registry_cache_exists()) return;
  gchar *tool = g_find_program_in_path("gst-inspect-1.0");
  if (tool == nullptr) {
    GST_INFO("gst-inspect-1.0 is not installed: names are checked against the plugins this process loaded only");
    return;
  }
  gchar **envp = g_get_environ();
  envp = g_environ_setenv(envp, "GST_REGISTRY_UPDATE", "no", TRUE);
  envp = g_environ_setenv(envp, kProbeVariable, "1", TRUE);
  envp = g_environ_setenv(envp, "LC_ALL", "C", TRUE);
  envp = g_environ_unsetenv(envp, "GST_DEBUG");
  envp = g_environ_unsetenv(envp, "GST_TRACERS");
  gchar *argv[] = {tool, nullptr};
  std::string listing;
  if (run_for_output(argv, envp, &listing)) parse_listing(listing, features);
  GST_DEBUG("the registry cache lists %zu features", features->size());
  g_strfreev(envp);
  g_free(tool);
}

}  // namespace

bool TakenNames::taken(const std::string &name, std::string *owner) {
  GstRegistry *registry = gst_registry_get();
  if (GstPluginFeature *feature = gst_registry_lookup_feature(registry, name.c_str())) {
    const gchar *plugin_name = gst_plugin_feature_get_plugin_name(feature);
    *owner = plugin_name != nullptr ? plugin_name : "(unknown plugin)";
    gst_object_unref(feature);
    if (*owner != own_plugin_) return true;
  }
  if (!probe_loaded_) {
    probe_loaded_ = true;
    GstPlugin *core = gst_registry_find_plugin(registry, "coreelements");
    if (core != nullptr)
      gst_object_unref(core);  // a registry read from its cache: it answered already
    else
      probe_registry_cache(&cached_);
  }
  auto found = cached_.find(name);
  if (found == cached_.end() || found->second == own_plugin_) return false;
  *owner = found->second;
  return true;
}

}  // namespace dsnode
