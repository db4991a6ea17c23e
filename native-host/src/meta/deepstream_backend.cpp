// Every DeepStream call here is part of the documented metadata API (nvdsmeta.h, gstnvdsmeta.h).
// Lists are GLists owned by DeepStream; pools are NvDsBatchMeta's; structural changes and list
// walks hold the batch's meta lock (nvds_acquire_meta_lock), as DeepStream asks of components
// that may share a batch with other threads (probes).
#include "meta/deepstream_backend.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gstnvdsinfer.h"
#include "gstnvdsmeta.h"
#include "nvds_version.h"
#include "nvdsmeta.h"
#include "meta/validate.h"

namespace dsnode::meta {

// --- NVIDIA's libraries, opened on first use (dlopen), not linked: a plugin built against
// DeepStream then loads where DeepStream is absent and says so in one error (load_deepstream)
// instead of GStreamer dropping it over a bare "cannot open shared object file".

#define DSNODE_NVDS_META_FUNCTIONS(X) \
  X(nvds_destroy_batch_meta) \
  X(nvds_add_user_meta_to_batch) \
  X(nvds_add_classifier_meta_to_object) \
  X(nvds_remove_user_meta_from_batch) \
  X(nvds_remove_obj_meta_from_frame) \
  X(nvds_remove_display_meta_from_frame) \
  X(nvds_get_user_meta_type) \
  X(nvds_add_user_meta_to_obj) \
  X(nvds_add_user_meta_to_frame) \
  X(nvds_add_obj_meta_to_frame) \
  X(nvds_add_label_info_meta_to_classifier) \
  X(nvds_add_display_meta_to_frame) \
  X(nvds_acquire_user_meta_from_pool) \
  X(nvds_acquire_obj_meta_from_pool) \
  X(nvds_acquire_classifier_meta_from_pool) \
  X(nvds_remove_user_meta_from_object) \
  X(nvds_remove_user_meta_from_frame) \
  X(nvds_remove_label_info_meta_from_classifier) \
  X(nvds_remove_classifier_meta_from_obj) \
  X(nvds_release_meta_lock) \
  X(nvds_create_batch_meta) \
  X(nvds_add_frame_meta_to_batch) \
  X(nvds_acquire_meta_lock) \
  X(nvds_acquire_label_info_meta_from_pool) \
  X(nvds_acquire_frame_meta_from_pool) \
  X(nvds_acquire_display_meta_from_pool) \
  X(nvds_batch_meta_copy_func) \
  X(nvds_batch_meta_release_func)
#define DSNODE_NVDSGST_META_FUNCTIONS(X) \
  X(gst_buffer_get_nvds_batch_meta) \
  X(gst_buffer_add_nvds_meta)

namespace {

struct DeepStreamApi {
#define DSNODE_DECLARE(name) decltype(&::name) name = nullptr;
  DSNODE_NVDS_META_FUNCTIONS(DSNODE_DECLARE)
  DSNODE_NVDSGST_META_FUNCTIONS(DSNODE_DECLARE)
#undef DSNODE_DECLARE
  bool loaded = false;
  bool wrong_version = false;  // loaded, but not the DeepStream of the headers built with
  std::string error;           // why it did not load
  std::string library_path;    // the libnvds_meta.so it loaded
};

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

const DeepStreamApi &api_once() {
  static const DeepStreamApi api = load_api();
  return api;
}

// Only after load_deepstream() said yes (every entry point checks it first).
const DeepStreamApi &ds() { return api_once(); }

}  // namespace

bool load_deepstream(std::string *error) {
  const DeepStreamApi &api = api_once();
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

std::string deepstream_library_path() { return api_once().library_path; }

// The portable model is DeepStream's: keep the constants in step with the headers.
static_assert(kMaxLabelSize == MAX_LABEL_SIZE, "MAX_LABEL_SIZE changed");
static_assert(kMaxElementsInDisplayMeta == MAX_ELEMENTS_IN_DISPLAY_META, "MAX_ELEMENTS_IN_DISPLAY_META changed");
static_assert(kMaxUserFields == MAX_USER_FIELDS, "MAX_USER_FIELDS changed");
static_assert(kUntrackedObjectId == UNTRACKED_OBJECT_ID, "UNTRACKED_OBJECT_ID changed");
static_assert(kMetaTypeUser == NVDS_USER_META, "NvDsMetaType order changed");
static_assert(kMetaTypeTensorOutput == NVDSINFER_TENSOR_OUTPUT_META, "NvDsMetaType order changed");
static_assert(kMetaTypeStartUser == NVDS_START_USER_META, "NVDS_START_USER_META changed");
static_assert(kMaxTensorDims == NVDSINFER_MAX_DIMS, "NVDSINFER_MAX_DIMS changed");
static_assert(static_cast<int>(ArrowHead::kBoth) == BOTH_HEAD, "NvOSD_Arrow_Head_Direction changed");
static_assert(static_cast<int>(TensorDataType::kUint8) == UINT8, "NvDsInferDataType changed");

namespace {

// Distinct user meta type strings this process interned (write_user_meta), and whether the
// warning past the bound was given (take_user_meta_types_warning).
std::atomic<size_t> interned_types{0};
std::atomic<bool> interned_types_warned{false};

// --- user meta payloads we write. user_meta_data points at the payload's bytes, so that C code
// downstream reads them as DeepStream components read any user meta: find it by meta_type
// (nvds_get_user_meta_type("ORG.COMPONENT.DESCRIPTION")) and cast user_meta_data to the
// struct it expects. JSON is its UTF-8 text. A NUL follows the bytes. Our header (type, kind,
// size) sits just before them in the same allocation; copy_func/release_func duplicate and
// free the whole block, so a tee's copy carries it.

constexpr uint32_t kPayloadMagic = 0x44534E55;  // "DSNU"

struct alignas(16) PayloadHeader {
  uint32_t magic;
  PayloadKind kind;
  size_t size;
  const char *type;  // interned
};

uint8_t *payload_bytes(PayloadHeader *header) { return reinterpret_cast<uint8_t *>(header + 1); }

PayloadHeader *new_payload(const char *type, PayloadKind kind, const uint8_t *bytes, size_t size) {
  auto *header = static_cast<PayloadHeader *>(g_malloc(sizeof(PayloadHeader) + size + 1));
  *header = {kPayloadMagic, kind, size, type};
  if (size > 0) std::memcpy(payload_bytes(header), bytes, size);
  payload_bytes(header)[size] = 0;
  return header;
}

PayloadHeader *header_of(gpointer user_meta_data) {
  return reinterpret_cast<PayloadHeader *>(user_meta_data) - 1;
}

gpointer payload_copy(gpointer data, gpointer) {
  const PayloadHeader *from = header_of(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  return payload_bytes(new_payload(from->type, from->kind, payload_bytes(const_cast<PayloadHeader *>(from)), from->size));
}

void payload_release(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  if (user->user_meta_data != nullptr) g_free(header_of(user->user_meta_data));
  user->user_meta_data = nullptr;
}

const PayloadHeader *own_payload(const NvDsUserMeta *user) {
  if (user->base_meta.release_func != payload_release || user->user_meta_data == nullptr)
    return nullptr;
  const PayloadHeader *header = header_of(user->user_meta_data);
  return header->magic == kPayloadMagic ? header : nullptr;
}

// --- nvinfer-shaped tensor outputs (output-tensor-meta=1) that the testing harness attaches:
// an NvDsInferTensorMeta over host copies of the layers. As nvinfer's, its priv_data is a
// GstMiniObject that owns the layers' memory (gstnvinfer_meta_utils.cpp:729, gstnvinfer.cpp:2669):
// each meta holds one ref, dropped by its release function, and a consumer may take its own.
// out_buf_ptrs_dev stays NULL: the harness's layers are host memory only.

struct TensorMetaStorage;

struct TensorOutputObject {
  GstMiniObject parent;
  TensorMetaStorage *storage;
};

void free_tensor_output_object(GstMiniObject *object);

struct TensorMetaStorage {
  NvDsInferTensorMeta meta{};
  TensorOutput output;
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<NvDsInferLayerInfo> layers;
  std::vector<void *> host, device;

  TensorMetaStorage(const TensorOutput &from, std::vector<std::vector<uint8_t>> data)
      : output(from), bytes(std::move(data)), layers(from.layers.size()), host(from.layers.size()),
        device(from.layers.size(), nullptr) {
    for (size_t i = 0; i < layers.size(); ++i) {
      const TensorLayer &layer = output.layers[i];
      NvDsInferLayerInfo &info = layers[i];
      info.dataType = static_cast<NvDsInferDataType>(layer.data_type);
      info.inferDims.numDims = layer.num_dims;
      std::copy_n(layer.dims, layer.num_dims, info.inferDims.d);
      info.inferDims.numElements = layer.num_elements;
      info.bindingIndex = layer.binding_index;
      info.layerName = output.layers[i].layer_name.c_str();
      info.buffer = host[i] = bytes[i].data();
      info.isInput = 0;
    }
    meta.unique_id = output.unique_id;
    meta.num_output_layers = static_cast<guint>(layers.size());
    meta.output_layers_info = layers.data();
    meta.out_buf_ptrs_host = host.data();
    meta.out_buf_ptrs_dev = device.data();
    meta.gpu_id = output.gpu_id;
    meta.network_info = {output.network_width, output.network_height, output.network_channels};
    meta.maintain_aspect_ratio = output.maintain_aspect_ratio;
    meta.symmetric_padding = output.symmetric_padding;
    auto *object = new TensorOutputObject;
    gst_mini_object_init(GST_MINI_OBJECT_CAST(object), 0, G_TYPE_POINTER, nullptr, nullptr, free_tensor_output_object);
    object->storage = this;
    meta.priv_data = object;
  }

  // A new meta over the same data: as nvinfer's copy, another ref of the same priv_data
  // (gstnvinfer_meta_utils.cpp copy_tensor_output_meta); the storage lives until the last goes.
  static NvDsInferTensorMeta *share(const NvDsInferTensorMeta &from) {
    auto *meta = new NvDsInferTensorMeta(from);
    gst_mini_object_ref(GST_MINI_OBJECT_CAST(from.priv_data));
    return meta;
  }
};

void free_tensor_output_object(GstMiniObject *object) {
  auto *owner = reinterpret_cast<TensorOutputObject *>(object);
  delete owner->storage;
  delete owner;
}

// The first meta is the storage's own; copies are separate structs sharing its priv_data.
bool is_storage_meta(const NvDsInferTensorMeta *meta) {
  return &reinterpret_cast<TensorOutputObject *>(meta->priv_data)->storage->meta == meta;
}

gpointer tensor_meta_copy(gpointer data, gpointer) {
  const auto *from = static_cast<const NvDsInferTensorMeta *>(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  return TensorMetaStorage::share(*from);
}

void tensor_meta_release(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  auto *meta = static_cast<NvDsInferTensorMeta *>(user->user_meta_data);
  if (meta != nullptr) {
    GstMiniObject *object = GST_MINI_OBJECT_CAST(meta->priv_data);
    if (!is_storage_meta(meta)) delete meta;
    gst_mini_object_unref(object);  // the last ref frees the storage (and its own meta)
  }
  user->user_meta_data = nullptr;
}

// --- conversions between the model and DeepStream's structs

// DeepStream g_free()s display_text when it releases a meta (nvinfer g_strdup()s it); it
// never frees font_name (nvinfer points it at a static string): we intern font names.
char *dup_or_null(const std::string &text) { return text.empty() ? nullptr : g_strdup(text.c_str()); }
char *intern_or_null(const std::string &text) {
  return text.empty() ? nullptr : const_cast<char *>(g_intern_string(text.c_str()));
}

// The strings of the table's records, one overload per direction so that one generated copy
// serves both ways: a label in its fixed array (result_label), a string DeepStream does not
// own (classifier_type: never freed, nvinfer points it at its own string; we intern it).
void copy_label(const char (&from)[kMaxLabelSize], char (*to)[kMaxLabelSize]) {
  std::memcpy(*to, from, kMaxLabelSize);
  (*to)[kMaxLabelSize - 1] = '\0';
}
void copy_interned(const std::string &from, const gchar **to) { *to = intern_or_null(from); }
void copy_interned(const gchar *from, std::string *to) { *to = from != nullptr ? from : ""; }

// The structs and records of the table (sdk/src/protocol/meta-fields.mjs): to_ds / from_ds
// for ColorParams, BboxCoords and RectParams, check_supported (members older DeepStream lacks),
// and read_ / write_ of FrameFields and ObjectFields' numeric fields.
// generated: deepstream copies (npm run generate)
// ColorParams <-> NvOSD_ColorParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_color_params(const From &from, To *to) {
  to->red = from.red;
  to->green = from.green;
  to->blue = from.blue;
  to->alpha = from.alpha;
}
[[maybe_unused]] NvOSD_ColorParams to_ds(const ColorParams &from) { NvOSD_ColorParams to{}; copy_color_params(from, &to); return to; }
[[maybe_unused]] ColorParams from_ds(const NvOSD_ColorParams &from) { ColorParams to; copy_color_params(from, &to); return to; }

// BboxCoords <-> NvBbox_Coords: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_bbox_coords(const From &from, To *to) {
  to->left = from.left;
  to->top = from.top;
  to->width = from.width;
  to->height = from.height;
}
[[maybe_unused]] NvBbox_Coords to_ds(const BboxCoords &from) { NvBbox_Coords to{}; copy_bbox_coords(from, &to); return to; }
[[maybe_unused]] BboxCoords from_ds(const NvBbox_Coords &from) { BboxCoords to; copy_bbox_coords(from, &to); return to; }

// RectParams <-> NvOSD_RectParams: the model's members have DeepStream's names, so one copy serves both ways.
template <typename From, typename To>
void copy_rect_params(const From &from, To *to) {
  copy_bbox_coords(from, to);
  to->border_width = from.border_width;
  copy_color_params(from.border_color, &to->border_color);
  to->has_bg_color = from.has_bg_color;
  to->reserved = from.reserved;
  copy_color_params(from.bg_color, &to->bg_color);
  to->has_color_info = from.has_color_info;
  to->color_id = from.color_id;
#if NVDS_VERSION_MAJOR >= 9  // rotation_angle is new in DeepStream 9.0
  to->rotation_angle = from.rotation_angle;
#endif
}
[[maybe_unused]] NvOSD_RectParams to_ds(const RectParams &from) { NvOSD_RectParams to{}; copy_rect_params(from, &to); return to; }
[[maybe_unused]] RectParams from_ds(const NvOSD_RectParams &from) { RectParams to; copy_rect_params(from, &to); return to; }

// Members of NvOSD_RectParams this DeepStream lacks must keep their default (`path` and `where`
// name the value in messages).
Status check_supported(const RectParams &value, const std::string &path, const char *where = "") {
  (void)value; (void)path; (void)where;
#if NVDS_VERSION_MAJOR < 9
  if (value.rotation_angle != 0)
    return Status::Invalid("Expected 0 for " + path + ".rotation_angle" + where + " (DeepStream " + std::to_string(NVDS_VERSION_MAJOR) +
        "." + std::to_string(NVDS_VERSION_MINOR) + " has no rotated boxes; NvOSD_RectParams::rotation_angle is new in 9.0) but received " +
        std::to_string(value.rotation_angle));
#endif
  return Status::Ok();
}

// NvDsFrameMeta's value fields to the model and back.
template <typename From, typename To>
void copy_frame_fields(const From &from, To *to) {
  to->frame_num = from.frame_num;
  to->source_id = from.source_id;
  to->pad_index = from.pad_index;
  to->batch_id = from.batch_id;
  to->buf_pts = from.buf_pts;
  to->ntp_timestamp = from.ntp_timestamp;
  to->source_frame_width = from.source_frame_width;
  to->source_frame_height = from.source_frame_height;
  to->pipeline_width = from.pipeline_width;
  to->pipeline_height = from.pipeline_height;
  to->surface_type = from.surface_type;
  to->surface_index = from.surface_index;
  to->num_surfaces_per_frame = from.num_surfaces_per_frame;
  to->bInferDone = from.bInferDone;
  std::memcpy(to->misc_frame_info, from.misc_frame_info, sizeof to->misc_frame_info);
}
void read_frame_fields(const NvDsFrameMeta &from, FrameFields *to) {
  copy_frame_fields(from, to);
}
void write_frame_fields(const FrameFields &from, NvDsFrameMeta *to) {
  copy_frame_fields(from, to);
}

// NvDsObjectMeta's numeric fields (its row) to the model and back.
template <typename From, typename To>
void copy_object_fields(const From &from, To *to) {
  to->class_id = from.class_id;
  to->object_id = from.object_id;
  to->unique_component_id = from.unique_component_id;
  to->confidence = from.confidence;
  to->tracker_confidence = from.tracker_confidence;
  copy_rect_params(from.rect_params, &to->rect_params);
  std::memcpy(to->misc_obj_info, from.misc_obj_info, sizeof to->misc_obj_info);
}
void read_object_fields(const NvDsObjectMeta &from, ObjectFields *to) {
  copy_object_fields(from, to);
  copy_bbox_coords(from.detector_bbox_info.org_bbox_coords, &to->detector_bbox_info);
  copy_bbox_coords(from.tracker_bbox_info.org_bbox_coords, &to->tracker_bbox_info);
}
void write_object_fields(const ObjectFields &from, NvDsObjectMeta *to) {
  copy_object_fields(from, to);
  copy_bbox_coords(from.detector_bbox_info, &to->detector_bbox_info.org_bbox_coords);
  copy_bbox_coords(from.tracker_bbox_info, &to->tracker_bbox_info.org_bbox_coords);
}

// NvDsLabelInfo's members to the model and back (its lists are the backend's).
template <typename From, typename To>
void copy_label_info_fields(const From &from, To *to) {
  to->num_classes = from.num_classes;
  copy_label(from.result_label, &to->result_label);
  to->result_class_id = from.result_class_id;
  to->label_id = from.label_id;
  to->result_prob = from.result_prob;
}

// NvDsClassifierMeta's members to the model and back (its lists are the backend's).
template <typename From, typename To>
void copy_classifier_fields(const From &from, To *to) {
  to->num_labels = from.num_labels;
  to->unique_component_id = from.unique_component_id;
  copy_interned(from.classifier_type, &to->classifier_type);
}
// end generated: deepstream copies


void to_ds(const TextParams &t, NvOSD_TextParams *d) {
  g_free(d->display_text);
  d->display_text = dup_or_null(t.display_text);
  d->x_offset = t.x_offset; d->y_offset = t.y_offset;
  d->font_params.font_name = intern_or_null(t.font_params.font_name);
  d->font_params.font_size = t.font_params.font_size;
  d->font_params.font_color = to_ds(t.font_params.font_color);
  d->set_bg_clr = t.set_bg_clr; d->text_bg_clr = to_ds(t.text_bg_clr);
}

TextParams from_ds(const NvOSD_TextParams &d) {
  TextParams t;
  t.display_text = d.display_text != nullptr ? d.display_text : "";
  t.x_offset = d.x_offset; t.y_offset = d.y_offset;
  t.font_params.font_name = d.font_params.font_name != nullptr ? d.font_params.font_name : "";
  t.font_params.font_size = d.font_params.font_size;
  t.font_params.font_color = from_ds(d.font_params.font_color);
  t.set_bg_clr = d.set_bg_clr; t.text_bg_clr = from_ds(d.text_bg_clr);
  return t;
}

NvOSD_LineParams to_ds(const LineParams &l) {
  return {l.x1, l.y1, l.x2, l.y2, l.line_width, to_ds(l.line_color)};
}
LineParams from_ds(const NvOSD_LineParams &d) {
  return {d.x1, d.y1, d.x2, d.y2, d.line_width, from_ds(d.line_color)};
}
NvOSD_ArrowParams to_ds(const ArrowParams &a) {
  return {a.x1, a.y1, a.x2, a.y2, a.arrow_width, static_cast<NvOSD_Arrow_Head_Direction>(a.arrow_head),
      to_ds(a.arrow_color), a.reserved};
}
ArrowParams from_ds(const NvOSD_ArrowParams &d) {
  return {d.x1, d.y1, d.x2, d.y2, d.arrow_width, static_cast<ArrowHead>(d.arrow_head), from_ds(d.arrow_color),
      d.reserved};
}
NvOSD_CircleParams to_ds(const CircleParams &c) {
  return {c.xc, c.yc, c.radius, to_ds(c.circle_color), c.has_bg_color, to_ds(c.bg_color), c.circle_width, c.reserved};
}
CircleParams from_ds(const NvOSD_CircleParams &d) {
  return {d.xc, d.yc, d.radius, from_ds(d.circle_color), d.has_bg_color, from_ds(d.bg_color), d.circle_width,
      d.reserved};
}


class MetaLock {
 public:
  explicit MetaLock(NvDsBatchMeta *batch) : batch_(batch) { ds().nvds_acquire_meta_lock(batch_); }
  ~MetaLock() { ds().nvds_release_meta_lock(batch_); }
  MetaLock(const MetaLock &) = delete;
  MetaLock &operator=(const MetaLock &) = delete;
 private:
  NvDsBatchMeta *batch_;
};

template <typename T, typename H>
T *as(H handle) { return static_cast<T *>(handle.ptr); }

// DeepStream appends frames and batch user metas but prepends every other list
// (nvds_add_meta_to_parent): the newest object, classifier, label info, display meta and
// frame/object user meta comes first. Those lists are read from their end, so that the
// Batch interface sees them in the order they were added, as the portable backend keeps
// them; NVIDIA's copy (a tee, gst_buffer_make_writable) reverses them on both backends
// (portable_batch.cpp, docs/internals/metadata-design.md §2.4).
template <typename H>
void collect(GList *list, std::vector<H> *out, bool prepended = true) {
  out->clear();
  for (GList *node = list; node != nullptr; node = node->next) out->push_back(H{node->data});
  if (prepended) std::reverse(out->begin(), out->end());
}

bool contains(GList *list, const void *item) { return g_list_find(list, item) != nullptr; }

// Metas acquired in this call and not yet added (DeepStream keeps no such state itself).
template <typename T>
bool take_pending(std::vector<T *> &pending, T *item) {
  auto found = std::find(pending.rbegin(), pending.rend(), item);
  if (found == pending.rend())
    return false;
  pending.erase(std::next(found).base());
  return true;
}

// The portable backend's words for a meta that is not newly acquired (portable_backend.cpp).
Status not_pending(const char *what, const char *operation, bool added) {
  return Status::State(std::string("Expected a newly acquired ") + what + " for " + operation + " but received " +
      (added ? "one already added" : "one already returned to its pool (removed, or its call ended)"));
}

// Whether `item` is anywhere in the batch's tree (only on error paths: it walks everything).
bool in_batch(NvDsBatchMeta *batch, const void *item) {
  if (contains(batch->batch_user_meta_list, item)) return true;
  for (GList *f = batch->frame_meta_list; f != nullptr; f = f->next) {
    auto *frame = static_cast<NvDsFrameMeta *>(f->data);
    if (frame == item || contains(frame->obj_meta_list, item) || contains(frame->display_meta_list, item) ||
        contains(frame->frame_user_meta_list, item))
      return true;
    for (GList *o = frame->obj_meta_list; o != nullptr; o = o->next) {
      auto *object = static_cast<NvDsObjectMeta *>(o->data);
      if (contains(object->classifier_meta_list, item) || contains(object->obj_user_meta_list, item)) return true;
      for (GList *c = object->classifier_meta_list; c != nullptr; c = c->next)
        if (contains(static_cast<NvDsClassifierMeta *>(c->data)->label_info_list, item)) return true;
    }
  }
  return false;
}

Status not_in(const char *what, const char *parent, const char *operation) {
  return Status::State(std::string("Expected ") + what + " of this " + parent + " for " + operation +
      " but received one that is not in it");
}

class DeepStreamBackend final : public Batch {
 public:
  explicit DeepStreamBackend(NvDsBatchMeta *batch) : batch_(batch) { refresh_frames(); }
  ~DeepStreamBackend() override { end_call(); }

  BackendKind backend() const override { return BackendKind::kDeepStream; }
  // Whether this call acquired, added, removed or wrote anything (a detached batch then goes
  // onto the buffer).
  bool modified() const { return modified_; }
  // The detached spare's one frame, for the next buffer (not a change the call made).
  void reset_first_frame(const FrameFields &fields) { write_frame_fields(fields, frames_.at(0)); }
  NvDsBatchMeta *raw() const { return batch_; }

  void refresh_frames() {
    MetaLock lock(batch_);
    frames_.clear();
    for (GList *node = batch_->frame_meta_list; node != nullptr; node = node->next)
      frames_.push_back(static_cast<NvDsFrameMeta *>(node->data));
  }

  FrameHandle add_frame(const FrameFields &fields) {
    if (frames_.size() >= batch_->max_frames_in_batch)
      return {};
    MetaLock lock(batch_);
    NvDsFrameMeta *frame = ds().nvds_acquire_frame_meta_from_pool(batch_);
    FrameHandle handle{frame};
    write_frame_fields(fields, frame);
    ds().nvds_add_frame_meta_to_batch(batch_, frame);
    frames_.push_back(frame);
    return handle;
  }

  uint32_t max_frames_in_batch() const override { return batch_->max_frames_in_batch; }
  uint32_t num_frames() const override { return static_cast<uint32_t>(frames_.size()); }
  FrameHandle frame_at(uint32_t index) const override {
    return index < frames_.size() ? FrameHandle{frames_[index]} : FrameHandle{};
  }

  void read_frame(FrameHandle handle, FrameFields *out) const override {
    read_frame_fields(*as<NvDsFrameMeta>(handle), out);
  }

  Status write_frame(FrameHandle handle, const FrameFields &fields) override {
    modified_ = true;
    Status status = validate_frame(fields);
    if (status.ok())
      write_frame_fields(fields, as<NvDsFrameMeta>(handle));
    return status;
  }

  // --- objects

  ObjectHandle acquire_object() override {
    modified_ = true;
    MetaLock lock(batch_);
    NvDsObjectMeta *object = ds().nvds_acquire_obj_meta_from_pool(batch_);
    object->object_id = UNTRACKED_OBJECT_ID;
    object->parent = nullptr;
    pending_objects_.push_back(object);
    return ObjectHandle{object};
  }

  Status add_object(FrameHandle frame, ObjectHandle object, ObjectHandle parent) override {
    modified_ = true;
    auto *parent_meta = as<NvDsObjectMeta>(parent);
    if (parent_meta != nullptr && !in_a_frame(parent_meta))
      return Status::State(std::string("Expected an ObjectMeta added to a frame for parent but received ") +
          (std::find(pending_objects_.begin(), pending_objects_.end(), parent_meta) != pending_objects_.end()
              ? "one acquired but never added" : "one already returned to its pool (removed, or its call ended)"));
    if (!take_pending(pending_objects_, as<NvDsObjectMeta>(object)))
      return not_pending("ObjectMeta", "addObjectMeta", in_batch(batch_, object.ptr));
    MetaLock lock(batch_);
    ds().nvds_add_obj_meta_to_frame(as<NvDsFrameMeta>(frame), as<NvDsObjectMeta>(object), as<NvDsObjectMeta>(parent));
    return Status::Ok();
  }

  Status remove_object(FrameHandle frame, ObjectHandle object) override {
    modified_ = true;
    MetaLock lock(batch_);
    auto *f = as<NvDsFrameMeta>(frame);
    if (!contains(f->obj_meta_list, object.ptr))
      return not_in("an ObjectMeta", "frame", "removeObjectMeta");
    // Children keep their parent pointer in DeepStream; clear it so it never dangles (the
    // object goes back to the pool, and the next one acquired may reuse it). A parent may be in
    // another frame of the batch, so every frame is looked at, as the portable backend does.
    for (GList *frames = batch_->frame_meta_list; frames != nullptr; frames = frames->next) {
      auto *any_frame = static_cast<NvDsFrameMeta *>(frames->data);
      for (GList *node = any_frame->obj_meta_list; node != nullptr; node = node->next) {
        auto *other = static_cast<NvDsObjectMeta *>(node->data);
        if (other->parent == object.ptr) other->parent = nullptr;
      }
    }
    ds().nvds_remove_obj_meta_from_frame(f, as<NvDsObjectMeta>(object));
    return Status::Ok();
  }

  void objects(FrameHandle frame, std::vector<ObjectHandle> *out) const override {
    MetaLock lock(batch_);
    collect(as<NvDsFrameMeta>(frame)->obj_meta_list, out);
  }

  size_t num_objects(FrameHandle frame) const override {
    MetaLock lock(batch_);
    return g_list_length(as<NvDsFrameMeta>(frame)->obj_meta_list);
  }

  void read_object(ObjectHandle handle, ObjectFields *out) const override {
    const auto *o = as<NvDsObjectMeta>(handle);
    read_object_fields(*o, out);
    const NvOSD_MaskParams &mask = o->mask_params;
    const size_t cells = static_cast<size_t>(mask.width) * mask.height;
    if (mask.data != nullptr && cells > 0 && mask.size >= cells * sizeof(float))
      out->mask_params.data.assign(mask.data, mask.data + cells);
    else
      out->mask_params.data.clear();
    out->mask_params.threshold = mask.threshold;
    out->mask_params.width = out->mask_params.data.empty() ? 0 : mask.width;
    out->mask_params.height = out->mask_params.data.empty() ? 0 : mask.height;
    out->text_params = from_ds(o->text_params);
    std::memcpy(out->obj_label, o->obj_label, kMaxLabelSize);
    out->obj_label[kMaxLabelSize - 1] = '\0';
  }

  Status write_object(ObjectHandle handle, const ObjectFields &fields, const ObjectFields *before = nullptr) override {
    modified_ = true;
    Status status = validate_object(fields, before);
    if (status.ok())
      status = check_supported(fields.rect_params, "rect_params");
    if (!status.ok())
      return status;
    auto *o = as<NvDsObjectMeta>(handle);
    write_object_fields(fields, o);
    // nvinfer g_malloc()s the mask and DeepStream g_free()s it on release: same here.
    g_free(o->mask_params.data);
    o->mask_params.data = nullptr;
    o->mask_params.size = 0;
    if (!fields.mask_params.data.empty()) {
      const size_t bytes = fields.mask_params.data.size() * sizeof(float);
      o->mask_params.data = static_cast<float *>(g_memdup2(fields.mask_params.data.data(), bytes));
      o->mask_params.size = static_cast<unsigned int>(bytes);
    }
    o->mask_params.threshold = fields.mask_params.threshold;
    o->mask_params.width = fields.mask_params.width;
    o->mask_params.height = fields.mask_params.height;
    to_ds(fields.text_params, &o->text_params);
    std::memcpy(o->obj_label, fields.obj_label, kMaxLabelSize);
    return Status::Ok();
  }

  bool in_a_frame(NvDsObjectMeta *object) const {
    MetaLock lock(batch_);
    for (NvDsFrameMeta *frame : frames_)
      if (contains(frame->obj_meta_list, object)) return true;
    return false;
  }

  ObjectHandle parent_of(ObjectHandle object) const override {
    return ObjectHandle{as<NvDsObjectMeta>(object)->parent};
  }

  // --- classifiers and label infos

  ClassifierHandle acquire_classifier() override {
    modified_ = true;
    MetaLock lock(batch_);
    NvDsClassifierMeta *classifier = ds().nvds_acquire_classifier_meta_from_pool(batch_);
    pending_classifiers_.push_back(classifier);
    return ClassifierHandle{classifier};
  }

  Status add_classifier(ObjectHandle object, ClassifierHandle classifier) override {
    modified_ = true;
    if (!take_pending(pending_classifiers_, as<NvDsClassifierMeta>(classifier)))
      return not_pending("ClassifierMeta", "addClassifierMeta", in_batch(batch_, classifier.ptr));
    MetaLock lock(batch_);
    ds().nvds_add_classifier_meta_to_object(as<NvDsObjectMeta>(object), as<NvDsClassifierMeta>(classifier));
    return Status::Ok();
  }

  Status remove_classifier(ObjectHandle object, ClassifierHandle classifier) override {
    modified_ = true;
    MetaLock lock(batch_);
    auto *o = as<NvDsObjectMeta>(object);
    if (!contains(o->classifier_meta_list, classifier.ptr))
      return not_in("a ClassifierMeta", "object", "removeClassifierMeta");
    ds().nvds_remove_classifier_meta_from_obj(o, as<NvDsClassifierMeta>(classifier));
    return Status::Ok();
  }

  void classifiers(ObjectHandle object, std::vector<ClassifierHandle> *out) const override {
    MetaLock lock(batch_);
    collect(as<NvDsObjectMeta>(object)->classifier_meta_list, out);
  }

  void read_classifier(ClassifierHandle handle, ClassifierFields *out) const override {
    copy_classifier_fields(*as<NvDsClassifierMeta>(handle), out);
  }

  Status write_classifier(ClassifierHandle handle, const ClassifierFields &fields) override {
    modified_ = true;
    Status status = validate_classifier(fields);
    if (!status.ok())
      return status;
    copy_classifier_fields(fields, as<NvDsClassifierMeta>(handle));
    return Status::Ok();
  }

  LabelInfoHandle acquire_label_info() override {
    modified_ = true;
    MetaLock lock(batch_);
    NvDsLabelInfo *label = ds().nvds_acquire_label_info_meta_from_pool(batch_);
    pending_labels_.push_back(label);
    return LabelInfoHandle{label};
  }

  Status add_label_info(ClassifierHandle classifier, LabelInfoHandle label) override {
    modified_ = true;
    if (!take_pending(pending_labels_, as<NvDsLabelInfo>(label)))
      return not_pending("LabelInfo", "addLabelInfo", in_batch(batch_, label.ptr));
    MetaLock lock(batch_);
    // NVIDIA's add counts the label into num_labels; ours was written with the classifier
    // (ClassifierMeta.numLabels, by default the number of labels): keep it as written.
    auto *c = as<NvDsClassifierMeta>(classifier);
    const guint num_labels = c->num_labels;
    ds().nvds_add_label_info_meta_to_classifier(c, as<NvDsLabelInfo>(label));
    c->num_labels = num_labels;
    return Status::Ok();
  }

  Status remove_label_info(ClassifierHandle classifier, LabelInfoHandle label) override {
    modified_ = true;
    MetaLock lock(batch_);
    auto *c = as<NvDsClassifierMeta>(classifier);
    if (!contains(c->label_info_list, label.ptr))
      return not_in("a LabelInfo", "classifier", "removeLabelInfo");
    const guint num_labels = c->num_labels;  // as for add: the written count stays
    ds().nvds_remove_label_info_meta_from_classifier(c, as<NvDsLabelInfo>(label));
    c->num_labels = num_labels;
    return Status::Ok();
  }

  void label_infos(ClassifierHandle classifier, std::vector<LabelInfoHandle> *out) const override {
    MetaLock lock(batch_);
    collect(as<NvDsClassifierMeta>(classifier)->label_info_list, out);
  }

  void read_label_info(LabelInfoHandle handle, LabelInfoFields *out) const override {
    const auto *l = as<NvDsLabelInfo>(handle);
    copy_label_info_fields(*l, out);
    // nvinfer keeps a label of MAX_LABEL_SIZE bytes or more here, whole.
    out->long_label = l->pResult_label != nullptr ? l->pResult_label : "";
  }

  Status write_label_info(LabelInfoHandle handle, const LabelInfoFields &fields) override {
    modified_ = true;
    Status status = validate_label_info(fields);
    if (!status.ok())
      return status;
    auto *l = as<NvDsLabelInfo>(handle);
    copy_label_info_fields(fields, l);
    // DeepStream owns it (g_free when the label goes back to its pool, g_strdup when copied).
    g_free(l->pResult_label);
    l->pResult_label = fields.long_label.empty() ? nullptr : g_strdup(fields.long_label.c_str());
    return Status::Ok();
  }

  // --- display metas

  DisplayHandle acquire_display() override {
    modified_ = true;
    MetaLock lock(batch_);
    NvDsDisplayMeta *display = ds().nvds_acquire_display_meta_from_pool(batch_);
    pending_displays_.push_back(display);
    return DisplayHandle{display};
  }

  Status add_display(FrameHandle frame, DisplayHandle display) override {
    modified_ = true;
    if (!take_pending(pending_displays_, as<NvDsDisplayMeta>(display)))
      return not_pending("DisplayMeta", "addDisplayMeta", in_batch(batch_, display.ptr));
    MetaLock lock(batch_);
    ds().nvds_add_display_meta_to_frame(as<NvDsFrameMeta>(frame), as<NvDsDisplayMeta>(display));
    return Status::Ok();
  }

  Status remove_display(FrameHandle frame, DisplayHandle display) override {
    modified_ = true;
    MetaLock lock(batch_);
    auto *f = as<NvDsFrameMeta>(frame);
    if (!contains(f->display_meta_list, display.ptr))
      return not_in("a DisplayMeta", "frame", "removeDisplayMeta");
    ds().nvds_remove_display_meta_from_frame(f, as<NvDsDisplayMeta>(display));
    return Status::Ok();
  }

  void displays(FrameHandle frame, std::vector<DisplayHandle> *out) const override {
    MetaLock lock(batch_);
    collect(as<NvDsFrameMeta>(frame)->display_meta_list, out);
  }

  void read_display(DisplayHandle handle, DisplayFields *out) const override {
    const auto *d = as<NvDsDisplayMeta>(handle);
    const auto bounded = [](guint count) { return std::min<uint32_t>(count, kMaxElementsInDisplayMeta); };
    out->num_rects = bounded(d->num_rects); out->num_labels = bounded(d->num_labels);
    out->num_lines = bounded(d->num_lines); out->num_arrows = bounded(d->num_arrows);
    out->num_circles = bounded(d->num_circles);
    for (uint32_t i = 0; i < out->num_rects; ++i) out->rect_params[i] = from_ds(d->rect_params[i]);
    for (uint32_t i = 0; i < out->num_labels; ++i) out->text_params[i] = from_ds(d->text_params[i]);
    for (uint32_t i = 0; i < out->num_lines; ++i) out->line_params[i] = from_ds(d->line_params[i]);
    for (uint32_t i = 0; i < out->num_arrows; ++i) out->arrow_params[i] = from_ds(d->arrow_params[i]);
    for (uint32_t i = 0; i < out->num_circles; ++i) out->circle_params[i] = from_ds(d->circle_params[i]);
    std::memcpy(out->misc_osd_data, d->misc_osd_data, sizeof out->misc_osd_data);
  }

  Status write_display(DisplayHandle handle, const DisplayFields &fields) override {
    modified_ = true;
    Status status = validate_display(fields);
    for (uint32_t i = 0; status.ok() && i < fields.num_rects; ++i)
      status = check_supported(fields.rect_params[i], "rect_params[]", " of a display meta");
    if (!status.ok())
      return status;
    auto *d = as<NvDsDisplayMeta>(handle);
    // Texts past the new count would keep strings DeepStream frees only up to num_labels.
    for (uint32_t i = fields.num_labels; i < d->num_labels && i < kMaxElementsInDisplayMeta; ++i) {
      g_free(d->text_params[i].display_text);
      d->text_params[i].display_text = nullptr;
    }
    d->num_rects = fields.num_rects; d->num_labels = fields.num_labels; d->num_lines = fields.num_lines;
    d->num_arrows = fields.num_arrows; d->num_circles = fields.num_circles;
    for (uint32_t i = 0; i < fields.num_rects; ++i) copy_rect_params(fields.rect_params[i], &d->rect_params[i]);
    for (uint32_t i = 0; i < fields.num_labels; ++i) to_ds(fields.text_params[i], &d->text_params[i]);
    for (uint32_t i = 0; i < fields.num_lines; ++i) d->line_params[i] = to_ds(fields.line_params[i]);
    for (uint32_t i = 0; i < fields.num_arrows; ++i) d->arrow_params[i] = to_ds(fields.arrow_params[i]);
    for (uint32_t i = 0; i < fields.num_circles; ++i) d->circle_params[i] = to_ds(fields.circle_params[i]);
    std::memcpy(d->misc_osd_data, fields.misc_osd_data, sizeof d->misc_osd_data);
    return Status::Ok();
  }

  // --- user metas

  UserHandle acquire_user_meta() override {
    modified_ = true;
    MetaLock lock(batch_);
    NvDsUserMeta *user = ds().nvds_acquire_user_meta_from_pool(batch_);
    // The user meta pool has no release function of its own: a meta comes back with the
    // previous user's data pointer and callbacks (nvds_acquire_meta_from_pool keeps them).
    user->user_meta_data = nullptr;
    user->base_meta.meta_type = NVDS_INVALID_META;
    user->base_meta.copy_func = nullptr;
    user->base_meta.release_func = nullptr;
    user->base_meta.uContext = nullptr;
    pending_users_.push_back(user);
    return UserHandle{user};
  }

  Status add_user_meta(UserMetaLevel level, void *owner, UserHandle handle) override {
    modified_ = true;
    auto *user = as<NvDsUserMeta>(handle);
    if (std::find(pending_users_.begin(), pending_users_.end(), user) == pending_users_.end())
      return not_pending("UserMeta", "addUserMeta", in_batch(batch_, user));
    if (own_payload(user) == nullptr)
      return Status::State("Expected a UserMeta with a type (ORG.COMPONENT.DESCRIPTION) for addUserMeta "
          "but received one never written");
    take_pending(pending_users_, user);
    MetaLock lock(batch_);
    add_to(level, owner, user);
    return Status::Ok();
  }

  Status remove_user_meta(UserMetaLevel level, void *owner, UserHandle handle) override {
    modified_ = true;
    auto *user = as<NvDsUserMeta>(handle);
    MetaLock lock(batch_);
    GList *list = *user_list(level, owner);
    if (!contains(list, user))
      return not_in("a UserMeta", level == UserMetaLevel::kBatch ? "batch" :
          level == UserMetaLevel::kFrame ? "frame" : "object", "removeUserMeta");
    switch (level) {
      case UserMetaLevel::kBatch: ds().nvds_remove_user_meta_from_batch(batch_, user); break;
      case UserMetaLevel::kFrame: ds().nvds_remove_user_meta_from_frame(static_cast<NvDsFrameMeta *>(owner), user); break;
      case UserMetaLevel::kObject: ds().nvds_remove_user_meta_from_object(static_cast<NvDsObjectMeta *>(owner), user); break;
    }
    return Status::Ok();
  }

  void user_metas(UserMetaLevel level, void *owner, std::vector<UserHandle> *out) const override {
    MetaLock lock(batch_);
    collect(*user_list(level, owner), out, /*prepended=*/level != UserMetaLevel::kBatch);
  }

  void read_user_meta(UserHandle handle, UserMetaFields *out) const override {
    const auto *user = as<NvDsUserMeta>(handle);
    out->meta_type_id = user->base_meta.meta_type;
    if (const PayloadHeader *payload = own_payload(user)) {
      out->meta_type = payload->type;
      out->kind = payload->kind;
      const auto *bytes = static_cast<const uint8_t *>(user->user_meta_data);
      out->payload.assign(bytes, bytes + payload->size);
    } else {
      out->meta_type.clear();
      out->kind = user->base_meta.meta_type == NVDSINFER_TENSOR_OUTPUT_META ? PayloadKind::kTensorOutput
                                                                             : PayloadKind::kForeign;
      out->payload.clear();
    }
  }

  Status write_user_meta(UserHandle handle, const UserMetaFields &fields) override {
    modified_ = true;
    auto *user = as<NvDsUserMeta>(handle);
    const bool pending = std::find(pending_users_.begin(), pending_users_.end(), user) != pending_users_.end();
    if (!pending && own_payload(user) == nullptr) {
      UserMetaFields current;
      read_user_meta(handle, &current);
      return validate_user_meta(current);  // the read-only error
    }
    Status status = validate_user_meta(fields);
    if (!status.ok())
      return status;
    // nvds_get_user_meta_type keeps the pointer it is given (g_quark_from_static_string): it
    // must outlive the process, as interned strings do. So does every distinct type string.
    if (g_quark_try_string(fields.meta_type.c_str()) == 0)
      interned_types.fetch_add(1, std::memory_order_relaxed);
    const char *type = g_intern_string(fields.meta_type.c_str());
    if (own_payload(user) != nullptr)
      payload_release(user, nullptr);
    user->user_meta_data = payload_bytes(new_payload(type, fields.kind, fields.payload.data(), fields.payload.size()));
    user->base_meta.copy_func = payload_copy;
    user->base_meta.release_func = payload_release;
    user->base_meta.meta_type = ds().nvds_get_user_meta_type(const_cast<gchar *>(type));
    return Status::Ok();
  }

  bool read_tensor_output(UserHandle handle, TensorOutput *out) const override {
    const auto *user = as<NvDsUserMeta>(handle);
    if (user->base_meta.meta_type != NVDSINFER_TENSOR_OUTPUT_META || user->user_meta_data == nullptr)
      return false;
    const auto *meta = static_cast<const NvDsInferTensorMeta *>(user->user_meta_data);
    out->unique_id = meta->unique_id;
    out->gpu_id = meta->gpu_id;
    out->network_width = meta->network_info.width;
    out->network_height = meta->network_info.height;
    out->network_channels = meta->network_info.channels;
    out->maintain_aspect_ratio = meta->maintain_aspect_ratio;
    out->symmetric_padding = meta->symmetric_padding;
    out->layers.resize(meta->num_output_layers);
    for (guint i = 0; i < meta->num_output_layers; ++i) {
      const NvDsInferLayerInfo &info = meta->output_layers_info[i];
      TensorLayer &layer = out->layers[i];
      layer.layer_name = info.layerName != nullptr ? info.layerName : "";
      layer.data_type = static_cast<TensorDataType>(info.dataType);
      layer.num_dims = std::min<uint32_t>(info.inferDims.numDims, kMaxTensorDims);
      std::copy_n(info.inferDims.d, layer.num_dims, layer.dims);
      layer.num_elements = info.inferDims.numElements;
      layer.binding_index = info.bindingIndex;
      layer.host_buffer = meta->out_buf_ptrs_host != nullptr ? meta->out_buf_ptrs_host[i] : nullptr;
      layer.device_buffer = meta->out_buf_ptrs_dev != nullptr ? meta->out_buf_ptrs_dev[i] : nullptr;
    }
    return true;
  }

  Status add_tensor_output(UserMetaLevel level, void *owner, const TensorOutput &output,
      std::vector<std::vector<uint8_t>> bytes, UserHandle *created) {
    Status status = validate_tensor_output(output, bytes);
    if (!status.ok())
      return status;
    MetaLock lock(batch_);
    NvDsUserMeta *user = ds().nvds_acquire_user_meta_from_pool(batch_);
    user->user_meta_data = &(new TensorMetaStorage(output, std::move(bytes)))->meta;
    user->base_meta.meta_type = NVDSINFER_TENSOR_OUTPUT_META;
    user->base_meta.copy_func = tensor_meta_copy;
    user->base_meta.release_func = tensor_meta_release;
    user->base_meta.uContext = nullptr;
    add_to(level, owner, user);
    if (created != nullptr)
      *created = UserHandle{user};
    return Status::Ok();
  }

  // DeepStream has no "give back un-added" call: add each leftover to a parent and remove it,
  // which returns it to its pool (remove releases). Classifiers and labels go back through a
  // scratch object that carries them. With no frame to borrow, they stay in the batch's full
  // list and are freed with the batch.
  void end_call() override {
    if (frames_.empty() || (pending_objects_.empty() && pending_classifiers_.empty() &&
        pending_labels_.empty() && pending_displays_.empty() && pending_users_.empty()))
      return clear_pending();
    MetaLock lock(batch_);
    NvDsFrameMeta *frame = frames_.front();
    for (NvDsUserMeta *user : pending_users_) {
      ds().nvds_add_user_meta_to_batch(batch_, user);
      ds().nvds_remove_user_meta_from_batch(batch_, user);
    }
    for (NvDsDisplayMeta *display : pending_displays_) {
      ds().nvds_add_display_meta_to_frame(frame, display);
      ds().nvds_remove_display_meta_from_frame(frame, display);
    }
    if (!pending_classifiers_.empty() || !pending_labels_.empty()) {
      NvDsObjectMeta *scratch = ds().nvds_acquire_obj_meta_from_pool(batch_);
      if (!pending_labels_.empty()) {
        NvDsClassifierMeta *holder = ds().nvds_acquire_classifier_meta_from_pool(batch_);
        for (NvDsLabelInfo *label : pending_labels_) ds().nvds_add_label_info_meta_to_classifier(holder, label);
        ds().nvds_add_classifier_meta_to_object(scratch, holder);
      }
      for (NvDsClassifierMeta *classifier : pending_classifiers_) ds().nvds_add_classifier_meta_to_object(scratch, classifier);
      pending_objects_.push_back(scratch);
    }
    for (NvDsObjectMeta *object : pending_objects_) {
      ds().nvds_add_obj_meta_to_frame(frame, object, nullptr);
      ds().nvds_remove_obj_meta_from_frame(frame, object);
    }
    clear_pending();
  }

 private:
  void clear_pending() {
    pending_objects_.clear(); pending_classifiers_.clear(); pending_labels_.clear();
    pending_displays_.clear(); pending_users_.clear();
  }

  void add_to(UserMetaLevel level, void *owner, NvDsUserMeta *user) {
    switch (level) {
      case UserMetaLevel::kBatch: ds().nvds_add_user_meta_to_batch(batch_, user); break;
      case UserMetaLevel::kFrame: ds().nvds_add_user_meta_to_frame(static_cast<NvDsFrameMeta *>(owner), user); break;
      case UserMetaLevel::kObject: ds().nvds_add_user_meta_to_obj(static_cast<NvDsObjectMeta *>(owner), user); break;
    }
  }

  GList **user_list(UserMetaLevel level, void *owner) const {
    switch (level) {
      case UserMetaLevel::kBatch: return &batch_->batch_user_meta_list;
      case UserMetaLevel::kFrame: return &static_cast<NvDsFrameMeta *>(owner)->frame_user_meta_list;
      case UserMetaLevel::kObject: return &static_cast<NvDsObjectMeta *>(owner)->obj_user_meta_list;
    }
    return nullptr;
  }


  NvDsBatchMeta *batch_;
  bool modified_ = false;
  std::vector<NvDsFrameMeta *> frames_;
  std::vector<NvDsObjectMeta *> pending_objects_;
  std::vector<NvDsClassifierMeta *> pending_classifiers_;
  std::vector<NvDsLabelInfo *> pending_labels_;
  std::vector<NvDsDisplayMeta *> pending_displays_;
  std::vector<NvDsUserMeta *> pending_users_;
};

}  // namespace

bool has_deepstream_batch(GstBuffer *buffer) {
  return api_once().loaded && ds().gst_buffer_get_nvds_batch_meta(buffer) != nullptr;
}

namespace {

NvDsBatchMeta *create_batch(uint32_t max_frames_in_batch) {
  NvDsBatchMeta *batch = ds().nvds_create_batch_meta(max_frames_in_batch);
  if (batch == nullptr)
    return nullptr;
  // nvds_create_batch_meta sizes the pools but leaves this 0, as nvstreammux sets it itself;
  // at 0 no frame fits and NVIDIA's copy makes pools that cannot grow.
  batch->max_frames_in_batch = max_frames_in_batch;
  batch->base_meta.batch_meta = batch;
  batch->base_meta.copy_func = ds().nvds_batch_meta_copy_func;
  batch->base_meta.release_func = ds().nvds_batch_meta_release_func;
  return batch;
}

bool attach_batch(GstBuffer *buffer, NvDsBatchMeta *batch) {
  NvDsMeta *meta = ds().gst_buffer_add_nvds_meta(buffer, batch, nullptr, ds().nvds_batch_meta_copy_func,
      ds().nvds_batch_meta_release_func);
  if (meta == nullptr)
    return false;
  // What nvstreammux sets: downstream finds the batch by this type.
  meta->meta_type = NVDS_BATCH_GST_META;
  return true;
}

}  // namespace

namespace {

const char *meta_type_name(NvDsMetaType type) {
  switch (type) {
    case NVDS_BATCH_META: return "NVDS_BATCH_META";
    case NVDS_FRAME_META: return "NVDS_FRAME_META";
    case NVDS_AUDIO_BATCH_META: return "NVDS_AUDIO_BATCH_META";
    case NVDS_AUDIO_FRAME_META: return "NVDS_AUDIO_FRAME_META";
    default: return nullptr;
  }
}

std::string describe_meta_type(NvDsMetaType type) {
  const char *name = meta_type_name(type);
  return name != nullptr ? name : "meta_type " + std::to_string(static_cast<int>(type));
}

// Why a batch found on a buffer is not a video batch ("" when it is one). nvstreammux's audio
// path attaches an NvDsBatchMeta too, under the same NVDS_BATCH_GST_META (gstnvstreammux.cpp
// ~1437-1450), made by nvds_create_audio_batch_meta: base_meta.meta_type NVDS_AUDIO_BATCH_META
// (nvds_audio_meta.c ~56) and frames that are NvDsAudioFrameMeta, whose layout is not
// NvDsFrameMeta's: read as video frames they crash the reader. DeepStream's own copy tells the
// two apart the same way (gstnvdsmeta.c ~96-105).
std::string non_video_batch(const NvDsBatchMeta *batch) {
  if (batch->base_meta.meta_type != NVDS_BATCH_META) {
    return "an NvDsBatchMeta of " + describe_meta_type(batch->base_meta.meta_type) +
        (batch->base_meta.meta_type == NVDS_AUDIO_BATCH_META ? " (audio, from nvstreammux's audio path)" : "") +
        " where a video batch (NVDS_BATCH_META) was expected";
  }
  for (const GList *l = batch->frame_meta_list; l != nullptr; l = l->next) {
    const auto *frame = static_cast<const NvDsBaseMeta *>(l->data);
    if (frame != nullptr && frame->meta_type != NVDS_FRAME_META)
      return "a video NvDsBatchMeta holding a frame of " + describe_meta_type(frame->meta_type) +
          " where video frames (NVDS_FRAME_META) were expected";
  }
  return "";
}

}  // namespace

std::unique_ptr<Batch> open_deepstream_batch(GstBuffer *buffer, uint32_t max_frames_in_batch, std::string *refused) {
  if (!api_once().loaded)
    return nullptr;
  NvDsBatchMeta *batch = ds().gst_buffer_get_nvds_batch_meta(buffer);
  if (batch != nullptr) {
    if (std::string why = non_video_batch(batch); !why.empty()) {
      if (refused != nullptr) *refused = std::move(why);
      return nullptr;
    }
  }
  if (batch == nullptr) {
    if (!gst_buffer_is_writable(buffer) || max_frames_in_batch == 0)
      return nullptr;
    batch = create_batch(max_frames_in_batch);
    if (batch == nullptr)
      return nullptr;
    if (!attach_batch(buffer, batch)) {
      ds().nvds_destroy_batch_meta(batch);
      return nullptr;
    }
  }
  return std::make_unique<DeepStreamBackend>(batch);
}

struct DetachedDeepStreamBatch {
  NvDsBatchMeta *batch = nullptr;
};

std::unique_ptr<Batch> open_detached_deepstream_batch(DetachedDeepStreamBatch **spare, const FrameFields &frame) {
  if (!api_once().loaded)
    return nullptr;
  if (*spare == nullptr) {
    NvDsBatchMeta *batch = create_batch(1);
    if (batch == nullptr)
      return nullptr;
    *spare = new DetachedDeepStreamBatch{batch};
    auto backend = std::make_unique<DeepStreamBackend>(batch);
    if (backend->add_frame(frame).ptr == nullptr)
      return nullptr;
    return backend;
  }
  auto backend = std::make_unique<DeepStreamBackend>((*spare)->batch);
  backend->reset_first_frame(frame);
  return backend;
}

bool finish_detached_deepstream_batch(GstBuffer *buffer, Batch &batch, DetachedDeepStreamBatch **spare) {
  auto &backend = static_cast<DeepStreamBackend &>(batch);
  backend.end_call();
  if (*spare == nullptr || backend.raw() != (*spare)->batch || !backend.modified())
    return true;
  NvDsBatchMeta *changed = (*spare)->batch;
  delete *spare;
  *spare = nullptr;
  if (!gst_buffer_is_writable(buffer) || !attach_batch(buffer, changed)) {
    ds().nvds_destroy_batch_meta(changed);
    return false;
  }
  return true;
}

size_t user_meta_types_warning_bound() {
  if (const char *text = g_getenv("DS_ELEMENT_USER_META_TYPES_WARN"); text != nullptr && *text != '\0') {
    char *end = nullptr;
    const unsigned long long bound = g_ascii_strtoull(text, &end, 10);
    if (end != text && *end == '\0') return static_cast<size_t>(bound);
  }
  return kUserMetaTypesWarningBound;
}

bool take_user_meta_types_warning(size_t *count) {
  static const size_t bound = user_meta_types_warning_bound();
  const size_t interned = interned_types.load(std::memory_order_relaxed);
  if (bound == 0 || interned <= bound || interned_types_warned.exchange(true))
    return false;
  *count = interned;
  return true;
}

bool deepstream_batch_modified(const Batch &batch) {
  return batch.backend() == BackendKind::kDeepStream && static_cast<const DeepStreamBackend &>(batch).modified();
}

void release_detached_deepstream_batch(DetachedDeepStreamBatch *spare) {
  if (spare == nullptr)
    return;
  ds().nvds_destroy_batch_meta(spare->batch);
  delete spare;
}

Status add_deepstream_tensor_output(Batch &batch, UserMetaLevel level, void *owner, const TensorOutput &output,
    std::vector<std::vector<uint8_t>> bytes, UserHandle *created) {
  if (batch.backend() != BackendKind::kDeepStream)
    return Status::State("Expected a DeepStream batch for a tensor output");
  return static_cast<DeepStreamBackend &>(batch).add_tensor_output(level, owner, output, std::move(bytes), created);
}

FrameHandle add_deepstream_frame(Batch &batch, const FrameFields &fields) {
  if (batch.backend() != BackendKind::kDeepStream || !validate_frame(fields).ok())
    return {};
  return static_cast<DeepStreamBackend &>(batch).add_frame(fields);
}

}  // namespace dsnode::meta
