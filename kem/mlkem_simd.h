// The vector back ends of the ML-KEM core (see mlkem_core.h): the matrix
// expansion and the noise sampling run four SHAKE instances at a time on
// the 4-way Keccak of mlkem_avx2.cpp / mlkem_avx512.cpp; rejection sampling
// and CBD use the portable code on the squeezed bytes, and NTT/basemul are
// the reference (see kem/README.md for what is and is not vectorised).
// Non-ISA code: only the exported ISA functions are called from here.
#pragma once
#include "kem/mlkem_core.h"
#include "kem/mlkem_simd_api.h"

namespace gpucrypto::kem::mlkem {

template <void (*Absorb)(KeccakX4*, size_t, uint8_t, const uint8_t* const*, size_t),
          void (*Squeeze)(KeccakX4*, size_t, size_t, uint8_t* const*)>
struct KeccakX4Backend : RefBackend {
  template <int K>
  static void gen_matrix(PolyVec<K>* a, const uint8_t rho[32], bool transposed) {
    constexpr int kTotal = K * K;
    for (int base = 0; base < kTotal; base += 4) {
      uint8_t in[4][34];
      const uint8_t* inp[4];
      Poly* dst[4];
      Poly spare;  // lanes past the last entry repeat it into a scratch polynomial
      for (int l = 0; l < 4; ++l) {
        const int idx = base + l < kTotal ? base + l : kTotal - 1;
        const int i = idx / K, j = idx % K;
        for (int b = 0; b < 32; ++b) in[l][b] = rho[b];
        in[l][32] = uint8_t(transposed ? i : j);
        in[l][33] = uint8_t(transposed ? j : i);
        inp[l] = in[l];
        dst[l] = base + l < kTotal ? &a[i].p[j] : &spare;
      }
      KeccakX4 st;
      Absorb(&st, kShake128Rate, 0x1f, inp, 34);
      // Three blocks (504 bytes, 336 candidates) almost always suffice.
      uint8_t buf[4][3 * kShake128Rate];
      uint8_t* outp[4] = {buf[0], buf[1], buf[2], buf[3]};
      Squeeze(&st, kShake128Rate, 3, outp);
      int ctr[4];
      bool more = false;
      for (int l = 0; l < 4; ++l) {
        ctr[l] = rej_uniform(dst[l]->c, 0, buf[l], sizeof buf[l]);
        more |= ctr[l] < kN;
      }
      while (more) {  // public data: the matrix is public
        Squeeze(&st, kShake128Rate, 1, outp);
        more = false;
        for (int l = 0; l < 4; ++l) {
          ctr[l] = rej_uniform(dst[l]->c, ctr[l], buf[l], kShake128Rate);
          more |= ctr[l] < kN;
        }
      }
    }
  }

  template <int Eta>
  static void noise(Poly* const* r, int count, const uint8_t seed[32], uint8_t nonce) {
    constexpr size_t kBytes = 64 * Eta, kBlocks = (kBytes + kShake256Rate - 1) / kShake256Rate;
    for (int base = 0; base < count; base += 4) {
      uint8_t in[4][33];
      const uint8_t* inp[4];
      for (int l = 0; l < 4; ++l) {
        for (int b = 0; b < 32; ++b) in[l][b] = seed[b];
        in[l][32] = uint8_t(nonce + base + l);
        inp[l] = in[l];
      }
      KeccakX4 st;
      Absorb(&st, kShake256Rate, 0x1f, inp, 33);
      uint8_t buf[4][kBlocks * kShake256Rate];
      uint8_t* outp[4] = {buf[0], buf[1], buf[2], buf[3]};
      Squeeze(&st, kShake256Rate, kBlocks, outp);
      for (int l = 0; l < 4 && base + l < count; ++l) poly_cbd<Eta>(*r[base + l], buf[l]);
      Kem<2, RefBackend>::wipe(buf, sizeof buf);
      Kem<2, RefBackend>::wipe(&st, sizeof st);
    }
  }
};

using Avx2Backend = KeccakX4Backend<keccakx4_absorb_avx2, keccakx4_squeeze_avx2>;
using Avx512Backend = KeccakX4Backend<keccakx4_absorb_avx512, keccakx4_squeeze_avx512>;

}  // namespace gpucrypto::kem::mlkem
