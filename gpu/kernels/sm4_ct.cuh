// SM4, constant time (gpu/README.md, "Constant-time kernels"): eight blocks
// per thread. Each round's eight S-box input words (one per block) are
// transposed into bit planes, the S-box layer is the Boolean circuit of
// bs_sm4_sbox (AES's Boyar-Peralta circuit between SM4's affine maps) on all
// 32 bytes at once, and the planes go back to words for the linear map L.
// No table, no data- or key-dependent index or branch.
#pragma once
#include <cstdint>

#include "gpu/kernels/bitslice.cuh"
#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu::kern {

struct Sm4Ct : NoSharedTables {
  static constexpr int kBlockBytes = 16;
  static constexpr int kBlocksPerThread = 8;

  GPUCRYPTO_HD static uint32_t linear(uint32_t b) {
    return b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
  }

  // One round on every block: x[j][kT] ^= L(tau(x[j][kT+1] ^ x[j][kT+2] ^ x[j][kT+3] ^ rk)).
  template <int kT>
  GPUCRYPTO_HD static void round(uint32_t (&x)[8][4], uint32_t rk) {
    uint32_t q[8];
    GPUCRYPTO_PRAGMA(unroll)
    for (int j = 0; j < 8; ++j) q[j] = x[j][(kT + 1) & 3] ^ x[j][(kT + 2) & 3] ^ x[j][(kT + 3) & 3] ^ rk;
    bs_transpose(q);
    bs_sm4_sbox(q);
    bs_transpose(q);
    GPUCRYPTO_PRAGMA(unroll)
    for (int j = 0; j < 8; ++j) x[j][kT] ^= linear(q[j]);
  }

  template <bool kDecrypt>
  GPUCRYPTO_HD static void crypt(const KeySched& ks, uint32_t (&s)[32]) {
    uint32_t x[8][4];
    GPUCRYPTO_PRAGMA(unroll)
    for (int j = 0; j < 8; ++j)
      GPUCRYPTO_PRAGMA(unroll)
      for (int i = 0; i < 4; ++i) x[j][i] = bswap32(s[4 * j + i]);
    const uint32_t* rk = ks.w;
    GPUCRYPTO_UNROLL_ROUNDS(1)
    for (int i = 0; i < 32; i += 4) {
      round<0>(x, rk[kDecrypt ? 31 - i : i]);
      round<1>(x, rk[kDecrypt ? 30 - i : i + 1]);
      round<2>(x, rk[kDecrypt ? 29 - i : i + 2]);
      round<3>(x, rk[kDecrypt ? 28 - i : i + 3]);
    }
    GPUCRYPTO_PRAGMA(unroll)
    for (int j = 0; j < 8; ++j)
      GPUCRYPTO_PRAGMA(unroll)
      for (int i = 0; i < 4; ++i) s[4 * j + i] = bswap32(x[j][3 - i]);
  }
  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared&, uint32_t (&s)[32]) {
    crypt<false>(ks, s);
  }
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared&, uint32_t (&s)[32]) {
    crypt<true>(ks, s);
  }
};

}  // namespace gpucrypto::gpu::kern
