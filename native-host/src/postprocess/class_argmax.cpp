#include "postprocess/class_argmax.h"

#include <cstddef>
#include <limits>

namespace dsnode::postprocess {

namespace {

// One class row into the running best: no aliasing (the arrays are distinct), so the compiler
// vectorises it; target_clones adds an AVX2 copy picked at load time on CPUs that have it,
// while the binary still runs on any x86-64.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void merge_row(const float *__restrict row, int32_t c, int32_t candidates, float *__restrict best_score,
    int32_t *__restrict best_class) {
  for (int32_t i = 0; i < candidates; ++i) {
    const float score = row[i];
    const bool better = score > best_score[i];
    best_score[i] = better ? score : best_score[i];
    best_class[i] = better ? c : best_class[i];
  }
}

}  // namespace

void class_argmax(const float *scores, int32_t classes, int32_t candidates, float *best_score, int32_t *best_class) {
  for (int32_t i = 0; i < candidates; ++i) {
    best_score[i] = -std::numeric_limits<float>::infinity();
    best_class[i] = -1;
  }
  // Whole class rows, one after another: sequential reads. (Blocking the candidates so the
  // running best stays in L1 measured no faster.)
  for (int32_t c = 0; c < classes; ++c) {
    merge_row(scores + static_cast<size_t>(c) * static_cast<size_t>(candidates), c, candidates, best_score, best_class);
  }
}

}  // namespace dsnode::postprocess
