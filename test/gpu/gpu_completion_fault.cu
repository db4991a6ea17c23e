// The TensorRT runner's completion mechanism (native-host/src/runners/gpu_completion.h) on a
// real GPU, without TensorRT: work is enqueued on a stream, an event is watched, and the job
// is reported on the watcher's thread with the GPU's verdict, exactly as tensorrt_runner.cpp
// enqueues an inference and the binding then resolves or rejects its Promise with that status.
// Run by test/gpu/gpu-completion.sh, one mode per process (a fault poisons the CUDA context):
//
//   gpu_completion_fault ok        a kernel that succeeds: reported with cudaSuccess, data right
//   gpu_completion_fault fault     a kernel that writes to an unmapped address, then a second
//                                  job: both reported, with the CUDA error, within 20 s; the
//                                  watcher is destroyed and the process exits 0
//   gpu_completion_fault hostfunc  what the runner did before (cudaLaunchHostFunc after the
//                                  faulting kernel): prints whether the callback ever ran in 10 s
//                                  (it is not expected to), then leaves with _exit
//
// Each prints one `RESULT {json}` line; exit status 0 when the mode's expectations hold.
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "runners/gpu_completion.h"

using dsnode::runners::GpuCompletion;

namespace {

__global__ void fill(int* out, int value, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = value;
}

// Writes through a pointer no allocation covers: an illegal address, the GPU's own failure.
__global__ void fault(int* nowhere) { nowhere[threadIdx.x * 1024] = 1; }

// What the runner's InferenceJob carries to its owner: the verdict, then a hand-off.
struct Job {
  int id = 0;
  cudaError_t status = cudaErrorUnknown;
  bool reported = false;
};

std::mutex mutex;
std::condition_variable reported;

void on_done(void* data, cudaError_t status) {
  auto* job = static_cast<Job*>(data);
  std::lock_guard<std::mutex> lock(mutex);
  job->status = status;
  job->reported = true;
  reported.notify_all();
}

bool wait_for(std::vector<Job>& jobs, double seconds) {
  std::unique_lock<std::mutex> lock(mutex);
  return reported.wait_for(lock, std::chrono::duration<double>(seconds), [&] {
    for (const Job& job : jobs)
      if (!job.reported) return false;
    return true;
  });
}

const char* name(cudaError_t status) { return cudaGetErrorName(status); }

int run_ok() {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  const int count = 1 << 20;
  int* data = nullptr;
  if (cudaMalloc(&data, count * sizeof(int)) != cudaSuccess) return 2;
  std::vector<Job> jobs(3);
  std::vector<cudaEvent_t> events(jobs.size());
  bool watched = true;
  {
    GpuCompletion completion(0);
    for (size_t i = 0; i < jobs.size(); ++i) {
      jobs[i].id = static_cast<int>(i);
      cudaEventCreateWithFlags(&events[i], GpuCompletion::kEventFlags);
      fill<<<(count + 255) / 256, 256, 0, stream>>>(data, 7 + static_cast<int>(i), count);
      watched = watched && completion.watch(stream, events[i], on_done, &jobs[i]) == cudaSuccess;
    }
    wait_for(jobs, 20);
  }  // the watcher stops here
  std::vector<int> host(count);
  cudaMemcpy(host.data(), data, count * sizeof(int), cudaMemcpyDeviceToHost);
  bool all_success = watched;
  for (const Job& job : jobs) all_success = all_success && job.reported && job.status == cudaSuccess;
  const bool data_right = host[0] == 9 && host[count - 1] == 9;
  std::printf("RESULT {\"mode\":\"ok\",\"jobs\":%zu,\"allReportedWithSuccess\":%s,\"lastKernelsData\":%d}\n", jobs.size(),
      all_success ? "true" : "false", host[0]);
  return all_success && data_right ? 0 : 1;
}

int run_fault() {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  std::vector<Job> jobs(2);
  cudaEvent_t events[2];
  bool refused[2] = {false, false};
  cudaError_t launch = cudaSuccess;
  const auto start = std::chrono::steady_clock::now();
  bool in_time = false;
  {
    GpuCompletion completion(0);
    cudaEventCreateWithFlags(&events[0], GpuCompletion::kEventFlags);
    cudaEventCreateWithFlags(&events[1], GpuCompletion::kEventFlags);
    fault<<<1, 32, 0, stream>>>(reinterpret_cast<int*>(0x10));
    launch = cudaGetLastError();
    // Then the runner's next inference on the same (soon lost) context. Either is watched and
    // reported with the error, or, when the fault has already happened, watch() refuses it
    // with the error at once, and the runner fails the job with it (tensorrt_runner.cpp start()).
    for (int i = 0; i < 2; ++i) {
      jobs[i].id = i;
      const cudaError_t watched = completion.watch(stream, events[i], on_done, &jobs[i]);
      if (watched != cudaSuccess) {
        std::lock_guard<std::mutex> lock(mutex);
        jobs[i].reported = true;
        jobs[i].status = watched;
        refused[i] = true;
      }
    }
    in_time = wait_for(jobs, 20);
    if (!in_time) {
      std::printf("RESULT {\"mode\":\"fault\",\"reportedIn20s\":false}\n");
      std::fflush(stdout);
      _exit(1);  // the watcher's thread is stuck: do not wait on it
    }
  }  // the watcher is destroyed: its thread ended
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool errors = jobs[0].status != cudaSuccess && jobs[1].status != cudaSuccess;
  std::printf("RESULT {\"mode\":\"fault\",\"launch\":\"%s\",\"reportedIn20s\":true,\"seconds\":%.3f,"
              "\"faultingJob\":\"%s\",\"faultingJobRefusedAtWatch\":%s,\"nextJob\":\"%s\",\"nextJobRefusedAtWatch\":%s,"
              "\"message\":\"%s\"}\n",
      name(launch), seconds, name(jobs[0].status), refused[0] ? "true" : "false", name(jobs[1].status),
      refused[1] ? "true" : "false", cudaGetErrorString(jobs[0].status));
  std::fflush(stdout);
  return errors ? 0 : 1;  // and the process exits: main returns
}

std::atomic<bool> host_function_ran{false};
void CUDART_CB on_host(void*) { host_function_ran = true; }

int run_hostfunc() {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  fault<<<1, 32, 0, stream>>>(reinterpret_cast<int*>(0x10));
  const cudaError_t launched = cudaLaunchHostFunc(stream, on_host, nullptr);
  for (int i = 0; i < 100 && !host_function_ran; ++i) usleep(100 * 1000);
  std::printf("RESULT {\"mode\":\"hostfunc\",\"cudaLaunchHostFunc\":\"%s\",\"callbackRanIn10s\":%s,\"streamQuery\":\"%s\"}\n",
      name(launched), host_function_ran ? "true" : "false", name(cudaStreamQuery(stream)));
  std::fflush(stdout);
  _exit(0);  // informational: what the runner no longer relies on
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  if (mode == "ok") return run_ok();
  if (mode == "fault") return run_fault();
  if (mode == "hostfunc") return run_hostfunc();
  std::fprintf(stderr, "usage: gpu_completion_fault ok|fault|hostfunc\n");
  return 2;
}
