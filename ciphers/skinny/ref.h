// SKINNY-128 internals shared by the implementations in this folder and by
// the tests: the key-schedule layout (one layout for every impl, so a
// schedule made by one can be used by another), the reference functions, and
// the implementations the per-instruction-set files define.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"

namespace gpucrypto::skinny_impl {

inline constexpr size_t kMaxRounds = 56;  // SKINNY-128-384

// Round tweakeys, expanded once per key. Only rows 0 and 1 of the state take
// tweakey material; the round constants c0 (cell 0) and c1 (cell 4) are
// folded in. The constant c2 = 0x02 on cell 8 (row 2, column 0) is the same
// every round: the reference adds it as a literal, the SIMD paths as below.
struct Schedule {
  // Bit-sliced form for the SIMD paths. For round r and bit b:
  //  row0[r][b]: byte k is 0xff when bit b of round-tweakey cell k is set;
  //  row1[r][b]: the same for cells 4..7, already rotated by ShiftRows
  //              (rotl 8), and for b == 1 also holding c2 rotated by
  //              ShiftRows onto row 2 (0x00ff0000), so that the SIMD linear
  //              layer adds both with one operation.
  uint32_t row0[kMaxRounds][8];
  uint32_t row1[kMaxRounds][8];
  //  c2[r]: 0x00ff0000, the bit-1 mask of c2 after ShiftRows (column 2),
  //         added where MixColumns sends row 2 into rows 0 and 3. The same
  //         every round; stored per round so that the AVX-512 loop reads it
  //         as a memory operand instead of pinning one of its 32 registers.
  uint32_t c2[kMaxRounds];
  // Byte form for the reference: rows 0 and 1 as little-endian words
  // (byte k of a word is column k).
  uint32_t rtk[kMaxRounds][2];
  uint32_t rounds;  // 48 or 56, from the key length
};
inline constexpr size_t kScheduleBytes = sizeof(Schedule);

// Shared by every impl (ref.cpp): expands TK1||TK2 (keylen 32, 48 rounds)
// or TK1||TK2||TK3 (keylen 48, 56 rounds) into a Schedule.
void setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);

// Portable constant-time reference (ref.cpp).
void ref_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);
// The reference S-box circuit on one byte, and its inverse (for tests).
uint8_t ref_sbox(uint8_t x);
uint8_t ref_sbox_inv(uint8_t x);

// The SIMD implementations, defined by their instruction-set files with the
// requirements of their compiler flags: AVX-512 bit-sliced (128 blocks per
// iteration, avx512_body.inc) with the GFNI small-call path (avx512_gfni.cpp)
// or the SSE one (avx512.cpp), and AVX2 bit-sliced (avx2.cpp, 64 blocks).
// Each exports only its descriptor, <isa>::kHw (platform/isa_select.h).
namespace avx512_gfni { extern const CipherHw kHw; }
namespace avx512 { extern const CipherHw kHw; }
namespace avx2 { extern const CipherHw kHw; }

}  // namespace gpucrypto::skinny_impl
