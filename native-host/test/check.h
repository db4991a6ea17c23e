// The TAP-like reporting the native test programs share: "ok - name" / "not ok - name: detail"
// lines and a closing "N passed, M failed" line (which CI and the vitest wrappers read).
#ifndef DSNODE_TEST_CHECK_H
#define DSNODE_TEST_CHECK_H

#include <cstdio>
#include <string>

namespace dsnode_test {

inline int passed = 0;
inline int failed = 0;

inline void check(bool condition, const std::string &name, const std::string &detail = "") {
  if (condition) {
    ++passed;
    std::printf("ok - %s\n", name.c_str());
  } else {
    ++failed;
    std::printf("not ok - %s%s%s\n", name.c_str(), detail.empty() ? "" : ": ", detail.c_str());
  }
  std::fflush(stdout);
}

}  // namespace dsnode_test

#endif
