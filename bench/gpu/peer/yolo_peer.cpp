// dsyolopeer: the C++ peer of the many-stream bench's ds-element detector
// (bench/elements/src/yolo-standin.ts; bench/README.md, "Many streams on the GPU"). The same
// steps with the same kernels and no JavaScript: per NVMM batch (NvBufSurface + NvDsBatchMeta,
// from nvstreammux or dsnvmmtestmux), a view of every frame, dsnode-ops' preprocess_cuda to
// [N, 3, 640, 640] float16 (letterbox, 1/255), the stand-in model (bench/gpu/standin/), the YOLO
// candidate kernel of dsnode-postprocess (only candidates copied to the host), the decode, the
// class-aware greedy NMS and the box mapping of ds-element's decodeYolo / nms / mapBoxes
// (same rules: confidence order, IoU > threshold suppresses, 300 at most, boxes clipped to the
// frame), then one NvDsObjectMeta per detection through NVIDIA's libnvds_meta, filled as
// ds-element's addObjects fills them (no labels). One CUDA stream, one wait per batch (the
// candidates' copy): what a native element would do. System-memory batches take the CPU
// implementations of the same steps (preprocess_cpu, the model's host loop, yolo_candidates_cpu):
// the check where there is no GPU, not a benchmark.
//
//   ... ! dsnvmmtestmux batch-size=32 nvbuf-memory-type=2 ! dsyolopeer report=peer.json ! fakesink
//
// At stop it writes `report` (JSON, the keys of yolostandin's): frames, objects, the rate after
// `warmup` batches, per frame the element's host time and the GPU time of the preprocess and of
// the model (CUDA events), and the device-to-host bytes per frame. Bench-only (CMake target
// dsnode-bench-yolo-peer of the DeepStream build, not part of ALL; test-plugins/).
#ifndef PACKAGE
#define PACKAGE "ds-element-bench"
#endif
#include <cuda_runtime_api.h>
#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "gstnvdsmeta.h"
#include "nvbufsurface.h"
#include "nvdsmeta.h"
#include "ops/ops.h"
#include "postprocess/candidates.h"
#include "standin_yolo.h"

namespace {

namespace ops = dsnode::ops;
namespace post = dsnode::postprocess;

constexpr int32_t kSide = 640;
constexpr int32_t kMaxDetections = 300;

struct Timing {
  guint64 batches = 0, frames = 0;
  double element_ms = 0, preprocess_gpu_ms = 0, model_gpu_ms = 0;
};

}  // namespace

struct DsYoloPeer {
  GstBaseTransform parent;
  gchar *report;
  gdouble confidence_threshold, iou_threshold;
  guint warmup;
  // Device state, made on the first batch (the streaming thread) and grown with the batch.
  gboolean cuda_ready;
  cudaStream_t stream;
  cudaEvent_t events[3];
  void *input, *output, *scratch;
  size_t input_bytes, output_bytes, scratch_bytes;
  // Figures.
  std::vector<double> *arrivals;
  guint64 frames, objects, copy_bytes;
  gdouble checksum;  // the sum of every object's box, confidence and class: the same as yolostandin's
  gboolean on_host;
  Timing *timing;
};

struct DsYoloPeerClass {
  GstBaseTransformClass parent_class;
};

GType ds_yolo_peer_get_type(void);
G_DEFINE_TYPE(DsYoloPeer, ds_yolo_peer, GST_TYPE_BASE_TRANSFORM)

enum { PROP_0, PROP_REPORT, PROP_CONFIDENCE, PROP_IOU, PROP_WARMUP };

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw(memory:NVMM), format=(string){ RGBA, NV12 }"));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw(memory:NVMM), format=(string){ RGBA, NV12 }"));

namespace {

double now_ms() { return g_get_monotonic_time() / 1000.0; }

// Grows device buffer `*ptr` to at least `bytes`; "" or the failed call.
std::string ensure(void **ptr, size_t *have, size_t bytes) {
  if (*have >= bytes) return "";
  if (*ptr != nullptr) cudaFree(*ptr);
  *ptr = nullptr;
  *have = 0;
  const cudaError_t status = cudaMalloc(ptr, bytes);
  if (status != cudaSuccess) return std::string("cudaMalloc(") + std::to_string(bytes) + "): " + cudaGetErrorString(status);
  *have = bytes;
  return "";
}

// One frame's surface as dsnode-ops reads it; false (and *error) for what this peer does not read.
bool view_of(const NvBufSurfaceParams &s, ops::ImageView *view, std::string *error) {
  view->data = static_cast<const uint8_t *>(s.dataPtr);
  view->width = static_cast<int32_t>(s.width);
  view->height = static_cast<int32_t>(s.height);
  view->pitch = static_cast<int32_t>(s.planeParams.pitch[0]);
  switch (s.colorFormat) {
    case NVBUF_COLOR_FORMAT_RGBA: view->format = ops::PixelFormat::kRGBA; return true;
    case NVBUF_COLOR_FORMAT_NV12:
    case NVBUF_COLOR_FORMAT_NV12_ER:
    case NVBUF_COLOR_FORMAT_NV12_709:
    case NVBUF_COLOR_FORMAT_NV12_709_ER:
      view->format = ops::PixelFormat::kNV12;
      view->chroma[0] = view->data + s.planeParams.offset[1];
      view->chroma_pitch[0] = static_cast<int32_t>(s.planeParams.pitch[1]);
      view->matrix = s.colorFormat == NVBUF_COLOR_FORMAT_NV12_709 || s.colorFormat == NVBUF_COLOR_FORMAT_NV12_709_ER
          ? ops::ColorMatrix::kBT709 : ops::ColorMatrix::kBT601;
      view->range = s.colorFormat == NVBUF_COLOR_FORMAT_NV12_ER || s.colorFormat == NVBUF_COLOR_FORMAT_NV12_709_ER
          ? ops::ColorRange::kFull : ops::ColorRange::kLimited;
      return true;
    default:
      *error = "surface colour format " + std::to_string(static_cast<int>(s.colorFormat)) + " (this peer reads RGBA and NV12)";
      return false;
  }
}

struct Detection {
  float left, top, width, height, confidence;
  int32_t class_id;
};

// ds-element's nms(): confidence order (ties in candidate order), class-aware, IoU > threshold
// suppresses, at most kMaxDetections kept, in rank order. Box arithmetic in double, as in JS.
void nms(const std::vector<Detection> &in, double iou_threshold, std::vector<Detection> *out) {
  std::vector<int32_t> order(in.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return in[a].confidence > in[b].confidence; });
  std::vector<uint8_t> suppressed(in.size(), 0);
  out->clear();
  for (size_t rank = 0; rank < order.size() && out->size() < static_cast<size_t>(kMaxDetections); ++rank) {
    if (suppressed[rank]) continue;
    const Detection &a = in[order[rank]];
    out->push_back(a);
    const double ax1 = a.left, ay1 = a.top, ax2 = ax1 + a.width, ay2 = ay1 + a.height, area_a = double(a.width) * a.height;
    for (size_t other = rank + 1; other < order.size(); ++other) {
      const Detection &b = in[order[other]];
      if (suppressed[other] || b.class_id != a.class_id) continue;
      const double bx1 = b.left, by1 = b.top, bx2 = bx1 + b.width, by2 = by1 + b.height;
      const double ow = std::min(ax2, bx2) - std::max(ax1, bx1);
      if (!(ow > 0)) continue;
      const double oh = std::min(ay2, by2) - std::max(ay1, by1);
      if (!(oh > 0)) continue;
      const double inter = ow * oh;
      if (inter / (area_a + double(b.width) * b.height - inter) > iou_threshold) suppressed[other] = 1;
    }
  }
}

// mapBoxes(): network pixels to frame pixels, clipped to the frame.
void map_axis(float *start, float *size, float scale, float pad, float limit) {
  const double from = std::min(std::max((double(*start) - pad) / scale, 0.0), double(limit));
  const double to = std::min(std::max((double(*start) + *size - pad) / scale, 0.0), double(limit));
  *start = static_cast<float>(from);
  *size = static_cast<float>(to - from);
}

}  // namespace

static gboolean fail(DsYoloPeer *self, const std::string &what) {
  GST_ELEMENT_ERROR(self, STREAM, FAILED, ("dsyolopeer: %s", what.c_str()), (nullptr));
  return FALSE;
}

static gboolean setup_cuda(DsYoloPeer *self, guint gpu_id) {
  cudaError_t status = cudaSetDevice(static_cast<int>(gpu_id));
  if (status == cudaSuccess) status = cudaStreamCreateWithFlags(&self->stream, cudaStreamNonBlocking);
  for (auto &event : self->events)
    if (status == cudaSuccess) status = cudaEventCreate(&event);
  if (status != cudaSuccess) return fail(self, std::string("CUDA set-up failed: ") + cudaGetErrorString(status));
  self->cuda_ready = TRUE;
  return TRUE;
}

static GstFlowReturn ds_yolo_peer_transform_ip(GstBaseTransform *base, GstBuffer *buffer) {
  auto *self = reinterpret_cast<DsYoloPeer *>(base);
  const double started = now_ms();
  self->arrivals->push_back(started);
  NvDsBatchMeta *batch = gst_buffer_get_nvds_batch_meta(buffer);
  if (batch == nullptr) return fail(self, "the buffer has no NvDsBatchMeta (put nvstreammux or dsnvmmtestmux before it)"), GST_FLOW_ERROR;
  GstMapInfo map;
  if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return fail(self, "cannot map the NVMM buffer"), GST_FLOW_ERROR;
  auto *surface = reinterpret_cast<NvBufSurface *>(map.data);
  std::vector<NvDsFrameMeta *> frames;
  std::vector<ops::ImageView> views;
  std::string error;
  const bool on_host = surface->memType == NVBUF_MEM_SYSTEM;
  if (!on_host && surface->memType != NVBUF_MEM_DEFAULT && surface->memType != NVBUF_MEM_CUDA_DEVICE &&
      surface->memType != NVBUF_MEM_CUDA_UNIFIED) {
    error = "NvBufSurface memory type " + std::to_string(static_cast<int>(surface->memType)) +
        " (this peer reads CUDA device or unified memory, nvbuf-memory-type=0, 2 or 3, and system memory for its CPU check)";
  }
  for (NvDsMetaList *l = batch->frame_meta_list; l != nullptr && error.empty(); l = l->next) {
    auto *frame = static_cast<NvDsFrameMeta *>(l->data);
    if (frame->batch_id >= surface->numFilled) { error = "a frame's batch_id is past the surface's numFilled"; break; }
    ops::ImageView view;
    if (!view_of(surface->surfaceList[frame->batch_id], &view, &error)) break;
    frames.push_back(frame);
    views.push_back(view);
  }
  if (error.empty() && !on_host && !self->cuda_ready && !setup_cuda(self, surface->gpuId)) error = "CUDA set-up";
  const int32_t n = static_cast<int32_t>(frames.size());
  ops::PreprocessParams params;
  params.out_dtype = ops::DType::kFloat16;
  dsbench::StandinShape shape;
  shape.batch = n;
  post::YoloShape yolo{n, dsbench::kStandinClasses, dsbench::standin_anchors(shape), true};
  std::vector<ops::FrameTransform> transforms(n);
  std::vector<post::YoloCandidate> candidates;
  post::CopyStats copies;
  if (error.empty() && on_host && n > 0) {
    // The CPU check (no GPU): the same steps with the CPU implementations of the same code.
    std::vector<uint8_t> input(ops::output_size_bytes(params, n));
    std::vector<float> output(dsbench::standin_output_bytes(shape) / sizeof(float));
    const ops::Status status = ops::preprocess_cpu(views.data(), n, params, input.data(), transforms.data());
    if (!status.ok()) error = "preprocess_cpu: " + status.message;
    if (error.empty()) error = dsbench::standin_yolo_host(input.data(), shape, static_cast<uint32_t>(self->arrivals->size()), output.data());
    if (error.empty()) post::yolo_candidates_cpu(output.data(), yolo, self->confidence_threshold, &candidates);
  }
  if (error.empty() && !on_host) error = ensure(&self->input, &self->input_bytes, ops::output_size_bytes(params, std::max(n, 1)));
  if (error.empty() && !on_host) error = ensure(&self->output, &self->output_bytes, std::max<size_t>(dsbench::standin_output_bytes(shape), 4));
  if (error.empty() && !on_host) error = ensure(&self->scratch, &self->scratch_bytes, post::yolo_scratch_bytes(yolo));
  if (error.empty() && !on_host && n > 0) {
    cudaEventRecord(self->events[0], self->stream);
    const ops::Status status = ops::preprocess_cuda(views.data(), n, params, self->input, transforms.data(), self->stream);
    if (!status.ok()) error = "preprocess_cuda: " + status.message;
  }
  if (error.empty() && !on_host && n > 0) {
    cudaEventRecord(self->events[1], self->stream);
    error = dsbench::standin_yolo_launch(self->input, shape, static_cast<uint32_t>(self->arrivals->size()),
        static_cast<float *>(self->output), self->stream);
    cudaEventRecord(self->events[2], self->stream);
  }
  if (error.empty() && !on_host && n > 0) {
    error = post::yolo_candidates_cuda(static_cast<const float *>(self->output), yolo, self->confidence_threshold,
        self->scratch, self->stream, &candidates, &copies);
  }
  gst_buffer_unmap(buffer, &map);
  if (!error.empty()) return fail(self, error), GST_FLOW_ERROR;
  float preprocess_ms = 0, model_ms = 0;
  if (!on_host && n > 0) {
    cudaEventElapsedTime(&preprocess_ms, self->events[0], self->events[1]);
    cudaEventElapsedTime(&model_ms, self->events[1], self->events[2]);
  }

  // Decode (as decodeYolo pushes a candidate), NMS, map, write: image by image.
  std::vector<Detection> decoded, kept;
  size_t next = 0;
  guint64 written = 0;
  nvds_acquire_meta_lock(batch);
  for (int32_t image = 0; image < n; ++image) {
    decoded.clear();
    const int32_t end = (image + 1) * yolo.candidates;
    for (; next < candidates.size() && candidates[next].index < end; ++next) {
      const post::YoloCandidate &c = candidates[next];
      const double w = c.box[2], h = c.box[3], left = c.box[0] - w * 0.5, top = c.box[1] - h * 0.5;
      if (!(w >= 0 && h >= 0 && std::isfinite(left + top + w + h))) continue;
      decoded.push_back({float(left), float(top), float(w), float(h), c.score, c.class_id});
    }
    nms(decoded, self->iou_threshold, &kept);
    const ops::FrameTransform &t = transforms[image];
    NvDsFrameMeta *frame = frames[image];
    for (Detection &d : kept) {
      map_axis(&d.left, &d.width, t.scale_x, t.pad_x, static_cast<float>(t.source_width));
      map_axis(&d.top, &d.height, t.scale_y, t.pad_y, static_cast<float>(t.source_height));
      NvDsObjectMeta *object = nvds_acquire_obj_meta_from_pool(batch);
      object->unique_component_id = 1;
      object->class_id = d.class_id;
      object->object_id = UNTRACKED_OBJECT_ID;
      object->confidence = d.confidence;
      object->rect_params.left = d.left;
      object->rect_params.top = d.top;
      object->rect_params.width = d.width;
      object->rect_params.height = d.height;
      object->rect_params.border_width = 3;
      object->rect_params.border_color = {1, 0, 0, 1};
      object->detector_bbox_info.org_bbox_coords = {d.left, d.top, d.width, d.height};
      object->obj_label[0] = '\0';
      nvds_add_obj_meta_to_frame(frame, object, nullptr);
      ++written;
      self->checksum += double(d.left) + double(d.top) + double(d.width) + double(d.height) + double(d.confidence) + d.class_id;
    }
  }
  nvds_release_meta_lock(batch);

  self->frames += n;
  self->objects += written;
  self->on_host = on_host;
  self->copy_bytes += copies.bytes;
  if (self->arrivals->size() > self->warmup) {
    Timing &t = *self->timing;
    t.batches++;
    t.frames += n;
    t.element_ms += now_ms() - started;
    t.preprocess_gpu_ms += preprocess_ms;
    t.model_gpu_ms += model_ms;
  }
  return GST_FLOW_OK;
}

static gboolean ds_yolo_peer_start(GstBaseTransform *base) {
  auto *self = reinterpret_cast<DsYoloPeer *>(base);
  self->arrivals->clear();
  *self->timing = Timing();
  self->frames = self->objects = self->copy_bytes = 0;
  self->checksum = 0;
  return TRUE;
}

static gboolean ds_yolo_peer_stop(GstBaseTransform *base) {
  auto *self = reinterpret_cast<DsYoloPeer *>(base);
  if (self->report != nullptr) {
    const std::vector<double> &arrivals = *self->arrivals;
    const size_t warm = std::min<size_t>(self->warmup, arrivals.size());
    const size_t intervals = arrivals.size() > warm ? arrivals.size() - warm - 1 : 0;
    const double seconds = intervals > 0 ? (arrivals.back() - arrivals[warm]) / 1000 : 0;
    const double per_batch = arrivals.empty() ? 0 : double(self->frames) / arrivals.size();
    const Timing &t = *self->timing;
    auto per_frame = [&](double ms) { return t.frames > 0 ? ms / t.frames : 0.0; };
    FILE *file = fopen(self->report, "w");
    if (file == nullptr) {
      GST_ELEMENT_ERROR(self, RESOURCE, OPEN_WRITE, ("dsyolopeer: cannot write report=%s", self->report), (nullptr));
    } else {
      fprintf(file,
          "{\"element\": \"dsyolopeer\", \"model\": \"%s\", \"objectChecksum\": %.17g, \"batches\": %zu, \"frames\": %" G_GUINT64_FORMAT ", \"framesPerBatch\": %.3f, "
          "\"objects\": %" G_GUINT64_FORMAT ", \"objectsPerFrame\": %.4f, \"timedBatches\": %" G_GUINT64_FORMAT ", "
          "\"framesPerSecond\": %.3f, \"msPerFrame\": {\"element\": %.6f, \"preprocessGpu\": %.6f, \"modelGpu\": %.6f}, "
          "\"hostCopyBytesPerFrame\": %.1f}\n",
          self->on_host ? "cpu" : "cuda", self->checksum, arrivals.size(), self->frames, per_batch, self->objects, self->frames ? double(self->objects) / self->frames : 0.0,
          t.batches, seconds > 0 ? intervals * per_batch / seconds : 0.0, per_frame(t.element_ms), per_frame(t.preprocess_gpu_ms),
          per_frame(t.model_gpu_ms), self->frames ? double(self->copy_bytes) / self->frames : 0.0);
      fclose(file);
    }
  }
  if (self->cuda_ready) {
    cudaFree(self->input);
    cudaFree(self->output);
    cudaFree(self->scratch);
    for (auto &event : self->events) cudaEventDestroy(event);
    cudaStreamDestroy(self->stream);
    self->input = self->output = self->scratch = nullptr;
    self->input_bytes = self->output_bytes = self->scratch_bytes = 0;
    self->cuda_ready = FALSE;
  }
  return TRUE;
}

static void ds_yolo_peer_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
  auto *self = reinterpret_cast<DsYoloPeer *>(object);
  switch (id) {
    case PROP_REPORT: g_free(self->report); self->report = g_value_dup_string(value); break;
    case PROP_CONFIDENCE: self->confidence_threshold = g_value_get_double(value); break;
    case PROP_IOU: self->iou_threshold = g_value_get_double(value); break;
    case PROP_WARMUP: self->warmup = g_value_get_uint(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
  }
}

static void ds_yolo_peer_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
  auto *self = reinterpret_cast<DsYoloPeer *>(object);
  switch (id) {
    case PROP_REPORT: g_value_set_string(value, self->report); break;
    case PROP_CONFIDENCE: g_value_set_double(value, self->confidence_threshold); break;
    case PROP_IOU: g_value_set_double(value, self->iou_threshold); break;
    case PROP_WARMUP: g_value_set_uint(value, self->warmup); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
  }
}

static void ds_yolo_peer_finalize(GObject *object) {
  auto *self = reinterpret_cast<DsYoloPeer *>(object);
  g_free(self->report);
  delete self->arrivals;
  delete self->timing;
  G_OBJECT_CLASS(ds_yolo_peer_parent_class)->finalize(object);
}

static void ds_yolo_peer_class_init(DsYoloPeerClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *transform_class = GST_BASE_TRANSFORM_CLASS(klass);
  object_class->set_property = ds_yolo_peer_set_property;
  object_class->get_property = ds_yolo_peer_get_property;
  object_class->finalize = ds_yolo_peer_finalize;
  transform_class->transform_ip = ds_yolo_peer_transform_ip;
  transform_class->start = ds_yolo_peer_start;
  transform_class->stop = ds_yolo_peer_stop;
  const auto flags = static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_property(object_class, PROP_REPORT,
      g_param_spec_string("report", "Report", "JSON file the figures are written to at stop", nullptr, flags));
  g_object_class_install_property(object_class, PROP_CONFIDENCE,
      g_param_spec_double("confidence-threshold", "Confidence threshold", "Minimum class score of a detection", 0, 1, 0.25, flags));
  g_object_class_install_property(object_class, PROP_IOU,
      g_param_spec_double("iou-threshold", "IoU threshold", "NMS IoU threshold", 0, 1, 0.45, flags));
  g_object_class_install_property(object_class, PROP_WARMUP,
      g_param_spec_uint("warmup", "Warm-up", "Batches left out of the rate and the timings", 0, G_MAXUINT, 10, flags));
  gst_element_class_set_static_metadata(element_class, "YOLOv8 stand-in detector, C++ peer (bench)", "Filter/Analyzer/Video",
      "The many-stream bench's C++ peer of yolostandin: the same kernels, no JavaScript", "ds-element authors");
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
}

static void ds_yolo_peer_init(DsYoloPeer *self) {
  self->confidence_threshold = 0.25;
  self->iou_threshold = 0.45;
  self->warmup = 10;
  self->arrivals = new std::vector<double>();
  self->timing = new Timing();
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), FALSE);
}

static gboolean plugin_init(GstPlugin *plugin) {
  return gst_element_register(plugin, "dsyolopeer", GST_RANK_NONE, ds_yolo_peer_get_type());
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, dsyolopeer, "The many-stream bench's C++ peer (bench-only)",
    plugin_init, "0.1", "Apache 2.0", "ds-element", "https://github.com/ds-element")
