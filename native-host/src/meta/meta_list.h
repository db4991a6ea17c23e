// What both backends do to their lists of metas (std::vector of pointers): the portable
// batch's children, the DeepStream batch's metas acquired and not yet added.
#ifndef DSNODE_META_META_LIST_H
#define DSNODE_META_META_LIST_H

#include <algorithm>
#include <iterator>
#include <vector>

namespace dsnode::meta {

// Removes `item` from `list`, searching from the back (the metas removed most often are the
// recent ones); false when it is not there.
template <typename T>
bool erase_last(std::vector<T *> &list, T *item) {
  auto found = std::find(list.rbegin(), list.rend(), item);
  if (found == list.rend())
    return false;
  list.erase(std::next(found).base());
  return true;
}

}  // namespace dsnode::meta

#endif
