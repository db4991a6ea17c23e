// Starts Node.js (libnode, 18 to 24): the process's shared environment on its own JS thread, and
// environments of one element's own beside it. Free of node.h so the
// C ABI layer can call it.
#ifndef DSNODE_EMBED_NODE_EMBED_H
#define DSNODE_EMBED_NODE_EMBED_H

#include <memory>
#include <string>

#include "common/runtime_api.h"

namespace dsnode {
class Handoff;
}

namespace dsnode::embed {

// Thread-safe; the first call starts Node and blocks until it runs host.js or failed, later
// calls return at once. Node lives until process exit (atexit tears it down): V8 cannot be
// initialised twice in one process, so there is no restart.
bool ensure_started(const DsnodeHostCallbacks& callbacks, const std::string& host_js,
    std::string* error);

// After ensure_started succeeded: starts a Node environment of its own (isolate, loop, JS thread)
// for one element and blocks until host.js ran there. Returns its hand-off, kept alive by *keep
// (the Instance holds it); the environment stops once that instance's destroy call has run
// (Handoff::stop_after_destroy). Null with *error when it cannot start.
Handoff* start_own_environment(std::shared_ptr<void>* keep, std::string* error);

}  // namespace dsnode::embed

#endif
