// The one place where this build's metadata backend is chosen.
#include "meta/metadata_source.h"

#ifdef DSNODE_HAVE_DEEPSTREAM
#include "meta/deepstream_source.h"
#else
#include "meta/portable_source.h"
#endif

namespace dsnode::meta {

#ifdef DSNODE_HAVE_DEEPSTREAM
const char *metadata_backend_name() { return "deepstream"; }
std::unique_ptr<MetadataSource> open_metadata_source(std::string *error) { return open_deepstream_source(error); }
#else
const char *metadata_backend_name() { return "portable"; }
std::unique_ptr<MetadataSource> open_metadata_source(std::string *) { return std::make_unique<PortableSource>(); }
#endif

}  // namespace dsnode::meta
