// Portable constant-time SKINNY-128 reference and the key schedule shared by
// every implementation. The 8-bit S-box is its published circuit (four
// NOR/XOR layers with bit permutations between them) evaluated on all eight
// bytes of a 64-bit word at once: no table, no data-dependent index.
#include "ciphers/skinny/ref.h"

#include <openssl/crypto.h>

#include <cstring>

#include "ciphers/block_cipher.h"

namespace gpucrypto::skinny_impl {
namespace {

constexpr uint64_t kBytes = 0x0101010101010101ull;  // one bit per byte lane

// x4 ^= ~(x7 | x6) and x0 ^= ~(x3 | x2) in every byte: one shifted pair of
// ORs serves both, bits 7,6 land on bit 4 and bits 3,2 on bit 0.
uint64_t nor_xor(uint64_t x) { return x ^ (~((x >> 3) | (x >> 2)) & (0x11 * kBytes)); }

// Bit permutation between layers: new bit i = old bit {5,3,0,4,6,7,1,2}[i].
uint64_t perm(uint64_t x) {
  return ((x >> 5) & (0x01 * kBytes)) | ((x >> 2) & (0x32 * kBytes)) |
         ((x << 2) & (0x04 * kBytes)) | ((x >> 1) & (0x08 * kBytes)) | ((x << 5) & (0xc0 * kBytes));
}
uint64_t perm_inv(uint64_t x) {
  return ((x << 5) & (0x20 * kBytes)) | ((x << 2) & (0xc8 * kBytes)) |
         ((x >> 2) & (0x01 * kBytes)) | ((x << 1) & (0x10 * kBytes)) | ((x >> 5) & (0x06 * kBytes));
}
// The last layer only swaps bits 1 and 2.
uint64_t swap12(uint64_t x) {
  return (x & (0xf9 * kBytes)) | ((x >> 1) & (0x02 * kBytes)) | ((x << 1) & (0x04 * kBytes));
}

uint64_t sbox8(uint64_t x) {
  x = perm(nor_xor(x));
  x = perm(nor_xor(x));
  x = perm(nor_xor(x));
  return swap12(nor_xor(x));
}
uint64_t sbox8_inv(uint64_t x) {
  x = nor_xor(swap12(x));
  x = nor_xor(perm_inv(x));
  x = nor_xor(perm_inv(x));
  return nor_xor(perm_inv(x));
}

uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
void store_le32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v);
  p[1] = uint8_t(v >> 8);
  p[2] = uint8_t(v >> 16);
  p[3] = uint8_t(v >> 24);
}

// Tweakey-schedule LFSRs on the cells of rows 0 and 1 of TK2 and TK3.
uint8_t lfsr2(uint8_t x) { return uint8_t(x << 1 | (((x >> 7) ^ (x >> 5)) & 1)); }
uint8_t lfsr3(uint8_t x) { return uint8_t(x >> 1 | (((x ^ (x >> 6)) & 1) << 7)); }

constexpr int kTweakeyPerm[16] = {9, 15, 8, 13, 10, 14, 12, 11, 0, 1, 2, 3, 4, 5, 6, 7};

// Rows are little-endian words: byte k = column k, so ShiftRows' rotation of
// row i by i cells to the right is rotl(8 * i).
void encrypt_block(const Schedule& ks, const uint8_t* in, uint8_t* out) {
  uint32_t r0 = load_le32(in), r1 = load_le32(in + 4);
  uint32_t r2 = load_le32(in + 8), r3 = load_le32(in + 12);
  for (uint32_t r = 0; r < ks.rounds; ++r) {
    const uint64_t lo = sbox8(uint64_t(r1) << 32 | r0);
    const uint64_t hi = sbox8(uint64_t(r3) << 32 | r2);
    const uint32_t a = uint32_t(lo) ^ ks.rtk[r][0];
    const uint32_t b = rotl(uint32_t(lo >> 32) ^ ks.rtk[r][1], 8);
    const uint32_t c = rotl(uint32_t(hi) ^ 0x02u, 16);
    const uint32_t d = rotl(uint32_t(hi >> 32), 24);
    r0 = a ^ c ^ d;  // MixColumns
    r1 = a;
    r2 = b ^ c;
    r3 = a ^ c;
  }
  store_le32(out, r0);
  store_le32(out + 4, r1);
  store_le32(out + 8, r2);
  store_le32(out + 12, r3);
}

void decrypt_block(const Schedule& ks, const uint8_t* in, uint8_t* out) {
  uint32_t r0 = load_le32(in), r1 = load_le32(in + 4);
  uint32_t r2 = load_le32(in + 8), r3 = load_le32(in + 12);
  for (uint32_t r = ks.rounds; r-- > 0;) {
    const uint32_t a = r1;  // inverse MixColumns
    const uint32_t c = r3 ^ r1;
    const uint32_t b = r2 ^ c;
    const uint32_t d = r0 ^ r3;
    r0 = a ^ ks.rtk[r][0];
    r1 = rotr(b, 8) ^ ks.rtk[r][1];
    r2 = rotr(c, 16) ^ 0x02u;
    r3 = rotr(d, 24);
    const uint64_t lo = sbox8_inv(uint64_t(r1) << 32 | r0);
    const uint64_t hi = sbox8_inv(uint64_t(r3) << 32 | r2);
    r0 = uint32_t(lo);
    r1 = uint32_t(lo >> 32);
    r2 = uint32_t(hi);
    r3 = uint32_t(hi >> 32);
  }
  store_le32(out, r0);
  store_le32(out + 4, r1);
  store_le32(out + 8, r2);
  store_le32(out + 12, r3);
}

// bit b of every byte of w, widened to 0x00/0xff per byte.
uint32_t byte_masks(uint32_t w, int b) { return ((w >> b) & 0x01010101u) * 0xffu; }

}  // namespace

void setkey(void* ks_out, const uint8_t* key, size_t keylen, bool /*with_decrypt*/) {
  Schedule& ks = *static_cast<Schedule*>(ks_out);
  // The caller has checked keylen against the algorithm (32 or 48).
  const size_t ntk = keylen >= 48 ? 3 : 2;
  uint8_t tk[3][16] = {};
  std::memcpy(tk, key, ntk * 16);
  ks.rounds = ntk == 3 ? 56 : 48;
  uint8_t rc = 0;  // public round-constant LFSR
  uint8_t row[8], next[16];
  for (uint32_t r = 0; r < ks.rounds; ++r) {
    rc = uint8_t(((rc << 1) & 0x3f) | (((rc >> 5) ^ (rc >> 4) ^ 1) & 1));
    for (int k = 0; k < 8; ++k) row[k] = uint8_t(tk[0][k] ^ tk[1][k] ^ tk[2][k]);
    row[0] ^= rc & 0x0f;
    row[4] ^= rc >> 4;
    ks.rtk[r][0] = load_le32(row);
    ks.rtk[r][1] = load_le32(row + 4);
    ks.c2[r] = 0x00ff0000u;
    for (int b = 0; b < 8; ++b) {
      ks.row0[r][b] = byte_masks(ks.rtk[r][0], b);
      ks.row1[r][b] = rotl(byte_masks(ks.rtk[r][1], b), 8) ^ (b == 1 ? 0x00ff0000u : 0u);
    }
    for (size_t t = 0; t < ntk; ++t) {
      for (int k = 0; k < 16; ++k) next[k] = tk[t][kTweakeyPerm[k]];
      for (int k = 0; k < 8; ++k) {
        if (t == 1) next[k] = lfsr2(next[k]);
        if (t == 2) next[k] = lfsr3(next[k]);
      }
      std::memcpy(tk[t], next, 16);
    }
  }
  OPENSSL_cleanse(tk, sizeof tk);
  OPENSSL_cleanse(row, sizeof row);
  OPENSSL_cleanse(next, sizeof next);
}

void ref_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const Schedule& s = *static_cast<const Schedule*>(ks);
  for (size_t i = 0; i < nblocks; ++i) encrypt_block(s, in + 16 * i, out + 16 * i);
}

void ref_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const Schedule& s = *static_cast<const Schedule*>(ks);
  for (size_t i = 0; i < nblocks; ++i) decrypt_block(s, in + 16 * i, out + 16 * i);
}

void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks) {
  ctr_via_encrypt(ref_encrypt, ks, 16, ctr, in, out, nblocks);
}

uint8_t ref_sbox(uint8_t x) { return uint8_t(sbox8(x)); }
uint8_t ref_sbox_inv(uint8_t x) { return uint8_t(sbox8_inv(x)); }

}  // namespace gpucrypto::skinny_impl
