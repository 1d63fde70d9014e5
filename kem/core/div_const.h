// Exact division by a compile-time constant, without a divide instruction
// (whose latency can depend on the operands): shared by the ML-KEM and the
// babyKyber arithmetic, on the CPU and in CUDA kernels.
#pragma once
#include <cstdint>

#include "platform/host_device.h"

namespace gpucrypto::kem {

// floor(x / D) as (x * M) >> S with M = ceil(2^S / D). The error
// x * (M - 2^S / D) / 2^S is below x * D / 2^S / D, so below 1/D whenever
// x * D < 2^S, and the quotient is then exact; the product needs 64 bits.
// S = 32 serves every x, D < 2^16; S = 40 every x < 2^25 with D < 2^13.
template <uint32_t D, int S = 32>
GPUCRYPTO_HD constexpr uint32_t div_const(uint32_t x) {
  constexpr uint64_t M = ((uint64_t{1} << S) + D - 1) / D;
  return uint32_t((uint64_t(x) * M) >> S);
}

}  // namespace gpucrypto::kem
