// The many-stream bench's stand-in model (bench/README.md, "Many streams on the GPU"). TensorRT
// is not obtainable where this project is built, so no real detector runs: this CUDA kernel
// takes a preprocessed batch [N, 3, 640, 640] (float16 or float32, NCHW) and writes what a
// YOLOv8 detector with 80 classes writes, [N, 84, 8400] float32 (cx, cy, w, h in input pixels,
// then the 80 class scores per anchor), on the caller's stream:
//   - every anchor a box of its grid cell and low background scores (below 0.02);
//   - kStandinObjects objects per image, each seen by 3 neighbouring anchors of the stride-16
//     grid with slightly shifted boxes and scores 0.90 / 0.80 / 0.70 (so NMS has work), of a class,
//     place and size derived from the image's slot in the batch (its stream) and `seed`, moving a
//     few pixels per seed: stable, trackable detections. The scores also read the input pixel
//     under each object's centre (a real data dependency on the input, worth < 0.001).
// The ds-element side (bench/elements/src/yolo-standin.ts, through standin_binding.cpp) and the
// C++ peer (bench/gpu/peer/yolo_peer.cpp) call this same function: the model costs both the same.
// No real model's accuracy or cost is claimed.
#ifndef DSBENCH_STANDIN_YOLO_H
#define DSBENCH_STANDIN_YOLO_H

#include <cstddef>
#include <cstdint>

struct CUstream_st;

namespace dsbench {

constexpr int32_t kStandinClasses = 80;
constexpr int32_t kStandinObjects = 6;

struct StandinShape {
  int32_t batch = 1;
  int32_t height = 640;  // input height and width: multiples of 32
  int32_t width = 640;
  bool fp16 = true;      // the input's dtype: float16, else float32
};

// Anchors of a YOLOv8 head for the input size: (h/8)(w/8) + (h/16)(w/16) + (h/32)(w/32), 8400 at 640×640.
int32_t standin_anchors(const StandinShape &shape);
// Bytes of the output, batch × (4 + 80) × anchors float32.
size_t standin_output_bytes(const StandinShape &shape);
// Launches the kernel on `stream` (input and output: device pointers of the current device).
// Returns "" or the CUDA error ("cudaLaunchKernel: ..."), and "" for batch 0.
const char *standin_yolo_launch(const void *input, const StandinShape &shape, uint32_t seed, float *output, CUstream_st *stream);

// The same values computed on the host (input and output: host memory), for the CPU check of
// the bench's pipelines where there is no GPU. Same return convention.
const char *standin_yolo_host(const void *input, const StandinShape &shape, uint32_t seed, float *output);

}  // namespace dsbench

#endif
