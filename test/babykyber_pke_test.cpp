// babyKyber arithmetic and PKE: the worked example value by value, the
// reduction and message rounding exhaustively, and byte-level round trips.
#include <gtest/gtest.h>

#include <array>
#include <cstring>

#include "kem/core/babykyber_pke.h"
#include "test/babykyber_example.h"
#include "test/test_util.h"

namespace {

namespace bk = gpucrypto::kem::babykyber;
using bk::P;
using bk::Poly;
using bk::PolyMat;
using bk::PolyVec;

Poly poly(std::array<int, 4> c) {  // lowest degree first, as in the vector file
  Poly p;
  for (int i = 0; i < 4; ++i) p.c[i] = uint16_t(c[i]);
  return p;
}

std::array<int, 4> coeffs(const Poly& p) { return {p.c[0], p.c[1], p.c[2], p.c[3]}; }

// The worked example (source: test/babykyber_example.h).
using WorkedExample = gpucrypto::test::BabyKyberExample;

// The worked example's key generation and encryption: t, then (u, v).
struct EncryptedExample {
  WorkedExample x;
  PolyVec t, u;
  Poly v;
  EncryptedExample() {
    bk::keygen_poly(t, x.A, x.s, x.e);
    bk::encrypt_poly(u, v, x.A, t, x.r, x.e1, x.e2, x.m);
  }
};

TEST(BabyKyberPke, WorkedExampleKeygen) {
  WorkedExample x;
  PolyVec t;
  bk::keygen_poly(t, x.A, x.s, x.e);
  EXPECT_EQ(coeffs(t.p[0]), (std::array<int, 4>{7, 0, 15, 16}));   // t[0] = 16x^3 + 15x^2 + 7
  EXPECT_EQ(coeffs(t.p[1]), (std::array<int, 4>{6, 11, 12, 10}));  // t[1] = 10x^3 + 12x^2 + 11x + 6
}

TEST(BabyKyberPke, WorkedExampleEncryptDecrypt) {
  const EncryptedExample ex;
  const WorkedExample& x = ex.x;
  const PolyVec& u = ex.u;
  const Poly& v = ex.v;
  Poly w;
  EXPECT_EQ(coeffs(u.p[0]), (std::array<int, 4>{3, 10, 11, 11}));  // u[0] = 11x^3 + 11x^2 + 10x + 3
  EXPECT_EQ(coeffs(u.p[1]), (std::array<int, 4>{11, 13, 4, 4}));   // u[1] = 4x^3 + 4x^2 + 13x + 11
  // v = 7x^3 + 6x^2 + 8x + 15: the printed value, i.e. v = t^T r + e2 - 9m.
  EXPECT_EQ(coeffs(v), (std::array<int, 4>{15, 8, 6, 7}));
  const uint8_t m = bk::decrypt_poly(w, x.s, u, v);
  EXPECT_EQ(coeffs(w), (std::array<int, 4>{5, 7, 14, 7}));  // v - s^T u = 7x^3 + 14x^2 + 7x + 5
  EXPECT_EQ(m, 0b1011);                                      // decrypted = x^3 + x + 1
}

TEST(BabyKyberPke, WorkedExamplePlusVariantDecodesToo) {
  // The "+ 9m" form of the blog's formula gives v = [16, 9, 6, 8], which
  // decrypts to the same message ([6, 8, 14, 8] -> [1, 1, 0, 1]).
  const EncryptedExample ex;
  Poly w;
  Poly v_plus = poly({16, 9, 6, 8});
  EXPECT_EQ(bk::decrypt_poly(w, ex.x.s, ex.u, v_plus), 0b1011);
  EXPECT_EQ(coeffs(w), (std::array<int, 4>{6, 8, 14, 8}));
}

TEST(BabyKyberPke, WorkedExampleThroughBytes) {
  // The same example through the byte encodings: ek/dk/ct built from the
  // example's polynomials decode and decrypt to m.
  const EncryptedExample ex;
  const WorkedExample& x = ex.x;
  const PolyVec &t = ex.t, &u = ex.u;
  const Poly& v = ex.v;
  uint8_t ek[bk::kEkBytes], dk[bk::kDkBytes], ct[bk::kCtBytes];
  bk::encode_ek(ek, x.A, t);
  bk::encode_dk(dk, x.s);
  bk::encode_ct(ct, u, v);
  // ByteEncode_5 of u[0] = [3, 10, 11, 11], u[1] = [11, 13, 4, 4], v = [15, 8, 6, 7]
  // (bits LSB first): worked out by hand from the layout in babykyber_pke.h.
  uint64_t bits = 0;
  const int cs[12] = {3, 10, 11, 11, 11, 13, 4, 4, 15, 8, 6, 7};
  for (int i = 0; i < 12; ++i) bits |= uint64_t(cs[i]) << (5 * i);
  uint8_t expect[8];
  for (int i = 0; i < 8; ++i) expect[i] = uint8_t(bits >> (8 * i));
  EXPECT_EQ(0, std::memcmp(ct, expect, 8));
  EXPECT_EQ(bk::decrypt(dk, ct), 0b1011);
  PolyMat A2;
  PolyVec t2;
  EXPECT_NE(bk::decode_ek(A2, t2, ek), 0u);
  EXPECT_EQ(coeffs(A2.a[1][0]), coeffs(x.A.a[1][0]));
  EXPECT_EQ(coeffs(t2.p[1]), coeffs(t.p[1]));
}

TEST(BabyKyberPke, ReduceIsExactOn16Bits) {
  for (uint32_t x = 0; x < 65536; ++x) ASSERT_EQ(gpucrypto::kem::reduce<P>(x), x % 17) << x;
}

TEST(BabyKyberPke, MessageRoundingMatchesSpec) {
  // babykyber.txt: a coefficient decodes to 1 exactly for c in 5..12.
  for (int c = 0; c < 17; ++c) {
    Poly p = poly({c, 0, 0, 0});
    uint8_t m = 0xff;
    gpucrypto::kem::poly_to_msg<P>(&m, p);
    EXPECT_EQ(m, (c >= 5 && c <= 12) ? 1 : 0) << c;
  }
}

TEST(BabyKyberPke, CbdSamplerMapsBitPairs) {
  // CBD_1 coefficient i = bit(2i) - bit(2i+1): 0b00 -> 0, 0b01 -> 1, 0b10 -> -1, 0b11 -> 0.
  const uint8_t b = 0b11100100;  // pairs (LSB first): 00, 01, 10, 11
  Poly p;
  gpucrypto::kem::sample_cbd<P, 1>(p, &b);
  EXPECT_EQ(coeffs(p), (std::array<int, 4>{0, 1, 16, 0}));
}

TEST(BabyKyberPke, SparseTernarySampler) {
  // Byte b: position b & 7 (polynomial-major), sign bit 3.
  for (int b = 0; b < 256; ++b) {
    PolyVec v;
    gpucrypto::kem::sample_sparse_ternary<P>(v, uint8_t(b));
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 4; ++i) {
        const int expect = (j * 4 + i == (b & 7)) ? ((b & 8) ? 16 : 1) : 0;
        ASSERT_EQ(v.p[j].c[i], expect) << b;
      }
  }
}

TEST(BabyKyberPke, DecryptionNeverFailsWorstCase) {
  // Exhaustive over the sparse error positions/signs with the densest
  // secrets (all coefficients -1 or all +1) and e2 = +-1 everywhere: the
  // noise bound 3 leaves every message intact.
  WorkedExample x;
  for (int se = 0; se < 2; ++se)
    for (int eb = 0; eb < 16; ++eb)
      for (int e1b = 0; e1b < 16; ++e1b)
        for (int m = 0; m < 16; ++m) {
          PolyVec s, r, e, e1, t, u;
          Poly e2, v, w;
          const uint16_t c = se ? 16 : 1;
          for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 4; ++i) s.p[j].c[i] = r.p[j].c[i] = c;
          for (int i = 0; i < 4; ++i) e2.c[i] = c;
          gpucrypto::kem::sample_sparse_ternary<P>(e, uint8_t(eb));
          gpucrypto::kem::sample_sparse_ternary<P>(e1, uint8_t(e1b));
          bk::keygen_poly(t, x.A, s, e);
          bk::encrypt_poly(u, v, x.A, t, r, e1, e2, uint8_t(m));
          ASSERT_EQ(bk::decrypt_poly(w, s, u, v), m) << se << " " << eb << " " << e1b;
        }
}

TEST(BabyKyberPke, NonCanonicalPublicKeyFlagged) {
  uint8_t ek[bk::kEkBytes] = {};
  PolyMat A;
  PolyVec t;
  EXPECT_NE(bk::decode_ek(A, t, ek), 0u);
  ek[14] = 0x80;  // last coefficient's top bit: 16, still canonical
  EXPECT_NE(bk::decode_ek(A, t, ek), 0u);
  ek[14] = 0x88;  // last coefficient = 17
  EXPECT_EQ(bk::decode_ek(A, t, ek), 0u);
}

TEST(BabyKyberPke, RandomRoundTrips) {
  // 10^5 random keys and messages: decryption recovers every message (the
  // sparse e and e1 bound the noise by 3; see babykyber_params.h).
  const size_t n = 100000;
  auto coins = gpucrypto::test::random_bytes(n * (bk::kKeygenCoinsBytes + bk::kEncryptCoinsBytes + 1));
  size_t failures = 0;
  const uint8_t* c = coins.data();
  for (size_t i = 0; i < n; ++i) {
    uint8_t ek[bk::kEkBytes], dk[bk::kDkBytes], ct[bk::kCtBytes];
    bk::keygen(ek, dk, c);
    c += bk::kKeygenCoinsBytes;
    const uint8_t m = *c++ & 15;
    ASSERT_NE(bk::encrypt(ct, ek, m, c), 0u);
    c += bk::kEncryptCoinsBytes;
    failures += bk::decrypt(dk, ct) != m;
  }
  EXPECT_EQ(failures, 0u);
}

}  // namespace
