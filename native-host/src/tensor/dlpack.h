/* The DLPack ABI (https://github.com/dmlc/dlpack, include/dlpack/dlpack.h), written out here
 * so that nothing has to be downloaded to build: only the types ds-element produces. The
 * layouts are those of DLPack v0.8 (DLManagedTensor, what a "dltensor" capsule holds) and
 * v1.0 (DLManagedTensorVersioned, "dltensor_versioned"); both are frozen by the spec, and the
 * static_asserts at the end pin the offsets a consumer reads.
 *
 * Plain C, so another addon can include a copy of it (or the official dlpack.h: the two are
 * interchangeable). docs/tensors.md, "DLPack", says how to consume ds-element's capsules. */
#ifndef DSNODE_TENSOR_DLPACK_H
#define DSNODE_TENSOR_DLPACK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 0

/* An int-sized enum in C, as in the official header. Only the devices ds-element produces. */
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLCUDAManaged = 13,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;   /* DLDataTypeCode */
  uint8_t bits;
  uint16_t lanes; /* 1: not a vector type */
} DLDataType;

typedef struct {
  /* Base of the allocation; the first element is at (char*)data + byte_offset. */
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  /* In elements, not bytes; NULL means compact row-major. */
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/* v0.8: what a "dltensor" capsule holds. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)

/* v1.0: what a "dltensor_versioned" capsule holds. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
}  // extern "C"

// The offsets every consumer relies on (x86-64 / aarch64 LP64), as the official header gives them.
static_assert(sizeof(DLDevice) == 8, "DLDevice");
static_assert(sizeof(DLDataType) == 4, "DLDataType");
static_assert(offsetof(DLTensor, device) == 8 && offsetof(DLTensor, ndim) == 16 &&
                  offsetof(DLTensor, dtype) == 20 && offsetof(DLTensor, shape) == 24 &&
                  offsetof(DLTensor, strides) == 32 && offsetof(DLTensor, byte_offset) == 40 &&
                  sizeof(DLTensor) == 48,
    "DLTensor layout");
static_assert(offsetof(DLManagedTensor, manager_ctx) == 48 && offsetof(DLManagedTensor, deleter) == 56 &&
                  sizeof(DLManagedTensor) == 64,
    "DLManagedTensor layout");
static_assert(offsetof(DLManagedTensorVersioned, manager_ctx) == 8 &&
                  offsetof(DLManagedTensorVersioned, deleter) == 16 &&
                  offsetof(DLManagedTensorVersioned, flags) == 24 &&
                  offsetof(DLManagedTensorVersioned, dl_tensor) == 32 && sizeof(DLManagedTensorVersioned) == 80,
    "DLManagedTensorVersioned layout");
#endif

#endif
