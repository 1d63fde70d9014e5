// RECTANGLE-80 / RECTANGLE-128 kernel body (final version, ePrint 2014/084).
// RECTANGLE is a bit-slice design: the 4x16 state is four 16-bit rows and
// the S-box layer is a 12-operation Boolean circuit on whole rows, so this
// kernel is table-free and constant time. Byte order (README "Byte order"):
// row R_i = b[2i] * 256 + b[2i+1].
#pragma once
#include <cstdint>

#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu::kern {

// Schedule: round key r (0..25) rows K0..K3 as w[2r] = K0 | K1 << 16,
// w[2r+1] = K2 | K3 << 16. keylen: 10 or 16.
void rectangle_setkey(KeySched& ks, const uint8_t* key, int keylen);

// The S-box on columns (a0 = row 0 = least significant bit of the nibble),
// from the designers' bit-sliced description.
GPUCRYPTO_HD inline void rectangle_sbox(uint32_t& a0, uint32_t& a1, uint32_t& a2, uint32_t& a3) {
  uint32_t t1 = ~a1, t2 = a0 & t1, t3 = a2 ^ a3, b0 = t2 ^ t3, t5 = a3 | t1, t6 = a0 ^ t5;
  uint32_t b1 = a2 ^ t6, t8 = a1 ^ a2, t9 = t3 & t6, b3 = t8 ^ t9, t11 = b0 | t8, b2 = t6 ^ t11;
  a0 = b0, a1 = b1, a2 = b2, a3 = b3;
}

// The inverse S-box as its algebraic normal form (derived from the table
// S^-1; the grid-emulator tests check it against S for all 16 inputs).
GPUCRYPTO_HD inline void rectangle_inv_sbox(uint32_t& a0, uint32_t& a1, uint32_t& a2,
                                            uint32_t& a3) {
  uint32_t a01 = a0 & a1, a23 = a2 & a3, a13 = a1 & a3, a03 = a0 & a3;
  uint32_t b0 = ~(a0 ^ a2 ^ (a01 & a2) ^ a3 ^ a13 ^ a23);
  uint32_t b1 = a1 ^ a2 ^ (a0 & a2) ^ a03;
  uint32_t b2 = a0 ^ a1 ^ a2 ^ a3 ^ a03;
  uint32_t b3 = ~(a0 ^ a01 ^ (a1 & a2) ^ a13 ^ (a01 & a3) ^ a23);
  a0 = b0, a1 = b1, a2 = b2, a3 = b3;
}

GPUCRYPTO_HD inline uint32_t rot16(uint32_t x, unsigned n) {
  x &= 0xffff;
  return ((x << n) | (x >> (16 - n))) & 0xffff;
}

struct Rectangle : NoSharedTables {
  static constexpr int kBlockBytes = 8;
  static constexpr int kRounds = 25;

  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared&, uint32_t (&s)[2]) {
    uint32_t x = bswap32(s[0]), y = bswap32(s[1]);
    uint32_t r0 = x >> 16, r1 = x & 0xffff, r2 = y >> 16, r3 = y & 0xffff;
    GPUCRYPTO_UNROLL_ROUNDS(5)
    for (int r = 0; r < kRounds; ++r) {
      uint32_t k01 = ks.w[2 * r], k23 = ks.w[2 * r + 1];
      r0 ^= k01 & 0xffff, r1 ^= k01 >> 16, r2 ^= k23 & 0xffff, r3 ^= k23 >> 16;
      rectangle_sbox(r0, r1, r2, r3);
      r0 &= 0xffff, r1 = rot16(r1, 1), r2 = rot16(r2, 12), r3 = rot16(r3, 13);
    }
    uint32_t k01 = ks.w[2 * kRounds], k23 = ks.w[2 * kRounds + 1];
    r0 ^= k01 & 0xffff, r1 ^= k01 >> 16, r2 ^= k23 & 0xffff, r3 ^= k23 >> 16;
    s[0] = bswap32(r0 << 16 | r1), s[1] = bswap32(r2 << 16 | r3);
  }

  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared&, uint32_t (&s)[2]) {
    uint32_t x = bswap32(s[0]), y = bswap32(s[1]);
    uint32_t r0 = x >> 16, r1 = x & 0xffff, r2 = y >> 16, r3 = y & 0xffff;
    uint32_t k01 = ks.w[2 * kRounds], k23 = ks.w[2 * kRounds + 1];
    r0 ^= k01 & 0xffff, r1 ^= k01 >> 16, r2 ^= k23 & 0xffff, r3 ^= k23 >> 16;
    GPUCRYPTO_UNROLL_ROUNDS(5)
    for (int r = kRounds - 1; r >= 0; --r) {
      r1 = rot16(r1, 15), r2 = rot16(r2, 4), r3 = rot16(r3, 3);
      rectangle_inv_sbox(r0, r1, r2, r3);
      k01 = ks.w[2 * r], k23 = ks.w[2 * r + 1];
      r0 = (r0 ^ k01) & 0xffff, r1 = (r1 ^ (k01 >> 16)) & 0xffff;
      r2 = (r2 ^ k23) & 0xffff, r3 = (r3 ^ (k23 >> 16)) & 0xffff;
    }
    s[0] = bswap32(r0 << 16 | r1), s[1] = bswap32(r2 << 16 | r3);
  }
};

}  // namespace gpucrypto::gpu::kern
