// The DeepStream backend's metadata source (meta/metadata_source.h): NvDsBatchMeta through
// meta/deepstream_backend.h. Compiled only when the DeepStream SDK is found.
#ifndef DSNODE_META_DEEPSTREAM_SOURCE_H
#define DSNODE_META_DEEPSTREAM_SOURCE_H

#include <memory>
#include <string>

#include "meta/metadata_source.h"

namespace dsnode::meta {

// Opens NVIDIA's libraries (load_deepstream); null with *error saying why when they cannot be
// used.
std::unique_ptr<MetadataSource> open_deepstream_source(std::string *error);

}  // namespace dsnode::meta

#endif
