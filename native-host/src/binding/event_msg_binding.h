// The event message functions of the binding's `meta` object (sdk/src/native/event-msg-binding.ts
// documents the values): addEventMsg(callId, level, owner, msg) and readEventMsg(callId,
// userIndex), over meta/event_msg.h. The JS object carries NvDsEventMsgMeta's member names.
#ifndef DSNODE_BINDING_EVENT_MSG_BINDING_H
#define DSNODE_BINDING_EVENT_MSG_BINDING_H

#include <node_api.h>

namespace dsnode::metabind {

napi_value add_event_msg(napi_env env, napi_callback_info info);
napi_value read_event_msg(napi_env env, napi_callback_info info);

}  // namespace dsnode::metabind

#endif
