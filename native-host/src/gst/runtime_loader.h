// Loads libnode and libdsnode-runtime.so.0 on demand (the first element start), once per
// process. Nothing here runs at plugin_init: gst-inspect must not pay for Node.
#ifndef DSNODE_GST_RUNTIME_LOADER_H
#define DSNODE_GST_RUNTIME_LOADER_H

#include <string>

#include "common/runtime_api.h"

namespace dsnode {

struct LoadedRuntime {
  const DsnodeRuntimeApi *api = nullptr;
  std::string host_js;          // absolute path of dsnode/host.js
};

// Returns the runtime, or nullptr with *message (one line naming the path(s) tried and the
// fix) and *details (each attempt's loader error). The outcome, success or failure, is kept
// for the process: dlopen cannot be undone, so retrying would give the same answer.
const LoadedRuntime *load_runtime(std::string *message, std::string *details);

// Folder holding libgstdsnode.so, found through dladdr (empty when unknown).
std::string plugin_directory();

}  // namespace dsnode

#endif
