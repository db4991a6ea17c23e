#include "tensor/gst_cuda.h"

#include <dlfcn.h>

#include <mutex>

namespace dsnode::tensor::gstcuda {

namespace {

struct Symbols {
  gboolean (*push)(GstObject*) = nullptr;
  gboolean (*pop)(void*) = nullptr;  // (CUcontext*), may be null
  void (*sync)(GstMemory*) = nullptr;
};

// Looked up until found: the library may be loaded after the first question (a CUDA element
// that starts later).
const Symbols& symbols() {
  static std::mutex mutex;
  static Symbols found;
  static bool complete = false;
  std::lock_guard<std::mutex> lock(mutex);
  if (complete) return found;
  void* library = dlopen("libgstcuda-1.0.so.0", RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) return found;
  found.push = reinterpret_cast<gboolean (*)(GstObject*)>(dlsym(library, "gst_cuda_context_push"));
  found.pop = reinterpret_cast<gboolean (*)(void*)>(dlsym(library, "gst_cuda_context_pop"));
  found.sync = reinterpret_cast<void (*)(GstMemory*)>(dlsym(library, "gst_cuda_memory_sync"));
  complete = true;
  // The handle stays open (RTLD_NOLOAD took a reference): the library outlives every memory.
  return found;
}

}  // namespace

bool is_cuda_memory(GstMemory* memory) { return memory != nullptr && gst_memory_is_type(memory, kMemoryType); }

GstObject* memory_context(GstMemory* memory) { return reinterpret_cast<MemoryPublic*>(memory)->context; }

int32_t device_id(GstObject* context) {
  if (context == nullptr) return 0;
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(context), "cuda-device-id") == nullptr) return 0;
  guint id = 0;
  g_object_get(context, "cuda-device-id", &id, nullptr);
  return static_cast<int32_t>(id);
}

bool push_context(GstObject* context, std::string* error) {
  const Symbols& found = symbols();
  if (found.push == nullptr || found.pop == nullptr) {
    *error = "GstCudaMemory's CUDA context cannot be made current: libgstcuda-1.0.so.0 is not loaded";
    return false;
  }
  if (!found.push(context)) {
    *error = "gst_cuda_context_push failed for the frame's GstCudaContext";
    return false;
  }
  return true;
}

void pop_context() {
  const Symbols& found = symbols();
  if (found.pop != nullptr) found.pop(nullptr);
}

void sync_memory(GstMemory* memory) {
  const Symbols& found = symbols();
  if (found.sync != nullptr) found.sync(memory);
}

}  // namespace dsnode::tensor::gstcuda
