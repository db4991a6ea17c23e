// The event message model (event_msg.h) as DeepStream holds it: an NvDsEventMsgMeta allocated as
// NVIDIA's samples do (deepstream-test4: g_malloc0 of the struct, g_strdup of every string, the
// extension object g_malloc0'd with its own strings), and the copy and release functions of the
// NvDsUserMeta that carries it, so that a buffer copy (a tee branch, nvds_batch_meta_copy_func)
// gets a deep copy and every copy frees only its own. DeepStream build only.
#ifndef DSNODE_META_EVENT_MSG_DEEPSTREAM_H
#define DSNODE_META_EVENT_MSG_DEEPSTREAM_H

#include <cstdint>

#include "meta/event_msg.h"
#include "nvdsmeta.h"
#include "nvdsmeta_schema.h"

namespace dsnode::meta {

// A new NvDsEventMsgMeta holding its own copies of every string, the signature and the extension.
NvDsEventMsgMeta *new_event_msg_meta(const EventMsg &msg);

// What an NvDsEventMsgMeta holds, ours or another component's (NULL strings read as empty; an
// extension object is read for vehicle, person and face when extMsgSize covers its struct).
void read_event_msg_meta(const NvDsEventMsgMeta &meta, EventMsg *out);

// NvDsUserMeta copy_func / release_func of the metas new_event_msg_meta makes.
gpointer event_msg_meta_copy(gpointer user_meta, gpointer user_data);
void event_msg_meta_release(gpointer user_meta, gpointer user_data);

// NvDsEventMsgMeta this process made (new_event_msg_meta, event_msg_meta_copy) and has not
// released yet: what a leak test counts.
int64_t event_msgs_alive();

}  // namespace dsnode::meta

#endif
