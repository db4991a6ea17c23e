// The payloads of the user metas the DeepStream backend writes, and their type strings.
// Internal to the DeepStream backend (meta/deepstream_*.cpp); it includes DeepStream's headers.
#ifndef DSNODE_META_DEEPSTREAM_USER_PAYLOAD_H
#define DSNODE_META_DEEPSTREAM_USER_PAYLOAD_H

#include <cstddef>
#include <cstdint>

#include "meta/model.h"
#include "nvdsmeta.h"

namespace dsnode::meta {

// User meta payloads we write: user_meta_data points at the payload's bytes, so that C code
// downstream reads them as DeepStream components read any user meta: find it by meta_type
// (nvds_get_user_meta_type("ORG.COMPONENT.DESCRIPTION")) and cast user_meta_data to the
// struct it expects. JSON is its UTF-8 text. A NUL follows the bytes. Our header (type, kind,
// size) sits just before them in the same allocation; copy_func/release_func duplicate and
// free the whole block, so a tee's copy carries it.

struct alignas(16) PayloadHeader {
  uint32_t magic;
  PayloadKind kind;
  size_t size;
  const char *type;  // interned
};

// The payload header of `user` when we wrote its payload (write_payload); else null (a foreign
// meta, or none written yet).
const PayloadHeader *own_payload(const NvDsUserMeta *user);

// Gives `user` the type and payload of `fields` (validated), replacing a payload of ours: the
// bytes, the copy and release functions that carry them through a tee, and the meta_type
// nvds_get_user_meta_type gives the type string (interned for the process's life).
void write_payload(NvDsUserMeta *user, const UserMetaFields &fields);

}  // namespace dsnode::meta

#endif
