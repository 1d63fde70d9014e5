// SKINNY-128-256/384, constant time and bit-sliced (gpu/README.md,
// "Constant-time kernels"): two blocks per thread in eight 32-bit planes with
// the AES kernel's layout (byte r of a plane = row r, bit 4k + c = column c of
// block k). S8 is its own NOR/XOR network, which in planes is 8 gates (one
// NOR-XOR per step; the bit permutations are free renamings), ShiftRows a
// rotation inside nibbles, MixColumns three byte permutations per plane. The
// round tweakeys come from the host already in planes.
#pragma once
#include <cstdint>

#include "gpu/kernels/bitslice.cuh"
#include "gpu/kernels/skinny.cuh"

namespace gpucrypto::gpu::kern {

// Schedule: w[skinny_bs_offset(R) + 8r + b] = plane b of round r's tweakey and
// constants for both blocks (skinny.cuh, skinny_setkey).

// S8 (ePrint 2016/660, section 2.3) on planes: p_i ^= NOR(p_a, p_b) in the
// network's order, then its output bit permutation.
GPUCRYPTO_HD inline void bs_skinny_sbox(uint32_t (&p)[8]) {
  p[0] ^= ~(p[2] | p[3]);
  p[4] ^= ~(p[6] | p[7]);
  p[6] ^= ~(p[1] | p[2]);
  p[5] ^= ~(p[0] | p[4]);
  p[1] ^= ~(p[3] | p[0]);
  p[7] ^= ~(p[5] | p[6]);
  p[3] ^= ~(p[4] | p[5]);
  p[2] ^= ~(p[7] | p[1]);
  const uint32_t o[8] = {p[2], p[7], p[6], p[1], p[3], p[0], p[4], p[5]};
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) p[b] = o[b];
}

// S8^-1: the network undone in reverse order.
GPUCRYPTO_HD inline void bs_skinny_inv_sbox(uint32_t (&p)[8]) {
  const uint32_t x[8] = {p[5], p[3], p[0], p[4], p[6], p[7], p[2], p[1]};
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) p[b] = x[b];
  p[2] ^= ~(p[7] | p[1]);
  p[3] ^= ~(p[4] | p[5]);
  p[7] ^= ~(p[5] | p[6]);
  p[1] ^= ~(p[3] | p[0]);
  p[5] ^= ~(p[0] | p[4]);
  p[6] ^= ~(p[1] | p[2]);
  p[4] ^= ~(p[6] | p[7]);
  p[0] ^= ~(p[2] | p[3]);
}

// MixColumns on rows (bytes): (r0 ^ r2 ^ r3, r0, r1 ^ r2, r0 ^ r2), and its
// inverse (r1, r1 ^ r2 ^ r3, r1 ^ r3, r0 ^ r3).
GPUCRYPTO_HD inline uint32_t bs_skinny_mix(uint32_t x) {
  return bs_perm(x, 0x0100) ^ bs_perm(x, 0x2242) ^ bs_perm(x, 0x4443);
}
GPUCRYPTO_HD inline uint32_t bs_skinny_inv_mix(uint32_t x) {
  return bs_perm(x, 0x0111) ^ bs_perm(x, 0x3324) ^ bs_perm(x, 0x4434);
}

template <int kRounds>
struct SkinnyCt : NoSharedTables {
  static constexpr int kBlockBytes = 16;
  static constexpr int kBlocksPerThread = 2;

  // Rows <-> columns of both blocks (s[0..3], s[4..7]); with bs_transpose,
  // row words <-> planes.
  GPUCRYPTO_HD static void transpose_blocks(uint32_t (&s)[8]) {
    uint32_t a[4] = {s[0], s[1], s[2], s[3]}, b[4] = {s[4], s[5], s[6], s[7]}, c[4], d[4];
    skinny_transpose(a, c);
    skinny_transpose(b, d);
    GPUCRYPTO_PRAGMA(unroll)
    for (int i = 0; i < 4; ++i) s[i] = c[i], s[4 + i] = d[i];
  }
  GPUCRYPTO_HD static void to_planes(uint32_t (&s)[8]) {
    transpose_blocks(s);
    bs_transpose(s);
  }
  GPUCRYPTO_HD static void from_planes(uint32_t (&s)[8]) {
    bs_transpose(s);
    transpose_blocks(s);
  }

  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared&, uint32_t (&s)[8]) {
    const uint32_t* rk = ks.w + skinny_bs_offset(kRounds);
    to_planes(s);
    GPUCRYPTO_UNROLL_ROUNDS(4)
    for (int r = 0; r < kRounds; ++r) {
      bs_skinny_sbox(s);
      bs_add_key(s, rk + 8 * r);
      GPUCRYPTO_PRAGMA(unroll)
      for (int b = 0; b < 8; ++b) s[b] = bs_skinny_mix(bs_rows_right(s[b]));
    }
    from_planes(s);
  }
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared&, uint32_t (&s)[8]) {
    const uint32_t* rk = ks.w + skinny_bs_offset(kRounds);
    to_planes(s);
    GPUCRYPTO_UNROLL_ROUNDS(4)
    for (int r = kRounds - 1; r >= 0; --r) {
      GPUCRYPTO_PRAGMA(unroll)
      for (int b = 0; b < 8; ++b) s[b] = bs_rows_left(bs_skinny_inv_mix(s[b]));
      bs_add_key(s, rk + 8 * r);
      bs_skinny_inv_sbox(s);
    }
    from_planes(s);
  }
};

}  // namespace gpucrypto::gpu::kern
