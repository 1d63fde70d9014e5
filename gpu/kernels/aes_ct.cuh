// AES-128/192/256, constant time (gpu/README.md, "Constant-time kernels"):
// two blocks per thread, bit-sliced into eight 32-bit planes (byte r of a
// plane = row r, bit 4k + c of that byte = column c of block k). SubBytes is
// the Boyar-Peralta circuit on all 32 bytes at once, ShiftRows a rotation
// inside nibbles, MixColumns byte rotations of whole planes plus the xtime
// plane shuffle. No table, no data- or key-dependent index or branch.
#pragma once
#include <cstdint>

#include "gpu/kernels/bitslice.cuh"
#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu::kern {

// Schedule: besides the T-table layout (aes.cuh), w[kAesBsOffset + 8r + b] =
// plane b of round key r for both blocks (aes_setkey fills both).
inline constexpr int kAesBsOffset = 128;

// Multiplication by x of every byte in planes (FIPS 197 section 4.2.1).
GPUCRYPTO_HD inline void bs_xtime(const uint32_t (&t)[8], uint32_t (&o)[8]) {
  o[0] = t[7], o[1] = t[0] ^ t[7], o[2] = t[1], o[3] = t[2] ^ t[7];
  o[4] = t[3] ^ t[7], o[5] = t[4], o[6] = t[5], o[7] = t[6];
}

// MixColumns: b_i = 2(a_i ^ a_{i+1}) ^ a_{i+1} ^ (a_{i+2} ^ a_{i+3}), row i+1
// being the plane rotated by one byte.
GPUCRYPTO_HD inline void bs_aes_mix(uint32_t (&q)[8]) {
  uint32_t r1[8], t[8], x[8];
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) r1[b] = bs_rotr8(q[b], 1), t[b] = q[b] ^ r1[b];
  bs_xtime(t, x);
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) q[b] = x[b] ^ r1[b] ^ bs_rotr8(t[b], 2);
}

// InvMixColumns = MixColumns after a_i ^= 4(a_i ^ a_{i+2}) (the inverse
// matrix factors as MixColumns times circ(5, 0, 4, 0)).
GPUCRYPTO_HD inline void bs_aes_inv_mix(uint32_t (&q)[8]) {
  uint32_t w[8], x2[8], x4[8];
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) w[b] = q[b] ^ bs_rotr8(q[b], 2);
  bs_xtime(w, x2);
  bs_xtime(x2, x4);
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) q[b] ^= x4[b];
  bs_aes_mix(q);
}

template <int kNr>
struct AesCt : NoSharedTables {
  static constexpr int kBlockBytes = 16;
  static constexpr int kBlocksPerThread = 2;

  // s: the two blocks' little-endian column words (block 0 in s[0..3]).
  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared&, uint32_t (&s)[8]) {
    const uint32_t* rk = ks.w + kAesBsOffset;
    bs_transpose(s);
    bs_add_key(s, rk);
    for_rounds<1, kNr>([&]<int r>() {
      bs_aes_sbox(s);
      bs_rows_left(s);
      bs_aes_mix(s);
      bs_add_key(s, rk + 8 * r);
    });
    bs_aes_sbox(s);
    bs_rows_left(s);
    bs_add_key(s, rk + 8 * kNr);
    bs_transpose(s);
  }

  // The inverse cipher of FIPS 197 section 5.3 with the encryption keys.
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared&, uint32_t (&s)[8]) {
    const uint32_t* rk = ks.w + kAesBsOffset;
    bs_transpose(s);
    bs_add_key(s, rk + 8 * kNr);
    for_rounds<1, kNr, /*kDown=*/true>([&]<int r>() {
      bs_rows_right(s);
      bs_aes_inv_sbox(s);
      bs_add_key(s, rk + 8 * r);
      bs_aes_inv_mix(s);
    });
    bs_rows_right(s);
    bs_aes_inv_sbox(s);
    bs_add_key(s, rk);
    bs_transpose(s);
  }
};

}  // namespace gpucrypto::gpu::kern
