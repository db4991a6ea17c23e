// The functions of the binding's `meta` object (meta_functions.h; sdk/src/native/meta-binding.ts
// documents each), over the call registry (meta_call.h). Each parses its JS arguments first
// (that may run JS: getters), then enters the call (CallScope locks the registry) for the Batch
// work, then builds its JS result after unlocking.
#include "binding/meta_functions.h"

#include "binding/meta_call.h"
#include "binding/meta_kind_functions.h"

namespace dsnode::metabind {

namespace {

// The arguments (callId, frameIndex, array) of writeFrame and listObjects: the typed array (in
// place) read before the call is entered, then the frame index.
template <typename T>
struct FrameAndArray {
  uint32_t frame = 0;
  T* data = nullptr;
  size_t length = 0;
};

template <typename T>
bool read_frame_and_array(MetaFunction& f, const char* array_name, FrameAndArray<T>* out) {
  return f.typed_array(2, array_name, &out->data, &out->length) && f.enter() && f.frame(1, &out->frame);
}

// ---------------------------------------------------------------- frames

napi_value write_frame(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "writeFrame");
  FrameAndArray<double> state;
  if (!read_frame_and_array(f, "state", &state)) return nullptr;
  const uint32_t frame = state.frame;
  const size_t length = state.length;
  const size_t needed = L::state_length(frame + 1);
  if (length < needed) {
    return throw_error(env, ErrorKind::kRange,
        "Expected a state array of at least " + std::to_string(needed) + " values for writeFrame(frameIndex " +
            std::to_string(frame) + ") but received " + std::to_string(length) + " values");
  }
  meta::FrameFields fields;
  Status status = read_frame_record(state.data + L::kStateFramesBase + frame * L::kStateFrameStride, &fields);
  if (status.ok()) status = f.batch().write_frame(f.call().frames[frame], fields);
  if (!status.ok()) return throw_status(env, status);
  return make_undefined(env);
}

// ---------------------------------------------------------------- objects

napi_value bind_object_table(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "bindObjectTable");
  double* table = nullptr;
  size_t length = 0;
  if (!f.typed_array(1, "table", &table, &length) || !f.enter(false)) return nullptr;
  napi_ref ref = nullptr;
  if (napi_create_reference(env, f[1], 1, &ref) != napi_ok) return nullptr;
  MetaCall& call = f.call();
  if (call.table.ref != nullptr) release_refs(env, {call.table}, registry());
  call.table = HeldRef{env, ref, false};
  call.table_data = table;
  call.table_rows = length / L::kObjStride;
  return make_undefined(env);
}

napi_value throw_table_full(napi_env env, const char* operation, size_t rows_needed, size_t rows) {
  return throw_error(env, ErrorKind::kTableFull,
      "Expected an object table of at least " + std::to_string(rows_needed) + " rows for " + operation +
          " but received one of " + std::to_string(rows) + " rows; grow it and bindObjectTable again");
}

napi_value acquire_object(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "acquireObject");
  if (!f.enter()) return nullptr;
  MetaCall& call = f.call();
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
  MetaFunction f(env, info, "addObject");
  ObjectExtras extras;
  uint32_t row = 0, frame = 0, parent_row = 0;
  meta::ObjectHandle object, parent;
  double parent_number = 0;
  if (!f.ok() || !parse_extras(env, f[4], f[5], f[6], &extras) || !f.enter() || !f.row(1, "row", &row, &object) ||
      !f.frame(2, &frame) || !read_double(env, f[3], FieldName("parentRow"), &parent_number)) {
    return nullptr;
  }
  if (parent_number != -1 && !f.live(3, "parentRow", &parent, &parent_row)) return nullptr;
  MetaCall& call = f.call();
  Status status = compose_object(call, object, row, extras);
  if (status.ok()) status = call.batch->write_object(object, call.after, &call.before);
  if (!status.ok()) return throw_status(env, status);
  status = call.batch->add_object(call.frames[frame], object, parent);
  if (!status.ok()) {
    call.batch->write_object(object, call.before, &call.before);  // a failed call changes nothing
    return throw_status(env, status);
  }
  call.row_frames[row] = static_cast<int32_t>(frame);
  set_row_links(call, row, parent ? static_cast<int32_t>(parent_row) : -1, static_cast<int32_t>(frame));
  return make_undefined(env);
}

napi_value write_object(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "writeObject");
  ObjectExtras extras;
  uint32_t row = 0;
  meta::ObjectHandle object;
  if (!f.ok() || !parse_extras(env, f[2], f[3], f[4], &extras) || !f.enter() || !f.row(1, "row", &row, &object)) {
    return nullptr;
  }
  MetaCall& call = f.call();
  Status status = compose_object(call, object, row, extras);
  if (status.ok()) status = call.batch->write_object(object, call.after, &call.before);
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
  MetaFunction f(env, info, "removeObject");
  uint32_t row = 0, frame = 0;
  meta::ObjectHandle object;
  if (!f.enter() || !f.live(1, "row", &object, &row) || !f.frame(2, &frame)) return nullptr;
  MetaCall& call = f.call();
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
  MetaFunction f(env, info, "listObjects");
  FrameAndArray<int32_t> listed;
  if (!read_frame_and_array(f, "out", &listed)) return nullptr;
  const uint32_t frame = listed.frame;
  int32_t* out = listed.data;
  MetaCall& call = f.call();
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
  if (rows_needed > call.table_rows || listed.length < objects.size()) {
    call.rows.truncate(rows_before);
    return make_number(env, -static_cast<double>(rows_needed));
  }
  call.row_frames.resize(rows_needed, -1);
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
  MetaFunction f(env, info, "readObjectExtras");
  meta::ObjectHandle object;
  if (!f.enter() || !f.live(1, "row", &object)) return nullptr;
  meta::ObjectFields fields;
  f.batch().read_object(object, &fields);
  f.unlock();
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
  napi_value labels, text;
  if (!(in.integer("uniqueComponentId", "unique_component_id", &out->columns.unique_component_id) &&
          in.integer("borderWidth", "rect_params.border_width", &out->columns.border_width) &&
          in.color("borderColor", "rect_params.border_color", &out->columns.border_color) &&
          in.get("text", &text) && in.get("labels", &labels))) {
    return false;
  }
  static const Path kTextPath{"NvDsObjectMeta.text_params"};
  out->columns.label_text = !is_nullish(env, text);
  if (out->columns.label_text &&
      !(read_object(env, text, FieldName("options.text")) && parse_text(env, text, kTextPath, &out->columns.text))) {
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
  MetaFunction f(env, info, "addObjects");
  BulkArguments bulk;
  if (!f.ok() || !parse_bulk_options(env, f[3], &bulk) || !parse_bulk_columns(env, f[2], &bulk)) return nullptr;
  if (bulk.has_labels) bulk.columns.labels_by_class = &bulk.labels;
  uint32_t frame = 0;
  if (!f.enter() || !f.frame(1, &frame)) return nullptr;
  Status status = f.batch().add_objects(f.call().frames[frame], bulk.columns);
  if (!status.ok()) return throw_status(env, status);
  return make_number(env, static_cast<double>(bulk.columns.count));
}

// ---------------------------------------------------------------- classifiers and label infos

// Acquires and writes one label info (validated, but a member this DeepStream lacks is refused
// here); one never added returns to its pool at end_call.
Status write_new_label(MetaCall& call, const meta::LabelInfoFields& fields, meta::LabelInfoHandle* label) {
  *label = call.batch->acquire_label_info();
  return call.batch->write_label_info(*label, fields);
}

// Adds a label info written by write_new_label under `classifier`: its index.
uint32_t attach_label(MetaCall& call, meta::ClassifierHandle classifier, meta::LabelInfoHandle label) {
  call.batch->add_label_info(classifier, label);
  return call.labels.index_for_new(label);
}

// A label added to (removed from) a classifier already on an object counts in its num_labels, as
// nvds_add_label_info_meta_to_classifier counts it (nvdsmeta.c:227, 316); the labels sent with
// addClassifier are counted in the num_labels written with it.
void count_labels(MetaCall& call, meta::ClassifierHandle classifier, int change) {
  meta::ClassifierFields fields;
  call.batch->read_classifier(classifier, &fields);
  if (change < 0 && fields.num_labels == 0) return;
  fields.num_labels += change;
  call.batch->write_classifier(classifier, fields);  // the values it holds: cannot fail
}

napi_value add_classifier(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "addClassifier");
  meta::ClassifierFields fields;
  std::vector<meta::LabelInfoFields> labels;
  meta::ObjectHandle object;
  if (!f.ok() || !parse_classifier(env, f[2], &fields, &labels) || !f.enter() || !f.live(1, "objectRow", &object)) {
    return nullptr;
  }
  MetaCall& call = f.call();
  meta::ClassifierHandle classifier = call.batch->acquire_classifier();
  Status status = call.batch->write_classifier(classifier, fields);
  // Every label written before anything is added: a refused one leaves the object as it was.
  std::vector<meta::LabelInfoHandle> written(labels.size());
  for (size_t i = 0; status.ok() && i < labels.size(); ++i) status = write_new_label(call, labels[i], &written[i]);
  if (status.ok()) status = call.batch->add_classifier(object, classifier);
  if (!status.ok()) return throw_status(env, status);  // the acquired metas return at end_call
  const uint32_t index = call.classifiers.index_for_new(classifier);
  for (meta::LabelInfoHandle label : written) attach_label(call, classifier, label);
  return make_number(env, index);
}

napi_value add_label_info(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "addLabelInfo");
  meta::LabelInfoFields fields;
  meta::ClassifierHandle classifier;
  if (!f.ok() || !parse_label_info(env, f[2], Path{"NvDsLabelInfo"}, &fields) || !f.enter() ||
      !f.live(1, "classifierIndex", &classifier)) {
    return nullptr;
  }
  MetaCall& call = f.call();
  meta::LabelInfoHandle label;
  const Status status = write_new_label(call, fields, &label);
  if (!status.ok()) return throw_status(env, status);
  const uint32_t label_index = attach_label(call, classifier, label);
  count_labels(call, classifier, +1);
  return make_number(env, label_index);
}

// removeClassifier(callId, objectRow, classifierIndex), removeLabelInfo(callId, classifierIndex,
// labelIndex): both handles live, then `remove(call, parent, child)` (MetaFunction::removed).
template <typename Parent, typename Child, typename Remove>
napi_value remove_child(napi_env env, napi_callback_info info, const char* operation, const char* parent_name,
    const char* child_name, Remove remove) {
  MetaFunction f(env, info, operation);
  Parent parent;
  Child child;
  if (!f.enter() || !f.live(1, parent_name, &parent) || !f.live(2, child_name, &child)) return nullptr;
  return f.removed(remove(f.call(), parent, child), child);
}

napi_value remove_classifier(napi_env env, napi_callback_info info) {
  return remove_child<meta::ObjectHandle, meta::ClassifierHandle>(env, info, "removeClassifier", "objectRow",
      "classifierIndex", [](MetaCall& call, meta::ObjectHandle object, meta::ClassifierHandle classifier) {
        std::vector<meta::LabelInfoHandle> labels;  // removed with it
        call.batch->label_infos(classifier, &labels);
        Status status = call.batch->remove_classifier(object, classifier);
        if (status.ok()) {
          for (meta::LabelInfoHandle label : labels) call.labels.kill(label);
        }
        return status;
      });
}

napi_value remove_label_info(napi_env env, napi_callback_info info) {
  return remove_child<meta::ClassifierHandle, meta::LabelInfoHandle>(env, info, "removeLabelInfo", "classifierIndex",
      "labelIndex", [](MetaCall& call, meta::ClassifierHandle classifier, meta::LabelInfoHandle label) {
        Status status = call.batch->remove_label_info(classifier, label);
        if (status.ok()) count_labels(call, classifier, -1);
        return status;
      });
}

struct ClassifierCopy {
  uint32_t index;
  meta::ClassifierFields fields;
  std::vector<std::pair<uint32_t, meta::LabelInfoFields>> labels;
};

napi_value list_classifiers(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "listClassifiers");
  meta::ObjectHandle object;
  if (!f.enter() || !f.live(1, "objectRow", &object)) return nullptr;
  MetaCall& call = f.call();
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
  f.unlock();
  return array_of(env, copies, [env](const ClassifierCopy& copy) {
    return classifier_value(env, copy.index, copy.fields, copy.labels);
  });
}

// ---------------------------------------------------------------- display metas

napi_value add_display(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "addDisplay");
  meta::DisplayContent content;
  uint32_t frame = 0;
  if (!f.ok() || !parse_display_content(env, f[2], &content) || !f.enter() || !f.frame(1, &frame)) return nullptr;
  MetaCall& call = f.call();
  std::vector<meta::DisplayHandle> created;
  Status status = call.batch->add_display_content(call.frames[frame], content, &created);
  if (!status.ok()) return throw_status(env, status);
  std::vector<uint32_t> indices;
  for (meta::DisplayHandle display : created) indices.push_back(call.displays.index_for_new(display));
  f.unlock();
  return array_of(env, indices, [env](uint32_t index) { return make_number(env, index); });
}

napi_value remove_display(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "removeDisplay");
  uint32_t frame = 0;
  meta::DisplayHandle display;
  if (!f.enter() || !f.frame(1, &frame) || !f.live(2, "displayIndex", &display)) return nullptr;
  return f.removed(f.batch().remove_display(f.call().frames[frame], display), display);
}

napi_value list_displays(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "listDisplays");
  uint32_t frame = 0;
  if (!f.enter() || !f.frame(1, &frame)) return nullptr;
  MetaCall& call = f.call();
  std::vector<meta::DisplayHandle> displays;
  call.batch->displays(call.frames[frame], &displays);
  // DisplayFields is ~10 KB: copies on the heap, built into JS after unlocking.
  std::vector<std::pair<uint32_t, std::unique_ptr<meta::DisplayFields>>> copies(displays.size());
  for (size_t i = 0; i < displays.size(); ++i) {
    copies[i].first = call.displays.index_for(displays[i]);
    copies[i].second = std::make_unique<meta::DisplayFields>();
    call.batch->read_display(displays[i], copies[i].second.get());
  }
  f.unlock();
  return array_of(env, copies, [env](const std::pair<uint32_t, std::unique_ptr<meta::DisplayFields>>& copy) {
    return display_value(env, copy.first, *copy.second);
  });
}

// ---------------------------------------------------------------- user metas

bool parse_user_meta(napi_env env, const Args& args, meta::UserMetaFields* out) {
  double kind_number = 0;
  if (!read_string(env, args[3], FieldName("metaType"), &out->meta_type) ||
      !read_double(env, args[4], FieldName("kind"), &kind_number)) {
    return false;
  }
  if (kind_number != 0 && kind_number != 1) {
    throw_error(env, ErrorKind::kRange,
        "Expected 0 (bytes) or 1 (JSON) for kind but received " + meta::describe_number(kind_number));
    return false;
  }
  if (!read_vector(env, args[5], FieldName("payload"), &out->payload)) return false;
  out->kind = kind_number == 0 ? meta::PayloadKind::kBytes : meta::PayloadKind::kJson;
  Status status = meta::validate_user_meta(*out);
  if (!status.ok()) {
    throw_status(env, status);
    return false;
  }
  return true;
}

napi_value add_user_meta(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "addUserMeta");
  meta::UserMetaFields fields;
  meta::UserMetaLevel level;
  void* owner = nullptr;
  if (!f.ok() || !parse_user_meta(env, f.args, &fields) || !f.enter() || !f.owner(1, &level, &owner)) return nullptr;
  MetaCall& call = f.call();
  meta::UserHandle user = call.batch->acquire_user_meta();
  Status status = call.batch->write_user_meta(user, fields);
  if (status.ok()) status = call.batch->add_user_meta(level, owner, user);
  if (!status.ok()) return throw_status(env, status);  // the acquired meta returns at end_call
  return make_number(env, call.users.index_for_new(user));
}

napi_value remove_user_meta(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "removeUserMeta");
  meta::UserMetaLevel level;
  void* owner = nullptr;
  meta::UserHandle user;
  if (!f.enter() || !f.owner(1, &level, &owner) || !f.live(3, "userIndex", &user)) return nullptr;
  return f.removed(f.batch().remove_user_meta(level, owner, user), user);
}

napi_value list_user_metas(napi_env env, napi_callback_info info) {
  MetaFunction f(env, info, "listUserMetas");
  meta::UserMetaLevel level;
  void* owner = nullptr;
  if (!f.enter() || !f.owner(1, &level, &owner)) return nullptr;
  MetaCall& call = f.call();
  std::vector<meta::UserHandle> users;
  call.batch->user_metas(level, owner, &users);
  std::vector<std::pair<uint32_t, meta::UserMetaFields>> copies(users.size());
  for (size_t i = 0; i < users.size(); ++i) {
    copies[i].first = call.users.index_for(users[i]);
    call.batch->read_user_meta(users[i], &copies[i].second);
  }
  f.unlock();
  return array_of(env, copies, [env](const std::pair<uint32_t, meta::UserMetaFields>& copy) {
    return user_meta_value(env, copy.first, copy.second);
  });
}

napi_value read_tensor_output(napi_env env, napi_callback_info info) {
  static constexpr UserMetaKind kKind{"readTensorOutput", "a tensor output user meta (NVDSINFER_TENSOR_OUTPUT_META)"};
  return read_user_meta_as(env, info, kKind, &meta::Batch::read_tensor_output,
      [env](MetaFunction& f, const meta::TensorOutput& output) -> napi_value {
        // Views are made under the lock: close_call must find every one to detach it.
        std::vector<napi_value> views(output.layers.size(), nullptr);
        for (size_t i = 0; i < output.layers.size(); ++i) {
          const meta::TensorLayer& layer = output.layers[i];
          if (layer.host_buffer == nullptr) continue;
          const size_t size = static_cast<size_t>(layer.num_elements) * meta::tensor_element_size(layer.data_type);
          if ((views[i] = host_view(env, f.call(), layer.host_buffer, size)) == nullptr) return nullptr;
        }
        f.unlock();
        return tensor_output_value(env, output, views);
      });
}

// ---------------------------------------------------------------- the meta object

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

}  // namespace

napi_value make_meta_object(napi_env env) {
  return ObjectBuilder(env)
      .number("layoutVersion", L::kMetaLayoutVersion)
      .functions(kExports)
      .functions(kEventMsgExports)
      .functions(kAnalyticsMetaExports)
      .functions(kSegmentationMetaExports)
      .functions(kComponentMetaExports)
      .value();
}

}  // namespace dsnode::metabind
