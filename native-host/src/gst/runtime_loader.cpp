#include "gst/runtime_loader.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <mutex>

#include "gst/plugin.h"

#define GST_CAT_DEFAULT dsnode_debug

namespace dsnode {

namespace {

const char kRuntimeLibrary[] = "libdsnode-runtime.so.0";
const char kHostScript[] = "host.js";
// The libnode the runtime was built against (CMakeLists.txt records its soname and version):
// the runtime is linked to that soname, so no other libnode may be loaded before it.
const char kLibnodeSoname[] = DSNODE_LIBNODE_SONAME;
const char kLibnodeVersion[] = DSNODE_LIBNODE_VERSION;

struct Failure {
  std::string message;
  std::string details;
};

bool file_exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string dl_error() {
  const char *e = dlerror();
  return e != nullptr ? e : "unknown error";
}

bool runtime_dir_overridden() {
  const char *value = g_getenv("DS_ELEMENT_RUNTIME_DIR");
  return value != nullptr && *value != '\0';
}

std::string runtime_directory() {
  if (runtime_dir_overridden())
    return g_getenv("DS_ELEMENT_RUNTIME_DIR");
  std::string dir = plugin_directory();
  return dir.empty() ? std::string("dsnode") : dir + "/dsnode";
}

std::string runtime_fix() {
  if (runtime_dir_overridden())
    return "check DS_ELEMENT_RUNTIME_DIR, or unset it to use the dsnode/ folder next to "
        "libgstdsnode.so";
  return "dsnode/ must sit next to libgstdsnode.so as `ds-element build` lays it out: build "
      "again (`npm run build`), or set DS_ELEMENT_RUNTIME_DIR to the folder holding " +
      std::string(kRuntimeLibrary);
}

// RTLD_GLOBAL: GStreamer opens plugins with local binding, but Node-API addons that user
// code require()s (onnxruntime-node...) resolve napi_* from the global scope.
bool load_libnode(Failure *failure) {
  const char *env = g_getenv("DS_ELEMENT_LIBNODE");
  const bool from_env = env != nullptr && *env != '\0';
  const std::string candidate = from_env ? env : kLibnodeSoname;
  GST_INFO("loading libnode from %s (the host was built against Node %s, %s)", candidate.c_str(),
      kLibnodeVersion, kLibnodeSoname);
  if (dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr)
    return true;
  failure->details = dl_error();
  const std::string built = std::string("Node ") + kLibnodeVersion + "'s shared library (" +
      kLibnodeSoname + "), the one this host was built against";
  if (from_env)
    failure->message = "cannot load libnode from DS_ELEMENT_LIBNODE=" + candidate + "; point it at " +
        built + ", or unset it to use the system one (`npm run setup` installs it)";
  else
    failure->message = "cannot load " + built + "; run `npm run setup` to install it, or set "
        "DS_ELEMENT_LIBNODE to its path";
  return false;
}

const LoadedRuntime *load_once(Failure *failure) {
  const std::string dir = runtime_directory();
  const std::string library = dir + "/" + kRuntimeLibrary;
  const std::string host_js = dir + "/" + kHostScript;

  // Checked before libnode so a broken dist/ is reported without loading 47 MB first.
  for (const std::string &path : {library, host_js}) {
    if (!file_exists(path)) {
      failure->message = "the ds-element runtime is missing: " + path + " does not exist; " +
          runtime_fix();
      failure->details = "runtime folder: " + dir + (runtime_dir_overridden()
          ? " (from DS_ELEMENT_RUNTIME_DIR)" : " (next to libgstdsnode.so)");
      return nullptr;
    }
  }
  if (!load_libnode(failure))
    return nullptr;

  GST_INFO("loading the runtime from %s", library.c_str());
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    failure->message = "cannot load the ds-element runtime " + library + "; " + runtime_fix();
    failure->details = dl_error();
    return nullptr;
  }
  auto getter = reinterpret_cast<DsnodeRuntimeApiGetter>(dlsym(handle, DSNODE_RUNTIME_API_SYMBOL));
  if (getter == nullptr) {
    failure->message = library + " does not export " DSNODE_RUNTIME_API_SYMBOL "; " +
        runtime_fix();
    failure->details = dl_error();
    return nullptr;
  }
  const DsnodeRuntimeApi *api = getter();
  if (api == nullptr || api->abi_version != DSNODE_RUNTIME_ABI_VERSION) {
    failure->message = library + " implements runtime ABI " +
        (api != nullptr ? std::to_string(api->abi_version) : std::string("(none)")) +
        " but this libgstdsnode.so needs " + std::to_string(DSNODE_RUNTIME_ABI_VERSION) +
        ": they come from different builds; " + runtime_fix();
    return nullptr;
  }
  auto *loaded = new LoadedRuntime();
  loaded->api = api;
  loaded->host_js = host_js;
  GST_INFO("runtime ready (ABI %d)", api->abi_version);
  return loaded;
}

}  // namespace

std::string plugin_directory() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&plugin_directory), &info) == 0 ||
      info.dli_fname == nullptr)
    return std::string();
  char *resolved = realpath(info.dli_fname, nullptr);
  std::string path = resolved != nullptr ? resolved : info.dli_fname;
  free(resolved);
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

const LoadedRuntime *load_runtime(std::string *message, std::string *details) {
  static std::mutex mutex;
  static bool attempted = false;
  static const LoadedRuntime *runtime = nullptr;
  static Failure failure;

  std::lock_guard<std::mutex> lock(mutex);
  if (!attempted) {
    attempted = true;
    runtime = load_once(&failure);
    if (runtime == nullptr)
      GST_ERROR("%s", failure.message.c_str());
  }
  if (runtime == nullptr) {
    *message = failure.message;
    *details = failure.details;
  }
  return runtime;
}

}  // namespace dsnode
