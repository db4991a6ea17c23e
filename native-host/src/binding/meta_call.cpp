// The metadata binding's per-call registry (meta_call.h).
#include "binding/meta_call.h"

#include <cstring>

namespace dsnode::metabind {

Registry& registry() {
  static Registry* instance = new Registry();
  return *instance;
}

void release_ref(napi_env env, const HeldRef& held) {
  if (held.is_view) {
    napi_value buffer = nullptr;
    if (napi_get_reference_value(env, held.ref, &buffer) == napi_ok && buffer != nullptr) {
      napi_detach_arraybuffer(env, buffer);
    }
  }
  napi_delete_reference(env, held.ref);
}

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

napi_value throw_stale(napi_env env, uint32_t id) {
  return throw_error(env, ErrorKind::kStale,
      "BatchMeta used after its transform() call returned (call " + std::to_string(id) +
          " has ended); copy the values you need with toJSON()");
}

bool read_call_id(napi_env env, napi_value value, uint32_t* id) {
  return read_int<uint32_t>(env, value, FieldName("callId"), id);
}

MetaCall* find_call(Registry& r, uint32_t id) {
  for (auto it = r.calls.rbegin(); it != r.calls.rend(); ++it) {
    if ((*it)->id == id) return it->get();
  }
  return nullptr;
}

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
  if (is_true(env, text)) {
    out->nvinfer_text = true;
  } else if (!is_nullish(env, text)) {
    if (!read_object(env, text, FieldName("text")) || !parse_text(env, text, kTextPath, &out->text)) return false;
    out->has_text = true;
  }
  if (!is_nullish(env, mask)) {
    if (!read_object(env, mask, FieldName("mask")) || !parse_mask(env, mask, kMaskPath, &out->mask)) return false;
    out->has_mask = true;
  }
  return true;
}

Status compose_object(MetaCall& call, meta::ObjectHandle object, uint32_t row, ObjectExtras& extras) {
  call.batch->read_object(object, &call.before);
  call.after = call.before;
  Status status = read_object_row(call.row_slots(row), &call.after);
  if (status.ok() && extras.has_label) {
    status = meta::copy_bounded(call.after.obj_label, extras.label, "NvDsObjectMeta.obj_label");
  }
  if (extras.has_text) call.after.text_params = std::move(extras.text);
  if (status.ok() && extras.nvinfer_text) {
    call.after.text_params = meta::nvinfer_text_params();
    const char* label = call.after.obj_label;
    call.after.text_params.display_text.assign(label, strnlen(label, sizeof(call.after.obj_label)));
    if (!call.after.text_params.display_text.empty()) meta::place_label(call.after.rect_params, &call.after.text_params);
  }
  if (extras.has_mask) call.after.mask_params = std::move(extras.mask);
  return status;
}

void set_row_links(MetaCall& call, uint32_t row, int32_t parent_row, int32_t frame) {
  double* slots = call.row_slots(row);
  slots[L::kObjParentRow] = parent_row;
  slots[L::kObjFrameIndex] = frame;
}

// A zero-copy view of host memory (a tensor output's layer), one per pointer per call (see MetaCall::views).
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

}  // namespace dsnode::metabind
