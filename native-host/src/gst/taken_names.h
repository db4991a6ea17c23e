// Which element names other plugins already provide, so that plugin_init never registers one
// of them: GStreamer's registry keeps one feature per name, and a second registration replaces
// the first (the other plugin's element would vanish from the registry cache).
#ifndef DSNODE_GST_TAKEN_NAMES_H
#define DSNODE_GST_TAKEN_NAMES_H

#include <map>
#include <string>

namespace dsnode {

class TakenNames {
 public:
  // The plugin (other than `own_plugin`) that provides `name`, or false when none does.
  bool taken(const std::string &name, std::string *owner);

  explicit TakenNames(std::string own_plugin) : own_plugin_(std::move(own_plugin)) {}

 private:
  bool probe_loaded_ = false;
  // Feature name -> plugin, from the registry cache as gst-inspect-1.0 reads it (see .cpp).
  std::map<std::string, std::string> cached_;
  std::string own_plugin_;
};

}  // namespace dsnode

#endif
