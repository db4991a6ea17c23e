#include "meta/deepstream_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "meta/deepstream_backend.h"
#include "nvds_version.h"

namespace dsnode::meta {

namespace {

std::string built_version() {
  return std::to_string(NVDS_VERSION_MAJOR) + "." + std::to_string(NVDS_VERSION_MINOR);
}

// Which DeepStream a libnvds_meta.so belongs to, as far as it says: nvds_version() where the
// library exports it (nvds_version.h); else the "Version: X.Y" line of the `version` file an
// installed DeepStream keeps beside lib/ (/opt/nvidia/deepstream/deepstream-X.Y/version), or the
// deepstream-X.Y folder in its real path; "" when none says.
struct ReportedVersion {
  std::string version;
  bool by_library = false;  // from nvds_version()
};

// The "X.Y" that follows the last `marker` in `text` ("" when there is none).
std::string version_after(const std::string &text, const char *marker) {
  size_t at = text.rfind(marker);
  if (at == std::string::npos) return "";
  at += std::strlen(marker);
  while (at < text.size() && text[at] == ' ') ++at;
  size_t end = at;
  while (end < text.size() && (g_ascii_isdigit(text[end]) || text[end] == '.')) ++end;
  return text.substr(at, end - at);
}

ReportedVersion reported_version(void *meta, void *gst_meta, const std::string &library_path) {
  for (void *handle : {meta, gst_meta}) {
    if (auto *version = reinterpret_cast<decltype(&::nvds_version)>(dlsym(handle, "nvds_version"))) {
      unsigned int major = 0, minor = 0;
      version(&major, &minor);
      return {std::to_string(major) + "." + std::to_string(minor), true};
    }
  }
  char *real = realpath(library_path.c_str(), nullptr);
  const std::string path = real != nullptr ? real : library_path;
  free(real);
  gchar *dir = g_path_get_dirname(path.c_str());
  gchar *file = g_build_filename(dir, "..", "version", nullptr);
  gchar *text = nullptr;
  std::string version;
  if (g_file_get_contents(file, &text, nullptr, nullptr)) version = version_after(text, "Version:");
  g_free(text);
  g_free(file);
  g_free(dir);
  if (version.empty()) version = version_after(path, "deepstream-");
  return {version, false};
}

// "" when the loaded libnvds_meta.so is the DeepStream of the headers this was built with; else
// why not. DeepStream 8.x and 9.x export the same functions over structs of other sizes, so the
// loader's search path (where an installed DeepStream wins) can hand us a library whose metas
// we would misread. NVIDIA's library records each struct's size in its pools (NvDsMetaPool::
// element_size, nvdsmeta_pool.c:197-353, from its own sizeof): a batch made by it tells them.
std::string version_mismatch(const DeepStreamApi &api, void *meta, void *gst_meta) {
  const ReportedVersion reported = reported_version(meta, gst_meta, api.library_path);
  std::string differs;
  if (reported.by_library && reported.version != built_version())
    differs = "its nvds_version() says " + reported.version;
  if (differs.empty()) {
    NvDsBatchMeta *batch = api.nvds_create_batch_meta(1);
    if (batch == nullptr) return "";
    struct Probe { const char *name; const NvDsMetaPool *pool; NvDsMetaType type; size_t size; };
    const Probe probes[] = {
        {"NvDsFrameMeta", batch->frame_meta_pool, NVDS_FRAME_META, sizeof(NvDsFrameMeta)},
        {"NvDsObjectMeta", batch->obj_meta_pool, NVDS_OBJ_META, sizeof(NvDsObjectMeta)},
        {"NvDsClassifierMeta", batch->classifier_meta_pool, NVDS_CLASSIFIER_META, sizeof(NvDsClassifierMeta)},
        {"NvDsDisplayMeta", batch->display_meta_pool, NVDS_DISPLAY_META, sizeof(NvDsDisplayMeta)},
        {"NvDsUserMeta", batch->user_meta_pool, NVDS_USER_META, sizeof(NvDsUserMeta)},
        {"NvDsLabelInfo", batch->label_info_meta_pool, NVDS_LABEL_INFO_META, sizeof(NvDsLabelInfo)},
    };
    for (const Probe &probe : probes) {
      if (probe.pool == nullptr || probe.pool->meta_type != probe.type) {
        differs = "its NvDsBatchMeta is laid out differently (no " + std::string(probe.name) + " pool where " +
            built_version() + "'s headers put it)";
        break;
      }
      if (probe.pool->element_size != probe.size) {
        differs = "its " + std::string(probe.name) + " is " + std::to_string(probe.pool->element_size) + " bytes, " +
            std::to_string(probe.size) + " in " + built_version() + "'s headers";
        break;
      }
    }
    api.nvds_destroy_batch_meta(batch);
  }
  if (differs.empty()) return "";
  return "loaded " + api.library_path + ", which is DeepStream " +
      (reported.version.empty() ? "of another version" : reported.version) + ": " + differs;
}

// Where to look: DS_ELEMENT_DEEPSTREAM_LIB_DIR alone when set; else the loader's search path
// (an installed DeepStream is on it), then the lib/ folder of the SDK this was built against.
std::vector<std::string> library_dirs() {
  if (const char *dir = g_getenv("DS_ELEMENT_DEEPSTREAM_LIB_DIR"); dir != nullptr && *dir != '\0')
    return {dir};
  return {"", DSNODE_DEEPSTREAM_LIB_DIR};
}

void *open_library(const char *name, std::string *tried) {
  for (const std::string &dir : library_dirs()) {
    const std::string path = dir.empty() ? name : dir + "/" + name;
    if (void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) return handle;
    *tried += std::string(tried->empty() ? "" : "; ") + dlerror();
  }
  return nullptr;
}

DeepStreamApi load_api() {
  DeepStreamApi api;
  std::string tried;
  void *meta = open_library("libnvds_meta.so", &tried);
  void *gst_meta = meta != nullptr ? open_library("libnvdsgst_meta.so", &tried) : nullptr;
  if (meta == nullptr || gst_meta == nullptr) {
    api.error = std::string("cannot load ") + (meta == nullptr ? "libnvds_meta.so" : "libnvdsgst_meta.so") +
        " (" + tried + ")";
    return api;
  }
  std::string missing;
#define DSNODE_LOAD(handle, name) \
  api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name)); \
  if (api.name == nullptr) missing += std::string(missing.empty() ? "" : ", ") + #name;
#define DSNODE_LOAD_META(name) DSNODE_LOAD(meta, name)
#define DSNODE_LOAD_GST(name) DSNODE_LOAD(gst_meta, name)
  DSNODE_NVDS_META_FUNCTIONS(DSNODE_LOAD_META)
  DSNODE_NVDSGST_META_FUNCTIONS(DSNODE_LOAD_GST)
#undef DSNODE_LOAD_GST
#undef DSNODE_LOAD_META
#undef DSNODE_LOAD
  if (!missing.empty()) {
    api.error = "DeepStream's metadata libraries lack " + missing + " (another DeepStream version than " +
        built_version() + "?)";
    return api;
  }
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(api.nvds_create_batch_meta), &info) != 0 && info.dli_fname != nullptr)
    api.library_path = info.dli_fname;
  if (std::string mismatch = version_mismatch(api, meta, gst_meta); !mismatch.empty()) {
    api.error = std::move(mismatch);
    api.wrong_version = true;
    return api;
  }
  api.loaded = true;
  return api;
}

}  // namespace

const DeepStreamApi &deepstream_api() {
  static const DeepStreamApi api = load_api();
  return api;
}

bool load_deepstream(std::string *error) {
  const DeepStreamApi &api = deepstream_api();
  if (!api.loaded && error != nullptr && api.wrong_version)
    *error = "built against DeepStream " + built_version() + " but " + api.error + ". Point "
        "DS_ELEMENT_DEEPSTREAM_LIB_DIR at the lib/ folder of DeepStream " + built_version() + ", or rebuild "
        "ds-element-native against the DeepStream installed (`npx cmake-js compile --out build "
        "--CDDS_SDK_ROOT=<its folder>` in native-host, then `npm run build`)";
  else if (!api.loaded && error != nullptr)
    *error = "built against DeepStream " + built_version() + " but " + api.error + ". Install DeepStream (or put its lib/ folder on LD_LIBRARY_PATH, or set "
        "DS_ELEMENT_DEEPSTREAM_LIB_DIR to it), or use a build without DeepStream: rebuild ds-element-native with "
        "`npx cmake-js compile --out build --CDDSNODE_WITH_DEEPSTREAM=OFF` in native-host, then `npm run build`";
  return api.loaded;
}

std::string deepstream_library_path() { return deepstream_api().library_path; }

}  // namespace dsnode::meta
