// AES-128/192/256 kernel body (FIPS 197) with the classic T-tables held in
// shared memory. Columns are little-endian words (byte i = row i). Not
// constant time on the device (data-indexed shared-memory reads); see
// gpu/README.md for why that is accepted for the GPU back end.
#pragma once
#include <cstdint>

#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu::kern {

// Schedule: w[0 .. 4(Nr+1)) encryption round keys; w[64 .. 64 + 4(Nr+1))
// the equivalent inverse cipher's keys (FIPS 197 section 5.3.5).
inline constexpr int kAesDecOffset = 64;
void aes_setkey(KeySched& ks, const uint8_t* key, int keylen);

template <int kNr>
struct Aes {
  static constexpr int kBlockBytes = 16;
  struct Shared {
    uint32_t t[4][256];  // Te or Td rotated by 0, 8, 16, 24
    uint32_t s[256];     // S or S^-1 (as words: byte loads from shared are no faster)
  };
  GPUCRYPTO_HD static void load_shared(Shared& sh, const Tables& tab, uint32_t tid,
                                       uint32_t nthreads, bool decrypt) {
    for (uint32_t i = tid; i < 256; i += nthreads) {
      uint32_t v = decrypt ? tab.aes_td0[i] : tab.aes_te0[i];
      sh.t[0][i] = v;
      sh.t[1][i] = rotl32(v, 8);
      sh.t[2][i] = rotl32(v, 16);
      sh.t[3][i] = rotl32(v, 24);
      sh.s[i] = decrypt ? tab.aes_inv_sbox[i] : tab.aes_sbox[i];
    }
  }
  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared& sh, uint32_t (&s)[4]) {
    rounds<false>(ks.w, sh, s);
  }
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared& sh, uint32_t (&s)[4]) {
    rounds<true>(ks.w + kAesDecOffset, sh, s);
  }

 private:
  // The cipher (or the equivalent inverse cipher, with the Td tables and the
  // inverse schedule loaded) over keys rk. Output column j takes row i from
  // column j + i (ShiftRows); the inverse takes it from column j - i, which
  // is the same computation with columns 1 and 3 swapped: c1 and c3 below
  // stand for state columns i1 and i3.
  template <bool kInverse>
  GPUCRYPTO_HD static void rounds(const uint32_t* rk, const Shared& sh, uint32_t (&s)[4]) {
    constexpr int i1 = kInverse ? 3 : 1, i3 = kInverse ? 1 : 3;
    uint32_t c0 = s[0] ^ rk[0], c1 = s[i1] ^ rk[i1], c2 = s[2] ^ rk[2], c3 = s[i3] ^ rk[i3];
    GPUCRYPTO_PRAGMA(unroll)
    for (int r = 1; r < kNr; ++r) {
      const uint32_t* k = rk + 4 * r;
      uint32_t n0 = sh.t[0][byte_of(c0, 0)] ^ sh.t[1][byte_of(c1, 1)] ^
                    sh.t[2][byte_of(c2, 2)] ^ sh.t[3][byte_of(c3, 3)] ^ k[0];
      uint32_t n1 = sh.t[0][byte_of(c1, 0)] ^ sh.t[1][byte_of(c2, 1)] ^
                    sh.t[2][byte_of(c3, 2)] ^ sh.t[3][byte_of(c0, 3)] ^ k[i1];
      uint32_t n2 = sh.t[0][byte_of(c2, 0)] ^ sh.t[1][byte_of(c3, 1)] ^
                    sh.t[2][byte_of(c0, 2)] ^ sh.t[3][byte_of(c1, 3)] ^ k[2];
      uint32_t n3 = sh.t[0][byte_of(c3, 0)] ^ sh.t[1][byte_of(c0, 1)] ^
                    sh.t[2][byte_of(c1, 2)] ^ sh.t[3][byte_of(c2, 3)] ^ k[i3];
      c0 = n0, c1 = n1, c2 = n2, c3 = n3;
    }
    const uint32_t* k = rk + 4 * kNr;
    s[0] = last(sh, c0, c1, c2, c3) ^ k[0];
    s[i1] = last(sh, c1, c2, c3, c0) ^ k[i1];
    s[2] = last(sh, c2, c3, c0, c1) ^ k[2];
    s[i3] = last(sh, c3, c0, c1, c2) ^ k[i3];
  }

  // Final round (no MixColumns): S-box of row i taken from column ci.
  GPUCRYPTO_HD static uint32_t last(const Shared& sh, uint32_t a, uint32_t b, uint32_t c,
                                    uint32_t d) {
    return sh.s[byte_of(a, 0)] | sh.s[byte_of(b, 1)] << 8 | sh.s[byte_of(c, 2)] << 16 |
           sh.s[byte_of(d, 3)] << 24;
  }
};

}  // namespace gpucrypto::gpu::kern
