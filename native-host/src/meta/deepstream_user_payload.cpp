#include "meta/deepstream_user_payload.h"

#include <glib.h>

#include <atomic>
#include <cstring>

#include "meta/deepstream_backend.h"
#include "meta/deepstream_library.h"

namespace dsnode::meta {

namespace {

// Distinct user meta type strings this process interned (write_payload), and whether the
// warning past the bound was given (take_user_meta_types_warning).
std::atomic<size_t> interned_types{0};
std::atomic<bool> interned_types_warned{false};

constexpr uint32_t kPayloadMagic = 0x44534E55;  // "DSNU"

uint8_t *payload_bytes(PayloadHeader *header) { return reinterpret_cast<uint8_t *>(header + 1); }

PayloadHeader *new_payload(const char *type, PayloadKind kind, const uint8_t *bytes, size_t size) {
  auto *header = static_cast<PayloadHeader *>(g_malloc(sizeof(PayloadHeader) + size + 1));
  *header = {kPayloadMagic, kind, size, type};
  if (size > 0) std::memcpy(payload_bytes(header), bytes, size);
  payload_bytes(header)[size] = 0;
  return header;
}

PayloadHeader *header_of(gpointer user_meta_data) {
  return reinterpret_cast<PayloadHeader *>(user_meta_data) - 1;
}

gpointer payload_copy(gpointer data, gpointer) {
  const PayloadHeader *from = header_of(static_cast<NvDsUserMeta *>(data)->user_meta_data);
  return payload_bytes(new_payload(from->type, from->kind, payload_bytes(const_cast<PayloadHeader *>(from)), from->size));
}

void payload_release(gpointer data, gpointer) {
  auto *user = static_cast<NvDsUserMeta *>(data);
  if (user->user_meta_data != nullptr) g_free(header_of(user->user_meta_data));
  user->user_meta_data = nullptr;
}

}  // namespace

const PayloadHeader *own_payload(const NvDsUserMeta *user) {
  if (user->base_meta.release_func != payload_release || user->user_meta_data == nullptr)
    return nullptr;
  const PayloadHeader *header = header_of(user->user_meta_data);
  return header->magic == kPayloadMagic ? header : nullptr;
}

void write_payload(NvDsUserMeta *user, const UserMetaFields &fields) {
  // nvds_get_user_meta_type keeps the pointer it is given (g_quark_from_static_string): it
  // must outlive the process, as interned strings do. So does every distinct type string.
  if (g_quark_try_string(fields.meta_type.c_str()) == 0)
    interned_types.fetch_add(1, std::memory_order_relaxed);
  const char *type = g_intern_string(fields.meta_type.c_str());
  if (own_payload(user) != nullptr)
    payload_release(user, nullptr);
  user->user_meta_data = payload_bytes(new_payload(type, fields.kind, fields.payload.data(), fields.payload.size()));
  user->base_meta.copy_func = payload_copy;
  user->base_meta.release_func = payload_release;
  user->base_meta.meta_type = ds().nvds_get_user_meta_type(const_cast<gchar *>(type));
}

size_t user_meta_types_warning_bound() {
  if (const char *text = g_getenv("DS_ELEMENT_USER_META_TYPES_WARN"); text != nullptr && *text != '\0') {
    char *end = nullptr;
    const unsigned long long bound = g_ascii_strtoull(text, &end, 10);
    if (end != text && *end == '\0') return static_cast<size_t>(bound);
  }
  return kUserMetaTypesWarningBound;
}

bool take_user_meta_types_warning(size_t *count) {
  static const size_t bound = user_meta_types_warning_bound();
  const size_t interned = interned_types.load(std::memory_order_relaxed);
  if (bound == 0 || interned <= bound || interned_types_warned.exchange(true))
    return false;
  *count = interned;
  return true;
}

}  // namespace dsnode::meta
