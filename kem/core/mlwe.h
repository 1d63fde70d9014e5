// Module-LWE building blocks shared by every Kyber-style parameter set:
// coefficients mod q, polynomials in Z_q[x]/(x^n + 1), vectors of rank k,
// the centred binomial sampler, uniform sampling from bytes, and the
// little-endian bit packing of FIPS 203 (ByteEncode_d / ByteDecode_d).
//
// Everything here is a template over a parameter struct (see
// kem/core/babykyber_params.h) and marked GPUCRYPTO_HD: the same code runs on the
// CPU, in a CUDA kernel and in the host grid emulator. No std:: containers,
// no heap, no data-dependent branches or memory indices (constant time):
// reductions are multiply-shift (Barrett) and comparisons are arithmetic.
//
// Coefficients are kept canonical in [0, q) as uint16_t. Small values such
// as -1 are stored as q - 1.
#pragma once
#include <cstddef>
#include <cstdint>

#include "kem/core/div_const.h"
#include "platform/host_device.h"

namespace gpucrypto::kem {

// x mod q for 0 <= x < 2^16 (Barrett reduction with an exact quotient,
// kem/core/div_const.h).
template <class P>
GPUCRYPTO_HD constexpr uint16_t reduce(uint32_t x) {
  return uint16_t(x - P::q * div_const<P::q>(x));
}

// All-ones when a == b, else zero; no branch.
GPUCRYPTO_HD constexpr uint32_t ct_eq_mask(uint32_t a, uint32_t b) {
  uint32_t d = a ^ b;
  return uint32_t((uint64_t(d) - 1) >> 32);  // d == 0 borrows into the top half
}

template <class P>
struct Poly {
  uint16_t c[P::n];
};

template <class P>
struct PolyVec {
  Poly<P> p[P::k];
};

template <class P>
struct PolyMat {
  Poly<P> a[P::k][P::k];  // a[row][column]
};

template <class P>
GPUCRYPTO_HD inline void poly_add(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) {
  for (int i = 0; i < P::n; ++i) r.c[i] = reduce<P>(uint32_t(a.c[i]) + b.c[i]);
}

template <class P>
GPUCRYPTO_HD inline void poly_sub(Poly<P>& r, const Poly<P>& a, const Poly<P>& b) {
  for (int i = 0; i < P::n; ++i) r.c[i] = reduce<P>(uint32_t(a.c[i]) + P::q - b.c[i]);
}

// acc += a * b in Z[x]/(x^n + 1), unreduced. Schoolbook: for babyKyber's
// n = 4 it is 16 multiplications; ML-KEM's n = 256 would use the NTT behind
// the same accumulate/finish interface. Wrapped terms (x^n = -1) add
// a_j * (q - b) so every partial sum stays non-negative.
template <class P>
GPUCRYPTO_HD inline void poly_mul_acc(uint32_t acc[P::n], const Poly<P>& a, const Poly<P>& b) {
  for (int i = 0; i < P::n; ++i) {
    for (int j = 0; j < P::n; ++j) {
      const int d = i + j;
      if (d < P::n) {
        acc[d] += uint32_t(a.c[i]) * b.c[j];
      } else {
        acc[d - P::n] += uint32_t(a.c[i]) * (P::q - b.c[j]);
      }
    }
  }
}

// The largest accumulated value must fit reduce()'s input range.
template <class P>
constexpr bool kAccFits = uint64_t(P::k) * P::n * (P::q) * (P::q) + P::q < (1u << 16);

// r = sum_j a[j] * b[j] + e   (inner product plus an error polynomial)
template <class P>
GPUCRYPTO_HD inline void inner_product_add(Poly<P>& r, const Poly<P>* a, size_t a_stride,
                                           const PolyVec<P>& b, const Poly<P>& e) {
  static_assert(kAccFits<P>, "accumulator would overflow reduce()'s range");
  uint32_t acc[P::n];
  for (int i = 0; i < P::n; ++i) acc[i] = e.c[i];
  for (int j = 0; j < P::k; ++j) poly_mul_acc<P>(acc, a[j * a_stride], b.p[j]);
  for (int i = 0; i < P::n; ++i) r.c[i] = reduce<P>(acc[i]);
}

// t = A * s + e
template <class P>
GPUCRYPTO_HD inline void matvec_add(PolyVec<P>& t, const PolyMat<P>& A, const PolyVec<P>& s,
                                    const PolyVec<P>& e) {
  for (int i = 0; i < P::k; ++i) inner_product_add<P>(t.p[i], &A.a[i][0], 1, s, e.p[i]);
}

// u = A^T * r + e1
template <class P>
GPUCRYPTO_HD inline void matvec_transpose_add(PolyVec<P>& u, const PolyMat<P>& A,
                                              const PolyVec<P>& r, const PolyVec<P>& e1) {
  for (int i = 0; i < P::k; ++i) inner_product_add<P>(u.p[i], &A.a[0][i], P::k, r, e1.p[i]);
}

// --- sampling ---------------------------------------------------------------

// Bit `i` of a little-endian byte string.
GPUCRYPTO_HD inline uint32_t bit_at(const uint8_t* b, int i) { return (b[i >> 3] >> (i & 7)) & 1u; }

// Centred binomial distribution CBD_eta (FIPS 203, Algorithm 8): each
// coefficient is (sum of eta bits) - (sum of the next eta bits), from 2*eta*n
// bits of `b` read little-endian. eta = 1 gives {-1, 0, 1} with
// probabilities 1/4, 1/2, 1/4: babyKyber's "small" coefficients.
template <class P, int Eta>
GPUCRYPTO_HD inline void sample_cbd(Poly<P>& r, const uint8_t* b) {
  for (int i = 0; i < P::n; ++i) {
    uint32_t x = 0, y = 0;
    for (int j = 0; j < Eta; ++j) {
      x += bit_at(b, 2 * i * Eta + j);
      y += bit_at(b, 2 * i * Eta + Eta + j);
    }
    r.c[i] = reduce<P>(x + P::q - y);
  }
}
template <class P, int Eta>
inline constexpr int kCbdBytes = 2 * Eta * P::n / 8;

// Sparse ternary vector of weight exactly one: a single coefficient +1 or -1
// among the k*n coefficients of a vector, from one byte: bits 0..log2(k*n)-1
// give the position (polynomial-major), the next bit the sign (1 = -1).
// Used where a parameter set needs a worst-case noise bound rather than a
// distribution (babyKyber: see babykyber_params.h). Constant time.
template <class P>
GPUCRYPTO_HD inline void sample_sparse_ternary(PolyVec<P>& r, uint8_t b) {
  constexpr int kLen = P::k * P::n;
  static_assert((kLen & (kLen - 1)) == 0 && kLen <= 128, "position must be whole bits");
  const uint32_t pos = b & (kLen - 1);
  const uint32_t neg = (b / kLen) & 1u;
  const uint32_t val = 1u + (P::q - 2) * neg;  // 1 or q - 1
  for (int j = 0; j < P::k; ++j)
    for (int i = 0; i < P::n; ++i)
      r.p[j].c[i] = uint16_t(ct_eq_mask(pos, uint32_t(j * P::n + i)) & val);
}

// Uniform coefficients for the public matrix: each coefficient is a 16-bit
// little-endian word reduced mod q. There is no rejection (so no variable
// time and identical results on every back end); the bias is at most
// q / 2^16 (for q = 17: value 0 has probability 3856/65536 instead of
// 3855/65536). A parameter set with a large q (ML-KEM) uses FIPS 203's
// rejection sampler from SHAKE128 instead; A is public, so that is safe too.
template <class P>
GPUCRYPTO_HD inline void sample_uniform_wide(Poly<P>& r, const uint8_t* b) {
  for (int i = 0; i < P::n; ++i) r.c[i] = reduce<P>(uint32_t(b[2 * i]) | uint32_t(b[2 * i + 1]) << 8);
}
template <class P>
inline constexpr int kUniformWideBytes = 2 * P::n;

// --- encoding ---------------------------------------------------------------

// ByteEncode_d (FIPS 203, Algorithm 5) generalised to a bit offset: writes the
// n coefficients of `a`, d bits each, little-endian, starting at bit `bitpos`
// of `out` (whose bytes must be zero there beforehand).
template <class P, int D>
GPUCRYPTO_HD inline void poly_pack(uint8_t* out, int bitpos, const Poly<P>& a) {
  for (int i = 0; i < P::n; ++i) {
    for (int j = 0; j < D; ++j) {
      const int pos = bitpos + i * D + j;
      out[pos >> 3] = uint8_t(out[pos >> 3] | (((a.c[i] >> j) & 1u) << (pos & 7)));
    }
  }
}

// ByteDecode_d: reads n d-bit coefficients starting at bit `bitpos`. Returns
// an all-ones mask when every coefficient was already < q (canonical), else
// zero; the coefficients are reduced mod q either way.
template <class P, int D>
GPUCRYPTO_HD inline uint32_t poly_unpack(Poly<P>& r, const uint8_t* in, int bitpos) {
  static_assert((1u << D) < (1u << 16), "d too large");
  uint32_t ok = ~0u;
  for (int i = 0; i < P::n; ++i) {
    uint32_t x = 0;
    for (int j = 0; j < D; ++j) x |= bit_at(in, bitpos + i * D + j) << j;
    const uint16_t y = reduce<P>(x);
    ok &= ct_eq_mask(x, y);
    r.c[i] = y;
  }
  return ok;
}

// Message encoding (FIPS 203 Decompress_1): bit i of `m` becomes the
// coefficient round(q/2) * m_i of x^i.
template <class P>
GPUCRYPTO_HD inline void poly_from_msg(Poly<P>& r, const uint8_t* m) {
  for (int i = 0; i < P::n; ++i) r.c[i] = uint16_t(bit_at(m, i) * P::msg_scale);
}

// Message decoding (FIPS 203 Compress_1): bit = round(2c / q) mod 2, i.e.
// floor((4c + q) / 2q) & 1: 1 exactly when c is nearer q/2 than 0 or q
// (for q = 17: c in 5..12).
template <class P>
GPUCRYPTO_HD inline void poly_to_msg(uint8_t* m, const Poly<P>& a) {
  for (int i = 0; i < P::n / 8 + (P::n % 8 != 0); ++i) m[i] = 0;
  for (int i = 0; i < P::n; ++i) {
    const uint32_t b = div_const<2 * P::q>(4u * a.c[i] + P::q) & 1u;
    m[i >> 3] = uint8_t(m[i >> 3] | (b << (i & 7)));
  }
}

}  // namespace gpucrypto::kem
