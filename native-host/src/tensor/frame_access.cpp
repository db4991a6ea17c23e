#include "tensor/frame_access.h"

#include <gst/video/video.h>

#include <string>

#include "tensor/default_memory.h"
#include "tensor/gst_cuda.h"

#ifdef DSNODE_HAVE_DEEPSTREAM
#include <nvbufsurface.h>
#endif

namespace dsnode::tensor {

namespace {

// GStreamer's formats Buffer.extract reads, as tensor formats.
struct VideoFormat {
  GstVideoFormat video;
  PixelFormat format;
};
constexpr VideoFormat kVideoFormats[] = {
    {GST_VIDEO_FORMAT_RGB, PixelFormat::kRGB},     {GST_VIDEO_FORMAT_RGBA, PixelFormat::kRGBA},
    {GST_VIDEO_FORMAT_BGR, PixelFormat::kBGR},     {GST_VIDEO_FORMAT_BGRx, PixelFormat::kBGRx},
    {GST_VIDEO_FORMAT_GRAY8, PixelFormat::kGRAY8}, {GST_VIDEO_FORMAT_RGBx, PixelFormat::kRGBx},
    {GST_VIDEO_FORMAT_BGRA, PixelFormat::kBGRA},   {GST_VIDEO_FORMAT_ARGB, PixelFormat::kARGB},
    {GST_VIDEO_FORMAT_ABGR, PixelFormat::kABGR},   {GST_VIDEO_FORMAT_NV12, PixelFormat::kNV12},
    {GST_VIDEO_FORMAT_NV21, PixelFormat::kNV21},   {GST_VIDEO_FORMAT_I420, PixelFormat::kI420},
};

PixelFormat from_video_format(GstVideoFormat format) {
  for (const VideoFormat& known : kVideoFormats) {
    if (known.video == format) return known.format;
  }
  return PixelFormat::kNone;
}

#ifdef DSNODE_HAVE_DEEPSTREAM
// What a Jetson pipeline puts before the element, for the messages: nvvideoconvert's GPU path
// writing CUDA device memory (gst-nvcommon.h: compute-hw 1 is NvBufSurfTransformCompute_GPU,
// nvbuf-memory-type 2 is NVBUF_MEM_CUDA_DEVICE). A surface array is only readable through
// NvBufSurfaceMap (a Jetson library), which ds-element does not link.
std::string surface_array_fix() {
  return "ds-element does not map surface arrays; convert them before this element with "
         "\"nvvideoconvert compute-hw=1 nvbuf-memory-type=2\" (the GPU's conversion into NVBUF_MEM_CUDA_DEVICE)";
}
#endif

// "an RGB, RGBA, ..., NV21 or I420 frame": every format, for the messages.
std::string supported_formats() {
  std::string text = "an ";
  for (int32_t i = 0; i < ops::kPixelFormatCount; ++i) {
    text += std::string(i == 0 ? "" : i + 1 == ops::kPixelFormatCount ? " or " : ", ") +
            format_name(static_cast<PixelFormat>(i));
  }
  return text + " frame";
}

// Bytes of pixels in a row of plane `plane`, and rows of the plane (4:2:0 chroma: half of each,
// rounded up; NV12/NV21 chroma samples are U,V pairs).
int64_t plane_row_bytes(PixelFormat format, int32_t plane, int32_t width) {
  if (plane == 0) return static_cast<int64_t>(width) * format_channels(format);
  return static_cast<int64_t>((width + 1) / 2) * (format == PixelFormat::kI420 ? 1 : 2);
}
int64_t plane_rows(int32_t plane, int32_t height) { return plane == 0 ? height : (height + 1) / 2; }

// The matrix and range of YUV caps (GStreamer fills in its default when the caps name none:
// BT.601 up to 576 lines, BT.709 above, BT.2020 from 2160; limited range).
bool colorimetry_of(const GstVideoInfo& video, const char* caller, const std::string& caps, ops::ColorMatrix* matrix,
    ops::ColorRange* range, FrameError* error) {
  switch (video.colorimetry.matrix) {
    case GST_VIDEO_COLOR_MATRIX_BT601: *matrix = ops::ColorMatrix::kBT601; break;
    case GST_VIDEO_COLOR_MATRIX_BT709: *matrix = ops::ColorMatrix::kBT709; break;
    case GST_VIDEO_COLOR_MATRIX_BT2020: *matrix = ops::ColorMatrix::kBT2020; break;
    case GST_VIDEO_COLOR_MATRIX_UNKNOWN:
      *matrix = GST_VIDEO_INFO_HEIGHT(&video) > 576 ? ops::ColorMatrix::kBT709 : ops::ColorMatrix::kBT601;
      break;
    default: {
      gchar* name = gst_video_colorimetry_to_string(&video.colorimetry);
      *error = FrameError{FrameError::Kind::kUnsupported,
          std::string("Expected YUV of colour matrix bt601, bt709 or bt2020 for ") + caller + " but received " +
              (name != nullptr ? name : "another matrix") + " (" + caps +
              "); convert first, e.g. \"videoconvert ! video/x-raw,format=RGB\""};
      g_free(name);
      return false;
    }
  }
  *range = video.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255 ? ops::ColorRange::kFull : ops::ColorRange::kLimited;
  return true;
}

// What to put before the element, for the memory the caps name.
std::string conversion_hint(DsnodeMemoryKind kind) {
  if (kind == DSNODE_MEMORY_CUDA) {
    return "convert first, e.g. \"cudaconvert ! video/x-raw(memory:CUDAMemory),format=RGBA\" "
           "(or \"cudadownload ! videoconvert ! video/x-raw,format=RGB\")";
  }
  return "convert first, e.g. \"videoconvert ! video/x-raw,format=RGB\" "
         "(or \"nvvideoconvert ! video/x-raw(memory:NVMM),format=RGBA\" in DeepStream)";
}

std::string unsupported_format(const char* caller, const std::string& received, const std::string& caps,
    DsnodeMemoryKind kind) {
  return "Expected " + supported_formats() + " for " + caller + " but received " + received + " (" + caps +
         "); " + conversion_hint(kind);
}

FrameError fail(FrameError::Kind kind, std::string message) { return FrameError{kind, std::move(message)}; }

std::string batch_range(uint32_t count) {
  return count == 1 ? std::string("0 (the batch holds one frame)")
                    : "from 0 to " + std::to_string(count - 1) + " (the batch holds " + std::to_string(count) + " frames)";
}

#ifdef DSNODE_HAVE_DEEPSTREAM
// The one table of NvBufSurface colour formats: the tensor format each is, and for YUV the
// matrix and range its name says (no suffix: BT.601 limited; _ER: full range; _709: BT.709; _2020: BT.2020).
struct SurfaceFormat {
  NvBufSurfaceColorFormat surface;
  PixelFormat format;
  ops::ColorMatrix matrix;
  ops::ColorRange range;
};
constexpr auto kBT601 = ops::ColorMatrix::kBT601;
constexpr auto kBT709 = ops::ColorMatrix::kBT709;
constexpr auto kLimited = ops::ColorRange::kLimited;
constexpr auto kFull = ops::ColorRange::kFull;
constexpr SurfaceFormat kSurfaceFormats[] = {
    {NVBUF_COLOR_FORMAT_RGB, PixelFormat::kRGB, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_RGBA, PixelFormat::kRGBA, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_BGR, PixelFormat::kBGR, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_BGRx, PixelFormat::kBGRx, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_GRAY8, PixelFormat::kGRAY8, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_RGBx, PixelFormat::kRGBx, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_BGRA, PixelFormat::kBGRA, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_ARGB, PixelFormat::kARGB, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_ABGR, PixelFormat::kABGR, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_NV12, PixelFormat::kNV12, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_NV12_ER, PixelFormat::kNV12, kBT601, kFull},
    {NVBUF_COLOR_FORMAT_NV12_709, PixelFormat::kNV12, kBT709, kLimited},
    {NVBUF_COLOR_FORMAT_NV12_709_ER, PixelFormat::kNV12, kBT709, kFull},
    {NVBUF_COLOR_FORMAT_NV21, PixelFormat::kNV21, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_NV21_ER, PixelFormat::kNV21, kBT601, kFull},
    {NVBUF_COLOR_FORMAT_YUV420, PixelFormat::kI420, kBT601, kLimited},
    {NVBUF_COLOR_FORMAT_YUV420_ER, PixelFormat::kI420, kBT601, kFull},
    {NVBUF_COLOR_FORMAT_YUV420_709, PixelFormat::kI420, kBT709, kLimited},
    {NVBUF_COLOR_FORMAT_YUV420_709_ER, PixelFormat::kI420, kBT709, kFull},
    {NVBUF_COLOR_FORMAT_NV12_2020, PixelFormat::kNV12, ops::ColorMatrix::kBT2020, kLimited},
    {NVBUF_COLOR_FORMAT_YUV420_2020, PixelFormat::kI420, ops::ColorMatrix::kBT2020, kLimited},
};

const SurfaceFormat* surface_format(NvBufSurfaceColorFormat format) {
  for (const SurfaceFormat& known : kSurfaceFormats) {
    if (known.surface == format) return &known;
  }
  return nullptr;
}
#endif

}  // namespace

std::unique_ptr<FrameMapping> FrameMapping::open(GstBuffer* buffer, const DsnodeStreamInfo* stream, const char* caller,
    FrameError* error) {
  if (buffer == nullptr) {
    *error = fail(FrameError::Kind::kState, std::string("Expected a buffer for ") + caller + " but received none");
    return nullptr;
  }
  if (stream == nullptr) {
    *error = fail(FrameError::Kind::kState,
        std::string("Expected a buffer whose caps are known for ") + caller +
            " but received one without caps (in the standalone binding, call harness.setVideo(buffer, caps) first)");
    return nullptr;
  }
  const std::string caps = stream->caps_string != nullptr ? stream->caps_string : "no caps";
  if (stream->memory == DSNODE_MEMORY_OTHER) {
    *error = fail(FrameError::Kind::kUnsupported,
        std::string("Expected raw video in system memory, memory:CUDAMemory or memory:NVMM for ") + caller +
            " but received " + caps + "; " + conversion_hint(DSNODE_MEMORY_SYSTEM));
    return nullptr;
  }
  if (!stream->has_video_info) {
    *error = fail(FrameError::Kind::kUnsupported,
        std::string("Expected raw video (video/x-raw) for ") + caller + " but received " + caps + "; " +
            conversion_hint(stream->memory));
    return nullptr;
  }
  const GstVideoFormat video_format = GST_VIDEO_INFO_FORMAT(&stream->video);
  const PixelFormat format = from_video_format(video_format);
  if (format == PixelFormat::kNone) {
    *error = fail(FrameError::Kind::kUnsupported,
        unsupported_format(caller, gst_video_format_to_string(video_format), caps, stream->memory));
    return nullptr;
  }
  if (gst_buffer_n_memory(buffer) == 0) {
    *error = fail(FrameError::Kind::kState, std::string("Expected a buffer holding memory for ") + caller +
                                                " but received an empty one (no GstMemory)");
    return nullptr;
  }

  std::unique_ptr<FrameMapping> mapping(new FrameMapping());
  mapping->kind_ = stream->memory;
  mapping->video_ = stream->video;
  mapping->caps_ = caps;
  mapping->format_ = format;
  GstMemory* first = gst_buffer_peek_memory(buffer, 0);

  if (stream->memory == DSNODE_MEMORY_NVMM) {
#ifdef DSNODE_HAVE_DEEPSTREAM
    if (!gst_memory_map(gst_memory_ref(first), &mapping->info_, GST_MAP_READ)) {
      gst_memory_unref(first);
      *error = fail(FrameError::Kind::kState, std::string("Could not map the NVMM buffer for ") + caller);
      return nullptr;
    }
    if (mapping->info_.size < sizeof(NvBufSurface)) {
      *error = fail(FrameError::Kind::kUnsupported,
          std::string("Expected an NvBufSurface in the memory of an NVMM buffer for ") + caller + " but received " +
              std::to_string(mapping->info_.size) + " bytes (" + caps + ")");
      return nullptr;  // the destructor unmaps
    }
    return mapping;
#else
    *error = fail(FrameError::Kind::kUnsupported,
        std::string("Expected system memory or memory:CUDAMemory for ") + caller + " but received " + caps +
            ": NVMM frames need ds-element-native built with DeepStream (DS_SDK_ROOT or "
            "/opt/nvidia/deepstream/deepstream at build time)");
    return nullptr;
#endif
  }

  if (stream->memory == DSNODE_MEMORY_CUDA) {
    if (gst_buffer_n_memory(buffer) != 1 || !gstcuda::is_cuda_memory(first)) {
      *error = fail(FrameError::Kind::kUnsupported,
          std::string("Expected one GstCudaMemory (caps ") + caps + ") for " + caller + " but received " +
              std::to_string(gst_buffer_n_memory(buffer)) + " memory of type \"" +
              (first->allocator != nullptr && first->allocator->mem_type != nullptr ? first->allocator->mem_type : "?") +
              "\"");
      return nullptr;
    }
    // Read/write like the system memory path; memory another buffer shares (a tee upstream)
    // cannot be locked for writing, and is then mapped for reading: the device pointer is the
    // same, but writes through it are not the element's to make.
    gst_memory_ref(first);
    const auto read_write = static_cast<GstMapFlags>(GST_MAP_READWRITE | gstcuda::kMapCuda);
    const auto read_only = static_cast<GstMapFlags>(GST_MAP_READ | gstcuda::kMapCuda);
    if (!gst_memory_map(first, &mapping->info_, read_write) && !gst_memory_map(first, &mapping->info_, read_only)) {
      gst_memory_unref(first);
      *error = fail(FrameError::Kind::kState, std::string("Could not map the GstCudaMemory (GST_MAP_CUDA) for ") + caller);
      return nullptr;
    }
    // GStreamer >= 1.24 orders work on a stream per memory: wait for it before anyone reads.
    gstcuda::sync_memory(first);
    GstObject* context = gstcuda::memory_context(first);
    mapping->cuda_context_ = context;
    mapping->device_id_ = gstcuda::device_id(context);
  } else if (gst_buffer_is_writable(buffer)) {
    // The plugin transforms in place, so the buffer is writable: memory another buffer
    // shares is copied before the write, as gst_buffer_map does for any writer.
    if (!gst_buffer_map(buffer, &mapping->info_, GST_MAP_READWRITE)) {
      *error = fail(FrameError::Kind::kState, std::string("Could not map the buffer read/write for ") + caller);
      return nullptr;
    }
    mapping->mapped_buffer_ = buffer;  // the call's, alive as long as the mapping (the call's attachment)
  } else {
    *error = fail(FrameError::Kind::kState,
        std::string("Expected a writable buffer for ") + caller + " but received a read-only one (" + caps + ")");
    return nullptr;
  }

  // Geometry: the GstVideoMeta when upstream padded rows its own way, else the memory's own
  // info (GstCudaMemory), else the caps.
  const GstVideoInfo* info = &stream->video;
  if (stream->memory == DSNODE_MEMORY_CUDA) info = &reinterpret_cast<gstcuda::MemoryPublic*>(first)->info;
  mapping->width_ = GST_VIDEO_INFO_WIDTH(&stream->video);
  mapping->height_ = GST_VIDEO_INFO_HEIGHT(&stream->video);
  for (int32_t p = 0; p < kMaxPlanes; ++p) {
    mapping->stride_[p] = p < static_cast<int32_t>(GST_VIDEO_INFO_N_PLANES(info)) ? GST_VIDEO_INFO_PLANE_STRIDE(info, p) : 0;
    mapping->offset_[p] = p < static_cast<int32_t>(GST_VIDEO_INFO_N_PLANES(info)) ? GST_VIDEO_INFO_PLANE_OFFSET(info, p) : 0;
  }
  if (GstVideoMeta* meta = gst_buffer_get_video_meta(buffer)) {
    const PixelFormat meta_format = from_video_format(meta->format);
    if (meta_format == PixelFormat::kNone) {
      *error = fail(FrameError::Kind::kUnsupported,
          unsupported_format(caller, gst_video_format_to_string(meta->format), caps, stream->memory));
      return nullptr;
    }
    mapping->format_ = meta_format;
    mapping->width_ = static_cast<int32_t>(meta->width);
    mapping->height_ = static_cast<int32_t>(meta->height);
    for (int32_t p = 0; p < kMaxPlanes; ++p) {
      mapping->stride_[p] = p < static_cast<int32_t>(meta->n_planes) ? meta->stride[p] : 0;
      mapping->offset_[p] = p < static_cast<int32_t>(meta->n_planes) ? meta->offset[p] : 0;
    }
  }
  mapping->planes_ = format_planes(mapping->format_);
  if (mapping->planes_ > 1 && !colorimetry_of(stream->video, caller, caps, &mapping->matrix_, &mapping->range_, error)) {
    return nullptr;
  }
  for (int32_t p = 0; p < mapping->planes_; ++p) {
    const int64_t row_bytes = plane_row_bytes(mapping->format_, p, mapping->width_);
    if (mapping->stride_[p] < row_bytes || mapping->width_ <= 0 || mapping->height_ <= 0) {
      *error = fail(FrameError::Kind::kUnsupported,
          std::string("Expected rows of at least ") + std::to_string(row_bytes) + " bytes" +
              (mapping->planes_ > 1 ? " in plane " + std::to_string(p) : std::string()) + " for " + caller +
              " but received a stride of " + std::to_string(mapping->stride_[p]) + " (" + caps + ")");
      return nullptr;
    }
  }
  return mapping;
}

FrameMapping::~FrameMapping() {
  if (mapped_buffer_ != nullptr) {
    gst_buffer_unmap(mapped_buffer_, &info_);
  } else if (info_.memory != nullptr) {
    GstMemory* memory = info_.memory;
    gst_memory_unmap(memory, &info_);
    gst_memory_unref(memory);
  }
}

bool FrameMapping::frame(uint32_t batch_id, uint32_t num_frames, const char* caller, Desc* out, FrameError* error) const {
  Desc desc;
  desc.dtype = DType::kUint8;
  desc.ndim = 3;
#ifdef DSNODE_HAVE_DEEPSTREAM
  if (kind_ == DSNODE_MEMORY_NVMM) {
    const auto* surface = reinterpret_cast<const NvBufSurface*>(info_.data);
    if (batch_id >= surface->numFilled) {
      *error = fail(FrameError::Kind::kRange,
          "Expected a batchId " + (surface->numFilled == 0 ? std::string("(the NvBufSurface holds no frame)")
                                                           : batch_range(surface->numFilled)) +
              " for " + caller + " but received " + std::to_string(batch_id));
      return false;
    }
    const NvBufSurfaceParams& params = surface->surfaceList[batch_id];
    const SurfaceFormat* known = surface_format(params.colorFormat);
    if (known == nullptr) {
      *error = fail(FrameError::Kind::kUnsupported,
          unsupported_format(caller, "NvBufSurfaceColorFormat " + std::to_string(static_cast<int>(params.colorFormat)),
              caps_, kind_));
      return false;
    }
    const PixelFormat format = known->format;
    const int32_t planes = format_planes(format);
    if (static_cast<int32_t>(params.planeParams.num_planes) != planes) {
      *error = fail(FrameError::Kind::kUnsupported,
          std::string("Expected ") + std::to_string(planes) + " planes in an NvBufSurface of " + format_name(format) +
              " for " + caller + " but received " + std::to_string(params.planeParams.num_planes));
      return false;
    }
    if (params.layout != NVBUF_LAYOUT_PITCH) {
      *error = fail(FrameError::Kind::kUnsupported,
          std::string("Expected a pitch-linear NvBufSurface for ") + caller +
              " but received a block-linear one; convert with \"nvvideoconvert\" (bl-output=false)");
      return false;
    }
    if (surface->memType == NVBUF_MEM_DEFAULT) {
      const DefaultMemory meaning = default_memory_of(static_cast<int32_t>(surface->gpuId));
      if (meaning != DefaultMemory::kCudaDevice) {
        *error = fail(FrameError::Kind::kUnsupported,
            std::string("Expected NVMM memory of type CUDA device, unified, pinned or system for ") + caller +
                " but received NVBUF_MEM_DEFAULT on GPU " + std::to_string(surface->gpuId) +
                (meaning == DefaultMemory::kSurfaceArray
                        ? ", which is a surface array on this integrated GPU (Jetson): " + surface_array_fix()
                        : ", and CUDA cannot tell whether that GPU is integrated (a surface array) or discrete "
                          "(CUDA device memory); set nvbuf-memory-type on the upstream nvvideoconvert/nvstreammux "
                          "(e.g. 3, CUDA unified)"));
        return false;
      }
    }
    switch (surface->memType) {
      case NVBUF_MEM_CUDA_DEVICE:
      case NVBUF_MEM_CUDA_UNIFIED:
      case NVBUF_MEM_DEFAULT:  // a discrete GPU's (checked above): CUDA device memory
        desc.device = Device::kCuda;
        break;
      case NVBUF_MEM_CUDA_PINNED:
        desc.device = Device::kCudaHost;
        break;
      case NVBUF_MEM_SYSTEM:
        desc.device = Device::kCpu;
        break;
      case NVBUF_MEM_SURFACE_ARRAY:
        *error = fail(FrameError::Kind::kUnsupported,
            std::string("Expected NVMM memory of type CUDA device, unified, pinned or system for ") + caller +
                " but received NVBUF_MEM_SURFACE_ARRAY (Jetson's NVMM memory): " + surface_array_fix());
        return false;
      default:
        *error = fail(FrameError::Kind::kUnsupported,
            std::string("Expected NVMM memory of type CUDA device, unified, pinned or system for ") + caller +
                " but received NvBufSurfaceMemType " + std::to_string(static_cast<int>(surface->memType)) +
                " (surface arrays need NvBufSurfaceMap, which ds-element does not do yet); set "
                "nvbuf-memory-type on the upstream nvvideoconvert/nvstreammux (e.g. 3, CUDA unified)");
        return false;
    }
    const int32_t channels = format_channels(format);
    desc.device_id = desc.device == Device::kCpu ? 0 : static_cast<int32_t>(surface->gpuId);
    desc.format = format;
    desc.shape[0] = params.height;
    desc.shape[1] = params.width;
    desc.shape[2] = channels;
    desc.strides[0] = params.pitch;
    desc.strides[1] = channels;
    desc.strides[2] = 1;
    desc.data = params.dataPtr;
    desc.byte_offset = 0;
    if (planes > 1) {
      desc.strides[0] = params.planeParams.pitch[0];
      desc.byte_offset = params.planeParams.offset[0];
      desc.plane_count = planes;
      for (int32_t p = 0; p < planes; ++p) {
        desc.planes[p] = Plane{params.planeParams.offset[p], static_cast<int64_t>(params.planeParams.pitch[p])};
      }
      desc.color_matrix = known->matrix;
      desc.color_range = known->range;
    }
    *out = desc;
    return true;
  }
#endif
  const uint32_t count = num_frames == 0 ? 1 : num_frames;
  if (batch_id >= count) {
    *error = fail(FrameError::Kind::kRange,
        "Expected a batchId " + batch_range(count) + " for " + caller + " but received " + std::to_string(batch_id));
    return false;
  }
  const int32_t channels = format_channels(format_);
  // One frame: from the first plane's start to the last plane's end.
  const int32_t last = planes_ - 1;
  const uint64_t frame_bytes = offset_[last] - offset_[0] + static_cast<uint64_t>(stride_[last]) * plane_rows(last, height_);
  const uint64_t shift = batch_id * frame_bytes;
  const uint64_t end = offset_[last] + shift + static_cast<uint64_t>(plane_rows(last, height_) - 1) * stride_[last] +
                       static_cast<uint64_t>(plane_row_bytes(format_, last, width_));
  if (end > info_.size) {
    *error = fail(FrameError::Kind::kState,
        "Expected a buffer of at least " + std::to_string(end) + " bytes for " + caller + " of frame " +
            std::to_string(batch_id) + " (" + std::to_string(width_) + "x" + std::to_string(height_) + " " +
            format_name(format_) + ", stride " + std::to_string(stride_[0]) + ") but received " +
            std::to_string(info_.size) + " bytes");
    return false;
  }
  desc.device = kind_ == DSNODE_MEMORY_CUDA ? Device::kCuda : Device::kCpu;
  desc.device_id = kind_ == DSNODE_MEMORY_CUDA ? device_id_ : 0;
  desc.cuda_context = kind_ == DSNODE_MEMORY_CUDA ? cuda_context_ : nullptr;
  desc.format = format_;
  desc.shape[0] = height_;
  desc.shape[1] = width_;
  desc.shape[2] = channels;
  desc.strides[0] = stride_[0];
  desc.strides[1] = channels;
  desc.strides[2] = 1;
  desc.data = info_.data;
  desc.byte_offset = offset_[0] + shift;
  if (planes_ > 1) {
    desc.plane_count = planes_;
    for (int32_t p = 0; p < planes_; ++p) desc.planes[p] = Plane{offset_[p] + shift, stride_[p]};
    desc.color_matrix = matrix_;
    desc.color_range = range_;
  }
  *out = desc;
  return true;
}

bool FrameMapping::host_range(const Desc& desc, size_t* size) const {
  if (!host_visible(desc.device)) return false;
#ifdef DSNODE_HAVE_DEEPSTREAM
  if (kind_ == DSNODE_MEMORY_NVMM) {
    // One surface: from its dataPtr, its allocated size.
    const auto* surface = reinterpret_cast<const NvBufSurface*>(info_.data);
    for (uint32_t i = 0; i < surface->numFilled; ++i) {
      if (surface->surfaceList[i].dataPtr == desc.data) {
        *size = surface->surfaceList[i].dataSize;
        return true;
      }
    }
    return false;
  }
#endif
  *size = info_.size;
  return desc.data == info_.data;
}

}  // namespace dsnode::tensor
