// The generic element shell: one GstBaseTransform subclass (in place) per manifest, all
// deriving from the abstract DsNodeElement, which forwards everything to the runtime.
#ifndef DSNODE_GST_ELEMENT_H
#define DSNODE_GST_ELEMENT_H

#include <gst/gst.h>

#include <string>

#include "gst/manifest.h"

namespace dsnode {

// Registers the element's GType (with its property enums and debug category) and its
// factory. `manifest` becomes the class data and must live as long as the process.
// On failure nothing usable is registered and *error says why.
bool register_element(GstPlugin *plugin, const Manifest *manifest, std::string *error);

}  // namespace dsnode

#endif
