// A free-list pool with stable addresses: metas are reused, never moved, so a handle (pointer)
// stays valid while the meta is in use. Storage grows in chunks and is returned only when the
// pool dies (with its batch), like DeepStream's NvDsMetaPool.
#ifndef DSNODE_META_POOL_H
#define DSNODE_META_POOL_H

#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

namespace dsnode::meta {

// Where a pooled meta is in its life: free in the pool, acquired by a caller, added to a parent.
enum class MetaState : unsigned char { kFree, kAcquired, kAdded };

template <typename T>
class Pool {
 public:
  // A fresh or reused element, reset to its defaults (T::reset()), state kAcquired.
  T *acquire() {
    T *item;
    if (!free_.empty()) {
      item = free_.back();
      free_.pop_back();
    } else {
      // Made on first use: libstdc++'s deque allocates even when empty, and a batch has six
      // pools of which a plain one-frame buffer uses one.
      if (!storage_) storage_ = std::make_unique<std::deque<T>>();
      storage_->emplace_back();  // std::deque never relocates existing elements
      item = &storage_->back();
    }
    item->reset();
    item->state = MetaState::kAcquired;
    return item;
  }

  // The caller has detached `item` from every list; its children are released already.
  void release(T *item) {
    item->state = MetaState::kFree;
    free_.push_back(item);
  }

  size_t allocated() const { return storage_ ? storage_->size() : 0; }
  size_t free_count() const { return free_.size(); }


 private:
  std::unique_ptr<std::deque<T>> storage_;
  std::vector<T *> free_;
};

}  // namespace dsnode::meta

#endif
