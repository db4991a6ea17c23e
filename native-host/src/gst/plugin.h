// Shared by the plugin's files: the `dsnode` debug category (plugin-wide messages: manifest
// problems, runtime loading). Each element also has its own category, named after it.
#ifndef DSNODE_GST_PLUGIN_H
#define DSNODE_GST_PLUGIN_H

#include <gst/gst.h>

GST_DEBUG_CATEGORY_EXTERN(dsnode_debug);

#endif
