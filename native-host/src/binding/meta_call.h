// The metadata binding's per-call registry (meta_binding.cpp has the design): the tables of
// small integers JS holds instead of meta pointers, entering a live call (CallScope) and the
// argument readers the metadata functions share. Internal to the metadata binding
// (meta_binding.cpp: entry points; meta_call.cpp: this registry; meta_functions.cpp: the
// functions of `meta`).
#ifndef DSNODE_BINDING_META_CALL_H
#define DSNODE_BINDING_META_CALL_H

#include <node_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "binding/js_values.h"
#include "binding/meta_binding_internal.h"
#include "binding/meta_values.h"
#include "protocol/records.h"
#include "protocol/state_layout.h"
#include "meta/validate.h"

namespace dsnode::metabind {

namespace L = dsnode::layout;
using meta::Status;
using protocol::clock_slot;
using protocol::read_frame_record;
using protocol::read_object_row;
using protocol::write_frame_record;
using protocol::write_object_row;

// ---------------------------------------------------------------- per-call handle tables

// Handle pointer -> index, open addressing with linear probing. It replaces a
// std::unordered_map, whose node per entry cost a malloc and a free for every meta handed to
// JS: about 70 ns of the 870 an object written one by one took (bench/RESULTS.md, metadata
// writes). This one allocates only when it grows, and clear() is O(1) for a recycled call:
// slots of an older generation are empty.
class PointerIndex {
 public:
  bool find(const void* key, uint32_t* value) const {
    if (size_ == 0) return false;
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.generation != generation_) return false;
      if (slot.key == key) {
        *value = slot.value;
        return true;
      }
    }
  }
  // The value stored for `key`: the one already there, or `value`, inserted (`*inserted`).
  uint32_t emplace(const void* key, uint32_t value, bool* inserted) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.generation != generation_) {
        slot = Slot{key, value, generation_};
        ++size_;
        *inserted = true;
        return value;
      }
      if (slot.key == key) {
        *inserted = false;
        return slot.value;
      }
    }
  }
  // Removes `key`, giving its value; false when absent.
  bool erase(const void* key, uint32_t* value) {
    if (size_ == 0) return false;
    size_t hole = home(key);
    for (;; hole = (hole + 1) & mask_) {
      const Slot& slot = slots_[hole];
      if (slot.generation != generation_) return false;
      if (slot.key == key) break;
    }
    *value = slots_[hole].value;
    // Later entries of the probe run move back into the hole unless their home lies
    // (cyclically) after it, so that a lookup never stops early at an empty slot.
    for (size_t next = (hole + 1) & mask_;; next = (next + 1) & mask_) {
      const Slot& slot = slots_[next];
      if (slot.generation != generation_) break;
      const size_t want = home(slot.key);
      const bool stays = hole <= next ? (want > hole && want <= next) : (want > hole || want <= next);
      if (!stays) {
        slots_[hole] = slot;
        hole = next;
      }
    }
    slots_[hole].generation = kEmpty;
    --size_;
    return true;
  }
  void clear() {
    if (size_ == 0) return;
    size_ = 0;
    if (++generation_ == kEmpty) {  // after 2^32 - 1 clears: wipe once
      for (Slot& slot : slots_) slot.generation = kEmpty;
      generation_ = kEmpty + 1;
    }
  }
  bool empty() const { return size_ == 0; }

 private:
  static constexpr uint32_t kEmpty = 0;  // never a live generation
  struct Slot {
    const void* key = nullptr;
    uint32_t value = 0;
    uint32_t generation = kEmpty;
  };

  // Fibonacci hashing: the high bits of the product mix every bit of the pointer (whose low
  // bits are alignment zeros).
  size_t home(const void* key) const {
    return static_cast<size_t>((static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const uint32_t old_generation = generation_;
    const size_t capacity = old.empty() ? 64 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    generation_ = kEmpty + 1;
    size_ = 0;
    bool inserted = false;
    for (const Slot& slot : old) {
      if (slot.generation == old_generation) emplace(slot.key, slot.value, &inserted);
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  uint32_t generation_ = kEmpty + 1;
};

// Handles of one kind handed to JS as small integers, stable for the call. A removed meta's
// index is dead for good; its pointer may come back from the pool as a new meta and then gets
// a new index.
template <typename H>
class IndexTable {
 public:
  uint32_t index_for(H handle) {
    bool inserted = false;
    const uint32_t index = index_of_.emplace(handle.ptr, static_cast<uint32_t>(handles_.size()), &inserted);
    if (inserted) {
      handles_.push_back(handle);
      dead_.push_back(0);
    }
    return index;
  }
  // A meta just acquired: never an existing index, even if a stale mapping lingered.
  uint32_t index_for_new(H handle) {
    kill(handle);
    return index_for(handle);
  }
  bool find(H handle, uint32_t* index) const { return index_of_.find(handle.ptr, index); }
  void kill(H handle) {
    uint32_t index = 0;
    if (index_of_.erase(handle.ptr, &index)) dead_[index] = 1;
  }
  // Forgets indices from `size` on (a listObjects that found the table too small).
  void truncate(size_t size) {
    uint32_t index = 0;
    for (size_t i = size; i < handles_.size(); ++i) {
      if (!dead_[i]) index_of_.erase(handles_[i].ptr, &index);
    }
    handles_.resize(size);
    dead_.resize(size);
  }
  size_t size() const { return handles_.size(); }
  bool empty() const { return handles_.empty(); }
  // For reuse by the next call (capacity kept).
  void clear() {
    handles_.clear();
    dead_.clear();
    index_of_.clear();
  }
  H at(uint32_t index) const { return handles_[index]; }
  bool dead(uint32_t index) const { return dead_[index] != 0; }

 private:
  std::vector<H> handles_;
  std::vector<uint8_t> dead_;
  PointerIndex index_of_;
};

// How messages name each kind of per-call integer.
struct Kind {
  const char* index;  // "an object row"
  const char* meta;   // "an ObjectMeta"
  const char* unit;   // "row"
};
constexpr Kind kObjectKind{"an object row", "an ObjectMeta", "row"};
constexpr Kind kClassifierKind{"a classifier index", "a ClassifierMeta", "index"};
constexpr Kind kLabelKind{"a label info index", "a LabelInfo", "index"};
constexpr Kind kDisplayKind{"a display meta index", "a DisplayMeta", "index"};
constexpr Kind kUserKind{"a user meta index", "a UserMeta", "index"};

// A napi_ref and the env it belongs to (refs may only be deleted on that env's thread).
struct HeldRef {
  napi_env env = nullptr;
  napi_ref ref = nullptr;
  bool is_view = false;  // an ArrayBuffer over native memory: detach before letting go
};

// A CallAttachment, its key, and the env whose views it backs.
struct Attached {
  napi_env env = nullptr;
  const void* key = nullptr;
  std::unique_ptr<CallAttachment> attachment;
};

struct MetaCall {
  uint32_t id = 0;
  meta::Batch* batch = nullptr;
  GstBuffer* buffer = nullptr;                // the buffer being transformed (may be null)
  const DsnodeStreamInfo* stream = nullptr;   // its format and memory (may be null)
  std::vector<meta::FrameHandle> frames;

  IndexTable<meta::ObjectHandle> rows;
  std::vector<int32_t> row_frames;  // frame index per row, -1 when not in a frame
  IndexTable<meta::ClassifierHandle> classifiers;
  IndexTable<meta::LabelInfoHandle> labels;
  IndexTable<meta::DisplayHandle> displays;
  IndexTable<meta::UserHandle> users;

  // The bound object table: JS memory, kept alive by `table`.
  HeldRef table;
  double* table_data = nullptr;
  size_t table_rows = 0;

  // Views over native memory handed out (tensor host buffers): one per pointer, because V8
  // must not see two ArrayBuffers over one backing store; detached when the call closes.
  std::vector<HeldRef> views;
  std::unordered_map<const void*, napi_ref> view_of;

  // Per-call state of other parts of the binding (meta_binding_internal.h), released after the
  // views are detached.
  std::vector<Attached> attachments;

  // Scratch reused by every object operation, so strings and masks keep their capacity.
  meta::ObjectFields before, after;
  std::vector<meta::ObjectHandle> scratch_objects;

  double* row_slots(uint32_t row) { return table_data + static_cast<size_t>(row) * L::kObjStride; }

  // Back to a fresh call's state, keeping capacity: MetaCalls are recycled, because one per
  // buffer is opened and closed and most buffers touch none of these tables.
  void reset() {
    id = 0;
    batch = nullptr;
    buffer = nullptr;
    stream = nullptr;
    frames.clear();
    rows.clear();
    row_frames.clear();
    classifiers.clear();
    labels.clear();
    displays.clear();
    users.clear();
    table = HeldRef();
    table_data = nullptr;
    table_rows = 0;
    views.clear();
    if (!view_of.empty()) view_of.clear();
    attachments.clear();
    scratch_objects.clear();
  }
};

struct Registry {
  std::mutex mutex;
  // Live calls: one per element instance with a transform in flight, so a handful; a vector
  // searched from the most recent beats a hash map that allocates a node per buffer.
  std::vector<std::unique_ptr<MetaCall>> calls;
  std::vector<std::unique_ptr<MetaCall>> spare;  // closed calls, reset, for reuse
  uint32_t last_id = 0;
  MetaCall* last = nullptr;  // most lookups are for the call of the previous one
  // Refs of calls closed without an env (another thread): released on their env's thread.
  std::vector<HeldRef> graveyard;
  // Attachments of such calls: released there too, after those refs.
  std::vector<Attached> parked;
  std::unordered_set<napi_env> envs;  // envs with our cleanup hook
};

// Leaked on purpose: close_call may run from a streaming thread during process exit.
Registry& registry();

// With `env` on its thread: detaches views and deletes the ref.
void release_ref(napi_env env, const HeldRef& held);

// Releases the refs that belong to `env`, parks the others. Called with the lock held.
void release_refs(napi_env env, std::vector<HeldRef> refs, Registry& r);

void sweep_graveyard(napi_env env, Registry& r);

std::vector<HeldRef> take_refs(MetaCall& call);

// An env going away: its refs die with it; forget them so nothing deletes them later.
void forget_env(void* data);

// ---------------------------------------------------------------- entering a call

napi_value throw_stale(napi_env env, uint32_t id);

bool read_call_id(napi_env env, napi_value value, uint32_t* id);

// The live call `id`, or null. Called with the lock held.
MetaCall* find_call(Registry& r, uint32_t id);

// A metadata function's arguments, the call id (its first) read; `ok` false with a JS
// exception pending when either failed.
struct CallArgs : Args {
  uint32_t id = 0;
  CallArgs(napi_env env, napi_callback_info info) : Args(env, info) { ok = ok && read_call_id(env, argv[0], &id); }
};

// Holds the registry lock and the live call of `args.id` for `operation`, which needs the
// call's Batch unless it is null (a call opened on a buffer without batch metadata has none).
// False, with a JS exception pending, when the arguments failed (then nothing is locked), the
// call ended (ERR_DS_ELEMENT_STALE_HANDLE) or it has no Batch.
class CallScope {
 public:
  CallScope(napi_env env, const CallArgs& args, const char* operation) : lock_(registry().mutex, std::defer_lock) {
    if (args.ok) enter(env, args.id, operation);
  }
  CallScope(napi_env env, uint32_t id, const char* operation) : lock_(registry().mutex, std::defer_lock) {
    enter(env, id, operation);
  }
  explicit operator bool() const { return call_ != nullptr; }
  MetaCall& call() const { return *call_; }
  meta::Batch& batch() const { return *call_->batch; }
  void unlock() { lock_.unlock(); }

 private:
  void enter(napi_env env, uint32_t id, const char* operation) {
    lock_.lock();
    Registry& r = registry();
    if (!r.graveyard.empty() || !r.parked.empty()) sweep_graveyard(env, r);
    if (r.last != nullptr && r.last->id == id) {
      call_ = r.last;
    } else {
      call_ = find_call(r, id);
      if (call_ != nullptr) r.last = call_;
    }
    if (call_ == nullptr) {
      throw_stale(env, id);
    } else if (operation != nullptr && call_->batch == nullptr) {
      throw_error(env, ErrorKind::kState, std::string("Expected a buffer with batch metadata for ") + operation +
          " but received one without (call " + std::to_string(call_->id) + ")");
      call_ = nullptr;
    }
  }

  std::unique_lock<std::mutex> lock_;
  MetaCall* call_ = nullptr;
};

// An index into a per-call list of `count` entries.
bool read_index(napi_env env, napi_value value, const char* name, const char* what, size_t count,
    uint32_t* out);

template <typename H>
bool read_live(napi_env env, const IndexTable<H>& table, const Kind& kind, napi_value value,
    const char* name, const char* operation, uint32_t* index, H* out) {
  if (!read_index(env, value, name, kind.index, table.size(), index)) return false;
  if (table.dead(*index)) {
    throw_error(env, ErrorKind::kState,
        std::string("Expected ") + kind.meta + " still in the batch for " + operation + " but received " +
            kind.unit + " " + std::to_string(*index) + ", removed earlier in this call");
    return false;
  }
  *out = table.at(*index);
  return true;
}

bool read_frame(napi_env env, const MetaCall& call, napi_value value, const char* name, uint32_t* index);

bool read_row(napi_env env, MetaCall& call, napi_value value, const char* name, const char* operation,
    uint32_t* row, meta::ObjectHandle* object);

// (level, owner) of the user meta functions: 0 batch, 1 frame index, 2 object row.
bool read_owner(napi_env env, MetaCall& call, napi_value level_value, napi_value owner_value,
    const char* operation, meta::UserMetaLevel* level, void** owner);

// The index table and the message names of each kind of handle (MetaFunction::live).
template <typename H>
struct Handles {
  IndexTable<H>& table;
  const Kind& kind;
};
inline Handles<meta::ObjectHandle> handles(MetaCall& call, meta::ObjectHandle*) { return {call.rows, kObjectKind}; }
inline Handles<meta::ClassifierHandle> handles(MetaCall& call, meta::ClassifierHandle*) {
  return {call.classifiers, kClassifierKind};
}
inline Handles<meta::LabelInfoHandle> handles(MetaCall& call, meta::LabelInfoHandle*) { return {call.labels, kLabelKind}; }
inline Handles<meta::DisplayHandle> handles(MetaCall& call, meta::DisplayHandle*) { return {call.displays, kDisplayKind}; }
inline Handles<meta::UserHandle> handles(MetaCall& call, meta::UserHandle*) { return {call.users, kUserKind}; }

// The opening every function of `meta` shares, named `operation` in its messages: its arguments
// read (the call id first); then, once the arguments whose reading may run JS are parsed,
// enter() (CallScope: the registry locked, the live call found); then the per-call integers
// among the arguments read as live handles. Each step returns false with a JS exception pending
// when it (or an earlier one) failed.
class MetaFunction {
 public:
  MetaFunction(napi_env env, napi_callback_info info, const char* operation)
      : env(env), args(env, info), operation(operation) {}

  napi_value operator[](size_t i) const { return args[i]; }
  bool ok() const { return args.ok; }
  // Argument `arg`, named `name`, as a typed array of `T`s in place (JS memory, so read before
  // enter(): no JS may run between taking the pointer and using it under the lock).
  template <typename T>
  bool typed_array(size_t arg, const char* name, T** data, size_t* length) {
    return args.ok && read_typed_array(env, args[arg], FieldName(name), data, length);
  }
  // `needs_batch` false: the call may have no Batch (bindObjectTable).
  bool enter(bool needs_batch = true) {
    scope_.emplace(env, args, needs_batch ? operation : nullptr);
    return static_cast<bool>(*scope_);
  }
  MetaCall& call() const { return scope_->call(); }
  meta::Batch& batch() const { return scope_->batch(); }
  CallScope& scope() { return *scope_; }
  void unlock() { scope_->unlock(); }

  // Argument `arg`, named `name`, as a handle of this call not removed earlier in it.
  template <typename H>
  bool live(size_t arg, const char* name, H* out, uint32_t* index = nullptr) {
    uint32_t unused = 0;
    const Handles<H> of = handles(call(), out);
    return read_live(env, of.table, of.kind, args[arg], name, operation, index != nullptr ? index : &unused, out);
  }
  // Argument `arg` as an object row that is live and inside the bound table (read_row).
  bool row(size_t arg, const char* name, uint32_t* row, meta::ObjectHandle* object) {
    return read_row(env, call(), args[arg], name, operation, row, object);
  }
  // Argument `arg` as a frame index of this call.
  bool frame(size_t arg, uint32_t* index, const char* name = "frameIndex") {
    return read_frame(env, call(), args[arg], name, index);
  }
  // Arguments `arg` and `arg + 1` as a user meta's (level, owner).
  bool owner(size_t arg, meta::UserMetaLevel* level, void** owner) {
    return read_owner(env, call(), args[arg], args[arg + 1], operation, level, owner);
  }

  // The end of a removal of `child`: `status` thrown when it failed, else the child's index
  // dead and undefined returned.
  template <typename H>
  napi_value removed(const Status& status, H child) {
    if (!status.ok()) return throw_status(env, status);
    handles(call(), &child).table.kill(child);
    return make_undefined(env);
  }

  const napi_env env;
  const CallArgs args;
  const char* const operation;

 private:
  std::optional<CallScope> scope_;
};

// ---------------------------------------------------------------- object arguments

// label / text / mask of addObject and writeObject: null (or undefined) keeps what the object has.
// Text `true`: nvinfer's text params for the object's label, above its box (nvinfer_text_params,
// place_label), composed here rather than read from a JS object member by member.
struct ObjectExtras {
  bool has_label = false, has_text = false, has_mask = false, nvinfer_text = false;
  std::string label;
  meta::TextParams text;
  meta::MaskParams mask;
};

// A valid label is at most 127 bytes: one V8 call into a stack buffer reads it, where
// read_string asks for the length first. Anything that does not clearly fit (V8 writes whole
// characters only, of at most 4 bytes), and anything not a string, takes read_string, which
// reads it whole or throws its TypeError.
bool read_label(napi_env env, napi_value value, std::string* out);

bool parse_extras(napi_env env, napi_value label, napi_value text, napi_value mask, ObjectExtras* out);

// The object's current fields overlaid with its table row and the extras, in call.after.
Status compose_object(MetaCall& call, meta::ObjectHandle object, uint32_t row, ObjectExtras& extras);

void set_row_links(MetaCall& call, uint32_t row, int32_t parent_row, int32_t frame);

// A zero-copy view of `size` bytes of host memory at `data`, one per pointer per call
// (MetaCall::views), detached when the call closes; a copy where external buffers are not
// allowed (a V8 sandbox). Null with an exception pending on failure.
napi_value host_view(napi_env env, MetaCall& call, const void* data, size_t size);

}  // namespace dsnode::metabind

#endif
