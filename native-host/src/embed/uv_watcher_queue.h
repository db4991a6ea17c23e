// The one place ds-element reads libuv's private state: the loop's queue of watchers whose
// interest changed since its last poll. The JS thread sleeps in poll() on the loop's backend
// fd (embed/node_embed.cpp, direct mode); a watcher started or changed since the last
// uv__io_poll is not in the epoll set yet, so that sleep would not see it. libuv has no public
// call for this. Its layout per libuv version is kept here and checked, on the libuv that runs,
// by uv_watcher_queue_check (at the runtime's start, and by native-host/test/uv_watcher_queue_test.cpp).
#ifndef DSNODE_EMBED_UV_WATCHER_QUEUE_H
#define DSNODE_EMBED_UV_WATCHER_QUEUE_H

#include <uv.h>

#include <string>

namespace dsnode::embed {

// Whether watchers wait on the loop's watcher queue for the next poll to apply them.
// Any thread that holds the loop (under the isolate's Locker in the runtime); no allocation.
bool uv_watchers_pending(const uv_loop_t* loop);

// Checks uv_watchers_pending against the running libuv on a scratch loop: false once the loop
// polled, true once a watcher started, false after the next uv_run. Empty when all holds, else what failed
// (with the libuv version that runs and the one the host was built against).
std::string uv_watcher_queue_check();

}  // namespace dsnode::embed

#endif
