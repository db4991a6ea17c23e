#include "runners/gpu_completion.h"

namespace dsnode::runners {

GpuCompletion::GpuCompletion(int device) : device_(device), thread_([this] { run(); }) {}

GpuCompletion::~GpuCompletion() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

cudaError_t GpuCompletion::watch(cudaStream_t stream, cudaEvent_t event, Done done, void* job) {
  std::lock_guard<std::mutex> lock(mutex_);
  // Recorded under the lock, so that the queue's order is the stream's.
  const cudaError_t status = cudaEventRecord(event, stream);
  if (status != cudaSuccess) return status;
  entries_.push_back(Entry{event, done, job});
  wake_.notify_one();
  return cudaSuccess;
}

void GpuCompletion::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return entries_.empty() && !reporting_; });
}

void GpuCompletion::run() {
  // Its own thread: the device must be made current here too (cudaEventSynchronize would
  // work without, but a fresh thread would otherwise make device 0's context current).
  cudaSetDevice(device_);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !entries_.empty(); });
    if (entries_.empty()) return;  // stopping, and everything was reported
    const Entry entry = entries_.front();
    lock.unlock();
    // Returns once the GPU is past the event, or at once with the error of a fault on the
    // stream (or an earlier one anywhere in the context).
    const cudaError_t status = cudaEventSynchronize(entry.event);
    lock.lock();
    entries_.pop_front();
    reporting_ = true;
    lock.unlock();
    entry.done(entry.job, status);
    lock.lock();
    reporting_ = false;
    if (entries_.empty()) idle_.notify_all();
  }
}

}  // namespace dsnode::runners
