// NVIDIA's metadata libraries (libnvds_meta.so, libnvdsgst_meta.so): the functions the
// DeepStream backend calls, as one table. Internal to the DeepStream backend
// (meta/deepstream_*.cpp); it includes DeepStream's headers.
#ifndef DSNODE_META_DEEPSTREAM_LIBRARY_H
#define DSNODE_META_DEEPSTREAM_LIBRARY_H

#include <string>

#include "gstnvdsmeta.h"
#include "nvdsmeta.h"

namespace dsnode::meta {

// Opened on first use (dlopen), not linked: a plugin built against DeepStream then loads where
// DeepStream is absent and says so in one error (load_deepstream) instead of GStreamer
// dropping it over a bare "cannot open shared object file".
#define DSNODE_NVDS_META_FUNCTIONS(X) \
  X(nvds_destroy_batch_meta) \
  X(nvds_add_user_meta_to_batch) \
  X(nvds_add_classifier_meta_to_object) \
  X(nvds_remove_user_meta_from_batch) \
  X(nvds_remove_obj_meta_from_frame) \
  X(nvds_remove_display_meta_from_frame) \
  X(nvds_get_user_meta_type) \
  X(nvds_add_user_meta_to_obj) \
  X(nvds_add_user_meta_to_frame) \
  X(nvds_add_obj_meta_to_frame) \
  X(nvds_add_label_info_meta_to_classifier) \
  X(nvds_add_display_meta_to_frame) \
  X(nvds_acquire_user_meta_from_pool) \
  X(nvds_acquire_obj_meta_from_pool) \
  X(nvds_acquire_classifier_meta_from_pool) \
  X(nvds_remove_user_meta_from_object) \
  X(nvds_remove_user_meta_from_frame) \
  X(nvds_remove_label_info_meta_from_classifier) \
  X(nvds_remove_classifier_meta_from_obj) \
  X(nvds_release_meta_lock) \
  X(nvds_create_batch_meta) \
  X(nvds_add_frame_meta_to_batch) \
  X(nvds_acquire_meta_lock) \
  X(nvds_acquire_label_info_meta_from_pool) \
  X(nvds_acquire_frame_meta_from_pool) \
  X(nvds_acquire_display_meta_from_pool) \
  X(nvds_batch_meta_copy_func) \
  X(nvds_batch_meta_release_func)
#define DSNODE_NVDSGST_META_FUNCTIONS(X) \
  X(gst_buffer_get_nvds_batch_meta) \
  X(gst_buffer_add_nvds_meta)

struct DeepStreamApi {
#define DSNODE_DECLARE(name) decltype(&::name) name = nullptr;
  DSNODE_NVDS_META_FUNCTIONS(DSNODE_DECLARE)
  DSNODE_NVDSGST_META_FUNCTIONS(DSNODE_DECLARE)
#undef DSNODE_DECLARE
  bool loaded = false;
  bool wrong_version = false;  // loaded, but not the DeepStream of the headers built with
  std::string error;           // why it did not load
  std::string library_path;    // the libnvds_meta.so it loaded
};

// The table, loaded by the first call (load_deepstream in meta/deepstream_backend.h says why it
// did not load); every later call returns the same.
const DeepStreamApi &deepstream_api();

// The table's functions, only after load_deepstream() said yes (every entry point checks it).
inline const DeepStreamApi &ds() { return deepstream_api(); }

}  // namespace dsnode::meta

#endif
