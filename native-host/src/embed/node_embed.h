// Starts the process's one Node.js (libnode, 18 to 24) on its own JS thread. Free of node.h so the
// C ABI layer can call it.
#ifndef DSNODE_EMBED_NODE_EMBED_H
#define DSNODE_EMBED_NODE_EMBED_H

#include <string>

#include "common/runtime_api.h"

namespace dsnode::embed {

// Thread-safe; the first call starts Node and blocks until it runs host.js or failed, later
// calls return at once. Node lives until process exit (atexit tears it down): V8 cannot be
// initialised twice in one process, so there is no restart.
bool ensure_started(const DsnodeHostCallbacks& callbacks, const std::string& host_js,
    std::string* error);

}  // namespace dsnode::embed

#endif
