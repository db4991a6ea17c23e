// IEEE binary16 on the CPU: float → half rounded to nearest, ties to even (what CUDA's
// __float2half_rn does), and half → float (exact). Bits in, bits out: no compiler _Float16.
#ifndef DSNODE_OPS_HALF_H
#define DSNODE_OPS_HALF_H

#include <cstdint>
#include <cstring>

namespace dsnode::ops::detail {

inline uint16_t float_to_half_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return 0x7fffu;  // NaN: CUDA's canonical quiet NaN, sign dropped
  if (magnitude == 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520: rounds to infinity
  if (magnitude >= 0x38800000u) {  // >= 2^-14: a normal half
    // Re-bias the exponent (127 → 15) and drop 13 mantissa bits; a carry out of the mantissa
    // correctly bumps the exponent.
    const uint32_t rebased = magnitude - 0x38000000u;
    uint32_t half = rebased >> 13;
    const uint32_t rest = rebased & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  if (magnitude < 0x33000000u) return sign;  // <= 2^-25 (the tie at 2^-25 goes to even: 0)
  // A subnormal half counts units of 2^-24: mantissa (with its hidden bit) × 2^(exponent − 126).
  const uint32_t exponent = magnitude >> 23;
  const uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
  const uint32_t shift = 126u - exponent;  // 14..24
  uint32_t half = mantissa >> shift;
  const uint32_t rest = mantissa & ((1u << shift) - 1u);
  const uint32_t tie = 1u << (shift - 1u);
  if (rest > tie || (rest == tie && (half & 1u))) ++half;  // 0x400 = the smallest normal: still right
  return static_cast<uint16_t>(sign | half);
}

inline float half_bits_to_float(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  const uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1fu) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalise
    uint32_t e = 113u;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    bits = sign | (e << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace dsnode::ops::detail

#endif
