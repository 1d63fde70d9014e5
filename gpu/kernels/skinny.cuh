// SKINNY-128-256 and SKINNY-128-384 kernel bodies (ePrint 2016/660).
//
// Two encryption designs:
//  * SkinnyTable: the seed's design. The state is held as four column words;
//    SubCells, AddConstants, AddRoundTweakey, ShiftRows and MixColumns of one
//    round become, per output column, four shared-memory table look-ups and
//    five XORs (four to combine, one for the pre-mixed round tweakey). Not
//    constant time: the table index is data.
//  * SkinnySliced: table-free. The state is held as four row words and the
//    8-bit S-box is evaluated on all four cells of a row at once as a Boolean
//    circuit (SWAR); no memory access depends on data.
// Decryption (ECB only) always uses the table-free inverse circuit.
#pragma once
#include <cstdint>

#include "gpu/kernels/bitslice.cuh"
#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu::kern {

// S8 on the four bytes of x (SWAR form of the spec's NOR/XOR network followed
// by its bit permutation).
GPUCRYPTO_HD inline uint32_t skinny_sbox4(uint32_t x) {
  uint32_t y;
  x = ~x;
  x ^= ((x >> 2) & (x >> 3)) & 0x11111111u;
  y = ((x << 5) & (x << 1)) & 0x20202020u;
  x ^= (((x << 5) & (x << 4)) & 0x40404040u) ^ y;
  y = ((x << 2) & (x << 1)) & 0x80808080u;
  x ^= (((x >> 2) & (x << 1)) & 0x02020202u) ^ y;
  y = ((x >> 5) & (x << 1)) & 0x04040404u;
  x ^= (((x >> 1) & (x >> 2)) & 0x08080808u) ^ y;
  x = ~x;
  return ((x & 0x08080808u) << 1) | ((x & 0x32323232u) << 2) | ((x & 0x01010101u) << 5) |
         ((x & 0x80808080u) >> 6) | ((x & 0x40404040u) >> 4) | ((x & 0x04040404u) >> 2);
}

GPUCRYPTO_HD inline uint32_t skinny_inv_sbox4(uint32_t x) {
  uint32_t y;
  x = ~x;
  y = ((x >> 1) & (x >> 3)) & 0x01010101u;
  x ^= (((x >> 2) & (x >> 3)) & 0x10101010u) ^ y;
  y = ((x >> 6) & (x >> 1)) & 0x02020202u;
  x ^= (((x >> 1) & (x >> 2)) & 0x08080808u) ^ y;
  y = ((x << 2) & (x << 1)) & 0x80808080u;
  x ^= (((x >> 1) & (x << 2)) & 0x04040404u) ^ y;
  y = ((x << 5) & (x << 1)) & 0x20202020u;
  x ^= (((x << 4) & (x << 5)) & 0x40404040u) ^ y;
  x = ~x;
  return ((x & 0x01010101u) << 2) | ((x & 0x04040404u) << 4) | ((x & 0x02020202u) << 6) |
         ((x & 0x20202020u) >> 5) | ((x & 0xC8C8C8C8u) >> 2) | ((x & 0x10101010u) >> 1);
}

// Byte masks of the columns of MixColumns' binary matrix
// M = [[1,0,1,1],[1,0,0,0],[0,1,1,0],[1,0,1,0]]: byte i of skinny_mc_col(r)
// is 0xff when M[i][r] = 1. (A function, not an array: host constexpr arrays
// are not visible in device code.)
GPUCRYPTO_HD constexpr uint32_t skinny_mc_col(int r) {
  return r == 0 ? 0xff00ffffu : r == 1 ? 0x00ff0000u : r == 2 ? 0xffff00ffu : 0x000000ffu;
}

// Schedule layout in KeySched::w (R = rounds):
//   [0, 4R)    per round, the four column words MixColumns(ShiftRows(k)) of the
//              round's tweakey+constants k (T-table design);
//   [4R, 6R)   per round, row 0 and row 1 words of k including c0/c1
//              (table-free design; c2 = 0x02 in row 2 is added inline);
//   [6R, 14R)  per round, the eight bit planes of k (rows 0-2, c2 included)
//              for two blocks (bit-sliced design, skinny_ct.cuh).
GPUCRYPTO_HD constexpr int skinny_bs_offset(int rounds) { return 6 * rounds; }

// tk: 32 or 48 bytes (TK1 || TK2 [|| TK3]).
inline void skinny_setkey(KeySched& ks, const uint8_t* tk, int ntk, int rounds) {
  uint8_t t[3][16] = {};
  for (int z = 0; z < ntk; ++z)
    for (int i = 0; i < 16; ++i) t[z][i] = tk[16 * z + i];
  static constexpr int kPT[16] = {9, 15, 8, 13, 10, 14, 12, 11, 0, 1, 2, 3, 4, 5, 6, 7};
  unsigned rc = 0;
  for (int r = 0; r < rounds; ++r) {
    rc = ((rc << 1) & 0x3f) | (((rc >> 5) ^ (rc >> 4) ^ 1) & 1);
    uint8_t k[16] = {};
    for (int i = 0; i < 8; ++i) k[i] = uint8_t(t[0][i] ^ t[1][i] ^ t[2][i]);
    k[0] ^= uint8_t(rc & 0xf);
    k[4] ^= uint8_t(rc >> 4);
    k[8] ^= 0x02;
    uint32_t rows[4];
    for (int row = 0; row < 4; ++row)
      rows[row] = uint32_t(k[4 * row]) | uint32_t(k[4 * row + 1]) << 8 |
                  uint32_t(k[4 * row + 2]) << 16 | uint32_t(k[4 * row + 3]) << 24;
    ks.w[4 * rounds + 2 * r] = rows[0];
    ks.w[4 * rounds + 2 * r + 1] = rows[1];
    // Planes: the columns of k (byte = row) for both blocks, transposed.
    uint32_t q[8];
    for (int c = 0; c < 4; ++c)
      q[c] = q[4 + c] = uint32_t(k[c]) | uint32_t(k[4 + c]) << 8 | uint32_t(k[8 + c]) << 16 |
                        uint32_t(k[12 + c]) << 24;
    bs_transpose(q);
    for (int b = 0; b < 8; ++b) ks.w[skinny_bs_offset(rounds) + 8 * r + b] = q[b];
    // Column c of MixColumns(ShiftRows(k)): cell (row, (c - row) mod 4) of k
    // spread over the rows where M[., row] = 1.
    for (int c = 0; c < 4; ++c) {
      uint32_t col = 0;
      for (int row = 0; row < 4; ++row)
        col ^= (uint32_t(k[4 * row + ((c - row) & 3)]) * 0x01010101u) & skinny_mc_col(row);
      ks.w[4 * r + c] = col;
    }
    // Tweakey update: permute every TK, then the LFSRs on rows 0-1 of TK2/TK3.
    for (int z = 0; z < ntk; ++z) {
      uint8_t n[16];
      for (int i = 0; i < 16; ++i) n[i] = t[z][kPT[i]];
      for (int i = 0; i < 16; ++i) t[z][i] = n[i];
    }
    for (int i = 0; i < 8; ++i) {
      uint8_t x = t[1][i];
      t[1][i] = uint8_t((x << 1) | (((x >> 7) ^ (x >> 5)) & 1));
      if (ntk == 3) {
        x = t[2][i];
        t[2][i] = uint8_t((x >> 1) | (((x << 7) ^ (x << 1)) & 0x80));
      }
    }
  }
}

// Columns <-> rows of the 4x4 byte state (byte i of column c = byte c of row i).
GPUCRYPTO_HD inline void skinny_transpose(const uint32_t (&a)[4], uint32_t (&b)[4]) {
#if defined(__CUDA_ARCH__)
  uint32_t lo01 = __byte_perm(a[0], a[1], 0x5140), hi01 = __byte_perm(a[0], a[1], 0x7362);
  uint32_t lo23 = __byte_perm(a[2], a[3], 0x5140), hi23 = __byte_perm(a[2], a[3], 0x7362);
  b[0] = __byte_perm(lo01, lo23, 0x5410);
  b[1] = __byte_perm(lo01, lo23, 0x7632);
  b[2] = __byte_perm(hi01, hi23, 0x5410);
  b[3] = __byte_perm(hi01, hi23, 0x7632);
#else
  for (int c = 0; c < 4; ++c)
    b[c] = byte_of(a[0], c) | byte_of(a[1], c) << 8 | byte_of(a[2], c) << 16 |
           byte_of(a[3], c) << 24;
#endif
}

template <int kRounds>
struct SkinnyDecrypt {
  // Table-free inverse rounds on row words.
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, uint32_t (&s)[4]) {
    const uint32_t* rk = ks.w + 4 * kRounds;
    uint32_t r0 = s[0], r1 = s[1], r2 = s[2], r3 = s[3];
    GPUCRYPTO_UNROLL_ROUNDS(4)
    for (int r = kRounds - 1; r >= 0; --r) {
      // Inverse MixColumns.
      uint32_t a0 = r1, a2 = r3 ^ r1, a1 = r2 ^ a2, a3 = r0 ^ r3;
      // Inverse ShiftRows, tweakey, S-box.
      r0 = skinny_inv_sbox4(a0 ^ rk[2 * r]);
      r1 = skinny_inv_sbox4(rotl32(a1, 24) ^ rk[2 * r + 1]);
      r2 = skinny_inv_sbox4(rotl32(a2, 16) ^ 0x02u);
      r3 = skinny_inv_sbox4(rotl32(a3, 8));
    }
    s[0] = r0, s[1] = r1, s[2] = r2, s[3] = r3;
  }
};

template <int kRounds>
struct SkinnySliced : SkinnyDecrypt<kRounds>, NoSharedTables {
  static constexpr int kBlockBytes = 16;
  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared&, uint32_t (&s)[4]) {
    const uint32_t* rk = ks.w + 4 * kRounds;
    uint32_t r0 = s[0], r1 = s[1], r2 = s[2], r3 = s[3];
GPUCRYPTO_UNROLL_ROUNDS(4)
    for (int r = 0; r < kRounds; ++r) {
      r0 = skinny_sbox4(r0) ^ rk[2 * r];
      r1 = rotl32(skinny_sbox4(r1) ^ rk[2 * r + 1], 8);
      r2 = rotl32(skinny_sbox4(r2) ^ 0x02u, 16);
      r3 = rotl32(skinny_sbox4(r3), 24);
      uint32_t t = r0 ^ r2;
      uint32_t n0 = t ^ r3, n2 = r1 ^ r2;
      r1 = r0, r3 = t, r0 = n0, r2 = n2;
    }
    s[0] = r0, s[1] = r1, s[2] = r2, s[3] = r3;
  }
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared&, uint32_t (&s)[4]) {
    SkinnyDecrypt<kRounds>::decrypt(ks, s);
  }
};

template <int kRounds>
struct SkinnyTable : SkinnyDecrypt<kRounds> {
  static constexpr int kBlockBytes = 16;
  struct Shared {
    uint32_t t[4][256];  // t[r][x] = MixColumns column r times S8(x)
  };
  GPUCRYPTO_HD static void load_shared(Shared& sh, const Tables& tab, uint32_t tid,
                                       uint32_t nthreads, bool decrypt) {
    if (decrypt) return;
    for (uint32_t i = tid; i < 256; i += nthreads) {
      uint32_t s = tab.skinny_srep[i];
      for (int r = 0; r < 4; ++r) sh.t[r][i] = s & skinny_mc_col(r);
    }
  }
  GPUCRYPTO_HD static void encrypt(const KeySched& ks, const Shared& sh, uint32_t (&s)[4]) {
    uint32_t c[4];
    skinny_transpose(s, c);
GPUCRYPTO_UNROLL_ROUNDS(2)
    for (int r = 0; r < kRounds; ++r) {
      const uint32_t* k = ks.w + 4 * r;
      uint32_t n[4];
GPUCRYPTO_PRAGMA(unroll)
      for (int j = 0; j < 4; ++j)
        n[j] = sh.t[0][byte_of(c[j], 0)] ^ sh.t[1][byte_of(c[(j + 3) & 3], 1)] ^
               sh.t[2][byte_of(c[(j + 2) & 3], 2)] ^ sh.t[3][byte_of(c[(j + 1) & 3], 3)] ^ k[j];
      c[0] = n[0], c[1] = n[1], c[2] = n[2], c[3] = n[3];
    }
    skinny_transpose(c, s);
  }
  GPUCRYPTO_HD static void decrypt(const KeySched& ks, const Shared&, uint32_t (&s)[4]) {
    SkinnyDecrypt<kRounds>::decrypt(ks, s);
  }
};

}  // namespace gpucrypto::gpu::kern
