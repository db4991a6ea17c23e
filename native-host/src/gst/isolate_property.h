// The `isolate` property every ds-element has: where its JavaScript runs. `shared`: in the
// process's one Node environment, with every other element set so (one JS thread for them all);
// `own`: in a Node environment of its own (isolate, event loop, JS thread), started with the
// element and stopped with it, so N busy elements use N cores (docs/internals/isolates.md).
// DS_ELEMENT_ISOLATE=own|shared sets the default.
#ifndef DSNODE_GST_ISOLATE_PROPERTY_H
#define DSNODE_GST_ISOLATE_PROPERTY_H

#include <gst/gst.h>

namespace dsnode {

enum class IsolateMode : gint { kShared = 0, kOwn = 1 };
inline constexpr const char *kIsolateProperty = "isolate";

// The default: DS_ELEMENT_ISOLATE when it names a mode (a warning otherwise), else shared.
IsolateMode default_isolate_mode();

// Installs the property on the base class of every ds-element (id `id` of that class).
void install_isolate_property(GObjectClass *klass, guint id);

}  // namespace dsnode

#endif
