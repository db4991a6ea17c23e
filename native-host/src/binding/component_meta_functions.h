// The `meta` object's readers of NVIDIA components' metas (component_meta_functions.cpp).
#ifndef DSNODE_BINDING_COMPONENT_META_FUNCTIONS_H
#define DSNODE_BINDING_COMPONENT_META_FUNCTIONS_H

#include "binding/js_values.h"

namespace dsnode::metabind {

// Adds readTrackerTargets, readReid, readPreprocessBatch, readRoi and readSensorInfo.
ObjectBuilder& add_component_meta_functions(ObjectBuilder& meta_object);

}  // namespace dsnode::metabind

#endif
