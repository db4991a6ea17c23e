/* The C ABI between the thin GStreamer plugin (libgstdsnode.so, src/gst/) and the runtime
 * library that embeds Node (libdsnode-runtime.so.0, src/embed/ + src/binding/ + src/runtime/).
 *
 * Why a C ABI: the plugin must load without libnode (gst-inspect stays cheap), so it dlopen()s
 * the runtime only when the first element starts, looks up `dsnode_runtime_api` and talks to it
 * through this table. Neither side includes the other's headers. GStreamer types are shared. */
#ifndef DSNODE_RUNTIME_API_H
#define DSNODE_RUNTIME_API_H

#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdint.h>

G_BEGIN_DECLS

#define DSNODE_RUNTIME_ABI_VERSION 4

/* Log levels, same numbering as GstDebugLevel. */
typedef enum {
  DSNODE_LOG_ERROR = 1,
  DSNODE_LOG_WARNING = 2,
  DSNODE_LOG_FIXME = 3,
  DSNODE_LOG_INFO = 4,
  DSNODE_LOG_DEBUG = 5,
  DSNODE_LOG_LOG = 6,
  DSNODE_LOG_TRACE = 7,
} DsnodeLogLevel;

/* Callbacks the plugin gives the runtime. `element` is the GstElement* the instance was
 * created for. All may be called from the JS thread. */
typedef struct {
  /* Log into the element's own GST_DEBUG category (named after the element). */
  void (*log) (GstElement * element, DsnodeLogLevel level, const char *file, int line,
      const char *message);
  /* An error that happened outside a call the plugin is waiting for (timer, rejected promise
   * after the call returned, process.exit from a callback). The plugin posts it as an element
   * error without blocking the caller and fails the next buffer. */
  void (*post_error) (GstElement * element, const char *message, const char *debug);
} DsnodeHostCallbacks;

/* Result of a call. On failure *message and *debug are g_malloc'ed (g_free them):
 * message is one line for the user, debug holds the JS stack. `dropped` (transform only, with
 * ok): transform() returned or resolved to Element.DROP, so the buffer must not be pushed. */
typedef struct {
  gboolean ok;
  char *message;
  char *debug;
  gboolean dropped;
} DsnodeResult;

/* Where a buffer's memory lives, from the negotiated caps' features. */
typedef enum {
  DSNODE_MEMORY_SYSTEM = 0,     /* plain video/x-raw */
  DSNODE_MEMORY_CUDA = 1,       /* video/x-raw(memory:CUDAMemory): GstCudaMemory */
  DSNODE_MEMORY_NVMM = 2,       /* video/x-raw(memory:NVMM): DeepStream's NvBufSurface */
  DSNODE_MEMORY_OTHER = 3,      /* anything else (caps that are not raw video, GL, DMABuf, ...) */
} DsnodeMemoryKind;

/* What the plugin knows about the stream from its sink caps, parsed once per caps change.
 * Frame access (buffer.extract) reads formats and strides from here. */
typedef struct {
  gboolean has_video_info;      /* the caps are video/x-raw and `video` is filled */
  GstVideoInfo video;           /* format, size, default strides and offsets */
  DsnodeMemoryKind memory;
  const char *caps_string;      /* the negotiated caps, for error messages; never NULL */
} DsnodeStreamInfo;

typedef struct DsnodeInstance DsnodeInstance;

typedef struct {
  int abi_version;              /* DSNODE_RUNTIME_ABI_VERSION */

  /* Starts Node once per process on its own JS thread (later calls return at once).
   * host_js is the absolute path of dsnode/host.js. Returns FALSE with *error set
   * (g_malloc'ed) when Node cannot start. Thread-safe. */
  gboolean (*ensure_started) (const DsnodeHostCallbacks * callbacks, const char *host_js,
      char **error);

  /* Loads the element bundle (cached per path), constructs the user's class and validates
   * the properties. props_json is a JSON object keyed by the *JS* (camelCase) property names
   * holding every property's current value. call_timeout_s: the deadline the element declares
   * for each of its calls into JS (callTimeoutSeconds in element.json; negative when it
   * declares none); DS_ELEMENT_CALL_TIMEOUT_S overrides it, 0 is no deadline (the runtime's
   * watchdog, native-host/src/runtime/watchdog.h). own_isolate: TRUE runs the instance in a Node
   * environment of its own (isolate, event loop, JS thread; the element's isolate=own), started
   * here and stopped after destroy_instance; FALSE in the process's shared one. Blocks until done. */
  DsnodeInstance *(*create_instance) (GstElement * element, const char *element_name,
      const char *bundle_path, const char *props_json, double call_timeout_s,
      gboolean own_isolate, DsnodeResult * result);

  /* Lifecycle; each blocks until the JS side (including a returned Promise) is done, or until
   * the call's deadline: past it, the call fails (its JavaScript interrupted, its Promise
   * abandoned), and the caller is released. */
  void (*start) (DsnodeInstance * instance, DsnodeResult * result);
  void (*stop) (DsnodeInstance * instance, DsnodeResult * result);

  /* caps_json: {"string": "<gst_caps_to_string>", "structures": [{"name": ..., "fields": {...}}]} */
  void (*set_caps) (DsnodeInstance * instance, const char *caps_json, DsnodeResult * result);

  /* event_json: {"type": "eos"|"flush-start"|"flush-stop"|"stream-start"|"segment"|"custom-downstream"|...,
   *              "structure": {"name": ..., "fields": {...}} | null}; nvstreammux's per-source events
   * (src/gst/source_events.h) as {"type": "source-added"|"source-removed"|"source-eos"|"source-segment"|
   * "source-reset", "structure": ..., "source": {"sourceId": n}}. Serialized events come in order with
   * transform calls, on the streaming thread. */
  void (*event) (DsnodeInstance * instance, const char *event_json, DsnodeResult * result);

  /* A property changed after create_instance. Does not block: queued in order with buffers;
   * a value the schema rejects is reported through callbacks->post_error. */
  void (*set_property) (DsnodeInstance * instance, const char *js_name, const char *value_json);

  /* The per-buffer call. Blocks (spin, then wait) until transform(batch, buffer) and its
   * Promise finish. buffer is writable. batch is the buffer's metadata opened by the plugin:
   * a dsnode::meta::Batch* (native-host/src/meta/batch.h; both libraries are built from the
   * same sources, so the C++ object crosses this C ABI as an opaque pointer). It stays valid
   * until this call returns; the plugin ends and frees it afterwards. stream describes the
   * buffer's format and memory (valid until this call returns). */
  void (*transform) (DsnodeInstance * instance, GstBuffer * buffer, void *batch,
      const DsnodeStreamInfo * stream, DsnodeResult * result);

  /* Releases the JS instance. Does not block. The element pointer is not used afterwards. */
  void (*destroy_instance) (DsnodeInstance * instance);

  /* flushing TRUE (a flush starts, or the element leaves PAUSED for READY): the instance's
   * running call is abandoned (a pending Promise at once, JavaScript still running after half a
   * second is interrupted) and transform calls fail at once, so the streaming thread is
   * released; other calls (events, stop) still run. FALSE when the flush is over. Does not
   * block; any thread. */
  void (*set_flushing) (DsnodeInstance * instance, gboolean flushing);
} DsnodeRuntimeApi;

/* Exported by libdsnode-runtime.so.0 */
#define DSNODE_RUNTIME_API_SYMBOL "dsnode_runtime_api"
typedef const DsnodeRuntimeApi *(*DsnodeRuntimeApiGetter) (void);

G_END_DECLS
#endif
