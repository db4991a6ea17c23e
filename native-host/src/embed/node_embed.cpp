// Embeds Node.js (the distribution's libnode it was built against, 18 to 24): ProcessRuntime
// initialises it once per process (V8, the platform, the teardown at exit); each JsRuntime is one
// Node environment (isolate, libuv loop, `require`) on a JS thread of its own. JsRuntime 0, the
// shared one, runs every element of the process unless an element asks for an isolate of its own
// (isolate=own, docs/internals/isolates.md): that element gets a JsRuntime of its own, started
// with it and stopped after its destroy call, using the queued hand-off.
//
// Node here is a guest in someone else's process (gst-launch-1.0, an application): it must not
// install signal handlers, touch stdio or resource limits, read NODE_OPTIONS, or end the
// process. Its JS thread owns the libuv loop for the life of the process; the hand-off
// (runtime/) is the only way other threads reach it.
//
// Two hand-offs (DS_ELEMENT_HANDOFF): `queue`, where the JS thread holds the isolate's Locker
// for good and runs every call; `direct`, where a calling thread runs its call itself under
// the Locker (JsLockHost below). The rule then: only the thread holding the isolate's Locker
// touches V8 or libuv, and the JS thread never runs the loop while another holds it. The JS
// thread holds the Locker only for one non-blocking turn of the loop at a time and sleeps
// without it, in poll() on the loop's backend fd (which touches no loop structure) plus an
// eventfd that callers write when their JS changed what the loop waits for.
#include "embed/node_embed.h"

#include <dlfcn.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include <glib.h>
// The target pins NAPI_VERSION for the binding; node.h defines the runtime's own (it does
// not use N-API here), so let it.
#undef NAPI_VERSION
#include <node.h>
#include <uv.h>

#include "embed/bootstrap_bundle.h"  // generated (native-host/scripts/embed-bundle.mjs)
#include "embed/isolate_gate.h"
#include "embed/uv_watcher_queue.h"
#include "runtime/handoff.h"
#include "runtime/cpu_relax.h"
#include "runtime/instance.h"
#include "runtime/spin_policy.h"
#include "runtime/watchdog.h"

namespace dsnode::embed {
namespace {

// The bootstrap (kBootstrapBundle) is sdk/src/host-runtime/bootstrap.ts, bundled at build time: a
// CommonJS module whose export bootstrap(process, builtinRequire, hostJsPath, runtimePath) runs
// once, before host.js, and returns afterFatalException (see on_exit_request).

constexpr int kMaxPlatformThreads = 4;  // Node's default --v8-pool-size

// V8's worker threads (concurrent compilation, parallel and concurrent GC). Node starts 4
// whatever the machine; on a small one they outnumber the cores and take them from the
// streaming threads while V8 warms up: on 2 cores, 4 workers stalled a no-op element's
// stream for ~17 ms in its first 20 000 buffers (median of 5 runs; 1 worker: ~7 ms). So: the
// cores this process may use, less one, between 1 and 4; DS_ELEMENT_V8_THREADS overrides.
int platform_threads() {
  if (const char* value = g_getenv("DS_ELEMENT_V8_THREADS"); value != nullptr && *value) {
    char* end = nullptr;
    const long threads = std::strtol(value, &end, 10);
    if (*end == '\0' && threads >= 1 && threads <= 64) return static_cast<int>(threads);
    g_warning("dsnode: DS_ELEMENT_V8_THREADS=%s is not a number from 1 to 64; using the default", value);
  }
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const int available = sched_getaffinity(0, sizeof(cpus), &cpus) == 0 ? CPU_COUNT(&cpus) : 0;
  if (available <= 0) return kMaxPlatformThreads;
  return std::clamp(available - 1, 1, kMaxPlatformThreads);
}
// The JS thread's own stack: V8's limit (below) plus room for the native code under it,
// whatever `ulimit -s` says (a std::thread gets RLIMIT_STACK, 256 KiB under `ulimit -s 256`).
constexpr size_t kJsThreadStackBytes = 8u << 20;
// What V8 leaves below its stack limit, on every thread, for native code called from
// JavaScript (N-API, the runtime's callbacks, GStreamer logging).
constexpr uintptr_t kNativeStackReserve = 64u << 10;

// V8's --stack-size (KiB; V8's default 984) in the flags Node got.
size_t v8_stack_bytes(const std::vector<std::string>& args) {
  size_t kib = 984;
  for (const std::string& arg : args) {
    if (arg.rfind("--stack-size=", 0) == 0 || arg.rfind("--stack_size=", 0) == 0) {
      kib = std::strtoul(arg.c_str() + 13, nullptr, 10);
    }
  }
  return kib << 10;
}

// V8 puts a thread's stack limit --stack-size below where the thread first entered the isolate,
// whatever that thread's real stack: a streaming thread of a process started with
// `ulimit -s 256` (or 512) ran past the end of its stack (SIGSEGV) before V8 saw an overflow.
// Each thread that enters the isolate sets its limit here: --stack-size below where it is, but
// never within kNativeStackReserve of the real end of its stack. Deep recursion is then a
// RangeError on every thread. V8 keeps a thread's limit with its state while the thread holds
// its top-level Locker (callers keep theirs for life, see CallerLock).
void set_stack_limit(v8::Isolate* isolate, size_t v8_bytes) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* low = nullptr;
  size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &low, &size) == 0 && size > 0;
  pthread_attr_destroy(&attr);
  if (!known) return;
  const uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  const uintptr_t bottom = reinterpret_cast<uintptr_t>(low);
  const uintptr_t reserve = std::min<uintptr_t>(kNativeStackReserve, size / 4);
  const uintptr_t v8_limit = here > v8_bytes ? here - v8_bytes : 0;
  isolate->SetStackLimit(std::max(v8_limit, bottom + reserve));
}

#if NODE_MAJOR_VERSION >= 24
// Whether the last of Node's async-context-frame flags in `args` turns it on (Node 24's default
// is on; the runtime passes --no-async-context-frame first, see initialize_process).
bool async_context_frame_on(const std::vector<std::string>& args) {
  bool on = true;
  for (const std::string& arg : args) {
    if (arg == "--async-context-frame" || arg == "--experimental-async-context-frame") on = true;
    if (arg == "--no-async-context-frame" || arg == "--no-experimental-async-context-frame") on = false;
  }
  return on;
}
#endif

constexpr auto kStopGrace = std::chrono::seconds(2);
constexpr auto kTerminateGrace = std::chrono::seconds(10);

v8::Local<v8::String> v8_string(v8::Isolate* isolate, const std::string& text) {
  return v8::String::NewFromUtf8(isolate, text.data(), v8::NewStringType::kNormal,
                                 static_cast<int>(text.size()))
      .ToLocalChecked();
}

std::string std_string(v8::Isolate* isolate, v8::Local<v8::Value> value) {
  v8::String::Utf8Value utf8(isolate, value);
  return *utf8 != nullptr ? std::string(*utf8, utf8.length()) : std::string();
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

// The path of this library, for host.js to process.dlopen() (the loader hands back the
// handle it already has, and Node registers the binding through napi_register_module_v1).
// Also pins the library: the atexit handler below lives in it.
std::string locate_and_pin_self() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&locate_and_pin_self), &info) == 0 ||
      info.dli_fname == nullptr) {
    return std::string();
  }
  char* resolved = realpath(info.dli_fname, nullptr);
  std::string path = resolved != nullptr ? resolved : info.dli_fname;
  free(resolved);
  dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  return path;
}

// Process-directed signals belong to the host's threads; SIGPIPE from a socket the JS thread
// writes to must become EPIPE, not the death of the host. Threads the JS thread creates
// (V8 platform workers, the libuv pool) inherit the mask. SIGPROF stays: V8's profiler.
void block_host_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
                     SIGCHLD, SIGWINCH}) {
    sigaddset(&set, signal);
  }
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

// A caller thread's hold on the isolate (direct mode). A top-level v8::Locker that ends frees
// the thread's V8 state (handle scope blocks, stack limits), and the next Locker on that thread
// builds it again: about a microsecond per buffer. So a caller thread keeps one top-level
// Locker for as long as it lives and sits in a v8::Unlocker between calls; V8 then archives
// its state lazily and a thread making call after call pays only for the lock itself.
//
// Own environments (isolate=own) use the direct hand-off too, with one CallerLock per thread
// and isolate. Such an isolate goes with its element while GStreamer's streaming threads
// (pooled) live on, so a thread does not keep it entered between calls (run_locked enters it
// for each call). Every isolate's CallerLocks know whether it is still there (IsolateLife):
// once it has gone, a thread's lock is dropped without touching V8, which freed the thread's
// archived state with the isolate.
struct IsolateLife {
  std::atomic<bool> alive{true};  // false from isolate_disposing on, under teardown_mutex
};

class CallerLock {
 public:
  CallerLock(std::shared_ptr<IsolateLife> life, bool entered_for_life)
      : life_(std::move(life)), entered_for_life_(entered_for_life) {}
  CallerLock(const CallerLock&) = delete;
  CallerLock& operator=(const CallerLock&) = delete;

  // The shared isolate's (one per process, so one per thread), entered for the thread's life.
  static CallerLock& shared_for_this_thread(const std::shared_ptr<IsolateLife>& life) {
    // A trivial thread_local is one __tls_get_addr; the object with its destructor costs a
    // guard check on top, so it is reached once per thread.
    thread_local CallerLock* cached = nullptr;
    if (cached != nullptr) return *cached;
    thread_local CallerLock lock(life, true);
    cached = &lock;
    return lock;
  }

  // An own environment's isolate, known by its life; the thread's locks of isolates that have
  // gone are dropped on the way.
  static CallerLock& own_for_this_thread(const std::shared_ptr<IsolateLife>& life) {
    thread_local std::vector<std::unique_ptr<CallerLock>> locks;
    for (auto it = locks.begin(); it != locks.end();) {
      if ((*it)->life_ == life) return **it;
      it = (*it)->life_->alive.load() ? it + 1 : locks.erase(it);
    }
    locks.push_back(std::make_unique<CallerLock>(life, false));
    return *locks.back();
  }

  void acquire(v8::Isolate* isolate, size_t v8_stack_bytes) {
    if (locker_ == nullptr) {
      std::lock_guard<std::mutex> guard(teardown_mutex());
      isolate_ = isolate;
      locker_ = new v8::Locker(isolate);
      // The shared isolate: entered for the thread's life, like the context (see enter_for_good).
      if (entered_for_life_) isolate->Enter();
      set_stack_limit(isolate, v8_stack_bytes);
      return;
    }
    end_unlocker();  // locks again
  }

  // With the isolate entered, once per thread: its outermost HandleScope, and the main
  // context entered for the thread's life. The context's handle lives in that scope and keeps
  // the thread's block of handles allocated (V8 frees a thread's last block when its outermost
  // scope closes, and each call would allocate it again). Both are per-thread V8 state, archived with the rest while
  // the thread sits in the Unlocker.
  void enter_for_good(const v8::Global<v8::Context>& context) {
    if (scope_ != nullptr) return;
    scope_ = ::new (scope_storage_) v8::HandleScope(isolate_);
    context.Get(isolate_)->Enter();
  }

  // In place, not on the heap: a buffer's call should not cost a malloc and a free.
  void release() { unlocker_ = new (unlocker_storage_) v8::Unlocker(isolate_); }

  // Once the isolate is going away, threads that exit later must leave their V8 state alone.
  static void isolate_disposing(IsolateLife& life) {
    std::lock_guard<std::mutex> guard(teardown_mutex());
    life.alive.store(false);
  }

  ~CallerLock() {
    // The main thread's thread_locals die inside exit(), before the atexit teardown that stops
    // Node: relocking there could wait forever for a call stuck in JS on another thread. The
    // process is ending; V8 frees the state with the isolate, or the process does.
    if (locker_ == nullptr || syscall(SYS_gettid) == getpid()) return;
    // Any other thread: taking the lock may wait for a call running on another thread.
    std::lock_guard<std::mutex> guard(teardown_mutex());
    if (!life_->alive.load()) return;  // the isolate took our state with it
    if (!entered_for_life_) isolate_->Enter();  // an own isolate is entered per call only
    end_unlocker();
    if (scope_ != nullptr) {
      isolate_->GetEnteredOrMicrotaskContext()->Exit();
      scope_->~HandleScope();
    }
    isolate_->Exit();
    delete locker_;
  }

 private:
  static std::mutex& teardown_mutex() {
    static std::mutex* mutex = new std::mutex();  // outlives every thread's destructor
    return *mutex;
  }
  void end_unlocker() {
    if (unlocker_ != nullptr) unlocker_->~Unlocker();
    unlocker_ = nullptr;
  }

  const std::shared_ptr<IsolateLife> life_;
  const bool entered_for_life_;  // the shared isolate's
  v8::Isolate* isolate_ = nullptr;
  v8::Locker* locker_ = nullptr;
  // Not a std::optional: the early returns of the destructor must leave it alone (ending an
  // Unlocker takes the lock again, for good on a thread that is going away).
  alignas(v8::Unlocker) unsigned char unlocker_storage_[sizeof(v8::Unlocker)];
  v8::Unlocker* unlocker_ = nullptr;
  // V8 does not let a HandleScope live on the heap by `new`; it lives here, like the Unlocker.
  alignas(v8::HandleScope) unsigned char scope_storage_[sizeof(v8::HandleScope)];
  v8::HandleScope* scope_ = nullptr;
};

class JsRuntime;

// Once per process, on the first JS thread (JsRuntime 0's): Node's per-process state, V8 and
// its platform, which every environment shares; and the environments beside the first, which
// must end before V8 goes.
class ProcessRuntime {
 public:
  static ProcessRuntime& get() {
    static ProcessRuntime* process = new ProcessRuntime();  // never destroyed (see JsRuntime)
    return *process;
  }

  // `direct`: the hand-off the first environment is to use (cleared where Node's flags forbid it).
  bool initialize(bool* direct, std::string* error);
  void tear_down();
  node::MultiIsolatePlatform* platform() const { return platform_.get(); }
  const std::vector<std::string>& args() const { return args_; }
  const std::vector<std::string>& exec_args() const { return exec_args_; }
  size_t v8_stack_bytes() const { return v8_stack_bytes_; }

  // The environments beside the first: registered as they start, counted until they end.
  void add_environment(const std::shared_ptr<JsRuntime>& runtime);
  void environment_ended();
  std::vector<std::shared_ptr<JsRuntime>> live_environments();
  // False when some were still running after `grace`.
  bool wait_for_environments(std::chrono::seconds grace);

 private:
  std::vector<std::string> args_;
  std::vector<std::string> exec_args_;
  size_t v8_stack_bytes_ = 984u << 10;
  std::unique_ptr<node::MultiIsolatePlatform> platform_;

  std::mutex mutex_;
  std::condition_variable ended_;
  std::vector<std::weak_ptr<JsRuntime>> environments_;
  int running_environments_ = 0;
};

class JsRuntime final : public dsnode::JsLockHost, public dsnode::JsInterrupter {
 public:
  // JsRuntime 0: the process's first environment, shared by every element that does not ask for
  // one of its own. It initialises the process and owns process state (exit handling).
  static JsRuntime& shared() {
    // Never destroyed: atexit teardown runs after static destructors may have started.
    static JsRuntime* runtime = new JsRuntime(true);
    return *runtime;
  }

  bool ensure_started(const DsnodeHostCallbacks& callbacks, const std::string& host_js,
      std::string* error);
  // An environment of one element's own (after ensure_started succeeded): blocks until host.js
  // ran there; its hand-off, kept alive by *keep, or null with *error.
  static Handoff* start_own(std::shared_ptr<void>* keep, std::string* error);

  // primary: JsRuntime 0, on the process's Handoff::get(); else an own environment, with a
  // hand-off of its own.
  explicit JsRuntime(bool primary)
      : primary_(primary), owned_handoff_(primary ? nullptr : std::make_unique<Handoff>()),
        handoff_(primary ? &Handoff::get() : owned_handoff_.get()) {}

  // JsLockHost (direct mode), on a calling thread.
  bool run_locked(void (*body)(void*), void* data, const void* waiter, const std::atomic<bool>* abandon) override;
  void wake_waiters() override { gate_.wake_all(); }
  bool waiting(const void* waiter) override { return gate_.waiting(waiter); }
  // JsInterrupter (the watchdog), any thread.
  void request_interrupt() override;
  // JsInterrupter, on the thread holding the isolate.
  void clear_async_context() override;

 private:
  enum class State { kNotStarted, kStarting, kRunning, kFailed, kStopped };

  void thread_main();
  static void* thread_entry(void* self);
  static void interrupted(v8::Isolate* isolate, void* data);
  void start_thread();  // with mutex_ held, state_ kStarting
  static size_t near_heap_limit(void* data, size_t current_limit, size_t initial_limit);
  void take_async_id_stack(v8::Local<v8::Object> hook);
  void run_environment();
  void run_direct_loop(uv_loop_t* loop);
  void configure_handoff(const SpinSettings& settings, const std::string& host_js);
  void wake_if_loop_changed();
  void wake_js_thread();
  v8::MaybeLocal<v8::Value> bootstrap(const node::StartExecutionCallbackInfo& info);
  void on_exit_request(int exit_code);
  void announce(State state, const std::string& failure);
  static void stop_environment(void* self);
  static void at_process_exit();
  void shut_down();

  const bool primary_;                      // JsRuntime 0
  const std::unique_ptr<Handoff> owned_handoff_;
  Handoff* const handoff_;                  // this environment's (Handoff::get() for JsRuntime 0)
  std::shared_ptr<JsRuntime> self_;         // an own environment's thread keeps it alive

  std::mutex mutex_;
  std::condition_variable cv_;
  State state_ = State::kNotStarted;
  std::string failure_;
  bool thread_finished_ = false;
  pthread_t thread_{};
  bool thread_joinable_ = false;
  std::thread::id js_thread_id_;
  node::Environment* env_ = nullptr;  // non-null while the loop may run; guarded by mutex_

  // JS thread only.
  std::string host_js_;
  std::string runtime_path_;
  size_t v8_stack_bytes_ = 984u << 10;  // read by callers once the door is open
  v8::Isolate* isolate_ = nullptr;
  v8::Global<v8::Function> after_fatal_exception_;
  // Node's async context stack (the bootstrap's asyncIdStack): its length, and the current
  // execution and trigger ids. Node's own memory, alive with the environment.
  uint32_t* async_stack_length_ = nullptr;
  double* execution_async_id_ = nullptr;
  double* trigger_async_id_ = nullptr;

  // Direct mode. isolate_, context_ and loop_ are read by callers under the Locker, while the
  // door is open (the JS thread waits for them before it lets go of the isolate).
  bool direct_ = false;                   // fixed before the JS thread starts
  v8::Global<v8::Context> context_;
  uv_loop_t* loop_ = nullptr;
  int wake_fd_ = -1;                      // eventfd: "poll again", written by callers
  std::atomic<bool> wake_pending_{false};
  std::atomic<bool> loop_stop_{false};    // the JS thread leaves its loop
  std::atomic<bool> js_wants_lock_{false};
  std::atomic<int> callers_waiting_{0};   // callers on their way to the Locker
  std::atomic<uint64_t> lock_generation_{0};
  IsolateGate gate_;
  // Whether its isolate is still there, for the CallerLocks of threads that called it (they may
  // outlive it).
  const std::shared_ptr<IsolateLife> life_ = std::make_shared<IsolateLife>();
  // When the sleeping JS thread will wake by itself, in loop time (uv_now, ms); UINT64_MAX:
  // never. Written by the JS thread before it releases the Locker, read by callers under it.
  uint64_t sleep_deadline_ms_ = 0;
};

bool JsRuntime::ensure_started(const DsnodeHostCallbacks& callbacks, const std::string& host_js,
    std::string* error) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (state_ == State::kNotStarted) {
    set_host_callbacks(callbacks);
    configure_handoff(SpinSettings::from_environment(), host_js);
    Watchdog::get().configure(WatchdogSettings::from_environment());
    host_js_ = host_js;
    runtime_path_ = locate_and_pin_self();
    if (runtime_path_.empty()) {
      state_ = State::kFailed;
      failure_ = "Cannot find the path of libdsnode-runtime (dladdr failed)";
    } else {
      state_ = State::kStarting;
      // Registered after libnode was loaded, so it runs before libnode's static destructors.
      std::atexit(&JsRuntime::at_process_exit);
      start_thread();
    }
  }
  cv_.wait(lock, [this] { return state_ != State::kStarting; });
  switch (state_) {
    case State::kRunning:
      return true;
    case State::kFailed:
      *error = failure_;
      return false;
    default:
      *error = "Node.js has already shut down in this process (it cannot be restarted)";
      return false;
  }
}

// Before the JS thread starts: the hand-off, and in direct mode the gate callers pass.
void JsRuntime::configure_handoff(const SpinSettings& settings, const std::string& host_js) {
  direct_ = settings.mode == HandoffMode::kDirect;
  handoff_->configure(settings, host_js);
  gate_.configure(settings.gate_spin_ns, settings.max_spinning_callers, settings.gate_turn_ns, handoff_->statistics());
}

void JsRuntime::start_thread() {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kJsThreadStackBytes);
  const int rc = pthread_create(&thread_, &attr, &JsRuntime::thread_entry, this);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    state_ = State::kFailed;
    failure_ = std::string("Cannot start the Node.js thread: ") + g_strerror(rc);
  } else if (primary_) {
    thread_joinable_ = true;
  } else {
    pthread_detach(thread_);  // it ends after its element; nobody need wait for it
  }
}

Handoff* JsRuntime::start_own(std::shared_ptr<void>* keep, std::string* error) {
  JsRuntime& first = shared();
  SpinSettings settings;
  {
    std::lock_guard<std::mutex> lock(first.mutex_);
    if (first.state_ != State::kRunning) {
      *error = "Node.js is not running in this process (ensure_started has not succeeded)";
      return nullptr;
    }
    settings = first.handoff_->settings();
  }
  // The shared environment's hand-off (direct by default: the element's streaming threads run
  // its calls, each keeping a CallerLock of this isolate, see run_locked).
  auto runtime = std::make_shared<JsRuntime>(false);
  runtime->configure_handoff(settings, first.host_js_);
  runtime->handoff_->stop_after_destroy();
  runtime->host_js_ = first.host_js_;
  runtime->runtime_path_ = first.runtime_path_;
  runtime->v8_stack_bytes_ = first.v8_stack_bytes_;
  ProcessRuntime::get().add_environment(runtime);
  std::unique_lock<std::mutex> lock(runtime->mutex_);
  runtime->state_ = State::kStarting;
  runtime->self_ = runtime;
  runtime->start_thread();
  if (runtime->state_ == State::kFailed) {
    runtime->self_.reset();
    lock.unlock();
    ProcessRuntime::get().environment_ended();
    *error = runtime->failure_;
    return nullptr;
  }
  runtime->cv_.wait(lock, [&runtime] { return runtime->state_ != State::kStarting; });
  if (runtime->state_ != State::kRunning) {
    *error = runtime->failure_.empty() ? "Node.js stopped while the element's environment started" : runtime->failure_;
    lock.unlock();
    runtime->handoff_->request_stop();  // host.js failed: the environment's loop still runs
    return nullptr;
  }
  *keep = runtime;
  return runtime->handoff_;
}

void JsRuntime::announce(State state, const std::string& failure) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ == State::kStarting) {
    state_ = state;
    failure_ = failure;
  }
  cv_.notify_all();
}

void* JsRuntime::thread_entry(void* self) {
  static_cast<JsRuntime*>(self)->thread_main();
  return nullptr;
}

void JsRuntime::thread_main() {
  // An own environment's thread holds the last reference but one; declared first, it goes last.
  std::shared_ptr<JsRuntime> self = std::move(self_);
  js_thread_id_ = std::this_thread::get_id();
  Handoff::set_current(handoff_);
  block_host_signals();
  std::string error;
  if (!primary_) {
    run_environment();
    ProcessRuntime::get().environment_ended();
  } else if (ProcessRuntime::get().initialize(&direct_, &error)) {
    v8_stack_bytes_ = ProcessRuntime::get().v8_stack_bytes();
    run_environment();
    // Teardown order matters (Node 18): every environment is gone, then V8, then the platform,
    // then Node's per-process state. One that does not end keeps them (the process is exiting).
    if (ProcessRuntime::get().wait_for_environments(kTerminateGrace)) ProcessRuntime::get().tear_down();
  } else {
    announce(State::kFailed, "Node.js could not start: " + error);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ == State::kRunning || state_ == State::kStarting) state_ = State::kStopped;
  thread_finished_ = true;
  cv_.notify_all();
}

void ProcessRuntime::tear_down() {
  v8::V8::Dispose();
  v8::V8::DisposePlatform();
  platform_.reset();
  node::TearDownOncePerProcess();
}

void ProcessRuntime::add_environment(const std::shared_ptr<JsRuntime>& runtime) {
  std::lock_guard<std::mutex> lock(mutex_);
  environments_.erase(std::remove_if(environments_.begin(), environments_.end(),
                          [](const std::weak_ptr<JsRuntime>& known) { return known.expired(); }),
      environments_.end());
  environments_.push_back(runtime);
  ++running_environments_;
}

void ProcessRuntime::environment_ended() {
  std::lock_guard<std::mutex> lock(mutex_);
  --running_environments_;
  ended_.notify_all();
}

std::vector<std::shared_ptr<JsRuntime>> ProcessRuntime::live_environments() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<JsRuntime>> live;
  for (const std::weak_ptr<JsRuntime>& known : environments_) {
    if (std::shared_ptr<JsRuntime> runtime = known.lock()) live.push_back(std::move(runtime));
  }
  return live;
}

bool ProcessRuntime::wait_for_environments(std::chrono::seconds grace) {
  std::unique_lock<std::mutex> lock(mutex_);
  return ended_.wait_for(lock, grace, [this] { return running_environments_ == 0; });
}

bool ProcessRuntime::initialize(bool* direct, std::string* error) {
  // --interrupt-budget: V8 optimises a function once it has run this much bytecode (default
  // 132 KiB). An element's per-buffer path runs thousands of times a second from the first
  // buffer, and until it is optimised each buffer costs several times more: at 8 KiB the first
  // 5 000 buffers of a no-op element took ~30 ms instead of ~45 (bench/RESULTS.md); lower
  // budgets optimise on too little feedback and were slower again. DS_ELEMENT_NODE_OPTIONS
  // comes after it, so it can set another.
  // V8 13 (Node 24) replaced the flag by invocation counts and Node refuses it there ("bad
  // option"); V8 12 (Node 22) is not built here, so it goes without it too.
  std::vector<std::string> args = {"dsnode", "--enable-source-maps"};
#if V8_MAJOR_VERSION < 12
  args.emplace_back("--interrupt-budget=8192");
#endif
#if NODE_MAJOR_VERSION >= 20
  // From Node 20 the require LoadEnvironment hands the embedder loads only what users may
  // require: the runtime's fatal-exception path needs internal/async_hooks, and Node 24's
  // route to async_wrap internal/test/binding (sdk/src/host-runtime/node-compat.ts).
  args.emplace_back("--expose-internals");
#endif
#if NODE_MAJOR_VERSION >= 24
  // Node 24 backs AsyncLocalStorage with V8's continuation-preserved embedder data (CPED): one
  // slot of the isolate that holds the current AsyncContextFrame, a young heap object after each
  // run()/enterWith(). V8 13 visits that slot among each thread's roots (Isolate::Iterate for
  // a ThreadLocalTop), so a scavenge visits it once for the thread that runs and once per
  // thread archived by v8::Locker: with the direct hand-off (the JS thread and each streaming
  // thread take turns), the frame is copied twice and the heap is corrupt; the process ends in
  // V8's "unreachable code" fatal error (SIGTRAP), after an element error or any pipeline that
  // allocates enough (test/libnode.test.ts). The documented --no-async-context-frame keeps
  // AsyncLocalStorage on async_hooks, as on Node 18 to 22, and leaves the slot undefined.
  args.emplace_back("--no-async-context-frame");
#endif
  // The JavaScript heap's limit (V8's old space), in MiB; past it the running call fails
  // (Handoff::on_near_heap_limit) instead of V8 aborting the process.
  if (const char* heap = g_getenv("DS_ELEMENT_HEAP_MB"); heap != nullptr && *heap) {
    char* end = nullptr;
    errno = 0;
    const long long mib = std::strtoll(heap, &end, 10);
    if (errno != 0 || end == heap || *end != '\0' || mib < 16 || mib > (1 << 20)) {
      g_warning("dsnode: ignoring DS_ELEMENT_HEAP_MB=\"%s\": expected MiB from 16 to 1048576", heap);
    } else {
      args.push_back("--max-old-space-size=" + std::to_string(mib));
    }
  }
  // NODE_OPTIONS is ignored on purpose (it is meant for the host's own Node, if any); this is
  // the way to pass flags such as --inspect or --max-old-space-size to the embedded one.
  if (const char* extra = g_getenv("DS_ELEMENT_NODE_OPTIONS"); extra != nullptr && *extra) {
    gchar** argv = nullptr;
    GError* parse_error = nullptr;
    if (!g_shell_parse_argv(extra, nullptr, &argv, &parse_error)) {
      *error = std::string("DS_ELEMENT_NODE_OPTIONS does not parse: ") + parse_error->message;
      g_error_free(parse_error);
      return false;
    }
    for (gchar** arg = argv; *arg != nullptr; ++arg) args.emplace_back(*arg);
    g_strfreev(argv);
  }
#if NODE_MAJOR_VERSION >= 24
  if (*direct && async_context_frame_on(args)) {
    g_warning("dsnode: DS_ELEMENT_NODE_OPTIONS turns --async-context-frame back on, which corrupts V8's heap when "
              "several threads run JavaScript: using the queued hand-off (DS_ELEMENT_HANDOFF=queue)");
    *direct = false;
  }
#endif

  using namespace node::ProcessInitializationFlags;
  const uint64_t flags = kNoInitializeV8 | kNoInitializeNodeV8Platform | kNoStdioInitialization |
                         kNoDefaultSignalHandling | kDisableNodeOptionsEnv |
                         kNoAdjustResourceLimits | kNoUseLargePages |
                         kNoPrintHelpOrVersionOutput;
  // A unique_ptr up to Node 20, a shared_ptr from Node 22 on.
  const auto result = node::InitializeOncePerProcess(args, static_cast<node::ProcessInitializationFlags::Flags>(flags));
  if (result->early_return() || result->exit_code() != 0) {
    *error = join_lines(result->errors());
    if (error->empty()) *error = "exit code " + std::to_string(result->exit_code());
    return false;
  }
  for (const std::string& warning : result->errors()) g_warning("dsnode: Node.js: %s", warning.c_str());
  args_ = result->args();
  exec_args_ = result->exec_args();
  v8_stack_bytes_ = embed::v8_stack_bytes(args);

  platform_ = node::MultiIsolatePlatform::Create(platform_threads());
  v8::V8::InitializePlatform(platform_.get());
  v8::V8::Initialize();
  return true;
}

void JsRuntime::run_environment() {
  std::vector<std::string> errors;
  // No kOwnsProcessState (user code cannot chdir/umask/setuid the host) and no kOwnsInspector
  // (which would install a SIGUSR1 handler in the host).
  // An own environment: no inspector (only one environment of a process may have one; a second
  // aborts in inspector::Agent::Start) and no ESM loader hooks of its own.
  ProcessRuntime& process = ProcessRuntime::get();
  const auto flags = primary_ ? node::EnvironmentFlags::kNoFlags
                              : static_cast<node::EnvironmentFlags::Flags>(
                                    node::EnvironmentFlags::kNoCreateInspector | node::EnvironmentFlags::kNoRegisterESMLoader);
  std::unique_ptr<node::CommonEnvironmentSetup> setup = node::CommonEnvironmentSetup::Create(
      process.platform(), &errors, process.args(), process.exec_args(), flags);
  if (!setup) {
    announce(State::kFailed, "Node.js could not create its environment: " + join_lines(errors));
    return;
  }
  isolate_ = setup->isolate();
  node::Environment* env = setup->env();
  Handoff& handoff = *handoff_;
  // Whoever holds the Locker holds the gate (direct mode): callers may come as soon as Node
  // announces it runs, before this thread's loop starts (run_direct_loop lets go of both).
  gate_.enter(this, nullptr, false);
  {
    v8::Locker locker(isolate_);
    v8::Isolate::Scope isolate_scope(isolate_);
    v8::HandleScope handle_scope(isolate_);
    v8::Context::Scope context_scope(setup->context());
    set_stack_limit(isolate_, v8_stack_bytes_);
    // Heap exhaustion ends the running call (an element error) instead of the process; the
    // limit V8 is given meanwhile goes back once the heap has shrunk to half of it.
    isolate_->AddNearHeapLimitCallback(&JsRuntime::near_heap_limit, this);
    isolate_->AutomaticallyRestoreInitialHeapLimit(0.5);

    node::SetProcessExitHandler(env, [this](node::Environment*, int exit_code) {
      on_exit_request(exit_code);
    });
    {
      std::lock_guard<std::mutex> lock(mutex_);
      env_ = env;
    }

    if (direct_) {
      // Direct mode sleeps on the loop's backend fd, which needs to know of watchers not yet
      // polled (embed/uv_watcher_queue.h); the queued hand-off runs Node's own loop instead.
      const std::string layout = uv_watcher_queue_check();
      if (!layout.empty()) {
        g_warning("dsnode: libuv's watcher queue does not read as expected: %s; using the queued hand-off",
            layout.c_str());
        direct_ = false;
      }
    }
    if (direct_) {
      wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
      if (wake_fd_ < 0) {
        g_warning("dsnode: eventfd failed (%s); using the queued hand-off", g_strerror(errno));
        direct_ = false;
      } else {
        context_.Reset(isolate_, setup->context());
        loop_ = setup->event_loop();
        handoff.set_lock_host(this);
      }
    }

    std::string error;
    if (!handoff.attach(setup->event_loop(), &JsRuntime::stop_environment, this, &error)) {
      announce(State::kFailed, "Node.js could not set up its hand-off: " + error);
      node::Stop(env);
    } else {
      // Not verbose, and scoped to the load: host.js failing to load is reported to callers,
      // not turned into an uncaught exception.
      v8::TryCatch try_catch(isolate_);
      v8::MaybeLocal<v8::Value> loaded = node::LoadEnvironment(
          env, [this](const node::StartExecutionCallbackInfo& info) { return bootstrap(info); });
      v8::Local<v8::Value> hook;
      if (loaded.ToLocal(&hook) && hook->IsFunction()) {
        after_fatal_exception_.Reset(isolate_, hook.As<v8::Function>());
        take_async_id_stack(hook.As<v8::Object>());
        handoff.set_interrupter(this);
        handoff.open();
      } else {
        std::string message = "host.js (" + host_js_ + ") failed to load";
        std::string debug;
        if (try_catch.HasCaught()) {
          v8::Local<v8::Value> exception = try_catch.Exception();
          v8::Local<v8::Value> stack;
          message += ": " + std_string(isolate_, exception);
          if (try_catch.StackTrace(setup->context()).ToLocal(&stack) && stack->IsString()) {
            debug = std_string(isolate_, stack);
          }
        }
        handoff.refuse(message, debug.empty() ? "host.js: " + host_js_ : debug);
      }
    }
    announce(State::kRunning, "");

    if (direct_) {
      run_direct_loop(setup->event_loop());  // until stop_environment or shut_down
      // Callers may be on their way to the Locker: close the door, then let them in (they
      // find it closed and fail) before the isolate goes.
      handoff.shut_door("its event loop ended");
      {
        v8::Unlocker unlocker(isolate_);
        handoff.wait_for_direct_callers();
        // Without the Locker: a thread exiting right now may need it to free its state.
        CallerLock::isolate_disposing(*life_);
      }
      context_.Reset();
    } else {
      node::SpinEventLoop(env);  // until stop_environment (or anything else) stops Node
    }

    handoff.close_after_loop(setup->event_loop(), "its event loop ended");
    if (handoff.settings().statistics) handoff.print_statistics();
    after_fatal_exception_.Reset();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      env_ = nullptr;
    }
    node::Stop(env);
  }
  // Caller threads still alive keep the isolate entered (CallerLock); V8 refuses to dispose
  // an entered isolate. Their entries are alike (entered from no other isolate), so the JS
  // thread can pop them; those threads no longer touch the isolate (isolate_disposing).
  while (isolate_->IsInUse()) isolate_->Exit();
  setup.reset();  // frees the environment and the isolate, closes the loop
  isolate_ = nullptr;
  loop_ = nullptr;
  if (wake_fd_ >= 0) {
    close(wake_fd_);
    wake_fd_ = -1;
  }
}

// Direct mode: what node::SpinEventLoop does (uv_run until Node stops), one non-blocking turn
// at a time under the Locker, sleeping without it. Node's own wake-ups (platform tasks,
// threadpool completions, uv_async_send from any thread, timers via the timeout) all arrive
// through the backend fd or the timeout; callers that changed the loop write wake_fd_.
void JsRuntime::run_direct_loop(uv_loop_t* loop) {
  const int backend_fd = uv_backend_fd(loop);
  // This thread holds the Locker and the gate (run_environment).
  while (!loop_stop_.load()) {
    uv_run(loop, UV_RUN_NOWAIT);
    if (loop_stop_.load()) break;
    // uv_backend_timeout is 0 when something is due (idle handles such as setImmediate's,
    // pending callbacks, closing handles, a stop request, an expired timer).
    const int timeout = uv_watchers_pending(loop) ? 0 : uv_backend_timeout(loop);
    sleep_deadline_ms_ = timeout < 0 ? UINT64_MAX : uv_now(loop) + static_cast<uint64_t>(timeout);
    {
      gate_.leave();
      v8::Unlocker unlocker(isolate_);
      if (timeout != 0) {
        pollfd fds[2] = {{backend_fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
        poll(fds, 2, timeout);  // EINTR or not: go round
        if (fds[1].revents != 0) {
          // Drain first, then reopen the door: a caller that finds wake_pending_ still true
          // skips its write, which is fine only while this thread is certain to run a turn.
          // The other order loses the write of a caller that comes between the two steps,
          // and every later caller would see the flag set and never write again.
          eventfd_t ignored;
          eventfd_read(wake_fd_, &ignored);
          wake_pending_.store(false);
        }
      } else if (callers_waiting_.load() > 0) {
        // Busy loop (immediates): let one waiting caller in before the next turn, or a
        // setImmediate loop would keep every streaming thread out.
        const uint64_t generation = lock_generation_.load();
        for (int i = 0; i < 20000 && lock_generation_.load() == generation &&
                        callers_waiting_.load() > 0;
             ++i) {
          if (i < 100) cpu_relax(); else sched_yield();
        }
      }
      // Callers let the JS thread have the Locker first (run_locked).
      js_wants_lock_.store(true);
      gate_.enter(this, nullptr, false);
    }
    js_wants_lock_.store(false);
  }
  gate_.leave();  // callers still on their way find the door closed (shut_door)
}

bool JsRuntime::run_locked(void (*body)(void*), void* data, const void* waiter, const std::atomic<bool>* abandon) {
  callers_waiting_.fetch_add(1);
  // The JS thread woke for its loop: let it take the Locker first, or a thread making one
  // call after another would keep its timers and I/O waiting.
  for (int i = 0; js_wants_lock_.load(); ++i) {
    if (i < 100) cpu_relax(); else sched_yield();
  }
  if (!gate_.enter(waiter, abandon)) {
    callers_waiting_.fetch_sub(1);
    return false;
  }
  {
    // An own environment's isolate is entered for this call only (CallerLock).
    std::optional<v8::Isolate::Scope> isolate_scope;
    if (!primary_) isolate_scope.emplace(isolate_);
    CallerLock& lock = primary_ ? CallerLock::shared_for_this_thread(life_) : CallerLock::own_for_this_thread(life_);
    lock.acquire(isolate_, v8_stack_bytes_);
    callers_waiting_.fetch_sub(1);
    lock_generation_.fetch_add(1);
    {
      lock.enter_for_good(context_);  // the HandleScope and context every call needs
      v8::HandleScope handle_scope(isolate_);
      body(data);
      wake_if_loop_changed();
    }
    lock.release();
  }
  gate_.leave();
  return true;
}

// Under the Locker, after a caller's JS (callback scope closed: microtasks and nextTicks ran).
// The JS thread is either waiting for the Locker (it will run a turn anyway) or in poll()
// with sleep_deadline_ms_: wake it if it would sleep past something the JS just scheduled.
void JsRuntime::wake_if_loop_changed() {
  const uv_loop_t* loop = loop_;
  bool wake = uv_watchers_pending(loop);
  if (!wake) {
    // Node's timers keep one uv_timer; loop->time may be older than now, but timer due
    // times are absolute in the same clock, so compare absolute times.
    const int timeout = uv_backend_timeout(loop);
    wake = timeout == 0 ||
           (timeout > 0 && uv_now(loop) + static_cast<uint64_t>(timeout) < sleep_deadline_ms_);
  }
  if (wake) wake_js_thread();
}

void JsRuntime::wake_js_thread() {
  if (wake_fd_ >= 0 && !wake_pending_.exchange(true)) eventfd_write(wake_fd_, 1);
}

void JsRuntime::request_interrupt() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (env_ != nullptr) isolate_->RequestInterrupt(&JsRuntime::interrupted, this);
}

void JsRuntime::interrupted(v8::Isolate*, void* self) { static_cast<JsRuntime*>(self)->handoff_->on_interrupt(); }

// What Node's clear_async_id_stack() does to the fields (the resource lists are left: they are
// indexed by the stack's length, so what is above it is never read).
void JsRuntime::clear_async_context() {
  if (async_stack_length_ == nullptr) return;
  *async_stack_length_ = 0;
  *execution_async_id_ = 0;
  *trigger_async_id_ = 0;
}

void JsRuntime::take_async_id_stack(v8::Local<v8::Object> hook) {
  v8::Local<v8::Context> context = isolate_->GetCurrentContext();
  v8::Local<v8::Value> value;
  if (!hook->Get(context, v8_string(isolate_, "asyncIdStack")).ToLocal(&value) || !value->IsArray()) {
    g_warning("dsnode: Node's async context stack is out of reach; a call the watchdog interrupts may abort the process");
    return;
  }
  v8::Local<v8::Array> parts = value.As<v8::Array>();
  v8::Local<v8::Value> hook_fields, id_fields, index[3];
  bool ok = parts->Get(context, 0).ToLocal(&hook_fields) && parts->Get(context, 1).ToLocal(&id_fields) &&
            hook_fields->IsUint32Array() && id_fields->IsFloat64Array();
  for (uint32_t i = 0; ok && i < 3; ++i) ok = parts->Get(context, 2 + i).ToLocal(&index[i]) && index[i]->IsUint32();
  if (!ok) {
    g_warning("dsnode: Node's async context stack has an unexpected shape; a call the watchdog interrupts may abort the process");
    return;
  }
  auto element = [](v8::Local<v8::Value> array, v8::Local<v8::Value> at, size_t size) -> void* {
    v8::Local<v8::TypedArray> typed = array.As<v8::TypedArray>();
    const uint32_t i = at.As<v8::Uint32>()->Value();
    if (i >= typed->Length()) return nullptr;
    auto* base = static_cast<char*>(typed->Buffer()->GetBackingStore()->Data()) + typed->ByteOffset();
    return base + i * size;
  };
  async_stack_length_ = static_cast<uint32_t*>(element(hook_fields, index[0], sizeof(uint32_t)));
  execution_async_id_ = static_cast<double*>(element(id_fields, index[1], sizeof(double)));
  trigger_async_id_ = static_cast<double*>(element(id_fields, index[2], sizeof(double)));
  if (async_stack_length_ == nullptr || execution_async_id_ == nullptr || trigger_async_id_ == nullptr) {
    async_stack_length_ = nullptr;
  }
}

size_t JsRuntime::near_heap_limit(void* self, size_t current_limit, size_t initial_limit) {
  return static_cast<JsRuntime*>(self)->handoff_->on_near_heap_limit(current_limit, initial_limit);
}

v8::MaybeLocal<v8::Value> JsRuntime::bootstrap(const node::StartExecutionCallbackInfo& info) {
  v8::EscapableHandleScope scope(isolate_);
  v8::Local<v8::Context> context = isolate_->GetCurrentContext();
  // The bundle as a CommonJS module: function(exports, module), then module.exports.bootstrap.
#if V8_MAJOR_VERSION >= 12  // Node 22 on: the isolate is no longer passed
  v8::ScriptOrigin origin(v8_string(isolate_, "dsnode:bootstrap"));
#else
  v8::ScriptOrigin origin(isolate_, v8_string(isolate_, "dsnode:bootstrap"));
#endif
  v8::ScriptCompiler::Source source(v8_string(isolate_, kBootstrapBundle), origin);
  v8::Local<v8::String> params[] = {v8_string(isolate_, "exports"), v8_string(isolate_, "module")};
  v8::Local<v8::Function> module_function;
  if (!v8::ScriptCompiler::CompileFunction(context, &source, 2, params).ToLocal(&module_function)) {
    return {};
  }
  v8::Local<v8::Object> exports = v8::Object::New(isolate_);
  v8::Local<v8::Object> module = v8::Object::New(isolate_);
  if (module->Set(context, v8_string(isolate_, "exports"), exports).IsNothing()) return {};
  v8::Local<v8::Value> module_argv[] = {exports, module};
  if (module_function->Call(context, v8::Undefined(isolate_), 2, module_argv).IsEmpty()) return {};
  v8::Local<v8::Value> exported;
  v8::Local<v8::Value> entry;
  if (!module->Get(context, v8_string(isolate_, "exports")).ToLocal(&exported) || !exported->IsObject() ||
      !exported.As<v8::Object>()->Get(context, v8_string(isolate_, "bootstrap")).ToLocal(&entry) ||
      !entry->IsFunction()) {
    isolate_->ThrowException(v8::Exception::TypeError(v8_string(
        isolate_, "Expected a function bootstrap exported by the runtime's bootstrap bundle but received none; "
                  "rebuild with `npm run build -w ds-element-native`")));
    return {};
  }
  v8::Local<v8::Value> argv[] = {info.process_object, info.native_require,
                                 v8_string(isolate_, host_js_), v8_string(isolate_, runtime_path_)};
  v8::Local<v8::Value> result;
  if (!entry.As<v8::Function>()->Call(context, v8::Undefined(isolate_), 4, argv).ToLocal(&result)) return {};
  return scope.Escape(result);
}

// Node's process-exit handler: reached where Node would call exit(), i.e. a fatal exception
// (process.exit() itself throws, see the bootstrap). The host keeps running; the error goes
// to the element whose handler is running, else to every live element.
void JsRuntime::on_exit_request(int exit_code) {
  v8::HandleScope scope(isolate_);
  std::string message = "JavaScript ended with exit code " + std::to_string(exit_code) +
                        "; the host process keeps running";
  std::string debug;
  if (!after_fatal_exception_.IsEmpty()) {
    v8::TryCatch try_catch(isolate_);
    v8::Local<v8::Context> context = isolate_->GetCurrentContext();
    v8::Local<v8::Value> argv[] = {v8::Integer::New(isolate_, exit_code)};
    v8::Local<v8::Value> result;
    if (after_fatal_exception_.Get(isolate_)
            ->Call(context, v8::Undefined(isolate_), 1, argv)
            .ToLocal(&result) &&
        result->IsArray()) {
      v8::Local<v8::Array> pair = result.As<v8::Array>();
      v8::Local<v8::Value> text;
      if (pair->Get(context, 0).ToLocal(&text)) message = std_string(isolate_, text);
      if (pair->Get(context, 1).ToLocal(&text)) debug = std_string(isolate_, text);
    }
  }
  handoff_->post_error_to_owners(message.c_str(), debug.c_str());
}

void JsRuntime::stop_environment(void* self) {
  auto* runtime = static_cast<JsRuntime*>(self);
  runtime->loop_stop_.store(true);
  std::lock_guard<std::mutex> lock(runtime->mutex_);
  if (runtime->env_ != nullptr) node::Stop(runtime->env_);
}

// Own environments first: V8 and the platform go with the first one.
void JsRuntime::at_process_exit() {
  for (const std::shared_ptr<JsRuntime>& runtime : ProcessRuntime::get().live_environments()) runtime->shut_down();
  shared().shut_down();
}

void JsRuntime::shut_down() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (state_ == State::kNotStarted) {
    state_ = State::kStopped;
    return;
  }
  cv_.wait_for(lock, kTerminateGrace, [this] { return state_ != State::kStarting; });
  if (std::this_thread::get_id() == js_thread_id_ || Handoff::in_direct_call()) {
    // exit() called on the JS thread (by an addon), or by a thread that runs JS under the
    // Locker (direct mode): it cannot wait for the JS thread, which needs the Locker.
    state_ = State::kStopped;
    return;
  }
  if (!thread_finished_) {
    lock.unlock();
    bool asked = handoff_->request_stop();
    lock.lock();
    auto finished = [this] { return thread_finished_; };
    if (!asked || !cv_.wait_for(lock, kStopGrace, finished)) {
      // The JS thread is busy (a long synchronous handler, an endless loop): interrupt it.
      // node::Stop is safe from another thread.
      loop_stop_.store(true);
      if (env_ != nullptr) node::Stop(env_);  // its uv_stop arrives through the loop
      if (!cv_.wait_for(lock, kTerminateGrace, finished)) {
        // Stuck in native code. Returning would run libnode's static destructors under it.
        std::fprintf(stderr, "dsnode: the Node.js thread did not stop; exiting without teardown\n");
        std::fflush(stderr);
        _exit(EXIT_FAILURE);
      }
    }
  }
  state_ = State::kStopped;
  lock.unlock();
  if (thread_joinable_) {
    thread_joinable_ = false;
    pthread_join(thread_, nullptr);
  }
}

}  // namespace

bool ensure_started(const DsnodeHostCallbacks& callbacks, const std::string& host_js,
    std::string* error) {
  return JsRuntime::shared().ensure_started(callbacks, host_js, error);
}

Handoff* start_own_environment(std::shared_ptr<void>* keep, std::string* error) {
  return JsRuntime::start_own(keep, error);
}

}  // namespace dsnode::embed
