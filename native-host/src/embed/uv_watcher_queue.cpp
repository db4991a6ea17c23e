#include "embed/uv_watcher_queue.h"

#include <unistd.h>

#include <cstdio>

namespace dsnode::embed {

// libuv's queues are circular lists of {next, prev}; an empty one points at itself. Before
// 1.48 a queue was `void* [2]` (QUEUE_NEXT(q) is q[0]); 1.48 made it `struct uv__queue`.
// Both put `next` first in the same two pointers, so a host built against either reads a
// loop of the other correctly; uv_watcher_queue_check says so at run time.
#if UV_VERSION_HEX >= 0x013000
bool uv_watchers_pending(const uv_loop_t* loop) {
  static_assert(sizeof(loop->watcher_queue) == 2 * sizeof(void*), "libuv queue: {next, prev}");
  return loop->watcher_queue.next != &loop->watcher_queue;
}
#else
bool uv_watchers_pending(const uv_loop_t* loop) {
  static_assert(sizeof(loop->watcher_queue) == 2 * sizeof(void*), "libuv queue: void* [2]");
  return loop->watcher_queue[0] != static_cast<const void*>(&loop->watcher_queue);
}
#endif

namespace {

std::string versions() {
  char text[96];
  std::snprintf(text, sizeof text, " (libuv %s running, host built against %d.%d.%d)", uv_version_string(),
      UV_VERSION_MAJOR, UV_VERSION_MINOR, UV_VERSION_PATCH);
  return text;
}

// One non-blocking turn of the loop (which polls: the loop has active handles), then the queue.
bool pending_after_a_turn(uv_loop_t* loop) {
  uv_run(loop, UV_RUN_NOWAIT);
  return uv_watchers_pending(loop);
}

void close_all(uv_loop_t* loop, uv_poll_t* writer, uv_poll_t* reader, const int fds[2]) {
  uv_close(reinterpret_cast<uv_handle_t*>(writer), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(reader), nullptr);
  uv_run(loop, UV_RUN_NOWAIT);
  uv_loop_close(loop);
  close(fds[0]);
  close(fds[1]);
}

}  // namespace

std::string uv_watcher_queue_check() {
  if (uv_version() >> 16 != UV_VERSION_MAJOR) return "libuv's major version differs" + versions();
  uv_loop_t loop;
  if (uv_loop_init(&loop) != 0) return "uv_loop_init failed" + versions();
  int fds[2];
  if (pipe(fds) != 0) {
    uv_loop_close(&loop);
    return "pipe() failed";
  }
  // uv_run polls only a loop with active handles: the write end (always writable) keeps it so.
  uv_poll_t writer, reader;
  uv_poll_init(&loop, &writer, fds[1]);
  uv_poll_init(&loop, &reader, fds[0]);
  auto ignore = [](uv_poll_t*, int, int) {};
  std::string failure;
  if (uv_poll_start(&writer, UV_WRITABLE, ignore) != 0) {
    failure = "uv_poll_start failed";
  } else if (pending_after_a_turn(&loop)) {
    failure = "a loop that polled reads as having pending watchers";
  } else if (uv_poll_start(&reader, UV_READABLE, ignore) != 0) {
    failure = "uv_poll_start failed";
  } else if (!uv_watchers_pending(&loop)) {
    failure = "a watcher just started reads as not pending";
  } else if (pending_after_a_turn(&loop)) {
    failure = "a watcher the loop polled still reads as pending";
  }
  close_all(&loop, &writer, &reader, fds);
  return failure.empty() ? failure : failure + versions();
}

}  // namespace dsnode::embed
