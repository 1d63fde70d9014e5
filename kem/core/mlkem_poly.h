// ML-KEM polynomial arithmetic (FIPS 203 sections 4.2-4.3): the NTT over
// Z_3329[x]/(x^256 + 1), base-case multiplication, compression, the byte
// encodings, the CBD sampler and the rejection sampler for the public matrix.
// Plain GPUCRYPTO_HD functions (CPU reference, CUDA kernels, host emulator).
//
// Representation: unlike mlwe.h's canonical uint16_t coefficients (fine for
// babyKyber's q = 17), ML-KEM keeps signed int16_t coefficients with lazy
// reduction and Montgomery multiplication (R = 2^16), the representation
// every fast Kyber implementation uses: a product needs one 16x16->32
// multiply and two 16-bit multiplies, and values may grow to a few q between
// reductions. Coefficients are made canonical ([0, q)) only when encoded.
//
// Constant time: reductions are multiply-shift, comparisons arithmetic, no
// table indexed by secret data (the zeta table is indexed by position only).
// Rejection sampling of the public matrix branches on public data only.
#pragma once
#include <cstddef>
#include <cstdint>

#include "platform/host_device.h"
#include "kem/core/div_const.h"
#include "kem/core/mlkem_keccak.h"
#include "kem/core/mlkem_params.h"

namespace gpucrypto::kem::mlkem {

struct Poly {
  int16_t c[kN];
};

template <int K>
struct PolyVec {
  Poly p[K];
};

inline constexpr int16_t kQinv = -3327;  // q^-1 mod 2^16
inline constexpr int16_t kMont = -1044;  // 2^16 mod q, centred

// a * 2^-16 mod q, for |a| < q * 2^15; result in (-q, q).
GPUCRYPTO_HD inline int16_t montgomery_reduce(int32_t a) {
  const int16_t t = int16_t(int16_t(a) * kQinv);
  return int16_t((a - int32_t(t) * kQ) >> 16);
}

// The centred representative of a mod q, in [-(q-1)/2, (q-1)/2].
GPUCRYPTO_HD inline int16_t barrett_reduce(int16_t a) {
  constexpr int32_t v = ((1 << 26) + kQ / 2) / kQ;
  const int16_t t = int16_t((v * a + (1 << 25)) >> 26);
  return int16_t(a - t * kQ);
}

GPUCRYPTO_HD inline int16_t fqmul(int16_t a, int16_t b) { return montgomery_reduce(int32_t(a) * b); }

// x + q when x is negative, for x in (-q, q): no branch.
GPUCRYPTO_HD inline uint16_t to_canonical(int16_t x) {
  return uint16_t(x + ((x >> 15) & kQ));
}

// zeta^BitRev7(i) * 2^16 mod q, centred, for zeta = 17 (FIPS 203 Appendix A).
struct ZetaTable {
  int16_t z[128];
  constexpr ZetaTable() : z() {
    int32_t pw[128] = {};
    pw[0] = 1;
    for (int i = 1; i < 128; ++i) pw[i] = pw[i - 1] * 17 % kQ;
    for (int i = 0; i < 128; ++i) {
      int r = 0;
      for (int b = 0; b < 7; ++b) r |= ((i >> b) & 1) << (6 - b);
      int32_t v = pw[r] * 65536 % kQ;  // 2^16 * zeta^r
      if (v > kQ / 2) v -= kQ;
      z[i] = int16_t(v);
    }
  }
};
inline constexpr ZetaTable kZetas{};
static_assert(kZetas.z[0] == kMont && kZetas.z[1] == -758 && kZetas.z[127] == 1628,
              "zeta table (pq-crystals reference values)");

// Forward NTT (FIPS 203 Algorithm 9), Cooley-Tukey in place, bit-reversed
// output; input |c| < q, output |c| < 8q (the caller reduces).
GPUCRYPTO_HD inline void ntt(int16_t r[kN]) {
  int k = 1;
  for (int len = 128; len >= 2; len >>= 1) {
    for (int start = 0; start < kN; start += 2 * len) {
      const int16_t zeta = kZetas.z[k++];
      for (int j = start; j < start + len; ++j) {
        const int16_t t = fqmul(zeta, r[j + len]);
        r[j + len] = int16_t(r[j] - t);
        r[j] = int16_t(r[j] + t);
      }
    }
  }
}

// Inverse NTT (FIPS 203 Algorithm 10), Gentleman-Sande, times 2^16 (the
// final scaling by 128^-1 carries an extra Montgomery factor, which cancels
// the 2^-16 of the base multiplication before it). Output |c| < q.
GPUCRYPTO_HD inline void invntt_tomont(int16_t r[kN]) {
  constexpr int16_t f = 1441;  // 2^32 / 128 mod q
  int k = 127;
  for (int len = 2; len <= 128; len <<= 1) {
    for (int start = 0; start < kN; start += 2 * len) {
      const int16_t zeta = kZetas.z[k--];
      for (int j = start; j < start + len; ++j) {
        const int16_t t = r[j];
        r[j] = barrett_reduce(int16_t(t + r[j + len]));
        r[j + len] = fqmul(zeta, int16_t(r[j + len] - t));
      }
    }
  }
  for (int j = 0; j < kN; ++j) r[j] = fqmul(r[j], f);
}

// r = a * b in the NTT domain (FIPS 203 Algorithm 11: 128 products modulo
// x^2 - zeta^(2 BitRev7(i) + 1)), times 2^-16.
GPUCRYPTO_HD inline void basemul_acc(int16_t r[kN], const int16_t a[kN], const int16_t b[kN],
                                     bool accumulate) {
  for (int i = 0; i < 64; ++i) {
    const int16_t zeta = kZetas.z[64 + i];
    for (int h = 0; h < 2; ++h) {
      const int o = 4 * i + 2 * h;
      const int16_t z = h == 0 ? zeta : int16_t(-zeta);
      int16_t r0 = fqmul(fqmul(a[o + 1], b[o + 1]), z);
      r0 = int16_t(r0 + fqmul(a[o], b[o]));
      int16_t r1 = fqmul(a[o], b[o + 1]);
      r1 = int16_t(r1 + fqmul(a[o + 1], b[o]));
      if (accumulate) {
        r[o] = int16_t(r[o] + r0);
        r[o + 1] = int16_t(r[o + 1] + r1);
      } else {
        r[o] = r0;
        r[o + 1] = r1;
      }
    }
  }
}

GPUCRYPTO_HD inline void poly_reduce(Poly& r) {
  for (int i = 0; i < kN; ++i) r.c[i] = barrett_reduce(r.c[i]);
}

// Multiplies by 2^16 (into the Montgomery domain).
GPUCRYPTO_HD inline void poly_tomont(Poly& r) {
  constexpr int16_t f = int16_t((1ull << 32) % kQ);
  for (int i = 0; i < kN; ++i) r.c[i] = fqmul(r.c[i], f);
}

GPUCRYPTO_HD inline void poly_add(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < kN; ++i) r.c[i] = int16_t(a.c[i] + b.c[i]);
}

GPUCRYPTO_HD inline void poly_sub(Poly& r, const Poly& a, const Poly& b) {
  for (int i = 0; i < kN; ++i) r.c[i] = int16_t(a.c[i] - b.c[i]);
}

// --- encodings --------------------------------------------------------------

// ByteEncode_12 of a reduced polynomial (|c| < q).
GPUCRYPTO_HD inline void poly_to_bytes(uint8_t r[384], const Poly& a) {
  for (int i = 0; i < kN / 2; ++i) {
    const uint16_t t0 = to_canonical(a.c[2 * i]), t1 = to_canonical(a.c[2 * i + 1]);
    r[3 * i] = uint8_t(t0);
    r[3 * i + 1] = uint8_t((t0 >> 8) | (t1 << 4));
    r[3 * i + 2] = uint8_t(t1 >> 4);
  }
}

// ByteDecode_12. Returns all-ones when every coefficient is < q (the
// modulus check of FIPS 203 section 7.2), else zero; no branch.
GPUCRYPTO_HD inline uint32_t poly_from_bytes(Poly& r, const uint8_t a[384]) {
  uint32_t bad = 0;
  for (int i = 0; i < kN / 2; ++i) {
    const uint32_t t0 = a[3 * i] | (uint32_t(a[3 * i + 1] & 0x0f) << 8);
    const uint32_t t1 = (a[3 * i + 1] >> 4) | (uint32_t(a[3 * i + 2]) << 4);
    bad |= ((kQ - 1) - t0) | ((kQ - 1) - t1);  // bit 31 set when t >= q
    r.c[2 * i] = int16_t(t0);
    r.c[2 * i + 1] = int16_t(t1);
  }
  return (bad >> 31) - 1u;
}

// Compress_d (FIPS 203 eq. 4.7) of a canonical x: round(2^d x / q) mod 2^d
// = floor((2^(d+1) x + q) / 2q) mod 2^d; the dividend is below 2^25, hence
// the 40-bit shift (kem/core/div_const.h).
template <int D>
GPUCRYPTO_HD inline uint32_t compress(uint32_t x) {
  return div_const<2 * kQ, 40>((x << (D + 1)) + kQ) & ((1u << D) - 1);
}

// Decompress_d: round(q y / 2^d).
template <int D>
GPUCRYPTO_HD inline int16_t decompress(uint32_t y) {
  return int16_t((y * kQ + (1u << (D - 1))) >> D);
}

// ByteEncode_d(Compress_d(a)) of a reduced polynomial: 32 d bytes.
template <int D>
GPUCRYPTO_HD inline void poly_compress(uint8_t* r, const Poly& a) {
  uint64_t acc = 0;
  int bits = 0;
  for (int i = 0; i < kN; ++i) {
    acc |= uint64_t(compress<D>(to_canonical(a.c[i]))) << bits;
    bits += D;
    while (bits >= 8) {
      *r++ = uint8_t(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
}

// Decompress_d(ByteDecode_d(a)).
template <int D>
GPUCRYPTO_HD inline void poly_decompress(Poly& r, const uint8_t* a) {
  uint64_t acc = 0;
  int bits = 0;
  for (int i = 0; i < kN; ++i) {
    while (bits < D) {
      acc |= uint64_t(*a++) << bits;
      bits += 8;
    }
    r.c[i] = decompress<D>(uint32_t(acc) & ((1u << D) - 1));
    acc >>= D;
    bits -= D;
  }
}

// Decompress_1(ByteDecode_1(m)): bit i of the 32-byte message becomes
// (q + 1) / 2 = 1665 times x^i.
GPUCRYPTO_HD inline void poly_from_msg(Poly& r, const uint8_t m[32]) {
  for (int i = 0; i < kN; ++i) {
    const int16_t bit = int16_t((m[i / 8] >> (i % 8)) & 1);
    r.c[i] = int16_t(-bit & ((kQ + 1) / 2));
  }
}

// ByteEncode_1(Compress_1(a)) of a reduced polynomial.
GPUCRYPTO_HD inline void poly_to_msg(uint8_t m[32], const Poly& a) {
  for (int i = 0; i < 32; ++i) {
    uint32_t byte = 0;
    for (int j = 0; j < 8; ++j) byte |= compress<1>(to_canonical(a.c[8 * i + j])) << j;
    m[i] = uint8_t(byte);
  }
}

// --- sampling ---------------------------------------------------------------

// SamplePolyCBD_eta (FIPS 203 Algorithm 8) from 64 eta bytes.
template <int Eta>
GPUCRYPTO_HD inline void poly_cbd(Poly& r, const uint8_t* b) {
  static_assert(Eta == 2 || Eta == 3);
  if constexpr (Eta == 2) {
    for (int i = 0; i < kN / 8; ++i) {
      const uint32_t t = uint32_t(b[4 * i]) | uint32_t(b[4 * i + 1]) << 8 |
                         uint32_t(b[4 * i + 2]) << 16 | uint32_t(b[4 * i + 3]) << 24;
      const uint32_t d = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
      for (int j = 0; j < 8; ++j)
        r.c[8 * i + j] = int16_t(int((d >> (4 * j)) & 3) - int((d >> (4 * j + 2)) & 3));
    }
  } else {
    for (int i = 0; i < kN / 4; ++i) {
      const uint32_t t =
          uint32_t(b[3 * i]) | uint32_t(b[3 * i + 1]) << 8 | uint32_t(b[3 * i + 2]) << 16;
      const uint32_t d = (t & 0x249249u) + ((t >> 1) & 0x249249u) + ((t >> 2) & 0x249249u);
      for (int j = 0; j < 4; ++j)
        r.c[4 * i + j] = int16_t(int((d >> (6 * j)) & 7) - int((d >> (6 * j + 3)) & 7));
    }
  }
}

// CBD_eta(PRF_eta(seed, nonce)) = CBD_eta(SHAKE256(seed || nonce, 64 eta)).
template <int Eta>
GPUCRYPTO_HD inline void poly_getnoise(Poly& r, const uint8_t seed[32], uint8_t nonce) {
  uint8_t buf[64 * Eta];
  shake256(buf, sizeof buf, seed, 32, &nonce, 1);
  poly_cbd<Eta>(r, buf);
}

// SampleNTT's inner loop (FIPS 203 Algorithm 7): appends the 12-bit values
// below q found in `buf` (a multiple of 3 bytes) to r[ctr..]; returns the new
// count. Branches on public data only (the matrix is public).
GPUCRYPTO_HD inline int rej_uniform(int16_t* r, int ctr, const uint8_t* buf, size_t len) {
  for (size_t pos = 0; ctr < kN && pos + 3 <= len; pos += 3) {
    const uint16_t d1 = uint16_t(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
    const uint16_t d2 = uint16_t((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));
    if (d1 < kQ) r[ctr++] = int16_t(d1);
    if (d2 < kQ && ctr < kN) r[ctr++] = int16_t(d2);
  }
  return ctr;
}

// A_hat entry: SampleNTT(rho || x || y).
GPUCRYPTO_HD inline void poly_sample_ntt(Poly& r, const uint8_t rho[32], uint8_t x, uint8_t y) {
  const uint8_t idx[2] = {x, y};
  Sponge sp;
  sponge_absorb(sp, kShake128Rate, 0x1f, rho, 32, idx, 2);
  uint8_t buf[kShake128Rate];
  int ctr = 0;
  while (ctr < kN) {
    sponge_squeeze_block(sp, buf);
    ctr = rej_uniform(r.c, ctr, buf, sizeof buf);
  }
}

}  // namespace gpucrypto::kem::mlkem
