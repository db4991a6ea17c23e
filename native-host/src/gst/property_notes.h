// A value outside a property's GParamSpec range is refused by GObject inside
// g_object_set_property(), before the element is called: GLib warns (`value "-5" of type 'gint'
// is invalid or out of range for property 'every' of type 'gint'`), the property keeps its
// previous value (on a gst-launch line, its default) and the pipeline runs. The element never
// sees the value. With DS_ELEMENT_PROPERTY_NOTES=1 (`ds-element run` sets it) the plugin
// watches GLib-GObject's warnings and, after GLib's line, names what the refusal means for each
// ds-element element with that property: its range and the value it runs with.
//
// Opt-in because it installs a GLib log handler for the "GLib-GObject" domain in the host
// process; the handler passes every message on to g_log_default_handler (and so to a writer
// function the application set) before adding its note.
#ifndef DSNODE_GST_PROPERTY_NOTES_H
#define DSNODE_GST_PROPERTY_NOTES_H

#include <string>
#include <vector>

#include "gst/manifest.h"

namespace dsnode {

// The notes for one GLib message about the properties of `manifests` (one per element that has
// the refused property); empty when the message is not a refusal of such a property.
std::vector<std::string> property_refusal_notes(const std::string &message, const std::vector<const Manifest *> &manifests);

// Installs the handler once per process when DS_ELEMENT_PROPERTY_NOTES is "1", for the
// registered `manifests` (which live as long as the process: the elements' class data).
void install_property_notes(std::vector<const Manifest *> manifests);

}  // namespace dsnode

#endif
