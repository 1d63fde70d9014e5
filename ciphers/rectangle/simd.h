// Internal: the hooks the per-instruction-set files export to impls.cpp,
// which builds the CipherHw objects (and their CpuFeature requirements) so
// that the ISA files need no header beyond block_cipher.h. Declarations and
// constants only: nothing here is compiled with ISA flags.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/rectangle/ref.h"

namespace gpucrypto::rectangle {

// Both SIMD schedules: encryption and decryption round keys, 26 x 4 dwords
// each (every 16-bit row duplicated into a dword for dword broadcasts).
inline constexpr size_t kSimdScheduleBytes = 2 * kRoundKeys * 4 * sizeof(uint32_t);

// AVX-512 (F, BW, VBMI): 32 blocks per register, 4 register sets per batch.
inline constexpr size_t kAvx512BatchBlocks = 128;
void avx512_setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
void avx512_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void avx512_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void avx512_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);

// AVX2: 16 blocks per register, 3 register sets per batch.
inline constexpr size_t kAvx2BatchBlocks = 48;
void avx2_setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
void avx2_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void avx2_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void avx2_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);

}  // namespace gpucrypto::rectangle
