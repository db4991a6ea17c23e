/*
 * dsnvmmtestmux: what nvstreammux hands downstream, for tests without DeepStream's proprietary
 * parts. It batches the raw frames of its one sink pad (system memory, packed RGBA/BGRx/RGB/
 * GRAY8, or planar NV12/I420: each plane padded to its own pitch, the colour format named after
 * the caps' matrix and range as NV12, NV12_709_ER, YUV420, ...) into `video/x-raw(memory:NVMM)` buffers laid out per nvbufsurface.h: the buffer's one
 * GstMemory maps to an NvBufSurface whose surfaceList holds one pitch-linear surface per frame,
 * allocated as `nvbuf-memory-type` says (CUDA device memory with cudaMallocPitch, as nvstreammux
 * does on dGPU, or unified, pinned or plain system memory), and it attaches an NvDsBatchMeta of
 * that many frames with NVIDIA's own libnvds_meta / libnvdsgst_meta (batch_id, frame_num,
 * buf_pts, source and pipeline sizes, as nvstreammux fills them).
 *
 *   videotestsrc ! video/x-raw,format=RGBA,width=1280,height=720
 *     ! dsnvmmtestmux batch-size=4 nvbuf-memory-type=2 ! <element> ! fakesink
 *
 * `nvbuf-memory-type=4` labels system-memory surfaces NVBUF_MEM_SURFACE_ARRAY, Jetson's NVMM memory,
 * which no x86 machine can allocate: what an element must refuse before reading a byte of it.
 *
 * `sources=N` labels frame i of each batch as source i % N (source_id, pad_index, frame_num counted per
 * source): N streams in one batch, for the many-stream bench (batch-size = sources = streams).
 *
 * `repeat=N` pushes each batch N times (new buffers and batch metas, frame numbers counting on,
 * the same surfaces): a source whose own cost is nothing, for benchmarks.
 *
 * Built as part of the DeepStream build (native-host/CMakeLists.txt, target
 * dsnode-nvmm-testmux); CUDA memory types need the CUDA build (nvcc found at configure time).
 * In the repository only: the package does not ship test/.
 */
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdlib.h>
#include <string.h>

#include "gstnvdsmeta.h"
#include "nvbufsurface.h"
#include "nvdsmeta.h"

#ifdef DSNODE_NVMM_CUDA
#include <cuda_runtime_api.h>
#endif

#define FORMATS "{ RGBA, BGRx, RGB, GRAY8, NV12, I420 }"
#define MAX_PLANES 3
#define MAX_BATCH 1024

typedef struct {
  GstElement parent;
  GstPad *sinkpad, *srcpad;
  guint batch_size, repeat, gpu_id, sources;
  gint memory_type;
  GstVideoInfo info;
  gboolean have_info;
  GPtrArray *pending;   /* the frames of the batch being filled */
  guint64 frames_out;   /* frame_num of the next frame pushed */
} DsNvmmTestMux;

typedef struct {
  GstElementClass parent_class;
} DsNvmmTestMuxClass;

GType ds_nvmm_test_mux_get_type(void);
G_DEFINE_TYPE(DsNvmmTestMux, ds_nvmm_test_mux, GST_TYPE_ELEMENT)

enum { PROP_0, PROP_BATCH_SIZE, PROP_MEMORY_TYPE, PROP_REPEAT, PROP_GPU_ID, PROP_SOURCES };

/* The surfaces of one batch, shared by every buffer pushed of it (repeat) and freed with the last. */
typedef struct {
  gint refcount;
  NvBufSurfaceMemType memory_type;
  guint count;
  guint pitch;
  /* Each plane of a surface (one for packed formats): pitch, offset from dataPtr, rows. */
  guint planes;
  guint plane_pitch[MAX_PLANES];
  gsize plane_offset[MAX_PLANES];
  guint plane_rows[MAX_PLANES];
  gsize bytes;
  void *data[MAX_BATCH];
} SurfaceSet;

/* What one NVMM GstMemory wraps: its NvBufSurface (with the surfaceList after it) and a ref on the set. */
typedef struct {
  NvBufSurface surface;
  SurfaceSet *set;
  NvBufSurfaceParams list[];
} SurfaceBlock;

/* YUV: the surface format naming the caps' matrix and range, as nvvideoconvert picks it. */
static NvBufSurfaceColorFormat yuv_color_format(const GstVideoInfo *info) {
  const gboolean nv12 = GST_VIDEO_INFO_FORMAT(info) == GST_VIDEO_FORMAT_NV12;
  const gboolean full = info->colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
  if (info->colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_BT709) {
    if (nv12) return full ? NVBUF_COLOR_FORMAT_NV12_709_ER : NVBUF_COLOR_FORMAT_NV12_709;
    return full ? NVBUF_COLOR_FORMAT_YUV420_709_ER : NVBUF_COLOR_FORMAT_YUV420_709;
  }
  if (nv12) return full ? NVBUF_COLOR_FORMAT_NV12_ER : NVBUF_COLOR_FORMAT_NV12;
  return full ? NVBUF_COLOR_FORMAT_YUV420_ER : NVBUF_COLOR_FORMAT_YUV420;
}

static NvBufSurfaceColorFormat color_format(const GstVideoInfo *info) {
  switch (GST_VIDEO_INFO_FORMAT(info)) {
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_I420: return yuv_color_format(info);
    case GST_VIDEO_FORMAT_RGBA: return NVBUF_COLOR_FORMAT_RGBA;
    case GST_VIDEO_FORMAT_BGRx: return NVBUF_COLOR_FORMAT_BGRx;
    case GST_VIDEO_FORMAT_RGB: return NVBUF_COLOR_FORMAT_RGB;
    default: return NVBUF_COLOR_FORMAT_GRAY8;
  }
}

/* In system memory: plain system memory, and the surface-array stand-in (nvbuf-memory-type=4). */
static gboolean in_system_memory(NvBufSurfaceMemType type) {
  return type == NVBUF_MEM_SYSTEM || type == NVBUF_MEM_SURFACE_ARRAY;
}
static gboolean needs_cuda(NvBufSurfaceMemType type) { return !in_system_memory(type); }

static void surface_set_unref(SurfaceSet *set) {
  if (!g_atomic_int_dec_and_test(&set->refcount)) return;
  for (guint i = 0; i < set->count; ++i) {
    if (set->data[i] == NULL) continue;
#ifdef DSNODE_NVMM_CUDA
    if (set->memory_type == NVBUF_MEM_CUDA_PINNED)
      cudaFreeHost(set->data[i]);
    else if (needs_cuda(set->memory_type))
      cudaFree(set->data[i]);
    else
#endif
      free(set->data[i]);
  }
  g_free(set);
}

static void surface_block_free(gpointer data) {
  SurfaceBlock *block = data;
  surface_set_unref(block->set);
  g_free(block);
}

/* Allocates one surface per pending frame and copies the frames in; NULL with *error set on failure. */
static SurfaceSet *surface_set_new(DsNvmmTestMux *self, gchar **error) {
  const guint width = GST_VIDEO_INFO_WIDTH(&self->info), height = GST_VIDEO_INFO_HEIGHT(&self->info);
  const guint row = width * GST_VIDEO_INFO_COMP_PSTRIDE(&self->info, 0);
  SurfaceSet *set = g_new0(SurfaceSet, 1);
  set->refcount = 1;
  set->memory_type = (NvBufSurfaceMemType)self->memory_type;
  set->count = self->pending->len;
  /* Rows padded like a hardware allocator would: 256-byte pitch (cudaMallocPitch picks its own).
   * Planar formats: every plane so padded, one after the other in the surface's allocation. */
  set->pitch = (row + 255u) & ~255u;
  set->planes = GST_VIDEO_INFO_N_PLANES(&self->info);
  set->bytes = 0;
  for (guint p = 0; p < set->planes; ++p) {
    const guint plane_row = GST_VIDEO_INFO_COMP_WIDTH(&self->info, p) * GST_VIDEO_INFO_COMP_PSTRIDE(&self->info, p);
    set->plane_pitch[p] = (plane_row + 255u) & ~255u;
    set->plane_rows[p] = GST_VIDEO_INFO_COMP_HEIGHT(&self->info, p);
    set->plane_offset[p] = set->bytes;
    set->bytes += (gsize)set->plane_pitch[p] * set->plane_rows[p];
  }
#ifdef DSNODE_NVMM_CUDA
  if (needs_cuda(set->memory_type) && cudaSetDevice((int)self->gpu_id) != cudaSuccess) {
    *error = g_strdup_printf("cudaSetDevice(%u) failed: %s", self->gpu_id, cudaGetErrorString(cudaGetLastError()));
    surface_set_unref(set);
    return NULL;
  }
#else
  if (needs_cuda(set->memory_type)) {
    *error = g_strdup_printf("nvbuf-memory-type=%d needs CUDA, and this build has none (nvcc was not found "
                             "when native-host was configured); use nvbuf-memory-type=%d (system memory)",
        self->memory_type, NVBUF_MEM_SYSTEM);
    surface_set_unref(set);
    return NULL;
  }
#endif
  for (guint i = 0; i < set->count; ++i) {
    GstVideoFrame frame;
    GstBuffer *input = g_ptr_array_index(self->pending, i);
    if (!gst_video_frame_map(&frame, &self->info, input, GST_MAP_READ)) {
      *error = g_strdup("could not map an input frame");
      surface_set_unref(set);
      return NULL;
    }
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA(&frame, 0);
    const gint src_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
    const size_t bytes = set->bytes;
    int status = 0;
    const char *call = "";
#ifdef DSNODE_NVMM_CUDA
    size_t pitch = set->pitch;
    cudaError_t cuda = cudaSuccess;
    switch (set->memory_type) {
      case NVBUF_MEM_DEFAULT:
      case NVBUF_MEM_CUDA_DEVICE:
        if (set->planes > 1) {
          call = "cudaMalloc";
          cuda = cudaMalloc(&set->data[i], bytes);
          for (guint p = 0; p < set->planes && cuda == cudaSuccess; ++p) {
            call = "cudaMemcpy2D";
            cuda = cudaMemcpy2D((guint8 *)set->data[i] + set->plane_offset[p], set->plane_pitch[p],
                GST_VIDEO_FRAME_PLANE_DATA(&frame, p), GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p),
                GST_VIDEO_FRAME_COMP_WIDTH(&frame, p) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, p), set->plane_rows[p],
                cudaMemcpyHostToDevice);
          }
          break;
        }
        call = "cudaMallocPitch";
        cuda = cudaMallocPitch(&set->data[i], &pitch, row, height);
        if (cuda == cudaSuccess) {
          set->pitch = set->plane_pitch[0] = (guint)pitch;
          call = "cudaMemcpy2D";
          cuda = cudaMemcpy2D(set->data[i], pitch, src, src_stride, row, height, cudaMemcpyHostToDevice);
        }
        break;
      case NVBUF_MEM_CUDA_UNIFIED:
        call = "cudaMallocManaged";
        cuda = cudaMallocManaged(&set->data[i], bytes, cudaMemAttachGlobal);
        break;
      case NVBUF_MEM_CUDA_PINNED:
        call = "cudaMallocHost";
        cuda = cudaMallocHost(&set->data[i], bytes);
        break;
      default:
        break;
    }
    status = cuda != cudaSuccess;
    if (status) {
      *error = g_strdup_printf("%s failed: %s", call, cudaGetErrorString(cuda));
      set->data[i] = NULL;
    }
#endif
    if (!status && in_system_memory(set->memory_type)) {
      call = "posix_memalign";
      status = posix_memalign(&set->data[i], 256, bytes) != 0;
      if (status) {
        *error = g_strdup("posix_memalign failed");
        set->data[i] = NULL;
      }
    }
    /* Host-visible memory types are filled row by row here. */
    if (!status && (in_system_memory(set->memory_type) || set->memory_type == NVBUF_MEM_CUDA_UNIFIED ||
                       set->memory_type == NVBUF_MEM_CUDA_PINNED)) {
      for (guint p = 0; p < set->planes; ++p) {
        const guint8 *plane = GST_VIDEO_FRAME_PLANE_DATA(&frame, p);
        const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
        const guint plane_row = GST_VIDEO_FRAME_COMP_WIDTH(&frame, p) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, p);
        for (guint y = 0; y < set->plane_rows[p]; ++y)
          memcpy((guint8 *)set->data[i] + set->plane_offset[p] + (size_t)y * set->plane_pitch[p], plane + (size_t)y * stride,
              plane_row);
      }
      (void)src;
      (void)src_stride;
    }
    (void)call;
    gst_video_frame_unmap(&frame);
    if (status) {
      surface_set_unref(set);
      return NULL;
    }
  }
#ifdef DSNODE_NVMM_CUDA
  if (needs_cuda(set->memory_type)) cudaDeviceSynchronize();
#endif
  return set;
}

/* One NVMM buffer of the set: its own NvBufSurface and NvDsBatchMeta, frame numbers from frames_out. */
static GstBuffer *batch_buffer(DsNvmmTestMux *self, SurfaceSet *set, guint round) {
  const guint width = GST_VIDEO_INFO_WIDTH(&self->info), height = GST_VIDEO_INFO_HEIGHT(&self->info);
  const gsize size = sizeof(SurfaceBlock) + set->count * sizeof(NvBufSurfaceParams);
  SurfaceBlock *block = g_malloc0(size);
  g_atomic_int_inc(&set->refcount);
  block->set = set;
  NvBufSurface *surface = &block->surface;
  surface->gpuId = self->gpu_id;
  surface->batchSize = self->batch_size;
  surface->numFilled = set->count;
  surface->isContiguous = FALSE;
  surface->memType = set->memory_type;
  surface->surfaceList = block->list;
  for (guint i = 0; i < set->count; ++i) {
    NvBufSurfaceParams *params = &block->list[i];
    params->width = width;
    params->height = height;
    params->pitch = set->pitch;
    params->colorFormat = color_format(&self->info);
    params->layout = NVBUF_LAYOUT_PITCH;
    params->dataSize = set->planes > 1 ? set->bytes : set->pitch * height;
    params->dataPtr = set->data[i];
    params->planeParams.num_planes = set->planes;
    for (guint p = 0; p < set->planes; ++p) {
      const guint pitch = p == 0 ? set->pitch : set->plane_pitch[p];
      params->planeParams.width[p] = GST_VIDEO_INFO_COMP_WIDTH(&self->info, p);
      params->planeParams.height[p] = set->plane_rows[p];
      params->planeParams.pitch[p] = pitch;
      params->planeParams.offset[p] = set->plane_offset[p];
      params->planeParams.psize[p] = pitch * set->plane_rows[p];
      params->planeParams.bytesPerPix[p] = GST_VIDEO_INFO_COMP_PSTRIDE(&self->info, p);
    }
  }

  GstBuffer *buffer = gst_buffer_new();
  /* The mapped size is the NvBufSurface's, as DeepStream's allocator maps it. */
  gst_buffer_append_memory(buffer,
      gst_memory_new_wrapped(0, block, size, 0, sizeof(NvBufSurface), block, surface_block_free));
  GstBuffer *first = g_ptr_array_index(self->pending, 0);
  const GstClockTime frame_duration = GST_BUFFER_DURATION(first);
  const GstClockTime span = GST_CLOCK_TIME_IS_VALID(frame_duration) ? frame_duration * set->count : GST_CLOCK_TIME_NONE;
  if (GST_BUFFER_PTS_IS_VALID(first))
    GST_BUFFER_PTS(buffer) = GST_BUFFER_PTS(first) + (GST_CLOCK_TIME_IS_VALID(span) ? span * round : 0);
  GST_BUFFER_DURATION(buffer) = span;

  NvDsBatchMeta *batch = nvds_create_batch_meta(self->batch_size);
  batch->max_frames_in_batch = self->batch_size;
  for (guint i = 0; i < set->count; ++i) {
    GstBuffer *input = g_ptr_array_index(self->pending, i);
    NvDsFrameMeta *frame = nvds_acquire_frame_meta_from_pool(batch);
    /* sources > 1: frame i of every batch from source i % sources, each counting its own frames. */
    const guint64 n = self->frames_out++;
    frame->pad_index = frame->source_id = (guint)(n % self->sources);
    frame->batch_id = i;
    frame->frame_num = (gint)(n / self->sources);
    frame->buf_pts = GST_BUFFER_PTS(input) + (GST_CLOCK_TIME_IS_VALID(span) ? span * round : 0);
    frame->ntp_timestamp = 0;
    frame->source_frame_width = width;
    frame->source_frame_height = height;
    frame->pipeline_width = width;
    frame->pipeline_height = height;
    frame->surface_index = 0;
    frame->num_surfaces_per_frame = 1;
    nvds_add_frame_meta_to_batch(batch, frame);
  }
  NvDsMeta *meta = gst_buffer_add_nvds_meta(buffer, batch, NULL, nvds_batch_meta_copy_func, nvds_batch_meta_release_func);
  meta->meta_type = (GstNvDsMetaType)NVDS_BATCH_GST_META;
  return buffer;
}

static void clear_pending(DsNvmmTestMux *self) { g_ptr_array_set_size(self->pending, 0); }

static GstFlowReturn push_batch(DsNvmmTestMux *self) {
  if (self->pending->len == 0) return GST_FLOW_OK;
  gchar *error = NULL;
  SurfaceSet *set = surface_set_new(self, &error);
  if (set == NULL) {
    GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("%s could not lay out a batch of %u frames: %s",
                          GST_ELEMENT_NAME(self), self->pending->len, error), (NULL));
    g_free(error);
    clear_pending(self);
    return GST_FLOW_ERROR;
  }
  GstFlowReturn ret = GST_FLOW_OK;
  for (guint round = 0; round < self->repeat && ret == GST_FLOW_OK; ++round)
    ret = gst_pad_push(self->srcpad, batch_buffer(self, set, round));
  surface_set_unref(set);
  clear_pending(self);
  return ret;
}

static GstFlowReturn chain(GstPad *pad, GstObject *parent, GstBuffer *buffer) {
  (void)pad;
  DsNvmmTestMux *self = (DsNvmmTestMux *)parent;
  if (!self->have_info) {
    gst_buffer_unref(buffer);
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s received a buffer before its caps", GST_ELEMENT_NAME(self)), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  g_ptr_array_add(self->pending, buffer);
  return self->pending->len >= self->batch_size ? push_batch(self) : GST_FLOW_OK;
}

static gboolean sink_event(GstPad *pad, GstObject *parent, GstEvent *event) {
  DsNvmmTestMux *self = (DsNvmmTestMux *)parent;
  switch (GST_EVENT_TYPE(event)) {
    case GST_EVENT_CAPS: {
      GstCaps *caps;
      gst_event_parse_caps(event, &caps);
      if (!gst_video_info_from_caps(&self->info, caps)) {
        gst_event_unref(event);
        return FALSE;
      }
      self->have_info = TRUE;
      GstCaps *out = gst_caps_copy(caps);
      gst_caps_set_features(out, 0, gst_caps_features_new("memory:NVMM", NULL));
      gboolean ok = gst_pad_push_event(self->srcpad, gst_event_new_caps(out));
      gst_caps_unref(out);
      gst_event_unref(event);
      return ok;
    }
    case GST_EVENT_EOS:
      push_batch(self); /* the last, partial batch (nvstreammux pushes it too) */
      break;
    case GST_EVENT_FLUSH_STOP:
      clear_pending(self);
      break;
    default:
      break;
  }
  return gst_pad_event_default(pad, parent, event);
}

static gboolean sink_query(GstPad *pad, GstObject *parent, GstQuery *query) {
  switch (GST_QUERY_TYPE(query)) {
    case GST_QUERY_CAPS: {
      /* Anything of the template: downstream's caps are NVMM ones, not ours to proxy. */
      GstCaps *filter, *caps = gst_pad_get_pad_template_caps(pad);
      gst_query_parse_caps(query, &filter);
      if (filter != NULL) {
        GstCaps *both = gst_caps_intersect_full(filter, caps, GST_CAPS_INTERSECT_FIRST);
        gst_caps_unref(caps);
        caps = both;
      }
      gst_query_set_caps_result(query, caps);
      gst_caps_unref(caps);
      return TRUE;
    }
    case GST_QUERY_ALLOCATION:
      return FALSE; /* upstream allocates its own system memory */
    default:
      return gst_pad_query_default(pad, parent, query);
  }
}

static void set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  DsNvmmTestMux *self = (DsNvmmTestMux *)object;
  switch (id) {
    case PROP_BATCH_SIZE: self->batch_size = g_value_get_uint(value); break;
    case PROP_MEMORY_TYPE: self->memory_type = g_value_get_int(value); break;
    case PROP_REPEAT: self->repeat = g_value_get_uint(value); break;
    case PROP_GPU_ID: self->gpu_id = g_value_get_uint(value); break;
    case PROP_SOURCES: self->sources = g_value_get_uint(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  DsNvmmTestMux *self = (DsNvmmTestMux *)object;
  switch (id) {
    case PROP_BATCH_SIZE: g_value_set_uint(value, self->batch_size); break;
    case PROP_MEMORY_TYPE: g_value_set_int(value, self->memory_type); break;
    case PROP_REPEAT: g_value_set_uint(value, self->repeat); break;
    case PROP_GPU_ID: g_value_set_uint(value, self->gpu_id); break;
    case PROP_SOURCES: g_value_set_uint(value, self->sources); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
  DsNvmmTestMux *self = (DsNvmmTestMux *)element;
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    if (self->memory_type != NVBUF_MEM_DEFAULT && self->memory_type != NVBUF_MEM_CUDA_PINNED &&
        self->memory_type != NVBUF_MEM_CUDA_DEVICE && self->memory_type != NVBUF_MEM_CUDA_UNIFIED &&
        self->memory_type != NVBUF_MEM_SYSTEM && self->memory_type != NVBUF_MEM_SURFACE_ARRAY) {
      GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS,
          ("%s: nvbuf-memory-type=%d is not one this test source lays out; use 0 or 2 (CUDA device), "
           "1 (CUDA pinned), 3 (CUDA unified), 4 (system memory labelled a surface array) or 6 (system)", GST_ELEMENT_NAME(self), self->memory_type), (NULL));
      return GST_STATE_CHANGE_FAILURE;
    }
    self->frames_out = 0;
  }
  GstStateChangeReturn ret = GST_ELEMENT_CLASS(ds_nvmm_test_mux_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    clear_pending(self);
    self->have_info = FALSE;
  }
  return ret;
}

static void finalize(GObject *object) {
  DsNvmmTestMux *self = (DsNvmmTestMux *)object;
  g_ptr_array_unref(self->pending);
  G_OBJECT_CLASS(ds_nvmm_test_mux_parent_class)->finalize(object);
}

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw, format=(string)" FORMATS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw(memory:NVMM), format=(string)" FORMATS));

static void ds_nvmm_test_mux_class_init(DsNvmmTestMuxClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  object_class->set_property = set_property;
  object_class->get_property = get_property;
  object_class->finalize = finalize;
  element_class->change_state = change_state;
  g_object_class_install_property(object_class, PROP_BATCH_SIZE,
      g_param_spec_uint("batch-size", "Batch size", "Frames per NVMM buffer", 1, MAX_BATCH, 4,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property(object_class, PROP_MEMORY_TYPE,
      g_param_spec_int("nvbuf-memory-type", "NvBufSurface memory type",
          "NvBufSurfaceMemType of the surfaces: 0/2 CUDA device, 1 CUDA pinned, 3 CUDA unified, 4 surface array (system memory so labelled), 6 system", 0, 7,
          NVBUF_MEM_CUDA_DEVICE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property(object_class, PROP_REPEAT,
      g_param_spec_uint("repeat", "Repeat", "Buffers pushed of each batch (same surfaces, new metadata)", 1,
          G_MAXUINT, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property(object_class, PROP_GPU_ID,
      g_param_spec_uint("gpu-id", "GPU", "CUDA device of the surfaces", 0, 64, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property(object_class, PROP_SOURCES,
      g_param_spec_uint("sources", "Sources", "Sources the frames are labelled with, round robin (source_id, pad_index; frame_num per source)",
          1, MAX_BATCH, 1, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(element_class, "NVMM test muxer (ds-element tests)", "Video/Muxer",
      "Batches raw frames into NvBufSurface NVMM buffers with NvDsBatchMeta, as nvstreammux does",
      "ds-element tests");
}

static void ds_nvmm_test_mux_init(DsNvmmTestMux *self) {
  self->batch_size = 4;
  self->repeat = 1;
  self->sources = 1;
  self->memory_type = NVBUF_MEM_CUDA_DEVICE;
  self->pending = g_ptr_array_new_with_free_func((GDestroyNotify)gst_buffer_unref);
  self->sinkpad = gst_pad_new_from_static_template(&sink_template, "sink");
  gst_pad_set_chain_function(self->sinkpad, chain);
  gst_pad_set_event_function(self->sinkpad, sink_event);
  gst_pad_set_query_function(self->sinkpad, sink_query);
  gst_element_add_pad(GST_ELEMENT(self), self->sinkpad);
  self->srcpad = gst_pad_new_from_static_template(&src_template, "src");
  gst_pad_use_fixed_caps(self->srcpad);
  gst_element_add_pad(GST_ELEMENT(self), self->srcpad);
}

static gboolean plugin_init(GstPlugin *plugin) {
  return gst_element_register(plugin, "dsnvmmtestmux", GST_RANK_NONE, ds_nvmm_test_mux_get_type());
}

#define PACKAGE "ds-element-tests"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, dsnvmmtestmux, "NVMM test muxer for ds-element's tests",
    plugin_init, "0.1", "Apache 2.0", PACKAGE, "https://github.com/ds-element")
