#include "runtime/instance.h"

namespace dsnode {
namespace {

DsnodeHostCallbacks g_callbacks{};

}  // namespace

void set_host_callbacks(const DsnodeHostCallbacks& callbacks) { g_callbacks = callbacks; }

Instance::Instance(int id, GstElement* element, std::string element_name, int64_t timeout_ns,
    Handoff& handoff, std::shared_ptr<void> environment)
    : id_(id), element_name_(std::move(element_name)), timeout_ns_(timeout_ns), handoff_(handoff),
      environment_(std::move(environment)), element_(element) {}

void Instance::unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

bool Instance::log(DsnodeLogLevel level, const char* file, int line, const char* message) {
  std::lock_guard<std::mutex> lock(element_mutex_);
  if (element_ == nullptr) return false;
  if (g_callbacks.log != nullptr) g_callbacks.log(element_, level, file, line, message);
  return true;
}

bool Instance::post_error(const char* message, const char* debug) {
  std::lock_guard<std::mutex> lock(element_mutex_);
  if (element_ == nullptr) return false;
  if (g_callbacks.post_error != nullptr) g_callbacks.post_error(element_, message, debug);
  return true;
}

void Instance::detach_element() {
  std::lock_guard<std::mutex> lock(element_mutex_);
  element_ = nullptr;
}

std::string Instance::object_name() {
  std::lock_guard<std::mutex> lock(element_mutex_);
  if (element_ == nullptr) return element_name_;
  gchar* name = gst_object_get_name(GST_OBJECT(element_));
  std::string text = name != nullptr ? name : element_name_;
  g_free(name);
  return text;
}

bool Instance::has_element() {
  std::lock_guard<std::mutex> lock(element_mutex_);
  return element_ != nullptr;
}

}  // namespace dsnode
