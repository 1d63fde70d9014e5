// Portable constant-time SM4 reference.
//
// No S-box table: the S-box is evaluated through its algebraic structure,
//   S(x) = C(inv(C(x) ^ 0xd3)) ^ 0xd3,
// where inv is inversion in GF(2^8) modulo x^8+x^7+x^6+x^5+x^4+x^2+1 (0x1f5)
// and C is the circulant GF(2)-linear map x ^ rotl(x,1) ^ rotl(x,3) ^
// rotl(x,6) ^ rotl(x,7) (the affine-inverse-affine structure is from F. Liu
// et al., "Analysis of the SMS4 block cipher", ACISP 2007; the constants here
// were fitted to and are checked against the table of GB/T 32907 for all 256
// inputs in test/sm4_test.cpp). The inversion is x^254 computed with
// branch-free GF(2^8) multiplications and bit-matrix squarings, on all bytes
// of a 64-bit word at once (SWAR), so two 32-bit S-box words (two blocks) cost
// one evaluation.
#include <openssl/crypto.h>

#include "ciphers/block_cipher.h"
#include "ciphers/sm4/ref.h"

namespace gpucrypto::sm4_impl {
namespace {

constexpr uint64_t kOnes = 0x0101010101010101ull;

// Spreads 0/1 bytes to 0x00/0xff bytes: m * 0xff without a multiply (the
// identity is exact mod 2^64, so the top byte is right too). Multiplies here
// would make the reference imul-throughput bound.
uint64_t spread(uint64_t m) { return (m << 8) - m; }

// Byte-wise multiplication by x modulo 0x1f5.
uint64_t xtime(uint64_t a) {
  return ((a & (kOnes * 0x7f)) << 1) ^ (spread((a >> 7) & kOnes) & (kOnes * 0xf5));
}

// Byte-wise product in GF(2^8)/0x1f5; the multiplier bits select through
// masks, never through branches.
uint64_t gmul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  for (int i = 0; i < 8; ++i) {
    r ^= a & spread((b >> i) & kOnes);
    a = xtime(a);
  }
  return r;
}

// Scalar GF(2^8)/0x1f5 product, for the compile-time constants below only.
constexpr uint8_t gmul_const(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  for (int i = 0; i < 8; ++i, b >>= 1) {
    if (b & 1) r ^= a;
    a = uint8_t(a << 1) ^ ((a & 0x80) ? 0xf5 : 0);
  }
  return r;
}

// Squaring is GF(2)-linear, so u -> u^(2^k) is an 8x8 bit matrix; its
// columns are the images of the basis elements x^i. kSquareCols[k-1] is the
// matrix of u -> u^(2^k), k = 1..7 (public constants, indexed by loop
// counters only).
// Columns are replicated to all 8 bytes, ready to mask.
struct SquareCols {
  uint64_t col[7][8];
};
constexpr SquareCols make_square_cols() {
  SquareCols s{};
  for (int i = 0; i < 8; ++i) {
    uint8_t v = uint8_t(1u << i);
    for (int k = 0; k < 7; ++k) {
      v = gmul_const(v, v);
      s.col[k][i] = kOnes * v;
    }
  }
  return s;
}
constexpr SquareCols kSquareCols = make_square_cols();

// Byte-wise linear map given by its columns: the XOR of the columns selected
// by each input bit.
uint64_t linear8(uint64_t x, const uint64_t col[8]) {
  uint64_t r = 0;
  for (int i = 0; i < 8; ++i) r ^= spread((x >> i) & kOnes) & col[i];
  return r;
}

// Byte-wise u^254 (= u^-1, and 0 -> 0) as u^2 u^4 u^8 u^16 u^32 u^64 u^128:
// the seven powers are independent linear maps of u, multiplied as a
// depth-3 tree, which keeps the dependency chain short.
uint64_t ginv(uint64_t u) {
  uint64_t p[7];
  for (int k = 0; k < 7; ++k) p[k] = linear8(u, kSquareCols.col[k]);
  const uint64_t m1 = gmul(p[0], p[1]), m2 = gmul(p[2], p[3]), m3 = gmul(p[4], p[5]);
  return gmul(gmul(m1, m2), gmul(m3, p[6]));
}

// Byte-wise rotate left by k (1..7).
uint64_t rotb(uint64_t x, int k) {
  const uint64_t hi = kOnes * ((0xffu << k) & 0xffu);
  return ((x << k) & hi) | ((x >> (8 - k)) & ~hi);
}

uint64_t circ(uint64_t x) { return x ^ rotb(x, 1) ^ rotb(x, 3) ^ rotb(x, 6) ^ rotb(x, 7); }

// The S-box on all 8 bytes.
uint64_t sbox8(uint64_t x) {
  const uint64_t c = kOnes * 0xd3;
  return circ(ginv(circ(x) ^ c)) ^ c;
}

uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

uint32_t lin(uint32_t b) { return b ^ rotl(b, 2) ^ rotl(b, 10) ^ rotl(b, 18) ^ rotl(b, 24); }
uint32_t lin_key(uint32_t b) { return b ^ rotl(b, 13) ^ rotl(b, 23); }

uint32_t load_be(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
void store_be(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

// Two blocks side by side (the second may be a dummy); in may equal out.
void crypt2(const uint32_t rk[32], const uint8_t* in0, uint8_t* out0, const uint8_t* in1,
            uint8_t* out1) {
  uint32_t a[4], b[4];
  for (int j = 0; j < 4; ++j) {
    a[j] = load_be(in0 + 4 * j);
    b[j] = load_be(in1 + 4 * j);
  }
  for (int i = 0; i < 32; ++i) {
    const uint32_t ta = a[1] ^ a[2] ^ a[3] ^ rk[i];
    const uint32_t tb = b[1] ^ b[2] ^ b[3] ^ rk[i];
    const uint64_t s = sbox8(uint64_t(ta) | uint64_t(tb) << 32);
    const uint32_t na = a[0] ^ lin(uint32_t(s));
    const uint32_t nb = b[0] ^ lin(uint32_t(s >> 32));
    a[0] = a[1], a[1] = a[2], a[2] = a[3], a[3] = na;
    b[0] = b[1], b[1] = b[2], b[2] = b[3], b[3] = nb;
  }
  for (int j = 0; j < 4; ++j) {
    store_be(out0 + 4 * j, a[3 - j]);
    store_be(out1 + 4 * j, b[3 - j]);
  }
}

void crypt(const uint32_t rk[32], const uint8_t* in, uint8_t* out, size_t nblocks) {
  for (; nblocks >= 2; nblocks -= 2, in += 32, out += 32) crypt2(rk, in, out, in + 16, out + 16);
  if (nblocks == 1) {
    uint8_t dummy[16] = {};
    crypt2(rk, in, out, dummy, dummy);
  }
}

}  // namespace

uint8_t ref_sbox(uint8_t x) { return uint8_t(sbox8(x)); }

void ref_setkey(void* ks, const uint8_t* key, size_t /*keylen*/, bool /*with_decrypt*/) {
  // GB/T 32907 section 7.3: system parameter FK and fixed parameters CK.
  static constexpr uint32_t kFK[4] = {0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc};
  Schedule* s = static_cast<Schedule*>(ks);
  uint32_t k[4];
  for (int j = 0; j < 4; ++j) k[j] = load_be(key + 4 * j) ^ kFK[j];
  for (int i = 0; i < 32; ++i) {
    // CK_i bytes are (4i + j) * 7 mod 256, j = 0..3, most significant first.
    uint32_t ck = 0;
    for (int j = 0; j < 4; ++j) ck = ck << 8 | ((4 * i + j) * 7 & 0xff);
    const uint32_t t = k[1] ^ k[2] ^ k[3] ^ ck;
    const uint32_t rk = k[0] ^ lin_key(uint32_t(sbox8(t)));
    k[0] = k[1], k[1] = k[2], k[2] = k[3], k[3] = rk;
    s->enc[i] = rk;
  }
  // Decryption keys are cheap; always filled so any impl can use the schedule.
  for (int i = 0; i < 32; ++i) s->dec[i] = s->enc[31 - i];
  // The last four round keys are still in k[]: do not leave them on the stack.
  OPENSSL_cleanse(k, sizeof k);
}

void ref_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  crypt(static_cast<const Schedule*>(ks)->enc, in, out, nblocks);
}

void ref_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  crypt(static_cast<const Schedule*>(ks)->dec, in, out, nblocks);
}

void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks) {
  ctr_via_encrypt(ref_encrypt, ks, 16, ctr, in, out, nblocks);
}

}  // namespace gpucrypto::sm4_impl
