// The runtime's one reading of libuv's private state (src/embed/uv_watcher_queue.h), on the
// libuv this host runs with: a watcher started, or whose interest changed, reads as pending
// until the loop polls once. Prints "N passed, M failed".
#include <unistd.h>

#include <cstdio>
#include <string>

#include "check.h"
#include "embed/uv_watcher_queue.h"

using dsnode::embed::uv_watcher_queue_check;
using dsnode::embed::uv_watchers_pending;
using dsnode_test::check;
using dsnode_test::failed;
using dsnode_test::passed;

namespace {

void on_poll(uv_poll_t*, int, int) {}

}  // namespace

int main() {
  std::printf("# libuv %s running, built against %d.%d.%d\n", uv_version_string(), UV_VERSION_MAJOR,
      UV_VERSION_MINOR, UV_VERSION_PATCH);
  const std::string self_check = uv_watcher_queue_check();
  check(self_check.empty(), "the runtime's start-up check passes", self_check);

  uv_loop_t loop;
  uv_loop_init(&loop);
  int fds[2];
  if (pipe(fds) != 0) return 1;
  uv_poll_t reader, writer;
  uv_poll_init(&loop, &reader, fds[0]);
  uv_poll_init(&loop, &writer, fds[1]);
  // uv_run polls only a loop with active handles (until then uv_loop_init's own watchers, such
  // as libuv 1.44's signal pipe, stay queued): the write end keeps this one alive.
  uv_poll_start(&writer, UV_WRITABLE, on_poll);
  check(uv_watchers_pending(&loop), "a started watcher is pending");
  uv_run(&loop, UV_RUN_NOWAIT);
  check(!uv_watchers_pending(&loop), "one turn of the loop applies it");
  uv_poll_start(&reader, UV_READABLE, on_poll);
  check(uv_watchers_pending(&loop), "a watcher started on a polled loop is pending");
  uv_run(&loop, UV_RUN_NOWAIT);
  check(!uv_watchers_pending(&loop), "and applied after one turn");

  uv_poll_start(&reader, UV_READABLE | UV_DISCONNECT, on_poll);
  check(uv_watchers_pending(&loop), "a watcher whose interest grew is pending");
  uv_run(&loop, UV_RUN_NOWAIT);
  check(!uv_watchers_pending(&loop), "and applied after the next turn");

  uv_close(reinterpret_cast<uv_handle_t*>(&reader), nullptr);
  uv_close(reinterpret_cast<uv_handle_t*>(&writer), nullptr);
  uv_run(&loop, UV_RUN_NOWAIT);
  check(uv_loop_close(&loop) == 0, "the loop closes");
  close(fds[0]);
  close(fds[1]);
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
