// Portable GHASH: the bitwise multiplication of SP 800-38D §6.3
// (Algorithm 1) on two 64-bit halves, every conditional step done with a
// mask, so there is no table and no branch or index that depends on H or the
// data (the reference the SIMD paths are tested against; ~40 cycles/byte).
#include <openssl/crypto.h>

#include <cstring>

#include "ciphers/ghash/internal.h"

namespace gpucrypto::ghash_impl {
namespace {

struct U128 {
  uint64_t hi, lo;  // spec bytes 0..7 and 8..15, big-endian
};

U128 load(const uint8_t* p) {
  U128 v{0, 0};
  for (int i = 0; i < 8; ++i) v.hi = v.hi << 8 | p[i];
  for (int i = 8; i < 16; ++i) v.lo = v.lo << 8 | p[i];
  return v;
}

void store(uint8_t* p, U128 v) {
  for (int i = 7; i >= 0; --i, v.hi >>= 8) p[i] = uint8_t(v.hi);
  for (int i = 15; i >= 8; --i, v.lo >>= 8) p[i] = uint8_t(v.lo);
}

// Z = X * Y: bit i of X (from the left) selects V = Y * x^i.
U128 mul(U128 x, U128 y) {
  U128 z{0, 0}, v = y;
  for (int i = 0; i < 128; ++i) {
    const uint64_t bit = i < 64 ? x.hi >> (63 - i) : x.lo >> (127 - i);
    const uint64_t m = 0 - (bit & 1);
    z.hi ^= v.hi & m;
    z.lo ^= v.lo & m;
    const uint64_t r = 0 - (v.lo & 1);  // x^128 = x^7 + x^2 + x + 1: R = 0xe1 || 0^120
    v.lo = v.lo >> 1 | v.hi << 63;
    v.hi = (v.hi >> 1) ^ (0xe100000000000000ull & r);
  }
  return z;
}

// GhashKey rows hold byte-reversed values (ghash.h).
void store_row(uint8_t row[16], U128 v) {
  uint8_t b[16];
  store(b, v);
  for (int i = 0; i < 16; ++i) row[i] = b[15 - i];
  OPENSSL_cleanse(b, sizeof b);
}

U128 load_row(const uint8_t row[16]) {
  uint8_t b[16];
  for (int i = 0; i < 16; ++i) b[i] = row[15 - i];
  const U128 v = load(b);
  OPENSSL_cleanse(b, sizeof b);
  return v;
}

// Powers kGhashPowers - from .. to - 1 rows: H^m = H^(m-1) * H.
void fill(GhashKey* key, size_t from, size_t to) {
  const U128 h = load_row(key->pow[kGhashPowers - 1]);
  U128 p = load_row(key->pow[kGhashPowers - from]);
  for (size_t m = from + 1; m <= to; ++m) {
    p = mul(p, h);
    store_row(key->pow[kGhashPowers - m], p);
  }
}

void init(GhashKey* key, const uint8_t h[16]) {
  std::memset(key, 0, sizeof *key);
  store_row(key->pow[kGhashPowers - 1], load(h));
  key->npowers = 1;
}

void extend(GhashKey* key, uint32_t want) {
  const uint32_t level = ghash_power_level(want);
  if (key->npowers >= level) return;
  fill(key, key->npowers, level);
  key->npowers = level;
}

void ghash(const GhashKey* key, uint8_t xi[16], const uint8_t* in, size_t nblocks) {
  const U128 h = load_row(key->pow[kGhashPowers - 1]);
  U128 x = load(xi);
  for (; nblocks > 0; --nblocks, in += 16) {
    const U128 b = load(in);
    x.hi ^= b.hi;
    x.lo ^= b.lo;
    x = mul(x, h);
  }
  store(xi, x);
}

void mul_bytes(uint8_t r[16], const uint8_t a[16], const uint8_t b[16]) {
  store(r, mul(load(a), load(b)));
}

}  // namespace

constinit const GhashHw kGhashRef = {"ref", 0, init, extend, ghash, mul_bytes};

}  // namespace gpucrypto::ghash_impl
