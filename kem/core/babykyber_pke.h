// The babyKyber public-key encryption scheme (K-PKE of FIPS 203 with the toy
// parameters and no compression), one instance at a time, from caller-given
// randomness. Plain GPUCRYPTO_HD functions: the CPU reference, the CUDA
// kernels and the host grid emulator all run this exact code.
//
// Sign convention: v = t^T r + e2 - round(q/2) * m. The worked example's
// formula is printed with "+", but its printed v is the value of the "-"
// form (see test/vectors/babykyber.txt); we follow the printed values.
// Decryption is m = Compress_1(v - s^T u) either way.
//
// Byte layouts (all coefficients canonical in [0, q), ByteEncode_5, i.e.
// 5 bits each, little-endian, packed LSB first):
//   ek (15 bytes)  = A[0][0] A[0][1] A[1][0] A[1][1] t[0] t[1]
//                    (the matrix itself is stored, not a seed for it: at
//                    n = 4 a 32-byte seed would be larger than A's 10 bytes)
//   dk (5 bytes)   = s[0] s[1]   (-1 stored as 16)
//   ct (8 bytes)   = u[0] u[1] v, then 4 zero padding bits
//   m  (1 byte)    = message bits 0..3 (bit i -> coefficient of x^i), bits 4..7 zero
//   keygen coins (35 bytes): A from bytes 0..31 (16-bit words mod q, row by
//                    row), s = CBD_1(bytes 32..33), e = SparseTernary(byte 34)
//   encrypt coins (4 bytes): r = CBD_1(bytes 0..1), e1 = SparseTernary(byte 2),
//                    e2 = CBD_1(byte 3)
// (CBD_1 and SparseTernary as in mlwe.h; why e, e1 are sparse: babykyber_params.h.)
#pragma once
#include <cstdint>

#include "platform/host_device.h"
#include "kem/core/babykyber_params.h"
#include "kem/core/mlwe.h"

namespace gpucrypto::kem::babykyber {

using P = BabyKyberParams;
using Poly = kem::Poly<P>;
using PolyVec = kem::PolyVec<P>;
using PolyMat = kem::PolyMat<P>;

inline constexpr int kD = P::coeff_bits;
inline constexpr int kPolyBits = P::n * kD;
inline constexpr int kEkBytes = (P::k * P::k + P::k) * kPolyBits / 8;
inline constexpr int kDkBytes = P::k * kPolyBits / 8;
inline constexpr int kCtBytes = ((P::k + 1) * kPolyBits + 7) / 8;
inline constexpr int kMsgBytes = 1;
inline constexpr int kSparseBytes = 1;
inline constexpr int kKeygenCoinsBytes =
    P::k * P::k * kUniformWideBytes<P> + P::k * kCbdBytes<P, P::eta1> + kSparseBytes;
inline constexpr int kEncryptCoinsBytes =
    P::k * kCbdBytes<P, P::eta1> + kSparseBytes + kCbdBytes<P, P::eta2>;
static_assert(kEkBytes == 15 && kDkBytes == 5 && kCtBytes == 8);
static_assert(kKeygenCoinsBytes == 35 && kEncryptCoinsBytes == 4);

// --- polynomial level (the worked example's values plug in here) -----------

// t = A s + e
GPUCRYPTO_HD inline void keygen_poly(PolyVec& t, const PolyMat& A, const PolyVec& s,
                                     const PolyVec& e) {
  matvec_add<P>(t, A, s, e);
}

// u = A^T r + e1,  v = t^T r + e2 - round(q/2) m
GPUCRYPTO_HD inline void encrypt_poly(PolyVec& u, Poly& v, const PolyMat& A, const PolyVec& t,
                                      const PolyVec& r, const PolyVec& e1, const Poly& e2,
                                      uint8_t m) {
  matvec_transpose_add<P>(u, A, r, e1);
  Poly tr;
  inner_product_add<P>(tr, &t.p[0], 1, r, e2);
  Poly ms;
  poly_from_msg<P>(ms, &m);
  poly_sub<P>(v, tr, ms);
}

// w = v - s^T u; returns Compress_1(w) as message bits. `w` is for tests.
GPUCRYPTO_HD inline uint8_t decrypt_poly(Poly& w, const PolyVec& s, const PolyVec& u,
                                         const Poly& v) {
  Poly su;
  const Poly zero{};
  inner_product_add<P>(su, &s.p[0], 1, u, zero);
  poly_sub<P>(w, v, su);
  uint8_t m;
  poly_to_msg<P>(&m, w);
  return m;
}

// --- byte level --------------------------------------------------------------

GPUCRYPTO_HD inline void encode_ek(uint8_t ek[kEkBytes], const PolyMat& A, const PolyVec& t) {
  for (int i = 0; i < kEkBytes; ++i) ek[i] = 0;
  for (int i = 0; i < P::k; ++i)
    for (int j = 0; j < P::k; ++j) poly_pack<P, kD>(ek, (i * P::k + j) * kPolyBits, A.a[i][j]);
  for (int i = 0; i < P::k; ++i) poly_pack<P, kD>(ek, (P::k * P::k + i) * kPolyBits, t.p[i]);
}

// Returns all-ones when every coefficient was canonical (< q), else 0
// (FIPS 203's encapsulation-key modulus check).
GPUCRYPTO_HD inline uint32_t decode_ek(PolyMat& A, PolyVec& t, const uint8_t ek[kEkBytes]) {
  uint32_t ok = ~0u;
  for (int i = 0; i < P::k; ++i)
    for (int j = 0; j < P::k; ++j) ok &= poly_unpack<P, kD>(A.a[i][j], ek, (i * P::k + j) * kPolyBits);
  for (int i = 0; i < P::k; ++i) ok &= poly_unpack<P, kD>(t.p[i], ek, (P::k * P::k + i) * kPolyBits);
  return ok;
}

GPUCRYPTO_HD inline void encode_dk(uint8_t dk[kDkBytes], const PolyVec& s) {
  for (int i = 0; i < kDkBytes; ++i) dk[i] = 0;
  for (int i = 0; i < P::k; ++i) poly_pack<P, kD>(dk, i * kPolyBits, s.p[i]);
}

GPUCRYPTO_HD inline uint32_t decode_dk(PolyVec& s, const uint8_t dk[kDkBytes]) {
  uint32_t ok = ~0u;
  for (int i = 0; i < P::k; ++i) ok &= poly_unpack<P, kD>(s.p[i], dk, i * kPolyBits);
  return ok;
}

GPUCRYPTO_HD inline void encode_ct(uint8_t ct[kCtBytes], const PolyVec& u, const Poly& v) {
  for (int i = 0; i < kCtBytes; ++i) ct[i] = 0;
  for (int i = 0; i < P::k; ++i) poly_pack<P, kD>(ct, i * kPolyBits, u.p[i]);
  poly_pack<P, kD>(ct, P::k * kPolyBits, v);
}

// Non-canonical ciphertexts are reduced, not rejected: the KEM's
// re-encryption check turns any such ciphertext into an implicit rejection.
GPUCRYPTO_HD inline void decode_ct(PolyVec& u, Poly& v, const uint8_t ct[kCtBytes]) {
  for (int i = 0; i < P::k; ++i) (void)poly_unpack<P, kD>(u.p[i], ct, i * kPolyBits);
  (void)poly_unpack<P, kD>(v, ct, P::k * kPolyBits);
}

GPUCRYPTO_HD inline void keygen(uint8_t ek[kEkBytes], uint8_t dk[kDkBytes],
                                const uint8_t coins[kKeygenCoinsBytes]) {
  PolyMat A;
  PolyVec s, e, t;
  for (int i = 0; i < P::k; ++i)
    for (int j = 0; j < P::k; ++j)
      sample_uniform_wide<P>(A.a[i][j], coins + (i * P::k + j) * kUniformWideBytes<P>);
  const uint8_t* c = coins + P::k * P::k * kUniformWideBytes<P>;
  for (int i = 0; i < P::k; ++i) sample_cbd<P, P::eta1>(s.p[i], c + i * kCbdBytes<P, P::eta1>);
  c += P::k * kCbdBytes<P, P::eta1>;
  sample_sparse_ternary<P>(e, c[0]);
  keygen_poly(t, A, s, e);
  encode_ek(ek, A, t);
  encode_dk(dk, s);
}

// Returns all-ones on success, 0 when `ek` is not canonical (ct is then
// still written, from the reduced key, so callers can stay branch-free).
GPUCRYPTO_HD inline uint32_t encrypt(uint8_t ct[kCtBytes], const uint8_t ek[kEkBytes], uint8_t m,
                                     const uint8_t coins[kEncryptCoinsBytes]) {
  PolyMat A;
  PolyVec t, r, e1, u;
  Poly e2, v;
  const uint32_t ok = decode_ek(A, t, ek);
  for (int i = 0; i < P::k; ++i) sample_cbd<P, P::eta1>(r.p[i], coins + i * kCbdBytes<P, P::eta1>);
  const uint8_t* c = coins + P::k * kCbdBytes<P, P::eta1>;
  sample_sparse_ternary<P>(e1, c[0]);
  sample_cbd<P, P::eta2>(e2, c + kSparseBytes);
  encrypt_poly(u, v, A, t, r, e1, e2, uint8_t(m & ((1u << P::n) - 1)));
  encode_ct(ct, u, v);
  return ok;
}

GPUCRYPTO_HD inline uint8_t decrypt(const uint8_t dk[kDkBytes], const uint8_t ct[kCtBytes]) {
  PolyVec s, u;
  Poly v, w;
  (void)decode_dk(s, dk);
  decode_ct(u, v, ct);
  return decrypt_poly(w, s, u, v);
}

}  // namespace gpucrypto::kem::babykyber
