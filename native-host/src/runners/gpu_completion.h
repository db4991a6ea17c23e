// Completion of work enqueued on one CUDA stream, reported on a thread of our own: what the
// TensorRT runner waits on (tensorrt_runner.cpp; docs/internals/runners.md §3). CUDA runtime
// only, no TensorRT, so test/gpu/gpu_completion_fault.cu runs it on a GPU without TensorRT.
//
// Why not cudaLaunchHostFunc: once a kernel on the stream faults (an illegal address, say),
// the stream's later host functions never run (cuda_runtime_api.h), so an inference's owner
// would wait forever and the process hang at exit. cudaEventSynchronize returns the error
// instead: every watched job is reported, with cudaSuccess or the CUDA error that stopped the
// stream (sticky: the device's context is lost for the rest of the process).
//
// Thread safety: watch() may be called from any thread; jobs are reported in the order they
// were watched, which is the order the GPU finishes them on one stream. `done` runs on the
// watcher's thread: it must only hand the job to its owner (no CUDA call is needed there).
#ifndef DSNODE_RUNNERS_GPU_COMPLETION_H
#define DSNODE_RUNNERS_GPU_COMPLETION_H

#include <cuda_runtime_api.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace dsnode::runners {

class GpuCompletion {
 public:
  using Done = void (*)(void* job, cudaError_t status);

  // The thread starts here and makes `device` current for itself.
  explicit GpuCompletion(int device);
  // Waits until every watched job was reported, then stops the thread.
  ~GpuCompletion();
  GpuCompletion(const GpuCompletion&) = delete;
  GpuCompletion& operator=(const GpuCompletion&) = delete;

  // Records `event` (made with cudaEventBlockingSync, so the thread sleeps while it waits) on
  // `stream` after the work enqueued so far, and reports `job` to `done` once the GPU is past
  // it. A status other than cudaSuccess: nothing was watched, `done` is not called.
  cudaError_t watch(cudaStream_t stream, cudaEvent_t event, Done done, void* job);
  // Waits until every job watched so far was reported (its `done` returned).
  void drain();

  // Flags for the events given to watch().
  static constexpr unsigned kEventFlags = cudaEventBlockingSync | cudaEventDisableTiming;

 private:
  struct Entry {
    cudaEvent_t event;
    Done done;
    void* job;
  };
  void run();

  const int device_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;  // signalled when the queue empties
  bool reporting_ = false;        // a `done` call is running
  std::deque<Entry> entries_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest is set up
};

}  // namespace dsnode::runners

#endif  // DSNODE_RUNNERS_GPU_COMPLETION_H
