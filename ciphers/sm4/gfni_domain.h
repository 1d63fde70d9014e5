// The GFNI single-block round in the S-box's input domain (avx512_gfni.cpp,
// rounds1): the state words are kept as X' = A X, A the linear part of the
// S-box's input map (kGfniPreMatrix), so a round's S-box input is a plain XOR
// of state words and a round key rk' = A rk ^ c (c = kGfniPreConst), and the
// round needs one gf2p8affineinvqb layer instead of gf2p8affineqb followed by
// gf2p8affineinvqb. With s = S(t) = B inv(y) ^ d (B, d: kGfniPostMatrix/Const)
// and y = A t ^ c, what the next round needs is A L(s), L(s) = s ^ rol2(s) ^
// rol10(s) ^ rol18(s) ^ rol24(s). A commutes with byte rotations, and rol2
// takes byte j to (s_j << 2) | (s_{j-1} >> 6), so with three per-byte images
// of inv(y) (all from the same input, in parallel)
//   a = A s        = (A B) inv(y) ^ A d
//   b = A shl2(s)  = (A SHL2 B) inv(y) ^ A SHL2 d
//   e = A shr6(s)  = (A SHR6 B) inv(y) ^ A SHR6 d
// (shl2, shr6 within each byte), A rol2(s) = b ^ rol8(e) and
//   A L(s) = a ^ rol24(a) ^ Q ^ rol8(Q) ^ rol16(Q),  Q = b ^ rol8(e),
// byte rotations and XORs only. Grouped by rotation the eight terms are
//   A L(s) = f ^ rol8(g) ^ rol16(g) ^ rol24(h),  f = a ^ b, g = b ^ e, h = a ^ e,
// and f, g, h are per-byte images of inv(y) too (the matrices and constants
// add), so a round takes three gf2p8affineinvqb and three rotations (seven
// before the grouping; 16 % fewer cycles per block on Zen 5). The output goes
// back with A^-1.
//
// Matrices in gf2p8affineqb's encoding: byte 7-i of the qword is the mask of
// input bits giving output bit i. Computed at compile time (consteval: no
// code is emitted, so the header is safe in any ISA file). The inverse is
// checked here; the maps themselves by every single-block path against the
// reference (cipher_contract_test: ECB, CBC/CFB encryption and OFB, any
// block count; modes_test's ChainedHooks: CBC/CFB decryption's one block).
#pragma once
#include <cstdint>

#include "ciphers/sm4/sbox_consts.h"

namespace gpucrypto::sm4_impl::gfni_domain {

consteval uint8_t row(uint64_t m, int i) { return uint8_t(m >> (8 * (7 - i))); }

consteval uint64_t from_rows(const uint8_t (&r)[8]) {
  uint64_t m = 0;
  for (int i = 0; i < 8; ++i) m |= uint64_t(r[i]) << (8 * (7 - i));
  return m;
}

// The matrix of "apply b, then a".
consteval uint64_t compose(uint64_t a, uint64_t b) {
  uint8_t r[8] = {};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      if ((row(a, i) >> j) & 1) r[i] ^= row(b, j);
  return from_rows(r);
}

consteval uint8_t apply(uint64_t m, uint8_t x) {
  uint8_t y = 0;
  for (int i = 0; i < 8; ++i) {
    uint8_t v = row(m, i) & x, p = 0;
    for (; v != 0; v &= uint8_t(v - 1)) p ^= 1;
    y |= uint8_t(p << i);
  }
  return y;
}

// Gauss-Jordan over GF(2) (the matrix is invertible: the S-box is a bijection).
consteval uint64_t inverse(uint64_t m) {
  uint8_t a[8], inv[8];
  for (int i = 0; i < 8; ++i) a[i] = row(m, i), inv[i] = uint8_t(1u << i);
  for (int col = 0; col < 8; ++col) {
    int p = col;
    while (((a[p] >> col) & 1) == 0) ++p;
    if (p != col) {
      const uint8_t t = a[p], u = inv[p];
      a[p] = a[col], inv[p] = inv[col], a[col] = t, inv[col] = u;
    }
    for (int r = 0; r < 8; ++r)
      if (r != col && ((a[r] >> col) & 1)) a[r] ^= a[col], inv[r] ^= inv[col];
  }
  return from_rows(inv);
}

consteval uint64_t shift_matrix(int left) {  // within a byte: x << left, or x >> -left
  uint8_t r[8] = {};
  for (int i = 0; i < 8; ++i) {
    const int src = i - left;
    if (src >= 0 && src < 8) r[i] = uint8_t(1u << src);
  }
  return from_rows(r);
}

inline constexpr uint64_t kA = kGfniPreMatrix;
inline constexpr uint64_t kAInv = inverse(kA);
inline constexpr uint64_t kAB = compose(kA, kGfniPostMatrix);
inline constexpr uint8_t kABConst = apply(kA, kGfniPostConst);
inline constexpr uint64_t kAShl2B = compose(compose(kA, shift_matrix(2)), kGfniPostMatrix);
inline constexpr uint8_t kAShl2BConst = apply(compose(kA, shift_matrix(2)), kGfniPostConst);
inline constexpr uint64_t kAShr6B = compose(compose(kA, shift_matrix(-6)), kGfniPostMatrix);
inline constexpr uint8_t kAShr6BConst = apply(compose(kA, shift_matrix(-6)), kGfniPostConst);
inline constexpr uint64_t kF = kAB ^ kAShl2B;  // a ^ b
inline constexpr uint8_t kFConst = kABConst ^ kAShl2BConst;
inline constexpr uint64_t kG = kAShl2B ^ kAShr6B;  // b ^ e
inline constexpr uint8_t kGConst = kAShl2BConst ^ kAShr6BConst;
inline constexpr uint64_t kH = kAB ^ kAShr6B;  // a ^ e
inline constexpr uint8_t kHConst = kABConst ^ kAShr6BConst;
static_assert(compose(kA, kAInv) == 0x0102040810204080ull, "A^-1");

}  // namespace gpucrypto::sm4_impl::gfni_domain
