// A pause for spin loops: tells the core (and a hyper-thread sibling) that this thread is
// waiting, without giving the core up.
#ifndef DSNODE_RUNTIME_CPU_RELAX_H
#define DSNODE_RUNTIME_CPU_RELAX_H

namespace dsnode {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

}  // namespace dsnode

#endif
