// GStreamer's CUDA memory (gst/cuda, GStreamer >= 1.22) as frame access uses it, without
// linking libgstcuda-1.0 and without its headers (they need cuda.h and cudaGL.h):
// - GST_MAP_CUDA is a flag value and "gst.cuda.memory" the allocator's memory type;
// - GstCudaMemory's public fields (context, info) are read through a mirror of its layout,
//   which tensor/gst_cuda_abi_check.cpp pins against the real header wherever that compiles;
// - the device id is the "cuda-device-id" property of its GstCudaContext (a GObject);
// - the few functions needed (context push/pop, the 1.24 stream sync) are looked up in the
//   libgstcuda-1.0 the process has already loaded: whoever made a GstCudaMemory loaded it.
#ifndef DSNODE_TENSOR_GST_CUDA_H
#define DSNODE_TENSOR_GST_CUDA_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <string>

namespace dsnode::tensor::gstcuda {

// GST_CUDA_MEMORY_TYPE_NAME
inline constexpr const char* kMemoryType = "gst.cuda.memory";
// GST_MAP_CUDA: map the device memory instead of a host copy.
inline constexpr unsigned kMapCuda = static_cast<unsigned>(GST_MAP_FLAG_LAST) << 1;

// The public start of struct _GstCudaMemory.
struct MemoryPublic {
  GstMemory mem;
  GstObject* context;  // GstCudaContext*
  GstVideoInfo info;
};

bool is_cuda_memory(GstMemory* memory);
// The GstCudaContext of a GstCudaMemory (borrowed).
GstObject* memory_context(GstMemory* memory);
// Its "cuda-device-id"; 0 when the property is missing.
int32_t device_id(GstObject* context);

// gst_cuda_context_push / _pop of the loaded libgstcuda-1.0. push fails (with *error set)
// where that library or the symbol is not there.
bool push_context(GstObject* context, std::string* error);
void pop_context();
// gst_cuda_memory_sync (GStreamer >= 1.24: waits for work queued on the memory's stream); a
// no-op where the library is older (no stream-ordered memory there).
void sync_memory(GstMemory* memory);

}  // namespace dsnode::tensor::gstcuda

#endif
