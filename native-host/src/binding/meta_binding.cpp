// The metadata half of the Node-API binding (sdk/src/native/meta-binding.ts documents every
// function; docs/internals/metadata-design.md §5 the design).
//
// A process-wide registry maps call ids to MetaCalls: the call's Batch plus the small integers
// JS holds instead of pointers (object rows, classifier/label/display/user indices). Each
// function parses its JS arguments first (that may run JS: getters), then locks the registry
// for the Batch work (no JS runs under the lock, so a getter calling back into the binding
// cannot deadlock), then builds its JS result after unlocking. close_call may come from another
// thread; it waits for the lock, so a Batch is never used after its call ended.
#include "binding/meta_binding.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
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

#ifdef NAPI_CPP_EXCEPTIONS
#error "binding/ checks every N-API status itself: a C++ exception must never unwind through V8 frames on the JS thread"
#endif

namespace dsnode::metabind {

namespace {

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
Registry& registry() {
  static Registry* instance = new Registry();
  return *instance;
}

// With `env` on its thread: detaches views and deletes the ref.
void release_ref(napi_env env, const HeldRef& held) {
  if (held.is_view) {
    napi_value buffer = nullptr;
    if (napi_get_reference_value(env, held.ref, &buffer) == napi_ok && buffer != nullptr) {
      napi_detach_arraybuffer(env, buffer);
    }
  }
  napi_delete_reference(env, held.ref);
}

// Releases the refs that belong to `env`, parks the others. Called with the lock held.
void release_refs(napi_env env, std::vector<HeldRef> refs, Registry& r) {
  if (refs.empty()) return;
  napi_handle_scope scope = nullptr;
  const bool scoped = env != nullptr && napi_open_handle_scope(env, &scope) == napi_ok;
  for (const HeldRef& held : refs) {
    if (scoped && held.env == env) {
      release_ref(env, held);
    } else {
      r.graveyard.push_back(held);
    }
  }
  if (scoped) napi_close_handle_scope(env, scope);
}

void sweep_graveyard(napi_env env, Registry& r) {
  std::vector<HeldRef> mine;
  auto keep = r.graveyard.begin();
  for (HeldRef& held : r.graveyard) {
    if (held.env == env) {
      mine.push_back(held);
    } else {
      *keep++ = held;
    }
  }
  r.graveyard.erase(keep, r.graveyard.end());
  release_refs(env, std::move(mine), r);
  auto gone = [env](const Attached& held) { return held.env == env; };
  r.parked.erase(std::remove_if(r.parked.begin(), r.parked.end(), gone), r.parked.end());
}

std::vector<HeldRef> take_refs(MetaCall& call) {
  std::vector<HeldRef> refs = std::move(call.views);
  if (call.table.ref != nullptr) refs.push_back(call.table);
  call.table = HeldRef();
  call.views.clear();
  call.view_of.clear();
  return refs;
}

// An env going away: its refs die with it; forget them so nothing deletes them later.
void forget_env(void* data) {
  napi_env env = static_cast<napi_env>(data);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto gone = [env](const HeldRef& held) { return held.env == env; };
  r.graveyard.erase(std::remove_if(r.graveyard.begin(), r.graveyard.end(), gone), r.graveyard.end());
  r.parked.erase(std::remove_if(r.parked.begin(), r.parked.end(),
                     [env](const Attached& held) { return held.env == env; }),
      r.parked.end());
  for (auto& entry : r.calls) {
    MetaCall& call = *entry;
    if (call.table.env == env) {
      call.table = HeldRef();
      call.table_data = nullptr;
      call.table_rows = 0;
    }
    call.views.erase(std::remove_if(call.views.begin(), call.views.end(), gone), call.views.end());
    call.view_of.clear();
  }
  r.envs.erase(env);
}

// ---------------------------------------------------------------- entering a call

napi_value throw_stale(napi_env env, uint32_t id) {
  return throw_error(env, ErrorKind::kStale,
      "BatchMeta used after its transform() call returned (call " + std::to_string(id) +
          " has ended); copy the values you need with toJSON()");
}

bool read_call_id(napi_env env, napi_value value, uint32_t* id) {
  return read_int<uint32_t>(env, value, FieldName("callId"), id);
}

// The live call `id`, or null. Called with the lock held.
MetaCall* find_call(Registry& r, uint32_t id) {
  for (auto it = r.calls.rbegin(); it != r.calls.rend(); ++it) {
    if ((*it)->id == id) return it->get();
  }
  return nullptr;
}

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
    uint32_t* out) {
  double number = 0;
  if (!read_double(env, value, FieldName(name), &number)) return false;
  if (std::trunc(number) == number && number >= 0 && number < static_cast<double>(count)) {
    *out = static_cast<uint32_t>(number);
    return true;
  }
  const std::string range = count == 0 ? std::string(what) + " (this call has none)"
                                       : std::string(what) + " from 0 to " + std::to_string(count - 1);
  throw_error(env, ErrorKind::kRange,
      "Expected " + range + " for " + name + " but received " + meta::describe_number(number));
  return false;
}

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

bool read_frame(napi_env env, const MetaCall& call, napi_value value, const char* name, uint32_t* index) {
  return read_index(env, value, name, "a frame index", call.frames.size(), index);
}

bool read_row(napi_env env, MetaCall& call, napi_value value, const char* name, const char* operation,
    uint32_t* row, meta::ObjectHandle* object) {
  if (!read_live(env, call.rows, kObjectKind, value, name, operation, row, object)) return false;
  if (*row < call.table_rows) return true;
  // JS rebound a smaller table than the rows it was given.
  throw_error(env, ErrorKind::kRange,
      "Expected an object table of at least " + std::to_string(*row + 1) + " rows for " + operation +
          " but received one of " + std::to_string(call.table_rows) + " rows; bind the grown table");
  return false;
}

// (level, owner) of the user meta functions: 0 batch, 1 frame index, 2 object row.
bool read_owner(napi_env env, MetaCall& call, napi_value level_value, napi_value owner_value,
    const char* operation, meta::UserMetaLevel* level, void** owner) {
  double level_number = 0;
  if (!read_double(env, level_value, FieldName("level"), &level_number)) return false;
  if (level_number == 0) {
    *level = meta::UserMetaLevel::kBatch;
    *owner = nullptr;
    return true;
  }
  if (level_number == 1) {
    uint32_t frame = 0;
    if (!read_frame(env, call, owner_value, "owner", &frame)) return false;
    *level = meta::UserMetaLevel::kFrame;
    *owner = call.frames[frame].ptr;
    return true;
  }
  if (level_number == 2) {
    uint32_t row = 0;
    meta::ObjectHandle object;
    if (!read_live(env, call.rows, kObjectKind, owner_value, "owner", operation, &row, &object)) return false;
    *level = meta::UserMetaLevel::kObject;
    *owner = object.ptr;
    return true;
  }
  throw_error(env, ErrorKind::kRange,
      "Expected 0 (batch), 1 (frame) or 2 (object) for level but received " + meta::describe_number(level_number));
  return false;
}

// ---------------------------------------------------------------- object arguments

// label / text / mask of addObject and writeObject: null (or undefined) keeps what the object has.
struct ObjectExtras {
  bool has_label = false, has_text = false, has_mask = false;
  std::string label;
  meta::TextParams text;
  meta::MaskParams mask;
};

// A valid label is at most 127 bytes: one V8 call into a stack buffer reads it, where
// read_string asks for the length first. Anything that does not clearly fit (V8 writes whole
// characters only, of at most 4 bytes), and anything not a string, takes read_string, which
// reads it whole or throws its TypeError.
bool read_label(napi_env env, napi_value value, std::string* out) {
  char bytes[256];
  size_t written = 0;
  if (napi_get_value_string_utf8(env, value, bytes, sizeof bytes, &written) == napi_ok && written + 4 < sizeof bytes - 1) {
    out->assign(bytes, written);
    return true;
  }
  return read_string(env, value, FieldName("label"), out);
}

bool parse_extras(napi_env env, napi_value label, napi_value text, napi_value mask, ObjectExtras* out) {
  static const Path kTextPath{"NvDsObjectMeta.text_params"};
  static const Path kMaskPath{"NvDsObjectMeta.mask_params"};
  if (!is_nullish(env, label)) {
    if (!read_label(env, label, &out->label)) return false;
    out->has_label = true;
  }
  if (!is_nullish(env, text)) {
    if (!read_object(env, text, FieldName("text")) || !parse_text(env, text, kTextPath, &out->text)) return false;
    out->has_text = true;
  }
  if (!is_nullish(env, mask)) {
    if (!read_object(env, mask, FieldName("mask")) || !parse_mask(env, mask, kMaskPath, &out->mask)) return false;
    out->has_mask = true;
  }
  return true;
}

// The object's current fields overlaid with its table row and the extras, in call.after.
Status compose_object(MetaCall& call, meta::ObjectHandle object, uint32_t row, ObjectExtras& extras) {
  call.batch->read_object(object, &call.before);
  call.after = call.before;
  Status status = read_object_row(call.row_slots(row), &call.after);
  if (status.ok() && extras.has_label) {
    status = meta::copy_bounded(call.after.obj_label, extras.label, "NvDsObjectMeta.obj_label");
  }
  if (extras.has_text) call.after.text_params = std::move(extras.text);
  if (extras.has_mask) call.after.mask_params = std::move(extras.mask);
  return status;
}

void set_row_links(MetaCall& call, uint32_t row, int32_t parent_row, int32_t frame) {
  double* slots = call.row_slots(row);
  slots[L::kObjParentRow] = parent_row;
  slots[L::kObjFrameIndex] = frame;
}

// ---------------------------------------------------------------- frames

napi_value write_frame(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  void* data = nullptr;
  size_t length = 0;
  if (!args.ok ||
      !read_typed_array(env, args[2], FieldName("state"), napi_float64_array, &data, &length)) {
    return nullptr;
  }
  CallScope scope(env, args, "writeFrame");
  uint32_t frame = 0;
  if (!scope || !read_frame(env, scope.call(), args[1], "frameIndex", &frame)) {
    return nullptr;
  }
  const size_t needed = L::state_length(frame + 1);
  if (length < needed) {
    return throw_error(env, ErrorKind::kRange,
        "Expected a state array of at least " + std::to_string(needed) + " values for writeFrame(frameIndex " +
            std::to_string(frame) + ") but received " + std::to_string(length) + " values");
  }
  meta::FrameFields fields;
  Status status = read_frame_record(static_cast<double*>(data) + L::kStateFramesBase + frame * L::kStateFrameStride,
      &fields);
  if (status.ok()) status = scope.batch().write_frame(scope.call().frames[frame], fields);
  if (!status.ok()) return throw_status(env, status);
  return make_undefined(env);
}

// ---------------------------------------------------------------- objects

napi_value bind_object_table(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  void* data = nullptr;
  size_t length = 0;
  if (!args.ok ||
      !read_typed_array(env, args[1], FieldName("table"), napi_float64_array, &data, &length)) {
    return nullptr;
  }
  CallScope scope(env, args, nullptr);
  if (!scope) return nullptr;
  napi_ref ref = nullptr;
  if (napi_create_reference(env, args[1], 1, &ref) != napi_ok) return nullptr;
  MetaCall& call = scope.call();
  if (call.table.ref != nullptr) release_refs(env, {call.table}, registry());
  call.table = HeldRef{env, ref, false};
  call.table_data = static_cast<double*>(data);
  call.table_rows = length / L::kObjStride;
  return make_undefined(env);
}

napi_value throw_table_full(napi_env env, const char* operation, size_t rows_needed, size_t rows) {
  return throw_error(env, ErrorKind::kTableFull,
      "Expected an object table of at least " + std::to_string(rows_needed) + " rows for " + operation +
          " but received one of " + std::to_string(rows) + " rows; grow it and bindObjectTable again");
}

napi_value acquire_object(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "acquireObject");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  if (call.rows.size() >= call.table_rows) {
    return throw_table_full(env, "acquireObject", call.rows.size() + 1, call.table_rows);
  }
  meta::ObjectHandle object = call.batch->acquire_object();
  call.batch->read_object(object, &call.before);  // DeepStream's defaults, as the pool gives them
  const uint32_t row = call.rows.index_for_new(object);
  call.row_frames.resize(call.rows.size(), -1);
  double* slots = call.row_slots(row);
  std::fill(slots, slots + L::kObjStride, 0.0);
  write_object_row(call.before, slots);
  set_row_links(call, row, -1, -1);
  return make_number(env, row);
}

napi_value add_object(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  ObjectExtras extras;
  if (!args.ok || !parse_extras(env, args[4], args[5], args[6], &extras)) {
    return nullptr;
  }
  CallScope scope(env, args, "addObject");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t row = 0, frame = 0, parent_row = 0;
  meta::ObjectHandle object, parent;
  double parent_number = 0;
  if (!read_row(env, call, args[1], "row", "addObject", &row, &object) ||
      !read_frame(env, call, args[2], "frameIndex", &frame) ||
      !read_double(env, args[3], FieldName("parentRow"), &parent_number)) {
    return nullptr;
  }
  if (parent_number != -1 &&
      !read_live(env, call.rows, kObjectKind, args[3], "parentRow", "addObject", &parent_row, &parent)) {
    return nullptr;
  }
  Status status = compose_object(call, object, row, extras);
  if (status.ok()) status = call.batch->write_object(object, call.after);
  if (!status.ok()) return throw_status(env, status);
  status = call.batch->add_object(call.frames[frame], object, parent);
  if (!status.ok()) {
    call.batch->write_object(object, call.before);  // a failed call changes nothing
    return throw_status(env, status);
  }
  call.row_frames[row] = static_cast<int32_t>(frame);
  set_row_links(call, row, parent ? static_cast<int32_t>(parent_row) : -1, static_cast<int32_t>(frame));
  return make_undefined(env);
}

napi_value write_object(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  ObjectExtras extras;
  if (!args.ok || !parse_extras(env, args[2], args[3], args[4], &extras)) {
    return nullptr;
  }
  CallScope scope(env, args, "writeObject");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t row = 0;
  meta::ObjectHandle object;
  if (!read_row(env, call, args[1], "row", "writeObject", &row, &object)) return nullptr;
  Status status = compose_object(call, object, row, extras);
  if (status.ok()) status = call.batch->write_object(object, call.after);
  if (!status.ok()) return throw_status(env, status);
  return make_undefined(env);
}

// What goes back to the pool with an object (its classifiers, their label infos, its user
// metas): collected before the removal, their indices killed after it succeeds.
struct Dependents {
  std::vector<meta::ClassifierHandle> classifiers;
  std::vector<meta::LabelInfoHandle> labels;
  std::vector<meta::UserHandle> users;
};

Dependents collect_dependents(MetaCall& call, meta::ObjectHandle object) {
  Dependents dependents;
  if (!call.classifiers.empty()) {
    call.batch->classifiers(object, &dependents.classifiers);
    std::vector<meta::LabelInfoHandle> labels;
    for (meta::ClassifierHandle classifier : dependents.classifiers) {
      if (call.labels.empty()) break;
      call.batch->label_infos(classifier, &labels);
      dependents.labels.insert(dependents.labels.end(), labels.begin(), labels.end());
    }
  }
  if (!call.users.empty()) call.batch->user_metas(meta::UserMetaLevel::kObject, object.ptr, &dependents.users);
  return dependents;
}

void kill_dependents(MetaCall& call, const Dependents& dependents) {
  for (meta::ClassifierHandle classifier : dependents.classifiers) call.classifiers.kill(classifier);
  for (meta::LabelInfoHandle label : dependents.labels) call.labels.kill(label);
  for (meta::UserHandle user : dependents.users) call.users.kill(user);
}

napi_value remove_object(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "removeObject");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t row = 0, frame = 0;
  meta::ObjectHandle object;
  if (!read_live(env, call.rows, kObjectKind, args[1], "row", "removeObject", &row, &object) ||
      !read_frame(env, call, args[2], "frameIndex", &frame)) {
    return nullptr;
  }
  const Dependents dependents = collect_dependents(call, object);
  Status status = call.batch->remove_object(call.frames[frame], object);
  if (!status.ok()) return throw_status(env, status);
  kill_dependents(call, dependents);
  call.rows.kill(object);
  call.row_frames[row] = -1;
  if (row < call.table_rows) call.row_slots(row)[L::kObjFrameIndex] = -1;
  return make_undefined(env);
}

// Where each object of the batch is, for parents met outside the listed frame.
std::unordered_map<void*, int32_t> frames_of_objects(MetaCall& call) {
  std::unordered_map<void*, int32_t> frame_of;
  std::vector<meta::ObjectHandle> objects;
  for (size_t f = 0; f < call.frames.size(); ++f) {
    call.batch->objects(call.frames[f], &objects);
    for (meta::ObjectHandle object : objects) frame_of.emplace(object.ptr, static_cast<int32_t>(f));
  }
  return frame_of;
}

void fill_listed_row(MetaCall& call, uint32_t row) {
  const meta::ObjectHandle object = call.rows.at(row);
  call.batch->read_object(object, &call.before);
  double* slots = call.row_slots(row);
  write_object_row(call.before, slots);
  uint32_t parent_row = 0;
  const meta::ObjectHandle parent = call.batch->parent_of(object);
  const bool has_parent = parent && call.rows.find(parent, &parent_row);
  set_row_links(call, row, has_parent ? static_cast<int32_t>(parent_row) : -1, call.row_frames[row]);
}

napi_value list_objects(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  void* out_data = nullptr;
  size_t out_length = 0;
  if (!args.ok ||
      !read_typed_array(env, args[2], FieldName("out"), napi_int32_array, &out_data, &out_length)) {
    return nullptr;
  }
  CallScope scope(env, args, "listObjects");
  uint32_t frame = 0;
  if (!scope || !read_frame(env, scope.call(), args[1], "frameIndex", &frame)) {
    return nullptr;
  }
  MetaCall& call = scope.call();
  std::vector<meta::ObjectHandle>& objects = call.scratch_objects;
  call.batch->objects(call.frames[frame], &objects);

  // Rows first (the listed objects, then their parents up the chain), so a too-small table
  // can be rolled back before anything is written.
  const size_t rows_before = call.rows.size();
  for (meta::ObjectHandle object : objects) call.rows.index_for(object);
  for (meta::ObjectHandle object : objects) {
    for (meta::ObjectHandle parent = call.batch->parent_of(object); parent; parent = call.batch->parent_of(parent)) {
      uint32_t known = 0;
      if (call.rows.find(parent, &known)) break;  // rows given earlier had their parents' rows too
      call.rows.index_for(parent);
    }
  }
  const size_t rows_needed = call.rows.size();
  if (rows_needed > call.table_rows || out_length < objects.size()) {
    call.rows.truncate(rows_before);
    return make_number(env, -static_cast<double>(rows_needed));
  }
  call.row_frames.resize(rows_needed, -1);
  int32_t* out = static_cast<int32_t*>(out_data);
  for (size_t i = 0; i < objects.size(); ++i) {
    uint32_t row = 0;
    call.rows.find(objects[i], &row);
    call.row_frames[row] = static_cast<int32_t>(frame);
    out[i] = static_cast<int32_t>(row);
  }
  if (rows_needed > rows_before) {
    // New parent rows: find their frames (parents may sit in any frame).
    std::unordered_map<void*, int32_t> frame_of;
    bool scanned = false;
    for (size_t row = rows_before; row < rows_needed; ++row) {
      if (call.row_frames[row] >= 0) continue;
      if (!scanned) {
        frame_of = frames_of_objects(call);
        scanned = true;
      }
      auto found = frame_of.find(call.rows.at(static_cast<uint32_t>(row)).ptr);
      call.row_frames[row] = found != frame_of.end() ? found->second : -1;
    }
    for (size_t row = rows_before; row < rows_needed; ++row) fill_listed_row(call, static_cast<uint32_t>(row));
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    if (static_cast<size_t>(out[i]) < rows_before) fill_listed_row(call, static_cast<uint32_t>(out[i]));
  }
  return make_number(env, static_cast<double>(objects.size()));
}

napi_value read_object_extras(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "readObjectExtras");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t row = 0;
  meta::ObjectHandle object;
  if (!read_live(env, call.rows, kObjectKind, args[1], "row", "readObjectExtras", &row, &object)) return nullptr;
  meta::ObjectFields fields;
  call.batch->read_object(object, &fields);
  scope.unlock();
  return ObjectBuilder(env)
      .string("label", fields.obj_label, strnlen(fields.obj_label, meta::kMaxLabelSize))
      .set("text", text_value(env, fields.text_params))
      .set("mask", mask_value(env, fields.mask_params))
      .value();
}

// ---------------------------------------------------------------- bulk objects

struct BulkArguments {
  meta::ObjectColumns columns;
  std::vector<std::string> labels;
  bool has_labels = false;
};

bool parse_bulk_options(napi_env env, napi_value options, BulkArguments* out) {
  static const Path kObject{"NvDsObjectMeta"};
  if (!read_object(env, options, FieldName("options"))) return false;
  FieldReader in(env, options, kObject);
  napi_value labels;
  if (!(in.integer("uniqueComponentId", "unique_component_id", &out->columns.unique_component_id) &&
          in.integer("borderWidth", "rect_params.border_width", &out->columns.border_width) &&
          in.color("borderColor", "rect_params.border_color", &out->columns.border_color) &&
          in.get("labels", &labels))) {
    return false;
  }
  if (is_nullish(env, labels)) return true;
  uint32_t count = 0;
  if (!read_array(env, labels, FieldName("options.labels"), &count)) return false;
  out->labels.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    napi_value label;
    const Path element{"options.labels", static_cast<long>(i)};
    if (napi_get_element(env, labels, i, &label) != napi_ok ||
        !read_string(env, label, FieldName(element, nullptr), &out->labels[i])) {
      return false;
    }
  }
  out->has_labels = true;
  return true;
}

// Reads the columns in place. All property reads (which may run getters) come before any data
// pointer is taken, so no JS can detach a buffer between here and Batch::add_objects.
bool parse_bulk_columns(napi_env env, napi_value columns, BulkArguments* out) {
  if (!read_object(env, columns, FieldName("columns"))) return false;
  static const char* const kKeys[] = {"left", "top", "width", "height", "confidence", "classId"};
  static const char* const kNames[] = {"columns.left", "columns.top", "columns.width", "columns.height",
      "columns.confidence", "columns.classId"};
  napi_value values[6];
  for (int i = 0; i < 6; ++i) {
    if (napi_get_named_property(env, columns, kKeys[i], &values[i]) != napi_ok) return false;
  }
  const float** targets[] = {&out->columns.left, &out->columns.top, &out->columns.width, &out->columns.height,
      &out->columns.confidence};
  size_t count = 0;
  for (int i = 0; i < 6; ++i) {
    if (i >= 4 && is_nullish(env, values[i])) continue;
    void* data = nullptr;
    size_t length = 0;
    const napi_typedarray_type type = i == 5 ? napi_int32_array : napi_float32_array;
    if (!read_typed_array(env, values[i], FieldName(kNames[i]), type, &data, &length)) return false;
    if (i == 0) count = length;
    if (length != count) {
      throw_error(env, ErrorKind::kRange,
          "Expected " + std::to_string(count) + " values (as many as columns.left) for " + kNames[i] +
              " but received " + std::to_string(length) + " values");
      return false;
    }
    if (i < 5) {
      *targets[i] = static_cast<const float*>(data);
    } else {
      out->columns.class_id = static_cast<const int32_t*>(data);
    }
  }
  out->columns.count = count;
  return true;
}

napi_value add_objects(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  BulkArguments bulk;
  if (!args.ok || !parse_bulk_options(env, args[3], &bulk) ||
      !parse_bulk_columns(env, args[2], &bulk)) {
    return nullptr;
  }
  if (bulk.has_labels) bulk.columns.labels_by_class = &bulk.labels;
  CallScope scope(env, args, "addObjects");
  uint32_t frame = 0;
  if (!scope || !read_frame(env, scope.call(), args[1], "frameIndex", &frame)) {
    return nullptr;
  }
  Status status = scope.batch().add_objects(scope.call().frames[frame], bulk.columns);
  if (!status.ok()) return throw_status(env, status);
  return make_number(env, static_cast<double>(bulk.columns.count));
}

// ---------------------------------------------------------------- classifiers and label infos

// Acquires, writes and adds one label info (already validated) under `classifier`.
uint32_t attach_label(MetaCall& call, meta::ClassifierHandle classifier, const meta::LabelInfoFields& fields) {
  meta::LabelInfoHandle label = call.batch->acquire_label_info();
  call.batch->write_label_info(label, fields);
  call.batch->add_label_info(classifier, label);
  return call.labels.index_for_new(label);
}

napi_value add_classifier(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  meta::ClassifierFields fields;
  std::vector<meta::LabelInfoFields> labels;
  if (!args.ok || !parse_classifier(env, args[2], &fields, &labels)) {
    return nullptr;
  }
  CallScope scope(env, args, "addClassifier");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t row = 0;
  meta::ObjectHandle object;
  if (!read_live(env, call.rows, kObjectKind, args[1], "objectRow", "addClassifier", &row, &object)) return nullptr;
  meta::ClassifierHandle classifier = call.batch->acquire_classifier();
  Status status = call.batch->write_classifier(classifier, fields);
  if (status.ok()) status = call.batch->add_classifier(object, classifier);
  if (!status.ok()) return throw_status(env, status);  // the acquired meta returns at end_call
  const uint32_t index = call.classifiers.index_for_new(classifier);
  for (const meta::LabelInfoFields& label : labels) attach_label(call, classifier, label);
  return make_number(env, index);
}

napi_value add_label_info(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  meta::LabelInfoFields fields;
  if (!args.ok ||
      !parse_label_info(env, args[2], Path{"NvDsLabelInfo"}, &fields)) {
    return nullptr;
  }
  CallScope scope(env, args, "addLabelInfo");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t index = 0;
  meta::ClassifierHandle classifier;
  if (!read_live(env, call.classifiers, kClassifierKind, args[1], "classifierIndex", "addLabelInfo", &index,
          &classifier)) {
    return nullptr;
  }
  return make_number(env, attach_label(call, classifier, fields));
}

napi_value remove_classifier(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "removeClassifier");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t row = 0, index = 0;
  meta::ObjectHandle object;
  meta::ClassifierHandle classifier;
  if (!read_live(env, call.rows, kObjectKind, args[1], "objectRow", "removeClassifier", &row, &object) ||
      !read_live(env, call.classifiers, kClassifierKind, args[2], "classifierIndex", "removeClassifier", &index,
          &classifier)) {
    return nullptr;
  }
  std::vector<meta::LabelInfoHandle> labels;
  call.batch->label_infos(classifier, &labels);
  Status status = call.batch->remove_classifier(object, classifier);
  if (!status.ok()) return throw_status(env, status);
  call.classifiers.kill(classifier);
  for (meta::LabelInfoHandle label : labels) call.labels.kill(label);
  return make_undefined(env);
}

napi_value remove_label_info(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "removeLabelInfo");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t classifier_index = 0, label_index = 0;
  meta::ClassifierHandle classifier;
  meta::LabelInfoHandle label;
  if (!read_live(env, call.classifiers, kClassifierKind, args[1], "classifierIndex", "removeLabelInfo",
          &classifier_index, &classifier) ||
      !read_live(env, call.labels, kLabelKind, args[2], "labelIndex", "removeLabelInfo", &label_index, &label)) {
    return nullptr;
  }
  Status status = call.batch->remove_label_info(classifier, label);
  if (!status.ok()) return throw_status(env, status);
  call.labels.kill(label);
  return make_undefined(env);
}

struct ClassifierCopy {
  uint32_t index;
  meta::ClassifierFields fields;
  std::vector<std::pair<uint32_t, meta::LabelInfoFields>> labels;
};

napi_value list_classifiers(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "listClassifiers");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t row = 0;
  meta::ObjectHandle object;
  if (!read_live(env, call.rows, kObjectKind, args[1], "objectRow", "listClassifiers", &row, &object)) return nullptr;
  std::vector<meta::ClassifierHandle> classifiers;
  std::vector<meta::LabelInfoHandle> labels;
  call.batch->classifiers(object, &classifiers);
  std::vector<ClassifierCopy> copies(classifiers.size());
  for (size_t i = 0; i < classifiers.size(); ++i) {
    copies[i].index = call.classifiers.index_for(classifiers[i]);
    call.batch->read_classifier(classifiers[i], &copies[i].fields);
    call.batch->label_infos(classifiers[i], &labels);
    copies[i].labels.resize(labels.size());
    for (size_t l = 0; l < labels.size(); ++l) {
      copies[i].labels[l].first = call.labels.index_for(labels[l]);
      call.batch->read_label_info(labels[l], &copies[i].labels[l].second);
    }
  }
  scope.unlock();
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, copies.size(), &array) != napi_ok) return nullptr;
  for (size_t i = 0; i < copies.size(); ++i) {
    napi_value value = classifier_value(env, copies[i].index, copies[i].fields, copies[i].labels);
    if (value == nullptr || napi_set_element(env, array, static_cast<uint32_t>(i), value) != napi_ok) return nullptr;
  }
  return array;
}

// ---------------------------------------------------------------- display metas

napi_value indices_value(napi_env env, const std::vector<uint32_t>& indices) {
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, indices.size(), &array) != napi_ok) return nullptr;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (napi_set_element(env, array, static_cast<uint32_t>(i), make_number(env, indices[i])) != napi_ok) return nullptr;
  }
  return array;
}

napi_value add_display(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  meta::DisplayContent content;
  if (!args.ok || !parse_display_content(env, args[2], &content)) return nullptr;
  CallScope scope(env, args, "addDisplay");
  uint32_t frame = 0;
  if (!scope || !read_frame(env, scope.call(), args[1], "frameIndex", &frame)) {
    return nullptr;
  }
  MetaCall& call = scope.call();
  std::vector<meta::DisplayHandle> created;
  Status status = call.batch->add_display_content(call.frames[frame], content, &created);
  if (!status.ok()) return throw_status(env, status);
  std::vector<uint32_t> indices;
  for (meta::DisplayHandle display : created) indices.push_back(call.displays.index_for_new(display));
  scope.unlock();
  return indices_value(env, indices);
}

napi_value remove_display(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "removeDisplay");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t frame = 0, index = 0;
  meta::DisplayHandle display;
  if (!read_frame(env, call, args[1], "frameIndex", &frame) ||
      !read_live(env, call.displays, kDisplayKind, args[2], "displayIndex", "removeDisplay", &index, &display)) {
    return nullptr;
  }
  Status status = call.batch->remove_display(call.frames[frame], display);
  if (!status.ok()) return throw_status(env, status);
  call.displays.kill(display);
  return make_undefined(env);
}

napi_value list_displays(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "listDisplays");
  uint32_t frame = 0;
  if (!scope || !read_frame(env, scope.call(), args[1], "frameIndex", &frame)) {
    return nullptr;
  }
  MetaCall& call = scope.call();
  std::vector<meta::DisplayHandle> displays;
  call.batch->displays(call.frames[frame], &displays);
  // DisplayFields is ~10 KB: copies on the heap, built into JS after unlocking.
  std::vector<std::pair<uint32_t, std::unique_ptr<meta::DisplayFields>>> copies(displays.size());
  for (size_t i = 0; i < displays.size(); ++i) {
    copies[i].first = call.displays.index_for(displays[i]);
    copies[i].second = std::make_unique<meta::DisplayFields>();
    call.batch->read_display(displays[i], copies[i].second.get());
  }
  scope.unlock();
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, copies.size(), &array) != napi_ok) return nullptr;
  for (size_t i = 0; i < copies.size(); ++i) {
    napi_value value = display_value(env, copies[i].first, *copies[i].second);
    if (value == nullptr || napi_set_element(env, array, static_cast<uint32_t>(i), value) != napi_ok) return nullptr;
  }
  return array;
}

// ---------------------------------------------------------------- user metas

bool parse_user_meta(napi_env env, const Args& args, meta::UserMetaFields* out) {
  int64_t kind = 0;
  double kind_number = 0;
  void* data = nullptr;
  size_t length = 0;
  if (!read_string(env, args[3], FieldName("metaType"), &out->meta_type) ||
      !read_double(env, args[4], FieldName("kind"), &kind_number)) {
    return false;
  }
  if (kind_number != 0 && kind_number != 1) {
    throw_error(env, ErrorKind::kRange,
        "Expected 0 (bytes) or 1 (JSON) for kind but received " + meta::describe_number(kind_number));
    return false;
  }
  kind = static_cast<int64_t>(kind_number);
  if (!read_typed_array(env, args[5], FieldName("payload"), napi_uint8_array, &data, &length)) return false;
  out->kind = kind == 0 ? meta::PayloadKind::kBytes : meta::PayloadKind::kJson;
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  out->payload.assign(bytes, bytes + length);
  Status status = meta::validate_user_meta(*out);
  if (!status.ok()) {
    throw_status(env, status);
    return false;
  }
  return true;
}

napi_value add_user_meta(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  meta::UserMetaFields fields;
  if (!args.ok || !parse_user_meta(env, args, &fields)) return nullptr;
  CallScope scope(env, args, "addUserMeta");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  meta::UserMetaLevel level;
  void* owner = nullptr;
  if (!read_owner(env, call, args[1], args[2], "addUserMeta", &level, &owner)) return nullptr;
  meta::UserHandle user = call.batch->acquire_user_meta();
  Status status = call.batch->write_user_meta(user, fields);
  if (status.ok()) status = call.batch->add_user_meta(level, owner, user);
  if (!status.ok()) return throw_status(env, status);  // the acquired meta returns at end_call
  return make_number(env, call.users.index_for_new(user));
}

napi_value remove_user_meta(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "removeUserMeta");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  meta::UserMetaLevel level;
  void* owner = nullptr;
  uint32_t index = 0;
  meta::UserHandle user;
  if (!read_owner(env, call, args[1], args[2], "removeUserMeta", &level, &owner) ||
      !read_live(env, call.users, kUserKind, args[3], "userIndex", "removeUserMeta", &index, &user)) {
    return nullptr;
  }
  Status status = call.batch->remove_user_meta(level, owner, user);
  if (!status.ok()) return throw_status(env, status);
  call.users.kill(user);
  return make_undefined(env);
}

napi_value list_user_metas(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "listUserMetas");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  meta::UserMetaLevel level;
  void* owner = nullptr;
  if (!read_owner(env, call, args[1], args[2], "listUserMetas", &level, &owner)) return nullptr;
  std::vector<meta::UserHandle> users;
  call.batch->user_metas(level, owner, &users);
  std::vector<std::pair<uint32_t, meta::UserMetaFields>> copies(users.size());
  for (size_t i = 0; i < users.size(); ++i) {
    copies[i].first = call.users.index_for(users[i]);
    call.batch->read_user_meta(users[i], &copies[i].second);
  }
  scope.unlock();
  napi_value array = nullptr;
  if (napi_create_array_with_length(env, copies.size(), &array) != napi_ok) return nullptr;
  for (size_t i = 0; i < copies.size(); ++i) {
    napi_value value = user_meta_value(env, copies[i].first, copies[i].second);
    if (value == nullptr || napi_set_element(env, array, static_cast<uint32_t>(i), value) != napi_ok) return nullptr;
  }
  return array;
}

// A zero-copy view of a layer's host memory, one per pointer per call (see MetaCall::views).
// Where external buffers are not allowed (a V8 sandbox), a copy stands in; it is detached at
// close as well, so both behave alike.
napi_value host_view(napi_env env, MetaCall& call, const void* data, size_t size) {
  auto cached = call.view_of.find(data);
  napi_value view = nullptr;
  if (cached != call.view_of.end() && napi_get_reference_value(env, cached->second, &view) == napi_ok && view) {
    return view;
  }
  napi_status status = napi_create_external_arraybuffer(env, const_cast<void*>(data), size, nullptr, nullptr, &view);
  if (status != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (pending) return nullptr;
    void* copy = nullptr;
    if (napi_create_arraybuffer(env, size, &copy, &view) != napi_ok) return nullptr;
    std::memcpy(copy, data, size);
  }
  napi_ref ref = nullptr;
  if (napi_create_reference(env, view, 1, &ref) != napi_ok) return nullptr;
  call.views.push_back(HeldRef{env, ref, true});
  call.view_of[data] = ref;
  return view;
}

napi_value read_tensor_output(napi_env env, napi_callback_info info) {
  CallArgs args(env, info);
  CallScope scope(env, args, "readTensorOutput");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  uint32_t index = 0;
  meta::UserHandle user;
  if (!read_live(env, call.users, kUserKind, args[1], "userIndex", "readTensorOutput", &index, &user)) return nullptr;
  meta::TensorOutput output;
  if (!call.batch->read_tensor_output(user, &output)) {
    meta::UserMetaFields fields;
    call.batch->read_user_meta(user, &fields);
    return throw_error(env, ErrorKind::kState,
        "Expected a tensor output user meta (NVDSINFER_TENSOR_OUTPUT_META) for readTensorOutput but received " +
            (fields.meta_type.empty() ? std::string("one of type ") + std::to_string(fields.meta_type_id)
                                      : "\"" + fields.meta_type + "\"") +
            " (user meta index " + std::to_string(index) + ")");
  }
  // Views are made under the lock: close_call must find every one to detach it.
  std::vector<napi_value> views(output.layers.size(), nullptr);
  for (size_t i = 0; i < output.layers.size(); ++i) {
    const meta::TensorLayer& layer = output.layers[i];
    if (layer.host_buffer == nullptr) continue;
    const size_t size = static_cast<size_t>(layer.num_elements) * meta::tensor_element_size(layer.data_type);
    if ((views[i] = host_view(env, call, layer.host_buffer, size)) == nullptr) return nullptr;
  }
  scope.unlock();
  return tensor_output_value(env, output, views);
}

// ---------------------------------------------------------------- install

constexpr Export kExports[] = {
    {"writeFrame", write_frame},
    {"bindObjectTable", bind_object_table},
    {"acquireObject", acquire_object},
    {"addObject", add_object},
    {"writeObject", write_object},
    {"removeObject", remove_object},
    {"listObjects", list_objects},
    {"readObjectExtras", read_object_extras},
    {"addObjects", add_objects},
    {"addClassifier", add_classifier},
    {"addLabelInfo", add_label_info},
    {"removeClassifier", remove_classifier},
    {"removeLabelInfo", remove_label_info},
    {"listClassifiers", list_classifiers},
    {"addDisplay", add_display},
    {"removeDisplay", remove_display},
    {"listDisplays", list_displays},
    {"addUserMeta", add_user_meta},
    {"removeUserMeta", remove_user_meta},
    {"listUserMetas", list_user_metas},
    {"readTensorOutput", read_tensor_output},
};

napi_value make_meta_object(napi_env env) {
  ObjectBuilder meta_object(env);
  meta_object.number("layoutVersion", L::kMetaLayoutVersion).functions(kExports);
  return meta_object.value();
}

}  // namespace

// ---------------------------------------------------------------- meta_binding.h

void install(Napi::Env env, Napi::Object exports) {
  napi_value meta_object = make_meta_object(env);
  if (meta_object == nullptr) return;  // an error is pending; the caller's init reports it
  if (napi_set_named_property(env, exports, "meta", meta_object) != napi_ok) return;
  napi_env raw_env = env;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  // One hook per env: Node aborts on a duplicate (fun, arg) pair.
  if (r.envs.insert(raw_env).second) napi_add_env_cleanup_hook(raw_env, forget_env, raw_env);
}

uint32_t open_call(meta::Batch* batch, GstBuffer* buffer, const DsnodeStreamInfo* stream, double* state) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::unique_ptr<MetaCall> call;
  if (!r.spare.empty()) {
    call = std::move(r.spare.back());
    r.spare.pop_back();
  } else {
    call = std::make_unique<MetaCall>();
  }
  call->batch = batch;
  call->buffer = buffer;
  call->stream = stream;
  const uint32_t num_frames = batch != nullptr ? batch->num_frames() : 0;
  call->frames.reserve(num_frames);
  for (uint32_t f = 0; f < num_frames; ++f) call->frames.push_back(batch->frame_at(f));

  state[L::kStatePts] = buffer != nullptr ? clock_slot(GST_BUFFER_PTS(buffer)) : -1.0;
  state[L::kStateDts] = buffer != nullptr ? clock_slot(GST_BUFFER_DTS(buffer)) : -1.0;
  state[L::kStateDuration] = buffer != nullptr ? clock_slot(GST_BUFFER_DURATION(buffer)) : -1.0;
  state[L::kStateSize] = buffer != nullptr ? static_cast<double>(gst_buffer_get_size(buffer)) : 0.0;
  state[L::kStateNumFrames] = num_frames;
  state[L::kStateMaxFrames] = batch != nullptr ? batch->max_frames_in_batch() : 0;
  state[L::kStateBackend] = batch != nullptr && batch->backend() == meta::BackendKind::kDeepStream ? 1.0 : 0.0;
  meta::FrameFields frame;
  for (uint32_t f = 0; f < num_frames; ++f) {
    batch->read_frame(call->frames[f], &frame);
    write_frame_record(frame, buffer, state + L::kStateFramesBase + f * L::kStateFrameStride);
  }

  do {
    ++r.last_id;
  } while (r.last_id == 0 || find_call(r, r.last_id) != nullptr);  // never 0, never a live id after wrap
  call->id = r.last_id;
  state[L::kStateCallId] = call->id;
  r.last = call.get();
  r.calls.push_back(std::move(call));
  return r.last_id;
}

void close_call(uint32_t call_id, napi_env env) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto found = std::find_if(r.calls.begin(), r.calls.end(),
      [call_id](const std::unique_ptr<MetaCall>& call) { return call->id == call_id; });
  if (found == r.calls.end()) return;
  std::unique_ptr<MetaCall> call = std::move(*found);
  r.calls.erase(found);
  if (r.last == call.get()) r.last = nullptr;
  std::vector<HeldRef> refs = take_refs(*call);
  std::vector<Attached> attachments = std::move(call->attachments);
  call->reset();
  constexpr size_t kMaxSpare = 16;
  if (r.spare.size() < kMaxSpare) r.spare.push_back(std::move(call));
  if (env == nullptr) {
    r.graveyard.insert(r.graveyard.end(), refs.begin(), refs.end());
    for (Attached& held : attachments) r.parked.push_back(std::move(held));
    return;
  }
  release_refs(env, std::move(refs), r);
  // After the views over their memory are detached; another env's wait for its own refs.
  for (Attached& held : attachments) {
    if (held.env != env) r.parked.push_back(std::move(held));
  }
  attachments.clear();
  if (!r.graveyard.empty() || !r.parked.empty()) sweep_graveyard(env, r);
}

napi_value attach_user_meta(napi_env env, uint32_t call_id, napi_value level_value, napi_value owner_value,
    const AttachUserMeta& attach) {
  CallScope scope(env, call_id, "addTensorOutput");
  if (!scope) return nullptr;
  MetaCall& call = scope.call();
  meta::UserMetaLevel level;
  void* owner = nullptr;
  if (!read_owner(env, call, level_value, owner_value, "addTensorOutput", &level, &owner)) return nullptr;
  meta::UserHandle created;
  Status status = attach(call.batch, level, owner, &created);
  if (!status.ok()) return throw_status(env, status);
  return make_number(env, call.users.index_for_new(created));
}

// ---------------------------------------------------------------- LiveCall (tensor binding)

LiveCall::LiveCall(napi_env env, uint32_t call_id, const char* handle) : env_(env), lock_(registry().mutex) {
  Registry& r = registry();
  if (!r.graveyard.empty() || !r.parked.empty()) sweep_graveyard(env, r);
  MetaCall* call = r.last != nullptr && r.last->id == call_id ? r.last : find_call(r, call_id);
  if (call == nullptr) {
    throw_error(env, ErrorKind::kStale,
        std::string(handle) + " used after its transform() call returned (call " + std::to_string(call_id) +
            " has ended); a handle is valid only during the call that received it");
    return;
  }
  r.last = call;
  call_ = call;
}

LiveCall::~LiveCall() = default;

uint32_t LiveCall::id() const { return static_cast<MetaCall*>(call_)->id; }
GstBuffer* LiveCall::buffer() const { return static_cast<MetaCall*>(call_)->buffer; }
const DsnodeStreamInfo* LiveCall::stream() const { return static_cast<MetaCall*>(call_)->stream; }
meta::Batch* LiveCall::batch() const { return static_cast<MetaCall*>(call_)->batch; }

CallAttachment* LiveCall::attachment(const void* key) const {
  for (const Attached& held : static_cast<MetaCall*>(call_)->attachments) {
    if (held.key == key) return held.attachment.get();
  }
  return nullptr;
}

void LiveCall::attach(const void* key, std::unique_ptr<CallAttachment> attachment) {
  static_cast<MetaCall*>(call_)->attachments.push_back(Attached{env_, key, std::move(attachment)});
}

napi_value LiveCall::view(const void* data, size_t size) {
  return host_view(env_, *static_cast<MetaCall*>(call_), data, size);
}

}  // namespace dsnode::metabind
