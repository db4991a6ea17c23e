// Compiled (never linked) wherever GStreamer's CUDA headers and cuda.h are found: proves that
// tensor/gst_cuda.h's mirror of GstCudaMemory and its GST_MAP_CUDA value match the real ones.
#define GST_USE_UNSTABLE_API 1
#include <gst/cuda/gstcudamemory.h>

#include <cstddef>

#include "tensor/gst_cuda.h"

namespace mirror = dsnode::tensor::gstcuda;

static_assert(static_cast<unsigned>(GST_MAP_CUDA) == mirror::kMapCuda, "GST_MAP_CUDA");
static_assert(offsetof(GstCudaMemory, context) == offsetof(mirror::MemoryPublic, context), "GstCudaMemory.context");
static_assert(offsetof(GstCudaMemory, info) == offsetof(mirror::MemoryPublic, info), "GstCudaMemory.info");
static_assert(sizeof(((GstCudaMemory*)nullptr)->context) == sizeof(((mirror::MemoryPublic*)nullptr)->context),
    "GstCudaMemory.context size");

constexpr bool same_text(const char* a, const char* b) { return *a == *b && (*a == '\0' || same_text(a + 1, b + 1)); }
static_assert(same_text(GST_CUDA_MEMORY_TYPE_NAME, mirror::kMemoryType), "GST_CUDA_MEMORY_TYPE_NAME");
