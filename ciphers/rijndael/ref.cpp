// Portable constant-time Rijndael for every block size (Nb = 4, 6, 8); AES is
// the Nb = 4 instance of the same code.
//
// No table is indexed by secret data: SubBytes is computed on bitsliced bytes
// (up to 64 bytes at once, one 64-bit word per bit position) as GF(2^8)
// inversion x^254 by an addition chain of bitsliced multiplications, followed
// by the affine map; MixColumns uses a branch-free xtime. Several blocks share
// one bitsliced S-box evaluation (4 AES blocks, 2 wide blocks), which is what
// makes this merely slow rather than very slow.
#include <openssl/crypto.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "ciphers/block_cipher.h"
#include "ciphers/rijndael/internal.h"

namespace gpucrypto::rijndael_impl {
namespace {

constexpr size_t kStateBytes = 64;  // bytes processed per S-box evaluation

// Words are loaded from byte strings with memcpy (bytes 0..7 -> bits 0..63).
static_assert(std::endian::native == std::endian::little, "ref.cpp assumes little-endian");

// Bit i of byte j of the input is bit j of p[i].
struct Sliced {
  uint64_t p[8];
};

// 8x8 bit-matrix transpose of a word (row k = byte k, column i = bit i)
// (Hacker's Delight 7-3): afterwards byte i holds bit i of every input byte.
uint64_t transpose_bits(uint64_t x) {
  uint64_t t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
  x ^= t ^ (t << 28);
  return x;
}

// 8x8 byte-matrix transpose of w[0..7] (row m = word m, column k = byte k).
void transpose_bytes(uint64_t w[8]) {
  auto swap = [](uint64_t& a, uint64_t& b, int shift, uint64_t mask) {
    const uint64_t t = ((a >> shift) ^ b) & mask;
    a ^= t << shift;
    b ^= t;
  };
  for (int m = 0; m < 4; ++m) swap(w[m], w[m + 4], 32, 0x00000000FFFFFFFFull);
  for (int m : {0, 1, 4, 5}) swap(w[m], w[m + 2], 16, 0x0000FFFF0000FFFFull);
  for (int m : {0, 2, 4, 6}) swap(w[m], w[m + 1], 8, 0x00FF00FF00FF00FFull);
}

// Both transposes are involutions, and together they turn 64 bytes into 8
// bit planes and back.
Sliced pack(const uint8_t* b, size_t n) {
  uint8_t tmp[kStateBytes] = {};
  std::memcpy(tmp, b, n);
  Sliced s;
  for (int m = 0; m < 8; ++m) {
    uint64_t w;
    std::memcpy(&w, tmp + 8 * m, 8);  // little-endian: byte k of w = tmp[8m + k]
    s.p[m] = transpose_bits(w);
  }
  transpose_bytes(s.p);
  return s;
}

void unpack(const Sliced& s, uint8_t* b, size_t n) {
  uint64_t w[8];
  std::memcpy(w, s.p, sizeof w);
  transpose_bytes(w);
  uint8_t tmp[kStateBytes];
  for (int m = 0; m < 8; ++m) {
    const uint64_t x = transpose_bits(w[m]);
    std::memcpy(tmp + 8 * m, &x, 8);
  }
  std::memcpy(b, tmp, n);
}

// Reduces a 15-coefficient product modulo x^8 + x^4 + x^3 + x + 1.
Sliced reduce(uint64_t t[15]) {
#pragma GCC unroll 8
  for (int k = 14; k >= 8; --k) {
    t[k - 4] ^= t[k];
    t[k - 5] ^= t[k];
    t[k - 7] ^= t[k];
    t[k - 8] ^= t[k];
  }
  Sliced r;
  for (int i = 0; i < 8; ++i) r.p[i] = t[i];
  return r;
}

Sliced mul(const Sliced& a, const Sliced& b) {
  uint64_t t[15] = {};
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) {
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) t[i + j] ^= a.p[i] & b.p[j];
  }
  return reduce(t);
}

// Squaring is linear in characteristic 2; this is its matrix modulo
// x^8 + x^4 + x^3 + x + 1 (column j = (x^j)^2).
Sliced square(const Sliced& s) {
  const uint64_t* a = s.p;
  return {{a[0] ^ a[4] ^ a[6], a[4] ^ a[6] ^ a[7], a[1] ^ a[5], a[4] ^ a[5] ^ a[6] ^ a[7],
           a[2] ^ a[4] ^ a[7], a[5] ^ a[6], a[3] ^ a[5], a[6] ^ a[7]}};
}

// x^254 = x^-1 for x != 0, and 0 -> 0, as the S-box requires.
Sliced invert(const Sliced& x) {
  const Sliced x2 = square(x);
  const Sliced x3 = mul(x2, x);
  const Sliced x12 = square(square(x3));
  const Sliced x15 = mul(x12, x3);
  Sliced x240 = x15;
  for (int i = 0; i < 4; ++i) x240 = square(x240);
  const Sliced x252 = mul(x240, x12);
  return mul(x252, x2);
}

// FIPS 197 (5.1): b'_i = b_i ^ b_{i+4} ^ b_{i+5} ^ b_{i+6} ^ b_{i+7} ^ c_i, c = 0x63.
Sliced affine(const Sliced& b) {
  Sliced r;
  for (int i = 0; i < 8; ++i) {
    r.p[i] = b.p[i] ^ b.p[(i + 4) & 7] ^ b.p[(i + 5) & 7] ^ b.p[(i + 6) & 7] ^ b.p[(i + 7) & 7];
    if ((0x63 >> i) & 1) r.p[i] = ~r.p[i];  // public constant, not data
  }
  return r;
}

// Inverse of the above: b_i = s_{i+2} ^ s_{i+5} ^ s_{i+7} ^ d_i, d = 0x05.
Sliced inv_affine(const Sliced& s) {
  Sliced r;
  for (int i = 0; i < 8; ++i) {
    r.p[i] = s.p[(i + 2) & 7] ^ s.p[(i + 5) & 7] ^ s.p[(i + 7) & 7];
    if ((0x05 >> i) & 1) r.p[i] = ~r.p[i];
  }
  return r;
}

void sub_bytes(uint8_t* s, size_t n) { unpack(affine(invert(pack(s, n))), s, n); }
void inv_sub_bytes(uint8_t* s, size_t n) { unpack(invert(inv_affine(pack(s, n))), s, n); }

// Multiplication by x in GF(2^8), without a data-dependent branch.
uint8_t xtime(uint8_t x) { return uint8_t((x << 1) ^ (0x1b & -(x >> 7))); }

// xtime on the four bytes of a word at once.
uint32_t xtime4(uint32_t x) { return ((x & 0x7f7f7f7fu) << 1) ^ (((x >> 7) & 0x01010101u) * 0x1b); }

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// One column as a little-endian word (byte r = row r):
// b_r = 2 a_r ^ 3 a_{r+1} ^ a_{r+2} ^ a_{r+3} = xtime(a_r ^ a_{r+1}) ^ a_{r+1} ^ a_{r+2} ^ a_{r+3}.
uint32_t mix_word(uint32_t x) {
  const uint32_t r1 = rotr(x, 8);
  return xtime4(x ^ r1) ^ r1 ^ rotr(x, 16) ^ rotr(x, 24);
}

// InvMixColumns = MixColumns after multiplying by {04}x^2 + {05}: adds
// 4(a_r ^ a_{r+2}) to every byte first.
uint32_t inv_mix_word(uint32_t x) { return mix_word(x ^ xtime4(xtime4(x ^ rotr(x, 16)))); }

// Every 4-byte column of the n bytes at s through f.
template <uint32_t (*F)(uint32_t)>
void each_column(uint8_t* s, size_t n) {
  for (size_t i = 0; i < n; i += 4) {
    uint32_t w;
    std::memcpy(&w, s + i, 4);
    w = F(w);
    std::memcpy(s + i, &w, 4);
  }
}
void mix_columns(uint8_t* s, size_t n) { each_column<mix_word>(s, n); }
void inv_mix_columns(uint8_t* s, size_t n) { each_column<inv_mix_word>(s, n); }

// ShiftRows as a byte permutation of one block: row r rotates left by C_r,
// s'[r][c] = s[r][(c + C_r) mod Nb] (C = 1,2,3 for Nb = 4, 6 and 1,3,4 for
// Nb = 8); the inverse rotates right. Positions are public, so indexing by
// them is fine.
struct ShiftRowsPerm {
  uint8_t fwd[32], inv[32];
};

ShiftRowsPerm shift_rows_perm(unsigned nb) {
  const unsigned off[4] = {0, 1, nb == 8 ? 3u : 2u, nb == 8 ? 4u : 3u};
  ShiftRowsPerm p{};
  for (unsigned r = 0; r < 4; ++r) {
    for (unsigned c = 0; c < nb; ++c) {
      p.fwd[r + 4 * c] = uint8_t(r + 4 * ((c + off[r]) % nb));
      p.inv[r + 4 * c] = uint8_t(r + 4 * ((c + nb - off[r]) % nb));
    }
  }
  return p;
}

void permute_blocks(uint8_t* s, const uint8_t* perm, size_t bs, size_t nblocks) {
  for (size_t b = 0; b < nblocks; ++b) {
    uint8_t* blk = s + b * bs;
    uint8_t t[32];
    std::memcpy(t, blk, bs);
    for (size_t i = 0; i < bs; ++i) blk[i] = t[perm[i]];
  }
}

void add_round_key(uint8_t* s, const uint8_t* rk, size_t bs, size_t nblocks) {
  for (size_t b = 0; b < nblocks; ++b) {
    for (size_t i = 0; i < bs; ++i) s[b * bs + i] ^= rk[i];
  }
}

void setkey_nb(unsigned nb, void* ks, const uint8_t* key, size_t keylen) {
  expand_key(static_cast<KeySched*>(ks), nb, key, keylen);
}

}  // namespace

void expand_key(KeySched* ks, unsigned nb, const uint8_t* key, size_t keylen) {
  if ((nb != 4 && nb != 6 && nb != 8) || keylen % 4 != 0 || keylen < 16 || keylen > 32) {
    throw std::invalid_argument("rijndael: unsupported block or key length");
  }
  const unsigned nk = unsigned(keylen / 4);
  const unsigned nr = std::max(nb, nk) + 6;
  const unsigned total = nb * (nr + 1);  // words
  uint8_t w[(kMaxRounds + 1) * 8][4];
  std::memcpy(w, key, keylen);
  uint8_t rcon = 1;
  for (unsigned i = nk; i < total; ++i) {
    uint8_t t[4];
    std::memcpy(t, w[i - 1], 4);
    if (i % nk == 0) {  // RotWord, SubWord, Rcon
      const uint8_t t0 = t[0];
      t[0] = t[1];
      t[1] = t[2];
      t[2] = t[3];
      t[3] = t0;
      sub_bytes(t, 4);
      t[0] ^= rcon;
      rcon = xtime(rcon);
    } else if (nk > 6 && i % nk == 4) {
      sub_bytes(t, 4);
    }
    for (int j = 0; j < 4; ++j) w[i][j] = w[i - nk][j] ^ t[j];
  }
  std::memset(ks, 0, sizeof *ks);
  ks->nb = nb;
  ks->nr = nr;
  for (unsigned r = 0; r <= nr; ++r) std::memcpy(ks->enc[r], w[r * nb], 4 * nb);
  std::memcpy(ks->dec[0], ks->enc[nr], 4 * nb);
  for (unsigned r = 1; r < nr; ++r) {
    std::memcpy(ks->dec[r], ks->enc[nr - r], 4 * nb);
    inv_mix_columns(ks->dec[r], 4 * nb);
  }
  std::memcpy(ks->dec[nr], ks->enc[0], 4 * nb);
  OPENSSL_cleanse(w, sizeof w);
}

// The decryption keys are always prepared: they cost a few InvMixColumns, and
// every implementation then shares one schedule.
void setkey_nb4(void* ks, const uint8_t* key, size_t keylen, bool) { setkey_nb(4, ks, key, keylen); }
void setkey_nb6(void* ks, const uint8_t* key, size_t keylen, bool) { setkey_nb(6, ks, key, keylen); }
void setkey_nb8(void* ks, const uint8_t* key, size_t keylen, bool) { setkey_nb(8, ks, key, keylen); }

// Both directions work on up to kStateBytes of blocks at a time in a stack
// state: rounds(st, m, n) transforms m blocks (n bytes) in place.
template <class Rounds>
void in_stack_batches(const KeySched* ks, const uint8_t* in, uint8_t* out, size_t nblocks, Rounds rounds) {
  const size_t bs = 4 * ks->nb, per = kStateBytes / bs;
  uint8_t st[kStateBytes];
  while (nblocks > 0) {
    const size_t m = std::min(nblocks, per), n = m * bs;
    std::memcpy(st, in, n);
    rounds(st, m, n);
    std::memcpy(out, st, n);
    in += n;
    out += n;
    nblocks -= m;
  }
  OPENSSL_cleanse(st, sizeof st);
}

void ref_encrypt(const void* vks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const auto* ks = static_cast<const KeySched*>(vks);
  const unsigned nr = ks->nr;
  const size_t bs = 4 * ks->nb;
  const ShiftRowsPerm sr = shift_rows_perm(ks->nb);
  in_stack_batches(ks, in, out, nblocks, [&](uint8_t* st, size_t m, size_t n) {
    add_round_key(st, ks->enc[0], bs, m);
    for (unsigned r = 1; r <= nr; ++r) {
      sub_bytes(st, n);
      permute_blocks(st, sr.fwd, bs, m);
      if (r != nr) mix_columns(st, n);
      add_round_key(st, ks->enc[r], bs, m);
    }
  });
}

void ref_decrypt(const void* vks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const auto* ks = static_cast<const KeySched*>(vks);
  const unsigned nr = ks->nr;
  const size_t bs = 4 * ks->nb;
  const ShiftRowsPerm sr = shift_rows_perm(ks->nb);
  in_stack_batches(ks, in, out, nblocks, [&](uint8_t* st, size_t m, size_t n) {
    add_round_key(st, ks->enc[nr], bs, m);
    for (unsigned r = nr; r-- > 0;) {
      permute_blocks(st, sr.inv, bs, m);
      inv_sub_bytes(st, n);
      add_round_key(st, ks->enc[r], bs, m);
      if (r != 0) inv_mix_columns(st, n);
    }
  });
}

void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const size_t bs = 4 * static_cast<const KeySched*>(ks)->nb;
  ctr_via_encrypt(ref_encrypt, ks, bs, ctr, in, out, nblocks);
}

}  // namespace gpucrypto::rijndael_impl
