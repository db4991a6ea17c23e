#include "gst/element.h"

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gst/downstream_muxer.h"
#include "gst/gst_analytics_meta.h"
#include "gst/isolate_property.h"
#include "gst/json_values.h"
#include "gst/plugin.h"
#include "gst/runtime_loader.h"
#include "gst/source_events.h"
#include "meta/metadata_source.h"

#define GST_CAT_DEFAULT dsnode_debug

namespace dsnode {

namespace {

using nlohmann::json;

// What register_element knows about an element type; the class data, alive forever.
struct ElementTypeData {
  const Manifest *manifest = nullptr;
  GstDebugCategory *category = nullptr;
  std::vector<GType> enum_types;        // per property; 0 for non-enum properties
};

struct DsNodeElementClass {
  GstBaseTransformClass parent_class;
  const ElementTypeData *data;          // null in the abstract base
  std::vector<GParamSpec *> *pspecs;    // per property, in manifest order
  std::vector<GValue> *initial_values;  // per property
  std::atomic<int> *instance_count;     // for default names
};

// Settings: what the properties hold. Between start() and stop() they are also in JS.
struct PropertySlot {
  GValue value = G_VALUE_INIT;
  bool assigned = false;                // set by the application (or has a default)
  uint64_t changed_at = 0;              // ElementPrivate::property_changes when last set
};

// State: exists from start() to stop(). Streaming-thread code uses it without the lock:
// start()/stop(), which create and destroy it, run while no buffer or event flows.
struct RunState {
  const LoadedRuntime *runtime = nullptr;
  DsnodeInstance *instance = nullptr;
  uint64_t next_frame_num = 0;
  uint32_t width = 0;
  uint32_t height = 0;
  // The sink caps as frame access needs them (buffer.extract); caps_string owns the text.
  DsnodeStreamInfo stream = {};
  std::string caps_string;
  // Caps JS rejected: basetransform offers them again on every buffer, and one error is enough.
  GstCaps *rejected_caps = nullptr;
  // The build's metadata backend, opened at start: every buffer's batch comes from it
  // (docs/internals/metadata-design.md §2), a plain buffer's from the one-frame batch it keeps
  // between buffers.
  std::unique_ptr<meta::MetadataSource> metadata;
  // GStreamer's analytics library when the gst-analytics-meta property uses it (null: not used).
  const meta::GstAnalyticsApi *gst_analytics = nullptr;
  // The nvstreammux sink pad this element's buffers reach ("" when none): looked up at the
  // first buffer it writes to after each caps change, not on every buffer (a walk of the
  // pipeline downstream).
  std::optional<std::string> muxer_pad;

  RunState() {
    stream.memory = DSNODE_MEMORY_OTHER;  // until caps arrive
    stream.caps_string = caps_string.c_str();
  }
  ~RunState() {
    gst_clear_caps(&rejected_caps);
  }
};

// An error JS raised outside a call the element waits for (a timer, process.exit).
struct AsyncError {
  bool posted = false;     // a thread took it to post
  bool post_done = false;  // ...and the message is on the bus
  std::string message;
  std::string debug;
};

struct ElementPrivate {
  // Guards properties and swaps of state. Held while calling the runtime's non-blocking
  // set_property, so the runtime's callbacks must never need it.
  std::mutex lock;
  std::vector<PropertySlot> properties;
  uint64_t property_changes = 0;
  std::unique_ptr<RunState> state;
  // The gst-analytics-meta property (a GstAnalyticsMode), read at start.
  std::atomic<gint> gst_analytics_mode{static_cast<gint>(kDefaultGstAnalyticsMode)};
  // The isolate property (an IsolateMode), read at start.
  std::atomic<gint> isolate_mode{static_cast<gint>(default_isolate_mode())};

  // From a flush start (or PAUSED -> READY) until the flush stops (or the next start): a call
  // into JS that fails meanwhile was abandoned for the flush, not an error.
  std::atomic<bool> flushing{false};

  std::mutex error_lock;                // async_error only; taken from the JS thread
  std::condition_variable error_posted;  // post_done turned true
  std::optional<AsyncError> async_error;
  std::atomic<bool> has_async_error{false};  // lock-free check on the buffer path
  // An onEvent() failure of this run was posted. The stream goes on after it, and an onEvent
  // that fails fails on every event (stream-start, segment, EOS): later ones are logged only.
  std::atomic<bool> event_error_posted{false};
};

struct DsNodeElement {
  GstBaseTransform parent;
  ElementPrivate *priv;
};

GstBaseTransformClass *parent_class = nullptr;

GType dsnode_element_get_type();

bool is_dsnode_element(gpointer instance) {
  return instance != nullptr &&
      G_TYPE_CHECK_INSTANCE_TYPE(instance, dsnode_element_get_type());
}

DsNodeElement *as_element(gpointer instance) {
  return reinterpret_cast<DsNodeElement *>(instance);
}

DsNodeElementClass *class_of(gpointer instance) {
  return G_TYPE_INSTANCE_GET_CLASS(instance, dsnode_element_get_type(), DsNodeElementClass);
}

GstDebugCategory *category_of(gpointer instance) {
  const ElementTypeData *data = class_of(instance)->data;
  return data != nullptr ? data->category : dsnode_debug;
}

// Frees a runtime result's strings whatever path the caller takes.
struct ScopedResult {
  DsnodeResult raw = {FALSE, nullptr, nullptr, FALSE};
  ScopedResult() = default;
  ScopedResult(const ScopedResult &) = delete;
  ScopedResult &operator=(const ScopedResult &) = delete;
  ~ScopedResult() {
    g_free(raw.message);
    g_free(raw.debug);
  }
  bool ok() const { return raw.ok; }
  bool dropped() const { return raw.ok && raw.dropped; }
  std::string message() const {
    return raw.message != nullptr && *raw.message != '\0' ? raw.message
        : "the element failed without an error message";
  }
  std::string debug() const { return raw.debug != nullptr ? raw.debug : ""; }
};

// GStreamer prints the element path before the message, but applications often show only
// the message: naming the element there says which of several instances failed.
#define DSNODE_ELEMENT_ERROR(self, domain, code, message, debug)                              \
  GST_ELEMENT_ERROR(self, domain, code, ("%s: %s", GST_OBJECT_NAME(self), (message).c_str()), \
      ("%s", (debug).c_str()))

// --- properties ---------------------------------------------------------------------------

// The JSON JS sees for a property, or nothing when it has no value (no default and never set,
// or a string set to NULL). Called with the lock held.
std::optional<json> property_json(const PropertySlot &slot) {
  if (!slot.assigned)
    return std::nullopt;
  json value = gvalue_to_json(&slot.value);
  if (value.is_null())
    return std::nullopt;
  return value;
}

// Every property keyed by jsName. A required property without a value is sent as null so JS
// validation names it; an optional one is left out so it reads as undefined.
std::string all_properties_json(DsNodeElement *self) {
  const Manifest &manifest = *class_of(self)->data->manifest;
  json props = json::object();
  for (size_t i = 0; i < manifest.properties.size(); ++i) {
    const PropertySpec &spec = manifest.properties[i];
    std::optional<json> value = property_json(self->priv->properties[i]);
    if (value)
      props[spec.js_name] = std::move(*value);
    else if (!spec.optional)
      props[spec.js_name] = nullptr;
  }
  return dump_json(props);
}

void send_property(DsNodeElement *self, size_t index) {
  RunState *state = self->priv->state.get();
  if (state == nullptr || state->instance == nullptr)
    return;
  const PropertySpec &spec = class_of(self)->data->manifest->properties[index];
  std::optional<json> value = property_json(self->priv->properties[index]);
  state->runtime->api->set_property(state->instance, spec.js_name.c_str(),
      dump_json(value ? *value : json(nullptr)).c_str());
}

// The slot of property `id` (GObject numbers them from 1), or nullopt after warning.
std::optional<size_t> property_index(GObject *object, guint id, GParamSpec *pspec) {
  DsNodeElementClass *klass = class_of(as_element(object));
  const size_t index = id - 1;
  if (klass->data == nullptr || index >= klass->pspecs->size()) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return std::nullopt;
  }
  return index;
}

void element_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  DsNodeElement *self = as_element(object);
  DsNodeElementClass *klass = class_of(self);
  const std::optional<size_t> found = property_index(object, id, pspec);
  if (!found)
    return;
  const size_t index = *found;
  if (gst_debug_category_get_threshold(klass->data->category) >= GST_LEVEL_DEBUG) {
    gchar *text = gst_value_serialize(value);
    GST_CAT_DEBUG_OBJECT(klass->data->category, self, "%s = %s", pspec->name,
        text != nullptr ? text : "(null)");
    g_free(text);
  }
  std::lock_guard<std::mutex> lock(self->priv->lock);
  PropertySlot &slot = self->priv->properties[index];
  g_value_copy(value, &slot.value);
  slot.assigned = true;
  slot.changed_at = ++self->priv->property_changes;
  // The runtime queues it in order with buffers and does not block.
  send_property(self, index);
}

void element_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  DsNodeElement *self = as_element(object);
  const std::optional<size_t> index = property_index(object, id, pspec);
  if (!index)
    return;
  std::lock_guard<std::mutex> lock(self->priv->lock);
  g_value_copy(&self->priv->properties[*index].value, value);
}

// --- callbacks from the runtime (JS thread) ----------------------------------------------

void host_log(GstElement *element, DsnodeLogLevel level, const char *file, int line,
    const char *message) {
  GstDebugCategory *category = is_dsnode_element(element) ? category_of(element) : dsnode_debug;
  GstDebugLevel gst_level = static_cast<GstDebugLevel>(CLAMP(static_cast<int>(level),
          GST_LEVEL_ERROR, GST_LEVEL_TRACE));
  if (gst_level > gst_debug_category_get_threshold(category))
    return;
  gst_debug_log(category, gst_level, file != nullptr ? file : "", "", line,
      is_dsnode_element(element) ? G_OBJECT(element) : nullptr, "%s",
      message != nullptr ? message : "");
}

// Posts the recorded error once, from whichever thread comes first: the streaming thread at
// its next buffer, or the worker host_post_error asked. The streaming thread then returns
// GST_FLOW_ERROR, and its source posts "Internal data stream error": so a streaming thread
// that finds the worker posting waits for the message to be on the bus, or the application
// would see the source's error first. The wait is bounded: a bus sync handler that makes the
// worker wait for this very streaming thread must not deadlock the two.
void post_async_error(DsNodeElement *self) {
  ElementPrivate *priv = self->priv;
  std::string message, debug;
  {
    std::unique_lock<std::mutex> lock(priv->error_lock);
    std::optional<AsyncError> &error = priv->async_error;
    if (!error) return;
    if (error->posted) {
      priv->error_posted.wait_for(lock, std::chrono::seconds(1),
          [priv] { return !priv->async_error || priv->async_error->post_done; });
      return;
    }
    error->posted = true;
    message = error->message;
    debug = error->debug;
  }
  DSNODE_ELEMENT_ERROR(self, STREAM, FAILED, message, debug);
  {
    std::lock_guard<std::mutex> lock(priv->error_lock);
    if (priv->async_error) priv->async_error->post_done = true;
  }
  priv->error_posted.notify_all();
}

void post_async_error_from_worker(GstElement *element, gpointer) {
  post_async_error(as_element(element));
}

// An error of a run that already posted one: in the element's log, not on the bus.
void log_further_error(DsNodeElement *self, const char *message, const char *debug) {
  GST_CAT_ERROR_OBJECT(category_of(self), self, "further error: %s\n%s",
      message != nullptr ? message : "", debug != nullptr ? debug : "");
}

void host_post_error(GstElement *element, const char *message, const char *debug) {
  if (!is_dsnode_element(element)) {
    GST_ERROR("runtime error for an unknown element: %s", message != nullptr ? message : "");
    return;
  }
  DsNodeElement *self = as_element(element);
  {
    std::lock_guard<std::mutex> lock(self->priv->error_lock);
    if (self->priv->async_error) {
      // The first error stops the stream; later ones are usually its consequences.
      log_further_error(self, message, debug);
      return;
    }
    self->priv->async_error = AsyncError{false, false, message != nullptr && *message != '\0' ? message
        : "the element failed without an error message", debug != nullptr ? debug : ""};
    self->priv->has_async_error.store(true, std::memory_order_release);
  }
  // Posting can run bus sync handlers that wait on the streaming thread, which may itself be
  // waiting on the JS thread: the JS thread must never post directly.
  gst_element_call_async(element, post_async_error_from_worker, nullptr, nullptr);
}

const DsnodeHostCallbacks kHostCallbacks = {host_log, host_post_error};

// --- lifecycle ----------------------------------------------------------------------------

gboolean element_start(GstBaseTransform *trans) {
  DsNodeElement *self = as_element(trans);
  ElementPrivate *priv = self->priv;
  const Manifest &manifest = *class_of(self)->data->manifest;
  {
    std::lock_guard<std::mutex> lock(priv->error_lock);
    priv->async_error.reset();
    priv->has_async_error.store(false);
  }
  priv->event_error_posted.store(false);
  priv->flushing.store(false);

  std::string message, details;
  // Before Node: a DeepStream build where DeepStream is absent fails here, in one error.
  std::unique_ptr<meta::MetadataSource> metadata = meta::open_metadata_source(&message);
  if (metadata == nullptr) {
    DSNODE_ELEMENT_ERROR(self, LIBRARY, INIT, message, manifest.name);
    return FALSE;
  }
  const meta::GstAnalyticsApi *gst_analytics = nullptr;
  if (!resolve_gst_analytics(GST_OBJECT(self), static_cast<GstAnalyticsMode>(priv->gst_analytics_mode.load()),
          &gst_analytics, &message, &details)) {
    GST_ELEMENT_ERROR(self, LIBRARY, INIT, ("%s", message.c_str()), (nullptr));
    return FALSE;
  }
  GST_CAT_INFO_OBJECT(category_of(self), self, "%s", details.c_str());
  const LoadedRuntime *runtime = load_runtime(&message, &details);
  if (runtime == nullptr) {
    DSNODE_ELEMENT_ERROR(self, LIBRARY, INIT, message, details);
    return FALSE;
  }
  const DsnodeRuntimeApi *api = runtime->api;

  char *start_error = nullptr;
  if (!api->ensure_started(&kHostCallbacks, runtime->host_js.c_str(), &start_error)) {
    message = "cannot start Node: " + std::string(start_error != nullptr ? start_error : "");
    g_free(start_error);
    DSNODE_ELEMENT_ERROR(self, LIBRARY, INIT, message, runtime->host_js);
    return FALSE;
  }

  std::string props;
  uint64_t props_version;
  {
    std::lock_guard<std::mutex> lock(priv->lock);
    props = all_properties_json(self);
    props_version = priv->property_changes;
  }
  GST_CAT_INFO_OBJECT(category_of(self), self, "creating %s from %s with %s",
      manifest.name.c_str(), manifest.bundle_path.c_str(), props.c_str());

  DsnodeInstance *instance;
  {
    ScopedResult result;
    instance = api->create_instance(GST_ELEMENT(self), manifest.name.c_str(),
        manifest.bundle_path.c_str(), props.c_str(), manifest.call_timeout_s,
        priv->isolate_mode.load() == static_cast<gint>(IsolateMode::kOwn) ? TRUE : FALSE, &result.raw);
    if (!result.ok() || instance == nullptr) {
      if (instance != nullptr)
        api->destroy_instance(instance);
      DSNODE_ELEMENT_ERROR(self, LIBRARY, INIT, result.message(), result.debug());
      return FALSE;
    }
  }

  auto state = std::make_unique<RunState>();
  state->runtime = runtime;
  state->instance = instance;
  state->metadata = std::move(metadata);
  state->gst_analytics = gst_analytics;
  {
    std::lock_guard<std::mutex> lock(priv->lock);
    priv->state = std::move(state);
    // Properties set while create_instance ran are not in the JSON it got.
    for (size_t i = 0; i < priv->properties.size(); ++i)
      if (priv->properties[i].changed_at > props_version)
        send_property(self, i);
  }

  ScopedResult result;
  api->start(instance, &result.raw);
  if (!result.ok()) {
    {
      std::lock_guard<std::mutex> lock(priv->lock);
      priv->state.reset();
    }
    api->destroy_instance(instance);
    DSNODE_ELEMENT_ERROR(self, LIBRARY, INIT, result.message(), result.debug());
    return FALSE;
  }
  return TRUE;
}

// A flush starts or ends (PAUSED -> READY is one that ends with the next start): the runtime
// abandons the call in progress, so the streaming thread comes back now, not at its deadline.
void set_flushing(DsNodeElement *self, bool flushing) {
  self->priv->flushing.store(flushing);
  std::lock_guard<std::mutex> lock(self->priv->lock);
  RunState *state = self->priv->state.get();
  if (state != nullptr && state->instance != nullptr)
    state->runtime->api->set_flushing(state->instance, flushing ? TRUE : FALSE);
}

// Deactivating the pads (in the parent's PAUSED -> READY) waits for the streaming thread, which
// may be in a call into JS that does not return: release it first.
GstStateChangeReturn element_change_state(GstElement *element, GstStateChange transition) {
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    set_flushing(as_element(element), true);
  return GST_ELEMENT_CLASS(parent_class)->change_state(element, transition);
}

// A call that failed while the element flushes was abandoned for the flush (runtime_api.h
// set_flushing): worth a line in the element's log, not an error.
bool abandoned_for_flush(DsNodeElement *self, const ScopedResult &result) {
  if (!self->priv->flushing.load())
    return false;
  GST_CAT_INFO_OBJECT(category_of(self), self, "%s\n%s", result.message().c_str(), result.debug().c_str());
  return true;
}

gboolean element_stop(GstBaseTransform *trans) {
  DsNodeElement *self = as_element(trans);
  std::unique_ptr<RunState> state;
  {
    std::lock_guard<std::mutex> lock(self->priv->lock);
    state = std::move(self->priv->state);
  }
  if (state == nullptr)
    return TRUE;
  ScopedResult result;
  state->runtime->api->stop(state->instance, &result.raw);
  if (!result.ok())
    DSNODE_ELEMENT_ERROR(self, LIBRARY, SHUTDOWN, result.message(), result.debug());
  // Whatever stop() did, the instance goes: the element may be started again.
  state->runtime->api->destroy_instance(state->instance);
  return TRUE;
}

// Frame size for the one-frame batch; 0 when the caps do not say.
void read_frame_size(GstCaps *caps, uint32_t *width, uint32_t *height) {
  *width = *height = 0;
  if (caps == nullptr || gst_caps_get_size(caps) == 0)
    return;
  GstStructure *s = gst_caps_get_structure(caps, 0);
  if (gst_structure_has_name(s, "video/x-raw")) {
    GstVideoInfo info;
    if (gst_video_info_from_caps(&info, caps)) {
      *width = info.width;
      *height = info.height;
      return;
    }
  }
  int value;
  if (gst_structure_get_int(s, "width", &value) && value > 0)
    *width = value;
  if (gst_structure_get_int(s, "height", &value) && value > 0)
    *height = value;
}

DsnodeMemoryKind memory_kind(GstCaps *caps) {
  GstCapsFeatures *features = gst_caps_get_features(caps, 0);
  if (features == nullptr || gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return DSNODE_MEMORY_SYSTEM;
  if (gst_caps_features_contains(features, "memory:CUDAMemory")) return DSNODE_MEMORY_CUDA;
  if (gst_caps_features_contains(features, "memory:NVMM")) return DSNODE_MEMORY_NVMM;
  return DSNODE_MEMORY_OTHER;
}

// Parsed once per caps change, not per buffer.
void read_stream_info(GstCaps *caps, RunState *state) {
  char *text = gst_caps_to_string(caps);
  state->caps_string = text != nullptr ? text : "";
  g_free(text);
  state->stream = DsnodeStreamInfo{};
  state->stream.caps_string = state->caps_string.c_str();
  if (gst_caps_get_size(caps) == 0) {
    state->stream.memory = DSNODE_MEMORY_OTHER;
    return;
  }
  state->stream.memory = memory_kind(caps);
  state->stream.has_video_info = gst_structure_has_name(gst_caps_get_structure(caps, 0), "video/x-raw") &&
      gst_video_info_from_caps(&state->stream.video, caps);
}

RunState *running_state(DsNodeElement *self) {
  RunState *state = self->priv->state.get();
  if (state == nullptr)
    GST_CAT_ERROR_OBJECT(category_of(self), self, "called while not started");
  return state;
}

gboolean element_set_caps(GstBaseTransform *trans, GstCaps *incaps, GstCaps *outcaps) {
  DsNodeElement *self = as_element(trans);
  RunState *state = running_state(self);
  if (state == nullptr)
    return FALSE;
  if (state->rejected_caps != nullptr && gst_caps_is_equal(state->rejected_caps, incaps))
    return FALSE;
  read_frame_size(incaps, &state->width, &state->height);
  read_stream_info(incaps, state);
  state->muxer_pad.reset();
  std::string caps = dump_json(caps_to_json(incaps));
  GST_CAT_DEBUG_OBJECT(category_of(self), self, "caps %s (%ux%u)", caps.c_str(), state->width,
      state->height);
  ScopedResult result;
  state->runtime->api->set_caps(state->instance, caps.c_str(), &result.raw);
  if (!result.ok()) {
    if (abandoned_for_flush(self, result))
      return FALSE;
    gst_caps_replace(&state->rejected_caps, incaps);
    DSNODE_ELEMENT_ERROR(self, STREAM, FAILED, result.message(), result.debug());
    return FALSE;
  }
  gst_clear_caps(&state->rejected_caps);
  return TRUE;
}

bool is_forwarded_downstream_event(GstEventType type) {
  switch (type) {
    case GST_EVENT_EOS:
    case GST_EVENT_FLUSH_START:
    case GST_EVENT_FLUSH_STOP:
    case GST_EVENT_STREAM_START:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
    case GST_EVENT_CUSTOM_DOWNSTREAM:
    case GST_EVENT_CUSTOM_DOWNSTREAM_OOB:
    case GST_EVENT_CUSTOM_DOWNSTREAM_STICKY:
    case GST_EVENT_CUSTOM_BOTH:
    case GST_EVENT_CUSTOM_BOTH_OOB:
      return true;
    default:
      return false;
  }
}

bool is_forwarded_upstream_event(GstEventType type) {
  return type == GST_EVENT_CUSTOM_UPSTREAM || type == GST_EVENT_CUSTOM_BOTH ||
      type == GST_EVENT_CUSTOM_BOTH_OOB;
}

// A JS error in onEvent is posted but the event still goes on: dropping EOS or a flush would
// leave the pipeline hanging instead of reporting, and the error already ends the run. So does
// the stream, and the next events reach the same onEvent: only the run's first failure is
// posted (an application reading the bus would otherwise get one per event until it stops the
// pipeline; gst-launch 1.28 prints each one posted before its pipeline is down).
void forward_event(DsNodeElement *self, const json &event) {
  RunState *state = self->priv->state.get();
  if (state == nullptr)
    return;
  std::string text = dump_json(event);
  GST_CAT_DEBUG_OBJECT(category_of(self), self, "event %s", text.c_str());
  ScopedResult result;
  state->runtime->api->event(state->instance, text.c_str(), &result.raw);
  if (result.ok() || abandoned_for_flush(self, result))
    return;
  if (self->priv->event_error_posted.exchange(true))
    log_further_error(self, result.message().c_str(), result.debug().c_str());
  else
    DSNODE_ELEMENT_ERROR(self, STREAM, FAILED, result.message(), result.debug());
}

gboolean element_sink_event(GstBaseTransform *trans, GstEvent *event) {
  DsNodeElement *self = as_element(trans);
  // Before JS hears of it: the flush-start call would otherwise queue behind a transform that
  // does not return. Flush-stop arrives on the streaming thread, once the flush is done.
  if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_START)
    set_flushing(self, true);
  else if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP)
    set_flushing(self, false);
  // nvstreammux's per-source events are serialized: here, on the streaming thread, they reach
  // JS between the batches they came between, as every serialized event does.
  std::optional<SourceEvent> source;
  if (is_source_event(event, &source)) {
    if (source)
      forward_event(self, source_event_to_json(event, *source));
    else
      GST_CAT_WARNING_OBJECT(category_of(self), self, "nvstreammux event %" GST_PTR_FORMAT " carries no source id: "
          "the element's source hooks do not see it", event);
  } else if (is_forwarded_downstream_event(GST_EVENT_TYPE(event))) {
    forward_event(self, event_to_json(event));
  }
  return parent_class->sink_event(trans, event);
}

gboolean element_src_event(GstBaseTransform *trans, GstEvent *event) {
  if (is_forwarded_upstream_event(GST_EVENT_TYPE(event)))
    forward_event(as_element(trans), event_to_json(event));
  return parent_class->src_event(trans, event);
}

// The one frame of a buffer that arrives without batch metadata (DESIGN §2.3): frame_num
// counts the buffers this element has seen, with a batch or without (an element upstream puts
// one only on the buffers it wrote to, and numbers frames the same way), a gint in DeepStream
// that wraps as DeepStream's does; buf_pts is the buffer's PTS, the sizes come from the
// negotiated caps, ids are 0.
meta::FrameFields one_frame_fields(RunState *state, GstBuffer *buffer, uint64_t index) {
  meta::FrameFields fields;
  fields.frame_num = static_cast<int32_t>(static_cast<uint32_t>(index));
  fields.buf_pts = GST_BUFFER_PTS(buffer);
  fields.source_frame_width = fields.pipeline_width = state->width;
  fields.source_frame_height = fields.pipeline_height = state->height;
  return fields;
}

// Before nvstreammux a buffer has no batch and this element does not know the stream: the
// muxer copies an upstream batch's frames as they are, pad_index, source_id and ntp_timestamp
// included (gst-nvmultistream2/gstnvstreammux_pads.cpp:89-110), where it would have numbered
// the frame itself (:113-150): every source would become source 0 for nvstreamdemux and
// nvtracker. So metadata written there is refused, never attached (docs/metadata.md, "Where an
// element may stand"); reading (frames, pixels) works as anywhere.
GstFlowReturn written_before_muxer(DsNodeElement *self, const std::string &muxer_pad) {
  GST_ELEMENT_ERROR(self, STREAM, FAILED,
      ("%s: cannot write metadata before nvstreammux (its buffers go to %s and carry no batch yet): the muxer "
       "copies an upstream batch's frames as they are, so every source would reach nvtracker and nvstreamdemux "
       "as pad_index 0. Place the element after nvstreammux, where each frame has its source's pad_index",
          GST_OBJECT_NAME(self), muxer_pad.c_str()),
      (nullptr));
  return GST_FLOW_ERROR;
}

GstFlowReturn batch_attach_failed(DsNodeElement *self) {
  GST_ELEMENT_ERROR(self, CORE, FAILED, ("%s: cannot attach the batch metadata", GST_OBJECT_NAME(self)), (nullptr));
  return GST_FLOW_ERROR;
}

// A batch that is not video (nvstreammux's audio batch) is refused, never read as frames.
GstFlowReturn batch_refused(DsNodeElement *self, const std::string &why) {
  GST_ELEMENT_ERROR(self, STREAM, WRONG_TYPE,
      ("%s: cannot process a buffer carrying %s: ds-element elements process video batches only; "
       "place the element on the video branch (after nvstreammux of video sources)", GST_OBJECT_NAME(self), why.c_str()),
      (nullptr));
  return GST_FLOW_ERROR;
}

GstFlowReturn element_transform_ip(GstBaseTransform *trans, GstBuffer *buffer) {
  DsNodeElement *self = as_element(trans);
  if (self->priv->has_async_error.load(std::memory_order_acquire)) {
    post_async_error(self);
    return GST_FLOW_ERROR;
  }
  RunState *state = running_state(self);
  if (state == nullptr) {
    GST_ELEMENT_ERROR(self, CORE, FAILED, ("%s: received a buffer before start",
            GST_OBJECT_NAME(self)), (nullptr));
    return GST_FLOW_ERROR;
  }

  // The buffer's batch behind the one interface: the batch it carries, else a one-frame batch
  // that goes onto the buffer only if the call writes to it (a reading element costs no GstMeta
  // per buffer).
  meta::MetadataSource &metadata = *state->metadata;
  std::string refused;
  meta::Batch *batch = metadata.open_call(buffer, one_frame_fields(state, buffer, state->next_frame_num++), &refused);
  if (batch == nullptr)
    return refused.empty() ? batch_attach_failed(self) : batch_refused(self, refused);

  // GStreamer's analytics metadata: upstream detections read into the batch (not where it may not
  // be written: before nvstreammux), and what the call adds mirrored after it.
  GstAnalyticsCall gst_analytics(state->gst_analytics, metadata, *batch);
  const bool gst_analytics_upstream = gst_analytics.has_upstream(buffer);
  if (gst_analytics_upstream && !state->muxer_pad) state->muxer_pad = muxer_pad_downstream(trans->srcpad);
  gst_analytics.before(buffer, gst_analytics_upstream && state->muxer_pad->empty());

  ScopedResult result;
  state->runtime->api->transform(state->instance, buffer, batch, &state->stream, &result.raw);
  if (result.ok() && metadata.wrote_own_batch()) {
    if (!state->muxer_pad) state->muxer_pad = muxer_pad_downstream(trans->srcpad);
    if (!state->muxer_pad->empty()) {
      metadata.discard_own_batch();
      return written_before_muxer(self, *state->muxer_pad);
    }
  }
  if (result.ok() && !result.dropped()) gst_analytics.after(buffer);
  // Metas acquired and never added go back to their pool before the buffer moves on.
  if (!metadata.finish_call(buffer)) return batch_attach_failed(self);
  if (size_t types = 0, bound = 0; metadata.take_user_meta_types_warning(&types, &bound))
    GST_CAT_WARNING_OBJECT(category_of(self), self,
        "%s: %zu distinct user meta types written in this process (more than %zu): DeepStream keeps every type "
        "string until exit (nvds_get_user_meta_type), so memory grows with each new one. Use a fixed set of types "
        "and put the varying part (stream, object id) in the payload (docs/metadata.md, \"User meta types\")",
        GST_OBJECT_NAME(self), types, bound);
  if (!result.ok()) {
    if (abandoned_for_flush(self, result)) return GST_FLOW_FLUSHING;
    DSNODE_ELEMENT_ERROR(self, STREAM, FAILED, result.message(), result.debug());
    return GST_FLOW_ERROR;
  }
  // Element.DROP: basetransform does not push the buffer and marks the next one DISCONT.
  if (result.dropped()) return GST_BASE_TRANSFORM_FLOW_DROPPED;
  return GST_FLOW_OK;
}

// --- GObject plumbing ---------------------------------------------------------------------

void element_instance_init(GTypeInstance *instance, gpointer g_class) {
  DsNodeElement *self = as_element(instance);
  // g_class is the class being instantiated (a concrete element), not the abstract base.
  auto *klass = static_cast<DsNodeElementClass *>(g_class);
  self->priv = new ElementPrivate();
  if (klass->data != nullptr) {
    const Manifest &manifest = *klass->data->manifest;
    self->priv->properties.resize(klass->initial_values->size());
    for (size_t i = 0; i < self->priv->properties.size(); ++i) {
      PropertySlot &slot = self->priv->properties[i];
      g_value_init(&slot.value, G_VALUE_TYPE(&(*klass->initial_values)[i]));
      g_value_copy(&(*klass->initial_values)[i], &slot.value);
      slot.assigned = manifest.properties[i].has_default;
    }
  }
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}

// GstObject would name instances after the type ("dsnode_framecounter0"); users expect the
// factory name, as for C elements ("framecounter0"). The name is a construct property, so
// it can be filled in here when the caller gave none.
GObject *element_constructor(GType type, guint n_properties, GObjectConstructParam *properties) {
  auto *klass = static_cast<DsNodeElementClass *>(g_type_class_peek(type));
  if (klass != nullptr && klass->data != nullptr) {
    for (guint i = 0; i < n_properties; ++i) {
      GValue *value = properties[i].value;
      if (g_strcmp0(properties[i].pspec->name, "name") != 0 ||
          !G_VALUE_HOLDS_STRING(value) || g_value_get_string(value) != nullptr)
        continue;
      const std::string &base = klass->data->manifest->name;
      const bool ends_in_digit = g_ascii_isdigit(base.back());
      gchar *name = g_strdup_printf("%s%s%d", base.c_str(), ends_in_digit ? "-" : "",
          klass->instance_count->fetch_add(1));
      g_value_take_string(value, name);
    }
  }
  return G_OBJECT_CLASS(parent_class)->constructor(type, n_properties, properties);
}

void element_finalize(GObject *object) {
  DsNodeElement *self = as_element(object);
  ElementPrivate *priv = self->priv;
  if (priv->state != nullptr) {
    // Only when the application dropped a started element without stopping it.
    priv->state->runtime->api->destroy_instance(priv->state->instance);
    priv->state.reset();
  }
  for (PropertySlot &slot : priv->properties)
    g_value_unset(&slot.value);
  delete priv;
  self->priv = nullptr;
  G_OBJECT_CLASS(parent_class)->finalize(object);
}

enum : guint { kBasePropertyGstAnalytics = 1, kBasePropertyIsolate = 2 };

void base_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  if (id == kBasePropertyGstAnalytics)
    as_element(object)->priv->gst_analytics_mode.store(g_value_get_enum(value));
  else if (id == kBasePropertyIsolate)
    as_element(object)->priv->isolate_mode.store(g_value_get_enum(value));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

void base_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  if (id == kBasePropertyGstAnalytics)
    g_value_set_enum(value, as_element(object)->priv->gst_analytics_mode.load());
  else if (id == kBasePropertyIsolate)
    g_value_set_enum(value, as_element(object)->priv->isolate_mode.load());
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

void base_class_init(gpointer g_class, gpointer) {
  parent_class = static_cast<GstBaseTransformClass *>(g_type_class_peek_parent(g_class));
  auto *klass = static_cast<DsNodeElementClass *>(g_class);
  klass->data = nullptr;
  klass->pspecs = nullptr;
  klass->initial_values = nullptr;
  klass->instance_count = nullptr;

  G_OBJECT_CLASS(g_class)->constructor = element_constructor;
  G_OBJECT_CLASS(g_class)->finalize = element_finalize;
  // Properties of every ds-element, owned by this base class (GObject calls the owner's
  // set_property): the manifest's are the concrete class's.
  G_OBJECT_CLASS(g_class)->set_property = base_set_property;
  G_OBJECT_CLASS(g_class)->get_property = base_get_property;
  install_gst_analytics_property(G_OBJECT_CLASS(g_class), kBasePropertyGstAnalytics);
  install_isolate_property(G_OBJECT_CLASS(g_class), kBasePropertyIsolate);
  GST_ELEMENT_CLASS(g_class)->change_state = element_change_state;

  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(g_class);
  trans_class->start = element_start;
  trans_class->stop = element_stop;
  trans_class->set_caps = element_set_caps;
  trans_class->sink_event = element_sink_event;
  trans_class->src_event = element_src_event;
  trans_class->transform_ip = element_transform_ip;
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
}

GType dsnode_element_get_type() {
  static GType type = 0;
  if (g_once_init_enter(&type)) {
    GTypeInfo info = {};
    info.class_size = sizeof(DsNodeElementClass);
    info.class_init = base_class_init;
    info.instance_size = sizeof(DsNodeElement);
    info.instance_init = element_instance_init;
    GType registered = g_type_register_static(GST_TYPE_BASE_TRANSFORM, "DsNodeElement", &info,
        G_TYPE_FLAG_ABSTRACT);
    g_once_init_leave(&type, registered);
  }
  return type;
}

const GParamFlags kPropertyFlags = static_cast<GParamFlags>(
    G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING | G_PARAM_STATIC_STRINGS);
const GParamFlags kItemFlags = static_cast<GParamFlags>(G_PARAM_READWRITE |
    G_PARAM_STATIC_STRINGS);

GParamSpec *make_param_spec(const PropertySpec &spec, GType enum_type) {
  const char *name = spec.name.c_str();
  const char *nick = spec.nick.c_str();
  const char *blurb = spec.blurb.c_str();
  const json &initial = spec.initial_value;
  switch (spec.type) {
    case PropertyType::Boolean:
      return g_param_spec_boolean(name, nick, blurb, initial.get<bool>(), kPropertyFlags);
    case PropertyType::Int:
      return g_param_spec_int(name, nick, blurb, static_cast<gint>(spec.integer_minimum),
          static_cast<gint>(spec.integer_maximum), initial.get<gint>(), kPropertyFlags);
    case PropertyType::Int64:
      return g_param_spec_int64(name, nick, blurb, spec.integer_minimum, spec.integer_maximum,
          initial.get<int64_t>(), kPropertyFlags);
    case PropertyType::Double:
      return g_param_spec_double(name, nick, blurb, spec.double_minimum, spec.double_maximum,
          initial.get<double>(), kPropertyFlags);
    case PropertyType::String:
      return g_param_spec_string(name, nick, blurb,
          initial.is_string() ? initial.get_ref<const std::string &>().c_str() : nullptr,
          kPropertyFlags);
    case PropertyType::Enum: {
      GEnumClass *klass = static_cast<GEnumClass *>(g_type_class_ref(enum_type));
      GEnumValue *value = g_enum_get_value_by_nick(klass,
          initial.get_ref<const std::string &>().c_str());
      gint default_value = value != nullptr ? value->value : klass->values[0].value;
      g_type_class_unref(klass);
      return g_param_spec_enum(name, nick, blurb, enum_type, default_value, kPropertyFlags);
    }
    case PropertyType::DoubleArray:
      return gst_param_spec_array(name, nick, blurb,
          g_param_spec_double("item", "Item", "One item", spec.double_minimum,
              spec.double_maximum, CLAMP(0.0, spec.double_minimum, spec.double_maximum),
              kItemFlags), kPropertyFlags);
    case PropertyType::IntArray:
      return gst_param_spec_array(name, nick, blurb,
          g_param_spec_int("item", "Item", "One item", static_cast<gint>(spec.integer_minimum),
              static_cast<gint>(spec.integer_maximum),
              static_cast<gint>(CLAMP(int64_t{0}, spec.integer_minimum, spec.integer_maximum)),
              kItemFlags), kPropertyFlags);
    case PropertyType::StringArray:
      return gst_param_spec_array(name, nick, blurb,
          g_param_spec_string("item", "Item", "One item", nullptr, kItemFlags), kPropertyFlags);
  }
  return nullptr;
}

void element_class_init(gpointer g_class, gpointer class_data) {
  auto *klass = static_cast<DsNodeElementClass *>(g_class);
  auto *data = static_cast<const ElementTypeData *>(class_data);
  const Manifest &manifest = *data->manifest;
  klass->data = data;
  klass->pspecs = new std::vector<GParamSpec *>();
  klass->initial_values = new std::vector<GValue>();
  klass->instance_count = new std::atomic<int>(0);

  GstElementClass *element_class = GST_ELEMENT_CLASS(g_class);
  gst_element_class_set_metadata(element_class, manifest.long_name.c_str(),
      manifest.klass.c_str(), manifest.description.c_str(), manifest.author.c_str());
  // Caps strings were parsed when the manifest was validated.
  for (auto [name, direction, caps_text] : {
          std::make_tuple("sink", GST_PAD_SINK, &manifest.sink_caps),
          std::make_tuple("src", GST_PAD_SRC, &manifest.src_caps)}) {
    GstCaps *caps = gst_caps_from_string(caps_text->c_str());
    gst_element_class_add_pad_template(element_class,
        gst_pad_template_new(name, direction, GST_PAD_ALWAYS, caps));
    gst_caps_unref(caps);
  }

  GObjectClass *gobject_class = G_OBJECT_CLASS(g_class);
  // GObject resets these for every class (they are not inherited), so the concrete class
  // sets them itself.
  gobject_class->set_property = element_set_property;
  gobject_class->get_property = element_get_property;
  for (size_t i = 0; i < manifest.properties.size(); ++i) {
    const PropertySpec &spec = manifest.properties[i];
    GParamSpec *pspec = make_param_spec(spec, data->enum_types[i]);
    g_object_class_install_property(gobject_class, static_cast<guint>(i + 1), pspec);
    klass->pspecs->push_back(pspec);

    GValue initial = G_VALUE_INIT;
    std::string error;
    if (!json_to_gvalue(spec.initial_value, pspec, &initial, &error)) {
      // Unreachable for a validated manifest; the GParamSpec default is the safe fallback.
      GST_ERROR("%s: property %s: %s", manifest.file.c_str(), spec.name.c_str(), error.c_str());
      g_value_init(&initial, pspec->value_type);
      g_param_value_set_default(pspec, &initial);
    }
    klass->initial_values->push_back(initial);
  }
}

// The GEnum of an enum property, named as host-protocol.md says ("FramecounterMode"), with a
// "DsNode" prefix if something in the process already took that name.
GType register_enum(const Manifest &manifest, const PropertySpec &spec, std::string *error) {
  std::string type_name = enum_type_name(manifest.name, spec.name);
  if (g_type_from_name(type_name.c_str()) != 0)
    type_name = "DsNode" + type_name;
  if (g_type_from_name(type_name.c_str()) != 0) {
    *error = "property \"" + spec.name + "\": the enum type name " + type_name +
        " is already taken";
    return 0;
  }
  // GLib keeps pointers into the table for the life of the type: allocated once, never freed.
  GEnumValue *values = g_new0(GEnumValue, spec.enum_values.size() + 1);
  for (size_t i = 0; i < spec.enum_values.size(); ++i) {
    values[i].value = spec.enum_values[i].value;
    values[i].value_name = g_strdup(spec.enum_values[i].name.c_str());
    values[i].value_nick = g_strdup(spec.enum_values[i].nick.c_str());
  }
  GType type = g_enum_register_static(g_intern_string(type_name.c_str()), values);
  if (type == 0)
    *error = "property \"" + spec.name + "\": cannot register the enum type " + type_name;
  return type;
}

}  // namespace

bool register_element(GstPlugin *plugin, const Manifest *manifest, std::string *error) {
  const std::string type_name = element_type_name(manifest->name);
  if (g_type_from_name(type_name.c_str()) != 0) {
    *error = "the type " + type_name + " is already registered in this process";
    return false;
  }

  auto data = std::make_unique<ElementTypeData>();
  data->manifest = manifest;
  data->enum_types.assign(manifest->properties.size(), 0);
  for (size_t i = 0; i < manifest->properties.size(); ++i) {
    if (manifest->properties[i].type != PropertyType::Enum)
      continue;
    data->enum_types[i] = register_enum(*manifest, manifest->properties[i], error);
    if (data->enum_types[i] == 0)
      return false;
  }
  // Named after the element so GST_DEBUG=framecounter:5 shows its logs and its JS logs.
  const std::string description = "ds-element " + manifest->long_name;
  GST_DEBUG_CATEGORY_INIT(data->category, manifest->name.c_str(), 0, description.c_str());

  GTypeInfo info = {};
  info.class_size = sizeof(DsNodeElementClass);
  info.class_init = element_class_init;
  info.class_data = data.get();
  info.instance_size = sizeof(DsNodeElement);
  GType type = g_type_register_static(dsnode_element_get_type(), type_name.c_str(), &info,
      static_cast<GTypeFlags>(0));
  if (type == 0) {
    *error = "cannot register the type " + type_name;
    return false;
  }
  data.release();   // now the class data of a type, which lives as long as the process

  if (!gst_element_register(plugin, manifest->name.c_str(), GST_RANK_NONE, type)) {
    *error = "gst_element_register failed";
    return false;
  }
  return true;
}

}  // namespace dsnode
