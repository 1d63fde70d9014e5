// Internal: the implementations the per-instruction-set files define for
// impls.cpp, and the plain-data schedule they share. Declarations and
// constants only: nothing here is compiled with ISA flags.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"
#include "ciphers/rectangle/ref.h"

namespace gpucrypto::rectangle {

// The SIMD round keys: each 16-bit row of K_r duplicated into a dword (for
// dword broadcasts). dec[r] (1 <= r <= 25) is K_r passed through the inverse
// ShiftRow, so the decryption round can merge its key into the rotation like
// encryption does; dec[0] is K_0. The AVX2 path also folds complements its
// S-box circuits leave into these keys (simd_modes.inc).
struct SimdRoundKeys {
  uint32_t enc[kRoundKeys][4];
  uint32_t dec[kRoundKeys][4];
};

// One schedule for the batch kernels and the small-call paths of a file.
struct SimdSchedule {
  alignas(64) SimdRoundKeys simd;
};

// avx512.cpp (F, BW, VBMI): 32 blocks per register, 4 register sets per batch.
namespace avx512 { extern const CipherHw kHw; }
// avx2.cpp: 16 blocks per register, 3 register sets per batch.
namespace avx2 { extern const CipherHw kHw; }

}  // namespace gpucrypto::rectangle
