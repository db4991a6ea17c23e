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

constexpr const char* kPackedFormats = "a packed RGB, RGBA, BGR, BGRx or GRAY8 frame";

PixelFormat from_video_format(GstVideoFormat format) {
  switch (format) {
    case GST_VIDEO_FORMAT_RGB:
      return PixelFormat::kRGB;
    case GST_VIDEO_FORMAT_RGBA:
      return PixelFormat::kRGBA;
    case GST_VIDEO_FORMAT_BGR:
      return PixelFormat::kBGR;
    case GST_VIDEO_FORMAT_BGRx:
      return PixelFormat::kBGRx;
    case GST_VIDEO_FORMAT_GRAY8:
      return PixelFormat::kGRAY8;
    default:
      return PixelFormat::kNone;
  }
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
  return std::string("Expected ") + kPackedFormats + " for " + caller + " but received " + received + " (" + caps +
         "); " + conversion_hint(kind);
}

FrameError fail(FrameError::Kind kind, std::string message) { return FrameError{kind, std::move(message)}; }

std::string batch_range(uint32_t count) {
  return count == 1 ? std::string("0 (the batch holds one frame)")
                    : "from 0 to " + std::to_string(count - 1) + " (the batch holds " + std::to_string(count) + " frames)";
}

#ifdef DSNODE_HAVE_DEEPSTREAM
PixelFormat from_surface_format(NvBufSurfaceColorFormat format) {
  switch (format) {
    case NVBUF_COLOR_FORMAT_RGB:
      return PixelFormat::kRGB;
    case NVBUF_COLOR_FORMAT_RGBA:
      return PixelFormat::kRGBA;
    case NVBUF_COLOR_FORMAT_BGR:
      return PixelFormat::kBGR;
    case NVBUF_COLOR_FORMAT_BGRx:
      return PixelFormat::kBGRx;
    case NVBUF_COLOR_FORMAT_GRAY8:
      return PixelFormat::kGRAY8;
    default:
      return PixelFormat::kNone;
  }
}

std::string surface_format_name(NvBufSurfaceColorFormat format) {
  switch (format) {
    case NVBUF_COLOR_FORMAT_NV12:
      return "NV12";
    case NVBUF_COLOR_FORMAT_YUV420:
      return "I420";
    case NVBUF_COLOR_FORMAT_BGRA:
      return "BGRA";
    case NVBUF_COLOR_FORMAT_ARGB:
      return "ARGB";
    case NVBUF_COLOR_FORMAT_RGBx:
      return "RGBx";
    default:
      return "NvBufSurfaceColorFormat " + std::to_string(static_cast<int>(format));
  }
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
  mapping->stride_ = GST_VIDEO_INFO_PLANE_STRIDE(info, 0);
  mapping->offset_ = GST_VIDEO_INFO_PLANE_OFFSET(info, 0);
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
    mapping->stride_ = meta->stride[0];
    mapping->offset_ = meta->offset[0];
  }
  if (mapping->stride_ < mapping->width_ * format_channels(mapping->format_) || mapping->width_ <= 0 ||
      mapping->height_ <= 0) {
    *error = fail(FrameError::Kind::kUnsupported,
        std::string("Expected rows of at least ") + std::to_string(mapping->width_ * format_channels(mapping->format_)) +
            " bytes for " + caller + " but received a stride of " + std::to_string(mapping->stride_) + " (" + caps + ")");
    return nullptr;
  }
  return mapping;
}

FrameMapping::~FrameMapping() {
  if (info_.memory != nullptr) {
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
    const PixelFormat format = from_surface_format(params.colorFormat);
    if (format == PixelFormat::kNone) {
      *error = fail(FrameError::Kind::kUnsupported,
          unsupported_format(caller, surface_format_name(params.colorFormat), caps_, kind_));
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
                        ? ", which is a surface array on this integrated GPU (it needs NvBufSurfaceMap, which "
                          "ds-element does not do yet)"
                        : ", and CUDA cannot tell whether that GPU is integrated (a surface array) or discrete "
                          "(CUDA device memory)") +
                "; set nvbuf-memory-type on the upstream nvvideoconvert/nvstreammux (e.g. 3, CUDA unified)");
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
  const uint64_t frame_bytes = static_cast<uint64_t>(stride_) * static_cast<uint64_t>(height_);
  const uint64_t start = offset_ + batch_id * frame_bytes;
  const uint64_t end = start + static_cast<uint64_t>(height_ - 1) * stride_ + static_cast<uint64_t>(width_) * channels;
  if (end > info_.size) {
    *error = fail(FrameError::Kind::kState,
        "Expected a buffer of at least " + std::to_string(end) + " bytes for " + caller + " of frame " +
            std::to_string(batch_id) + " (" + std::to_string(width_) + "x" + std::to_string(height_) + " " +
            format_name(format_) + ", stride " + std::to_string(stride_) + ") but received " +
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
  desc.strides[0] = stride_;
  desc.strides[1] = channels;
  desc.strides[2] = 1;
  desc.data = info_.data;
  desc.byte_offset = start;
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
