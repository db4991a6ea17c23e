/* A stand-in for the NVIDIA driver's libnvcuvid.so.1 (NVDEC), for GPU machines whose driver
 * install lacks the video codec libraries (datacenter images often ship only libcuda).
 *
 * Why: GStreamer 1.22's nvcodec plugin registers cudaupload/cudadownload only when it could
 * load libnvenc or libnvcuvid (sys/nvcodec/plugin.c returns early when neither loads), though
 * the memory copies need neither. With this stub every decoder capability query fails, so no
 * decoder is registered, and the plugin goes on to register the CUDA memory elements.
 * scripts/gpu/bundle-env.sh puts it on the library path only where the driver has no
 * libnvcuvid.so.1 and no libnvidia-encode.so.1. Every entry point answers
 * CUDA_ERROR_NOT_SUPPORTED (801); none is ever called to do work.
 */
#define STUB(name) \
  __attribute__((visibility("default"))) int name(void) { return 801; }

STUB(cuvidCtxLockCreate)
STUB(cuvidCtxLockDestroy)
STUB(cuvidCtxLock)
STUB(cuvidCtxUnlock)
STUB(cuvidCreateDecoder)
STUB(cuvidDestroyDecoder)
STUB(cuvidDecodePicture)
STUB(cuvidGetDecodeStatus)
STUB(cuvidReconfigureDecoder)
STUB(cuvidCreateVideoParser)
STUB(cuvidParseVideoData)
STUB(cuvidDestroyVideoParser)
STUB(cuvidMapVideoFrame)
STUB(cuvidUnmapVideoFrame)
STUB(cuvidMapVideoFrame64)
STUB(cuvidUnmapVideoFrame64)
STUB(cuvidGetDecoderCaps)
