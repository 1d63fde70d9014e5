// SM4 kernel body (GB/T 32907-2016). Words are big-endian as the standard;
// the round function's S-box layer and linear map L are merged into four
// shared-memory tables t[k][x] = L(S(x) << 8k). Not constant time on the
// device (data-indexed shared-memory reads).
#pragma once
#include <cstdint>

#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu::kern {

// Schedule: w[0..32) = rk_0..rk_31.
void sm4_setkey(KeySched& ks, const uint8_t key[16]);

struct Sm4 {
  static constexpr int kBlockBytes = 16;
  struct Shared {
    uint32_t t[4][256];
  };
  GPUCRYPTO_HD static void load_shared(Shared& sh, const Tables& tab, uint32_t tid,
                                       uint32_t nthreads, bool) {
    for (uint32_t i = tid; i < 256; i += nthreads) {
      uint32_t v = tab.sm4_t0[i];
      sh.t[0][i] = v;
      sh.t[1][i] = rotl32(v, 8);
      sh.t[2][i] = rotl32(v, 16);
      sh.t[3][i] = rotl32(v, 24);
    }
  }
  GPUCRYPTO_HD static uint32_t t_layer(const Shared& sh, uint32_t a) {
    return sh.t[0][a & 0xff] ^ sh.t[1][(a >> 8) & 0xff] ^ sh.t[2][(a >> 16) & 0xff] ^
           sh.t[3][a >> 24];
  }
  template <bool kDecrypt>
  GPUCRYPTO_HD static void crypt(const KeySched& ks, const Shared& sh, uint32_t (&s)[4]) {
    uint32_t x0 = bswap32(s[0]), x1 = bswap32(s[1]), x2 = bswap32(s[2]), x3 = bswap32(s[3]);
    GPUCRYPTO_UNROLL_ROUNDS(4)
    for (int i = 0; i < 32; i += 4) {
      const uint32_t* rk = ks.w;
      x0 ^= t_layer(sh, x1 ^ x2 ^ x3 ^ rk[kDecrypt ? 31 - i : i]);
      x1 ^= t_layer(sh, x2 ^ x3 ^ x0 ^ rk[kDecrypt ? 30 - i : i + 1]);
      x2 ^= t_layer(sh, x3 ^ x0 ^ x1 ^ rk[kDecrypt ? 29 - i : i + 2]);
      x3 ^= t_layer(sh, x0 ^ x1 ^ x2 ^ rk[kDecrypt ? 28 - i : i + 3]);
    }
    s[0] = bswap32(x3), s[1] = bswap32(x2), s[2] = bswap32(x1), s[3] = bswap32(x0);
  }
  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared& sh, uint32_t (&s)[4]) {
    crypt<false>(ks, sh, s);
  }
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared& sh, uint32_t (&s)[4]) {
    crypt<true>(ks, sh, s);
  }
};

}  // namespace gpucrypto::gpu::kern
