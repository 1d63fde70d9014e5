// Portable constant-time reference: the cipher is bit-sliced by design, so
// SubColumn is a Boolean circuit on whole rows and ShiftRow is a rotation.
// Four blocks run side by side in the 16-bit lanes of a uint64_t.
#include "ciphers/rectangle/ref.h"

namespace gpucrypto::rectangle {
namespace {

// 5-bit LFSR round constants RC[0..24] (final version of the cipher).
constexpr uint8_t kRC[kRounds] = {0x01, 0x02, 0x04, 0x09, 0x12, 0x05, 0x0B, 0x16, 0x0C,
                                  0x19, 0x13, 0x07, 0x0F, 0x1F, 0x1E, 0x1C, 0x18, 0x11,
                                  0x03, 0x06, 0x0D, 0x1B, 0x17, 0x0E, 0x1D};

// S = 6 5 C A 1 E 7 9 B 0 3 D 8 F 4 2 on every column; a0 is row 0 = the
// least significant bit of the column nibble. A 12-operation circuit,
// checked against the table on all 16 inputs when it was written (and the
// official vectors depend on it).
template <typename W>
void sbox(W& a0, W& a1, W& a2, W& a3) {
  const W t1 = ~a1;
  const W t3 = a2 ^ a3;
  const W b0 = (a0 & t1) ^ t3;
  const W t6 = a0 ^ (a3 | t1);
  const W b1 = a2 ^ t6;
  const W t8 = a1 ^ a2;
  const W b3 = t8 ^ (t3 & t6);
  const W b2 = t6 ^ (b0 | t8);
  a0 = b0;
  a1 = b1;
  a2 = b2;
  a3 = b3;
}

// S^-1 = 9 4 F A E 1 0 6 C 7 3 8 2 B 5 D: a 6-gate vpternlog circuit found
// by exhaustive search, expanded into 13 two-input operations; checked on
// all 16 inputs when it was written (the tests' round trips cover it too).
template <typename W>
void inv_sbox(W& a0, W& a1, W& a2, W& a3) {
  const W t4 = a1 ^ (~a0 & a3);
  const W t5 = a3 ^ (a0 & a2);
  const W y = a2 ^ t4;
  const W b1 = y ^ t5;
  const W b2 = y ^ a0;
  const W nb0 = t4 ^ (~t5 & b2);
  const W nb3 = t5 ^ (~b1 & nb0);
  a0 = ~nb0;
  a1 = b1;
  a2 = b2;
  a3 = ~nb3;
}

// Four 16-bit lanes per word.
constexpr uint64_t kLanes = 0x0001000100010001;

template <int K>
uint64_t rotl16x4(uint64_t x) {
  constexpr uint64_t lo = ((1u << K) - 1) * kLanes;
  return ((x << K) & ~lo) | ((x >> (16 - K)) & lo);
}

uint16_t rotl16(uint16_t x, int k) { return uint16_t(x << k | x >> (16 - k)); }
uint32_t rotl32(uint32_t x, int k) { return x << k | x >> (32 - k); }

// Block j (< n) of `in` into lane j of the rows; missing blocks are zero.
void load4(const uint8_t* in, size_t n, uint64_t r[4]) {
  r[0] = r[1] = r[2] = r[3] = 0;
  for (size_t j = 0; j < n; ++j) {
    for (int i = 0; i < 4; ++i) {
      const uint64_t row = uint64_t(in[8 * j + 2 * i]) << 8 | in[8 * j + 2 * i + 1];
      r[i] |= row << (16 * j);
    }
  }
}

void store4(const uint64_t r[4], size_t n, uint8_t* out) {
  for (size_t j = 0; j < n; ++j) {
    for (int i = 0; i < 4; ++i) {
      const uint64_t row = r[i] >> (16 * j);
      out[8 * j + 2 * i] = uint8_t(row >> 8);
      out[8 * j + 2 * i + 1] = uint8_t(row);
    }
  }
}

void add_key(uint64_t r[4], const uint16_t k[4]) {
  for (int i = 0; i < 4; ++i) r[i] ^= k[i] * kLanes;
}

// Up to four blocks at a time through `rounds(r)` (one block per 16-bit lane
// of the four row words); forced inline so that each caller stays one loop.
template <class Rounds>
[[gnu::always_inline]] inline void four_at_a_time(const uint8_t* in, uint8_t* out, size_t nblocks, Rounds rounds) {
  while (nblocks > 0) {
    const size_t n = nblocks < 4 ? nblocks : 4;
    uint64_t r[4];
    load4(in, n, r);
    rounds(r);
    store4(r, n, out);
    in += 8 * n;
    out += 8 * n;
    nblocks -= n;
  }
}

}  // namespace

void expand_key(const uint8_t* key, size_t keylen, RoundKeys* rk) {
  if (keylen == 10) {
    uint16_t r[5];
    for (int i = 0; i < 5; ++i) r[i] = uint16_t(key[2 * i] << 8 | key[2 * i + 1]);
    for (int round = 0;; ++round) {
      for (int i = 0; i < 4; ++i) rk->k[round][i] = r[i];
      if (round == kRounds) break;
      // S-box on columns 0..3 only.
      uint16_t s0 = r[0], s1 = r[1], s2 = r[2], s3 = r[3];
      sbox(s0, s1, s2, s3);
      r[0] = uint16_t((r[0] & 0xfff0) | (s0 & 0x000f));
      r[1] = uint16_t((r[1] & 0xfff0) | (s1 & 0x000f));
      r[2] = uint16_t((r[2] & 0xfff0) | (s2 & 0x000f));
      r[3] = uint16_t((r[3] & 0xfff0) | (s3 & 0x000f));
      const uint16_t r0 = r[0];
      r[0] = uint16_t(rotl16(r[0], 8) ^ r[1]);
      r[1] = r[2];
      r[2] = r[3];
      r[3] = uint16_t(rotl16(r[3], 12) ^ r[4]);
      r[4] = r0;
      r[0] ^= kRC[round];
    }
  } else {
    uint32_t r[4];
    for (int i = 0; i < 4; ++i) {
      r[i] = uint32_t(key[4 * i]) << 24 | uint32_t(key[4 * i + 1]) << 16 |
             uint32_t(key[4 * i + 2]) << 8 | key[4 * i + 3];
    }
    for (int round = 0;; ++round) {
      for (int i = 0; i < 4; ++i) rk->k[round][i] = uint16_t(r[i]);
      if (round == kRounds) break;
      // S-box on columns 0..7 only.
      uint32_t s0 = r[0], s1 = r[1], s2 = r[2], s3 = r[3];
      sbox(s0, s1, s2, s3);
      r[0] = (r[0] & 0xffffff00u) | (s0 & 0xffu);
      r[1] = (r[1] & 0xffffff00u) | (s1 & 0xffu);
      r[2] = (r[2] & 0xffffff00u) | (s2 & 0xffu);
      r[3] = (r[3] & 0xffffff00u) | (s3 & 0xffu);
      const uint32_t r0 = r[0];
      r[0] = rotl32(r[0], 8) ^ r[1];
      r[1] = r[2];
      r[2] = rotl32(r[2], 16) ^ r[3];
      r[3] = r0;
      r[0] ^= kRC[round];
    }
  }
}

void encrypt_rounds(const uint16_t (*rk)[4], int rounds, const uint8_t* in, uint8_t* out,
                    size_t nblocks) {
  four_at_a_time(in, out, nblocks, [rk, rounds](uint64_t (&r)[4]) {
    for (int round = 0; round < rounds; ++round) {
      add_key(r, rk[round]);
      sbox(r[0], r[1], r[2], r[3]);
      r[1] = rotl16x4<1>(r[1]);
      r[2] = rotl16x4<12>(r[2]);
      r[3] = rotl16x4<13>(r[3]);
    }
    add_key(r, rk[rounds]);
  });
}

void decrypt_rounds(const uint16_t (*rk)[4], int rounds, const uint8_t* in, uint8_t* out,
                    size_t nblocks) {
  four_at_a_time(in, out, nblocks, [rk, rounds](uint64_t (&r)[4]) {
    add_key(r, rk[rounds]);
    for (int round = rounds - 1; round >= 0; --round) {
      r[1] = rotl16x4<15>(r[1]);
      r[2] = rotl16x4<4>(r[2]);
      r[3] = rotl16x4<3>(r[3]);
      inv_sbox(r[0], r[1], r[2], r[3]);
      add_key(r, rk[round]);
    }
  });
}

void ref_setkey(void* ks, const uint8_t* key, size_t keylen, bool /*with_decrypt*/) {
  expand_key(key, keylen, static_cast<RoundKeys*>(ks));
}

void ref_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  encrypt_rounds(static_cast<const RoundKeys*>(ks)->k, kRounds, in, out, nblocks);
}

void ref_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  decrypt_rounds(static_cast<const RoundKeys*>(ks)->k, kRounds, in, out, nblocks);
}

void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks) {
  ctr_via_encrypt(ref_encrypt, ks, 8, ctr, in, out, nblocks);
}

}  // namespace gpucrypto::rectangle
