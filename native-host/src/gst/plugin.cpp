// plugin_init: registers one element per ds-elements/<name>/element.json found next to the
// plugin search paths, from the manifests alone. Node is not loaded here (see
// runtime_loader.cpp): gst-inspect and the registry scan stay as cheap as for a C plugin.
#include "gst/plugin.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <set>
#include <string>
#include <vector>

#include "gst/element.h"
#include "gst/manifest.h"
#include "gst/property_notes.h"
#include "gst/runtime_loader.h"
#include "gst/taken_names.h"

GST_DEBUG_CATEGORY(dsnode_debug);
#define GST_CAT_DEFAULT dsnode_debug

namespace dsnode {

namespace {

const char kPluginName[] = "dsnode";
const char kElementsFolder[] = "ds-elements";
const char kManifestFile[] = "element.json";

std::vector<std::string> split_search_path(const char *value) {
  std::vector<std::string> entries;
  if (value == nullptr)
    return entries;
  gchar **parts = g_strsplit(value, G_SEARCHPATH_SEPARATOR_S, -1);
  for (gchar **part = parts; *part != nullptr; ++part)
    if (**part != '\0')
      entries.emplace_back(*part);
  g_strfreev(parts);
  return entries;
}

std::string parent_directory(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// Where GStreamer itself looks when GST_PLUGIN_SYSTEM_PATH is unset: the plugin folder of
// the libgstreamer in use (<libdir>/gstreamer-1.0) and the user's plugin folder. Derived at
// run time so the answer is the same in gst-plugin-scanner and in the application.
std::vector<std::string> default_system_plugin_paths() {
  std::vector<std::string> paths;
  paths.push_back(std::string(g_get_user_data_dir()) + "/gstreamer-1.0/plugins");
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&gst_init), &info) != 0 && info.dli_fname != nullptr) {
    char *resolved = realpath(info.dli_fname, nullptr);
    std::string library = resolved != nullptr ? resolved : info.dli_fname;
    free(resolved);
    paths.push_back(parent_directory(library) + "/gstreamer-1.0");
  }
  return paths;
}

std::vector<std::string> system_plugin_paths() {
  const char *system_path = g_getenv("GST_PLUGIN_SYSTEM_PATH_1_0");
  if (system_path == nullptr)
    system_path = g_getenv("GST_PLUGIN_SYSTEM_PATH");
  if (system_path != nullptr)
    return split_search_path(system_path);
  return default_system_plugin_paths();
}

// Every ds-elements folder to scan, first-come first-served for duplicate element names:
// the user's paths before the plugin's own folder before the system's.
std::vector<std::string> element_roots() {
  std::vector<std::string> entries;
  // Both variables, even though GStreamer ignores GST_PLUGIN_PATH when the _1_0 one is set:
  // a dist/ listed in either should work.
  for (const char *variable : {"GST_PLUGIN_PATH_1_0", "GST_PLUGIN_PATH"})
    for (std::string &entry : split_search_path(g_getenv(variable)))
      entries.push_back(std::move(entry));
  std::string own = plugin_directory();
  if (!own.empty())
    entries.push_back(own);
  for (std::string &entry : system_plugin_paths())
    entries.push_back(std::move(entry));

  std::vector<std::string> roots;
  std::set<std::string> seen;
  for (const std::string &entry : entries) {
    std::string folder = entry + "/" + kElementsFolder;
    char *resolved = realpath(folder.c_str(), nullptr);
    if (resolved == nullptr)
      continue;
    std::string real = resolved;
    free(resolved);
    if (seen.insert(real).second)
      roots.push_back(real);
  }
  return roots;
}

// For a symbolic link that leads nowhere, "<path> is a symbolic link to <target>, which does
// not exist" (or the reason it cannot be followed); else empty.
std::string dangling_link(const std::string &path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode) || stat(path.c_str(), &st) == 0)
    return std::string();
  const std::string why = errno == ENOENT ? "which does not exist" : std::string("which cannot be followed: ") + g_strerror(errno);
  gchar *target = g_file_read_link(path.c_str(), nullptr);
  std::string reason = path + " is a symbolic link to " + (target != nullptr ? target : "?") + ", " + why +
      " (link it to what `ds-element build` wrote, or remove it)";
  g_free(target);
  return reason;
}

std::vector<std::string> manifest_files(const std::string &root) {
  std::vector<std::string> files;
  GDir *dir = g_dir_open(root.c_str(), 0, nullptr);
  if (dir == nullptr)
    return files;
  while (const gchar *name = g_dir_read_name(dir)) {
    std::string file = root + "/" + name + "/" + kManifestFile;
    struct stat st;
    if (stat(file.c_str(), &st) != 0) {
      const int error = errno;
      // A link that leads nowhere (element.json, or the element folder itself) was meant as an
      // element: say so. Anything else without element.json is a folder of the user's own.
      std::string dangling = dangling_link(file);
      if (dangling.empty())
        dangling = dangling_link(root + "/" + name);
      if (!dangling.empty())
        GST_WARNING("skipping %s: %s", file.c_str(), dangling.c_str());
      else if (error != ENOENT && error != ENOTDIR)
        GST_WARNING("skipping %s: %s", file.c_str(), g_strerror(error));
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      GST_WARNING("skipping %s: it is %s, not a file (`ds-element build` writes element.json as a file)",
          file.c_str(), S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
      continue;
    }
    files.push_back(std::move(file));
  }
  g_dir_close(dir);
  // Directory order is arbitrary; which duplicate wins must not be.
  std::sort(files.begin(), files.end());
  return files;
}

// Returns the manifests registered (owned by the elements' class data from then on).
std::vector<const Manifest *> register_elements(GstPlugin *plugin) {
  std::vector<const Manifest *> manifests;
  // first file that registered each name, to explain duplicates
  std::vector<std::pair<std::string, std::string>> registered;
  TakenNames taken_names(kPluginName);
  for (const std::string &root : element_roots()) {
    GST_DEBUG("scanning %s", root.c_str());
    for (const std::string &file : manifest_files(root)) {
      auto manifest = std::make_unique<Manifest>();
      std::string error;
      if (!load_manifest(file, manifest.get(), &error)) {
        GST_WARNING("skipping %s: %s", file.c_str(), error.c_str());
        continue;
      }
      auto earlier = std::find_if(registered.begin(), registered.end(),
          [&](const auto &r) { return r.first == manifest->name; });
      if (earlier != registered.end()) {
        GST_WARNING("skipping %s: element \"%s\" is already registered from %s", file.c_str(),
            manifest->name.c_str(), earlier->second.c_str());
        continue;
      }
      std::string owner;
      if (taken_names.taken(manifest->name, &owner)) {
        GST_WARNING("skipping %s: an element named \"%s\" already exists in plugin %s",
            file.c_str(), manifest->name.c_str(), owner.c_str());
        continue;
      }
      if (!register_element(plugin, manifest.get(), &error)) {
        GST_WARNING("skipping %s: %s", file.c_str(), error.c_str());
        continue;
      }
      GST_INFO("registered %s from %s", manifest->name.c_str(), file.c_str());
      registered.emplace_back(manifest->name, file);
      manifests.push_back(manifest.release());   // the element's class data from now on
    }
  }
  return manifests;
}

// The registry caches our features; it must rescan when an element.json under any searched
// folder appears, changes or goes away.
void declare_dependencies(GstPlugin *plugin) {
  const gchar *env_vars[] = {
    "GST_PLUGIN_PATH_1_0/ds-elements",
    "GST_PLUGIN_PATH/ds-elements",
    "GST_PLUGIN_SYSTEM_PATH_1_0/ds-elements",
    "GST_PLUGIN_SYSTEM_PATH/ds-elements",
    nullptr,
  };
  std::vector<std::string> folders;
  std::string own = plugin_directory();
  if (!own.empty())
    folders.push_back(own + "/" + kElementsFolder);
  for (const std::string &entry : default_system_plugin_paths())
    folders.push_back(entry + "/" + kElementsFolder);
  std::vector<const gchar *> paths;
  for (const std::string &folder : folders)
    paths.push_back(folder.c_str());
  paths.push_back(nullptr);
  const gchar *names[] = {kManifestFile, nullptr};
  gst_plugin_add_dependency(plugin, env_vars, paths.data(), names,
      GST_PLUGIN_DEPENDENCY_FLAG_RECURSE);
}

gboolean plugin_init(GstPlugin *plugin) {
  GST_DEBUG_CATEGORY_INIT(dsnode_debug, "dsnode", 0, "ds-element host plugin");
  declare_dependencies(plugin);
  install_property_notes(register_elements(plugin));
  // Even with no element the plugin stays registered, so the dependencies above can bring
  // elements in on a later scan.
  return TRUE;
}

}  // namespace

}  // namespace dsnode

// GST_PLUGIN_DEFINE records PACKAGE as the plugin's source module.
#define PACKAGE "ds-element"

static gboolean dsnode_plugin_init(GstPlugin *plugin) {
  return dsnode::plugin_init(plugin);
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, dsnode,
    "Elements written in TypeScript with ds-element (runs them in an embedded Node.js)",
    dsnode_plugin_init, "0.1.0", "LGPL", "ds-element", "https://github.com/ds-element")
