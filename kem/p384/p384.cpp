// P-384 points and scalar multiplication (p384.h), in Jacobian coordinates
// (x = X/Z^2, y = Y/Z^3; Z = 0 is the identity) with the a = -3 formulas of
// the Explicit-Formulas Database: doubling dbl-2001-b (3M + 5S), addition
// add-2007-bl (11M + 5S), mixed addition madd-2007-bl (7M + 4S).
//
// None of these is complete, so each use is argued: doubling is exact for
// every input of a prime-order curve (no point of order 2; Z = 0 stays 0). The
// additions get the identity as either input right by masks (the result is
// then the other input). They fail only for equal inputs (and give the
// identity, rightly, for opposite ones), and neither scalar multiplication
// ever adds two equal non-identity points for 0 < d < n: both sum multiples
// k1*P + k2*P where k1 and k2 are made of disjoint sets of the scalar's 4-bit
// windows, so k1 + k2 <= d < n and k1 != +-k2 unless both are 0 (see mul_var
// and mul_base). For d outside [1, n-1] the result is computed anyway, then
// masked away (p384.h: no branch on the scalar).
//
// Variable base (ECDH): a table of 0..15 times the point, then per 4-bit
// window from the top four doublings and one addition of the entry picked by
// scanning all 16 with masks. Fixed base (public keys): a comb over the
// generator: table m holds the affine i * 2^(16m) * G (m = 0..23, i = 1..15),
// so the 96 windows are summed as four rounds of 24 mixed additions with four
// doublings between rounds. The table is built on first use (~10k field
// multiplications, 0.3 ms) and read-only afterwards.
#include "kem/p384/p384.h"

#include <openssl/crypto.h>

#include <cstring>

#include "kem/p384/p384_field.h"
#include "platform/cpu_features.h"

namespace gpucrypto::p384 {
namespace {

struct Pt {
  Fe x, y, z;
};

// b and the generator's affine coordinates, in Montgomery form.
constexpr Fe kB = {{0x081188719d412dccull, 0xf729add87a4c32ecull, 0x77f2209b1920022eull,
                    0xe3374bee94938ae2ull, 0xb62b21f41f022094ull, 0xcd08114b604fbff9ull}};
constexpr Fe kGx = {{0x3dd0756649c0b528ull, 0x20e378e2a0d6ce38ull, 0x879c3afc541b4d6eull,
                     0x6454868459a30effull, 0x812ff723614ede2bull, 0x4d3aadc2299e1513ull}};
constexpr Fe kGy = {{0x23043dad4b03a4feull, 0xa1bfa8bf7bb4a9acull, 0x8bade7562e83b050ull,
                     0xc6c3521968f4ffd9ull, 0xdd8002263969a840ull, 0x2b78abc25a15c5e9ull}};
// The group order n, plain limbs.
constexpr Fe kN = {{0xecec196accc52973ull, 0x581a0db248b0a77aull, 0xc7634d81f4372ddfull,
                    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull}};

constexpr Pt kIdentity = {kZero, kOne, kZero};

// r = mask ? b : r (mask all ones or zero).
void pt_cmov(Pt& r, const Pt& b, uint64_t mask) {
  fe_cmov(r.x, b.x, mask);
  fe_cmov(r.y, b.y, mask);
  fe_cmov(r.z, b.z, mask);
}

// r = table[digit] (digit 0..15), reading every entry.
void pt_select(Pt& r, const Pt table[16], uint32_t digit) {
  r = kIdentity;
  for (uint32_t i = 1; i < 16; ++i) {
    const uint64_t m = 0 - uint64_t((uint32_t(i ^ digit) - 1) >> 31);
    pt_cmov(r, table[i], m);
  }
}

// The 4-bit window w (0 = least significant) of a big-endian scalar.
uint32_t window(const uint8_t d[kScalarBytes], int w) {
  const uint8_t byte = d[kScalarBytes - 1 - w / 2];
  return (w & 1) != 0 ? uint32_t(byte >> 4) : uint32_t(byte & 15);
}

// The common end of add-2007-bl and madd-2007-bl: X3 = r^2 - J - 2V,
// Y3 = r (V - X3) - 2 S1 J (S1 = Y1 for the mixed addition).
template <bool kAdx>
void add_xy(Fe& x3, Fe& y3, const Fe& rr, const Fe& j, const Fe& v, const Fe& s1) {
  Fe t;
  fe_sqr<kAdx>(x3, rr);
  fe_sub(x3, x3, j);
  fe_sub(x3, x3, v);
  fe_sub(x3, x3, v);
  fe_sub(t, v, x3);
  fe_mul<kAdx>(y3, rr, t);
  fe_mul<kAdx>(t, s1, j);
  fe_add(t, t, t);
  fe_sub(y3, y3, t);
}

// dbl-2001-b (a = -3): r = 2a. r may alias a.
template <bool kAdx>
void jac_dbl(Pt& r, const Pt& a) {
  Fe delta, gamma, beta, alpha, t, u, x3, y3, z3;
  fe_sqr<kAdx>(delta, a.z);
  fe_sqr<kAdx>(gamma, a.y);
  fe_mul<kAdx>(beta, a.x, gamma);
  fe_sub(t, a.x, delta);
  fe_add(u, a.x, delta);
  fe_mul<kAdx>(alpha, t, u);
  fe_add(t, alpha, alpha);
  fe_add(alpha, t, alpha);  // 3 (x - delta)(x + delta)
  fe_add(beta, beta, beta);
  fe_add(beta, beta, beta);  // 4 beta
  fe_sqr<kAdx>(x3, alpha);
  fe_add(t, beta, beta);
  fe_sub(x3, x3, t);  // alpha^2 - 8 beta
  fe_add(t, a.y, a.z);
  fe_sqr<kAdx>(z3, t);
  fe_sub(z3, z3, gamma);
  fe_sub(z3, z3, delta);
  fe_sub(t, beta, x3);
  fe_mul<kAdx>(y3, alpha, t);
  fe_sqr<kAdx>(u, gamma);
  fe_add(u, u, u);
  fe_add(u, u, u);
  fe_add(u, u, u);  // 8 gamma^2
  fe_sub(y3, y3, u);
  r = {x3, y3, z3};
}

// add-2007-bl: r = a + b for a != b; an identity input (Z = 0) yields the
// other input, picked by masks. r may alias a or b.
template <bool kAdx>
void jac_add(Pt& r, const Pt& a, const Pt& b) {
  Fe z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t, x3, y3, z3;
  fe_sqr<kAdx>(z1z1, a.z);
  fe_sqr<kAdx>(z2z2, b.z);
  fe_mul<kAdx>(u1, a.x, z2z2);
  fe_mul<kAdx>(u2, b.x, z1z1);
  fe_mul<kAdx>(s1, b.z, z2z2);
  fe_mul<kAdx>(s1, a.y, s1);
  fe_mul<kAdx>(s2, a.z, z1z1);
  fe_mul<kAdx>(s2, b.y, s2);
  fe_sub(h, u2, u1);
  fe_add(t, h, h);
  fe_sqr<kAdx>(i, t);
  fe_mul<kAdx>(j, h, i);
  fe_sub(rr, s2, s1);
  fe_add(rr, rr, rr);
  fe_mul<kAdx>(v, u1, i);
  add_xy<kAdx>(x3, y3, rr, j, v, s1);
  fe_add(t, a.z, b.z);
  fe_sqr<kAdx>(z3, t);
  fe_sub(z3, z3, z1z1);
  fe_sub(z3, z3, z2z2);
  fe_mul<kAdx>(z3, z3, h);
  const uint64_t a_inf = fe_is_zero(a.z), b_inf = fe_is_zero(b.z);
  Pt out = {x3, y3, z3};
  pt_cmov(out, b, a_inf);
  pt_cmov(out, a, b_inf);
  r = out;
}

// r = d * p (Jacobian), p affine (Z = 1). The accumulator before each
// addition is 16k' * p and the addend digit * p, k' the scalar's windows read
// so far: 16k' + digit <= d < n, so the two are equal or opposite only when
// both are the identity (k' = digit = 0), which jac_add handles; the table's
// odd entries (i-1)p + p have i-1 >= 2.
template <bool kAdx>
void mul_var(Pt& r, const uint8_t d[kScalarBytes], const Pt& p) {
  Pt table[16];
  table[0] = kIdentity;
  table[1] = p;
  for (int i = 2; i < 16; ++i) {
    if ((i & 1) == 0) jac_dbl<kAdx>(table[i], table[i / 2]);
    else jac_add<kAdx>(table[i], table[i - 1], p);
  }
  Pt q = kIdentity, t;
  for (int w = 95; w >= 0; --w) {
    if (w != 95)
      for (int k = 0; k < 4; ++k) jac_dbl<kAdx>(q, q);
    pt_select(t, table, window(d, w));
    jac_add<kAdx>(q, q, t);
  }
  r = q;
  OPENSSL_cleanse(&q, sizeof q);
  OPENSSL_cleanse(&t, sizeof t);
  OPENSSL_cleanse(table, sizeof table);
}

// madd-2007-bl: r = a + (x2, y2) (affine, Z = 1) when `add` is all ones, a
// when it is 0; an identity a yields (x2, y2). a != +-(x2, y2) (mul_base).
template <bool kAdx>
void jac_madd(Pt& r, const Pt& a, const Fe& x2, const Fe& y2, uint64_t add) {
  Fe z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3;
  fe_sqr<kAdx>(z1z1, a.z);
  fe_mul<kAdx>(u2, x2, z1z1);
  fe_mul<kAdx>(s2, a.z, z1z1);
  fe_mul<kAdx>(s2, y2, s2);
  fe_sub(h, u2, a.x);
  fe_sqr<kAdx>(hh, h);
  fe_add(i, hh, hh);
  fe_add(i, i, i);
  fe_mul<kAdx>(j, h, i);
  fe_sub(rr, s2, a.y);
  fe_add(rr, rr, rr);
  fe_mul<kAdx>(v, a.x, i);
  add_xy<kAdx>(x3, y3, rr, j, v, a.y);
  fe_add(t, a.z, h);
  fe_sqr<kAdx>(z3, t);
  fe_sub(z3, z3, z1z1);
  fe_sub(z3, z3, hh);
  const uint64_t a_inf = fe_is_zero(a.z);
  Pt out = {x3, y3, z3};
  pt_cmov(out, {x2, y2, kOne}, a_inf);
  pt_cmov(out, a, ~add);
  r = out;
}

struct Affine {
  Fe x, y;
};

struct Comb {
  Affine t[24][15];  // t[m][i - 1] = i * 2^(16m) * G, affine, Montgomery form

  // Scratch in static storage (the build runs once, under the static's guard):
  // no allocation that could fail, nothing large on a caller's stack.
  template <bool kAdx>
  void build() {
    static Pt jac[24][15];
    static Fe prefix[24 * 15];
    Pt base = {kGx, kGy, kOne};
    for (int m = 0; m < 24; ++m) {
      jac[m][0] = base;
      for (int i = 2; i <= 15; ++i) {
        if ((i & 1) == 0) jac_dbl<kAdx>(jac[m][i - 1], jac[m][i / 2 - 1]);
        else jac_add<kAdx>(jac[m][i - 1], jac[m][i - 2], base);  // (i-1)B + B, i-1 >= 2
      }
      for (int k = 0; k < 16; ++k) jac_dbl<kAdx>(base, base);
    }
    // Montgomery's trick: one inversion for all 360 Z (none is 0: i * 2^(16m) < n).
    Pt* all = &jac[0][0];
    constexpr int kCount = 24 * 15;
    Fe acc = kOne;
    for (int k = 0; k < kCount; ++k) {
      prefix[k] = acc;
      fe_mul<kAdx>(acc, acc, all[k].z);
    }
    Fe inv;
    fe_inv<kAdx>(inv, acc);
    for (int k = kCount - 1; k >= 0; --k) {
      Fe zi, zi2, zi3;
      fe_mul<kAdx>(zi, inv, prefix[k]);       // 1 / z_k
      fe_mul<kAdx>(inv, inv, all[k].z);       // 1 / (z_0 ... z_{k-1})
      fe_sqr<kAdx>(zi2, zi);
      fe_mul<kAdx>(zi3, zi2, zi);
      Affine& a = t[k / 15][k % 15];
      fe_mul<kAdx>(a.x, all[k].x, zi2);
      fe_mul<kAdx>(a.y, all[k].y, zi3);
    }
  }
  explicit Comb(bool adx) {
    if (adx) build<true>();
    else build<false>();
  }
};

// Built once by the first caller (C++ statics are thread-safe; both
// implementations compute the same table), read-only afterwards.
const Comb& comb(bool adx) {
  static const Comb c(adx);
  return c;
}

// r = table[digit - 1] (digit 1..15; anything for 0), reading every entry.
void affine_select(Affine& r, const Affine table[15], uint32_t digit) {
  r = {kZero, kZero};
  for (uint32_t i = 1; i <= 15; ++i) {
    const uint64_t m = 0 - uint64_t((uint32_t(i ^ digit) - 1) >> 31);
    fe_cmov(r.x, table[i - 1].x, m);
    fe_cmov(r.y, table[i - 1].y, m);
  }
}

// r = d * G. Round `round` adds window 4m + round of d, for m = 0..23, as
// digit * 2^(16m) * G, to 16 times the sum of the higher rounds: the running
// sum is k1*G with k1 made of windows other than 4m + round, so k1 and the
// addend's digit * 16^(4m) share no window and k1 +- addend != 0 for d < n.
template <bool kAdx>
void mul_base(Pt& r, const uint8_t d[kScalarBytes]) {
  const Comb& c = comb(kAdx);
  Pt q = kIdentity;
  Affine t;
  for (int round = 3; round >= 0; --round) {
    if (round != 3)
      for (int k = 0; k < 4; ++k) jac_dbl<kAdx>(q, q);
    for (int m = 0; m < 24; ++m) {
      const uint32_t digit = window(d, 4 * m + round);
      affine_select(t, c.t[m], digit);
      jac_madd<kAdx>(q, q, t.x, t.y, 0 - uint64_t((digit | (0 - digit)) >> 31));
    }
  }
  r = q;
  OPENSSL_cleanse(&q, sizeof q);
  OPENSSL_cleanse(&t, sizeof t);
}

// Affine x (and y) of a Jacobian point, big-endian. Returns all ones when p
// is the identity (then the output is zero); the caller reveals only that bit.
template <bool kAdx>
uint64_t to_affine(uint8_t x_out[48], uint8_t* y_out, const Pt& p) {
  Fe zi, zi2, zi3, x, y;
  fe_inv<kAdx>(zi, p.z);
  fe_sqr<kAdx>(zi2, zi);
  fe_mul<kAdx>(x, p.x, zi2);
  fe_from_mont<kAdx>(x, x);
  fe_to_be(x_out, x);
  if (y_out != nullptr) {
    fe_mul<kAdx>(zi3, zi2, zi);
    fe_mul<kAdx>(y, p.y, zi3);
    fe_from_mont<kAdx>(y, y);
    fe_to_be(y_out, y);
  }
  const uint64_t identity = fe_is_zero(p.z);
  OPENSSL_cleanse(&zi, sizeof zi);
  OPENSSL_cleanse(&zi2, sizeof zi2);
  OPENSSL_cleanse(&zi3, sizeof zi3);
  OPENSSL_cleanse(&x, sizeof x);
  OPENSSL_cleanse(&y, sizeof y);
  return identity;
}

// Decodes a public point (public data: plain branches).
template <bool kAdx>
bool decode(Pt& r, const uint8_t pt[kPointBytes]) {
  if (pt[0] != 0x04) return false;
  Fe x, y;
  fe_from_be(x, pt + 1);
  fe_from_be(y, pt + 49);
  if (lt_mask(x, kP) == 0 || lt_mask(y, kP) == 0) return false;
  fe_to_mont<kAdx>(x, x);
  fe_to_mont<kAdx>(y, y);
  Fe lhs, rhs, t;
  fe_sqr<kAdx>(lhs, y);
  fe_sqr<kAdx>(rhs, x);
  fe_mul<kAdx>(rhs, rhs, x);  // x^3
  fe_add(t, x, x);
  fe_add(t, t, x);
  fe_sub(rhs, rhs, t);  // x^3 - 3x
  fe_add(rhs, rhs, kB);
  fe_sub(t, lhs, rhs);
  if (fe_is_zero(t) == 0) return false;
  r = {x, y, kOne};
  return true;
}

// All ones when 0 < d < n.
uint64_t scalar_valid_mask(const uint8_t d[kScalarBytes]) {
  Fe s;
  fe_from_be(s, d);
  const uint64_t ok = lt_mask(s, kN) & ~fe_is_zero(s);
  OPENSSL_cleanse(&s, sizeof s);
  return ok;
}

// out[i] &= mask, for every byte.
void mask_bytes(uint8_t* out, size_t n, uint64_t mask) {
  for (size_t i = 0; i < n; ++i) out[i] &= uint8_t(mask);
}

// pub = d*G, computed whatever d is (no branch on it); all ones unless the
// result is the identity (d = 0 mod n).
template <bool kAdx>
uint64_t public_key_impl(uint8_t pub[kPointBytes], const uint8_t d[kScalarBytes]) {
  Pt q;
  mul_base<kAdx>(q, d);
  const uint64_t identity = to_affine<kAdx>(pub + 1, pub + 49, q);
  OPENSSL_cleanse(&q, sizeof q);
  pub[0] = 0x04;
  return ~identity;
}

// ss = x(d*p) for a decoded point p; all ones unless the result is the
// identity.
template <bool kAdx>
uint64_t ecdh_impl(uint8_t ss[kSecretBytes], const uint8_t d[kScalarBytes], const Pt& p) {
  Pt q;
  mul_var<kAdx>(q, d, p);
  const uint64_t identity = to_affine<kAdx>(ss, nullptr, q);
  OPENSSL_cleanse(&q, sizeof q);
  return ~identity;
}

}  // namespace

bool adx_usable(uint32_t features) {
#if GPUCRYPTO_P384_ADX_ASM
  return (features & (kBMI2 | kADX)) == (kBMI2 | kADX);
#else
  (void)features;
  return false;
#endif
}

bool scalar_valid(const uint8_t d[kScalarBytes]) { return scalar_valid_mask(d) != 0; }

bool point_valid(const uint8_t pt[kPointBytes], uint32_t features) {
  Pt p;
  return adx_usable(features) ? decode<true>(p, pt) : decode<false>(p, pt);
}

// The scalar's validity and the identity check combine into one mask that
// clears the output: the only value derived from d that leaves as a branch is
// the returned answer (ct_harness checks this under valgrind).
bool public_key(uint8_t pub[kPointBytes], const uint8_t d[kScalarBytes], uint32_t features) {
  const uint64_t ok = scalar_valid_mask(d) &
                      (adx_usable(features) ? public_key_impl<true>(pub, d) : public_key_impl<false>(pub, d));
  mask_bytes(pub, kPointBytes, ok);
  return ok != 0;
}

bool ecdh(uint8_t ss[kSecretBytes], const uint8_t d[kScalarBytes], const uint8_t peer[kPointBytes],
          uint32_t features) {
  const bool adx = adx_usable(features);
  Pt p;
  if (!(adx ? decode<true>(p, peer) : decode<false>(p, peer))) {  // public: the peer's point
    std::memset(ss, 0, kSecretBytes);
    return false;
  }
  const uint64_t ok = scalar_valid_mask(d) & (adx ? ecdh_impl<true>(ss, d, p) : ecdh_impl<false>(ss, d, p));
  mask_bytes(ss, kSecretBytes, ok);
  return ok != 0;
}

}  // namespace gpucrypto::p384
