// Handoff (handoff.h): the singleton, its set-up and lifecycle on the JS thread, and the
// registry of live instances. The other jobs are in their own files: queued_calls.cpp,
// direct_calls.cpp, call_routing.cpp, expiry.cpp, outside_calls.cpp, heap_limit.cpp,
// handoff_statistics.cpp; the texts of failed calls in call_messages.cpp.
#include "runtime/handoff.h"

#include <algorithm>
#include <utility>

#include <glib.h>

#include "runtime/cpu_relax.h"
#include "runtime/watchdog.h"

namespace dsnode {

namespace {

// Every live hand-off, for the watchdog's rounds. Never destroyed (see get()).
std::mutex& registry_mutex() {
  static std::mutex* mutex = new std::mutex();
  return *mutex;
}
std::vector<Handoff*>& registry() {
  static std::vector<Handoff*>* handoffs = new std::vector<Handoff*>();
  return *handoffs;
}

thread_local Handoff* current_handoff = nullptr;

}  // namespace

Handoff& Handoff::get() {
  // Never destroyed: the JS thread and atexit teardown may use it after static destructors.
  static Handoff* handoff = new Handoff();
  return *handoff;
}

Handoff& Handoff::current() { return current_handoff != nullptr ? *current_handoff : get(); }
void Handoff::set_current(Handoff* handoff) { current_handoff = handoff; }

Handoff::Handoff() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(this);
}

Handoff::~Handoff() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& handoffs = registry();
  handoffs.erase(std::remove(handoffs.begin(), handoffs.end(), this), handoffs.end());
}

void Handoff::for_each(void (*body)(Handoff&, void*), void* data) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (Handoff* handoff : registry()) body(*handoff, data);
}

void Handoff::configure(const SpinSettings& settings, std::string host_js_path) {
  settings_ = settings;
  host_js_path_ = std::move(host_js_path);
}

// ---------------------------------------------------------------- lifecycle (JS thread)

bool Handoff::attach(uv_loop_t* loop, void (*on_stop)(void*), void* stop_data, std::string* error) {
  int rc = uv_async_init(loop, &wake_, &Handoff::on_wake);
  if (rc != 0) {
    *error = std::string("uv_async_init failed: ") + uv_strerror(rc);
    return false;
  }
  wake_.data = this;
  wake_open_ = true;
  // A loop turn is progress: JavaScript that runs through none is stuck (on_interrupt).
  if (uv_check_init(loop, &check_) == 0) {
    check_.data = this;
    uv_check_start(&check_, &Handoff::on_check);
    uv_unref(reinterpret_cast<uv_handle_t*>(&check_));
    check_open_ = true;
  }
  js_thread_ = std::this_thread::get_id();
  on_stop_ = on_stop;
  stop_data_ = stop_data;
  return true;
}

void Handoff::open() {
  std::lock_guard<std::mutex> lock(mutex_);
  state_.store(State::kOpen, std::memory_order_release);
}

void Handoff::refuse(std::string message, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  refusal_message_ = std::move(message);
  refusal_debug_ = std::move(debug);
  state_.store(State::kRefused, std::memory_order_release);
}

bool Handoff::request_stop() {
  stop_requested_.store(true);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    State state = state_.load();
    if (state != State::kOpen && state != State::kRefused) return false;
    senders_.fetch_add(1);
  }
  uv_async_send(&wake_);
  senders_.fetch_sub(1);
  return true;
}

void Handoff::on_check(uv_check_t* handle) { static_cast<Handoff*>(handle->data)->advance_progress(); }

// Closes the loop's handles after fail_everything() closed the door: true when the wake-up
// handle was open.
bool Handoff::close_handles() {
  if (check_open_) {
    uv_close(reinterpret_cast<uv_handle_t*>(&check_), nullptr);
    check_open_ = false;
  }
  if (!wake_open_) return false;
  // Wait out callers that were between the door and uv_async_send before the handle goes away.
  while (senders_.load() != 0) cpu_relax();
  uv_close(reinterpret_cast<uv_handle_t*>(&wake_), nullptr);
  wake_open_ = false;
  return true;
}

void Handoff::stop_on_js_thread() {
  fail_everything("Node.js is shutting down with the host process");
  close_handles();
  if (on_stop_ != nullptr) on_stop_(stop_data_);
}

void Handoff::close_after_loop(uv_loop_t* loop, const std::string& reason) {
  fail_everything(reason);
  // The loop is about to be closed; it refuses while a closing handle is pending.
  if (close_handles()) uv_run(loop, UV_RUN_NOWAIT);
  executor_ = nullptr;
}

void Handoff::set_executor(JsExecutor* executor) { executor_ = executor; }
void Handoff::clear_executor(JsExecutor* executor) {
  if (executor_ == executor) executor_ = nullptr;
}

void Handoff::fail_everything(const std::string& reason) {
  std::deque<Call*> orphans;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    refusal_message_ = "The Node.js runtime has stopped: " + reason;
    refusal_debug_.clear();
    state_.store(State::kStopped, std::memory_order_release);
    orphans.swap(incoming_);
    queued_.store(0);
  }
  const Outcome stopped = Outcome::failure("The Node.js runtime has stopped: " + reason, "");
  // Waiting callers get the failure; queued property changes and destroys have nobody to
  // tell (at process exit they are expected), so they are dropped quietly.
  auto abandon = [&stopped](Call* call) {
    if (call->blocking) {
      call->outcome = stopped;
      call->completion.signal();
    } else {
      Instance* instance = call->instance;
      delete call;
      instance->unref();
    }
  };
  for (Call* call : batch_) orphans.push_back(call);
  batch_.clear();
  for (Call* call : orphans) abandon(call);
  {
    std::lock_guard<std::mutex> lock(expiry_mutex_);
    expiries_.clear();
    yields_.clear();
    release_helds();
    for (HeldTermination& termination : held_terminations_) termination.waiter->unref();
    held_terminations_.clear();
    expiries_pending_.store(0);
  }
  interrupter_.store(nullptr);
  std::map<int, Instance*> instances;
  instances.swap(instances_);
  for (auto& entry : instances) {
    Instance* instance = entry.second;
    Watchdog::get().forget(instance);
    if (instance->running != nullptr) {
      Call* running = instance->running;
      instance->running = nullptr;
      abandon(running);
    }
    while (!instance->queue.empty()) {
      Call* call = instance->queue.front();
      instance->queue.pop_front();
      abandon(call);
    }
    instance->registered = false;
    instance->unref();
  }
  executing_ = nullptr;
}

Instance* Handoff::find_instance(int id) {
  auto it = instances_.find(id);
  return it == instances_.end() ? nullptr : it->second;
}

std::vector<int> Handoff::live_instance_ids() {
  std::vector<int> ids;
  for (auto& entry : instances_) {
    if (entry.second->has_element()) ids.push_back(entry.first);
  }
  return ids;
}

void Handoff::post_error_to_owners(const char* message, const char* debug) {
  if (executing_ != nullptr && executing_->post_error(message, debug)) return;
  bool posted = false;
  for (auto& entry : instances_) posted |= entry.second->post_error(message, debug);
  if (!posted) g_warning("dsnode: %s\n%s", message, debug);
}

}  // namespace dsnode
