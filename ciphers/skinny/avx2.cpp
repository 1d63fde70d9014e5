// SKINNY-128 bit-sliced on AVX2: 64 blocks per batch as 32 ymm words, one
// per (state row, bit plane), with the same layout as the AVX-512 path
// (avx512.cpp: dword d, byte k = column k, bit j = block slot) at half the
// width. AVX2 has 16 registers, so the state lives in a stack array: the
// S-box runs row by row (8 words) and the linear layer plane by plane (4).
//
// The state is kept complemented (every stored word is ~word): the S-box
// step x ^= ~(a | b) is then X ^= A & B on the stored words, two
// instructions without a NOT, and only the linear layer needs two
// complements per plane to restore the convention.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "ciphers/skinny/ref.h"
#include "ciphers/skinny/simd_modes.h"
#include "ciphers/skinny/small_blocks.h"

namespace gpucrypto::skinny_impl {
namespace {

using V = __m256i;
constexpr size_t kBatch = 64;
constexpr size_t kBatchBytes = 16 * kBatch;

// Register renaming: bit_slot / row_slot (simd_modes.h).

GPUCRYPTO_ALWAYS_INLINE V vxor(V a, V b) { return _mm256_xor_si256(a, b); }

// One NOR-XOR layer on complemented words: ~x4 ^= ~x7 & ~x6, same for x0.
GPUCRYPTO_ALWAYS_INLINE void nor_xor(V& b0, V& b2, V& b3, V& b4, V& b6, V& b7) {
  b4 = vxor(b4, _mm256_and_si256(b7, b6));
  b0 = vxor(b0, _mm256_and_si256(b3, b2));
}
GPUCRYPTO_ALWAYS_INLINE void sbox(V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6, V& x7) {
  sbox_layers<nor_xor>(x0, x1, x2, x3, x4, x5, x6, x7);
}
GPUCRYPTO_ALWAYS_INLINE void sbox_inv(V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6, V& x7) {
  sbox_inv_layers<nor_xor>(x0, x1, x2, x3, x4, x5, x6, x7);
}

// Rotations of every dword left by 8, 16, 24 bits (ShiftRows on rows 1..3)
// as byte shuffles; index 0 is the identity.
GPUCRYPTO_ALWAYS_INLINE V rotl_bytes(V x, int n) {
  const V r8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,  //
                                3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
  const V r16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,  //
                                 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  const V r24 = _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,  //
                                 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12);
  return n == 0 ? x : _mm256_shuffle_epi8(x, n == 1 ? r8 : n == 2 ? r16 : r24);
}

GPUCRYPTO_ALWAYS_INLINE V load(const V* p) { return _mm256_load_si256(p); }
GPUCRYPTO_ALWAYS_INLINE void store(V* p, V v) { _mm256_store_si256(p, v); }

// S-box on the row in slot q, then ShiftRows (the logical row held there
// after this round's renaming is (q + K) % 4).
template <int K, bool Inverse>
GPUCRYPTO_ALWAYS_INLINE void sbox_row(V* st, int q) {
  V* r = st + 8 * q;
  constexpr int s0 = bit_slot(K, 0), s1 = bit_slot(K, 1), s2 = bit_slot(K, 2), s3 = bit_slot(K, 3),
                s4 = bit_slot(K, 4), s5 = bit_slot(K, 5), s6 = bit_slot(K, 6), s7 = bit_slot(K, 7);
  V x0 = load(r + s0), x1 = load(r + s1), x2 = load(r + s2), x3 = load(r + s3);
  V x4 = load(r + s4), x5 = load(r + s5), x6 = load(r + s6), x7 = load(r + s7);
  const int rot = (q + K) % 4;
  if constexpr (Inverse) {
    // Undo ShiftRows first (rotate right = rotate left by the complement).
    const int back = (4 - rot) % 4;
    x0 = rotl_bytes(x0, back), x1 = rotl_bytes(x1, back), x2 = rotl_bytes(x2, back);
    x3 = rotl_bytes(x3, back), x4 = rotl_bytes(x4, back), x5 = rotl_bytes(x5, back);
    x6 = rotl_bytes(x6, back), x7 = rotl_bytes(x7, back);
    sbox_inv(x0, x1, x2, x3, x4, x5, x6, x7);
  } else {
    sbox(x0, x1, x2, x3, x4, x5, x6, x7);
    x0 = rotl_bytes(x0, rot), x1 = rotl_bytes(x1, rot), x2 = rotl_bytes(x2, rot);
    x3 = rotl_bytes(x3, rot), x4 = rotl_bytes(x4, rot), x5 = rotl_bytes(x5, rot);
    x6 = rotl_bytes(x6, rot), x7 = rotl_bytes(x7, rot);
  }
  store(r + s0, x0), store(r + s1, x1), store(r + s2, x2), store(r + s3, x3);
  store(r + s4, x4), store(r + s5, x5), store(r + s6, x6), store(r + s7, x7);
}

GPUCRYPTO_ALWAYS_INLINE V bcast(const uint32_t& w) { return _mm256_set1_epi32(int(w)); }

// AddRoundTweakey + MixColumns on bit plane I (rows already shifted), on
// complemented words A..D:
//   row2' = ~(B ^ C ^ k1 ^ 1)    row1' = A ^ k0
//   t = C ^ row1' (true value)   row0' = D ^ t      row3' = ~t
// with c2 in k1 and, for bit 1, added to t.
template <int K, int I, bool Inverse>
GPUCRYPTO_ALWAYS_INLINE void linear(V* st, const Schedule& ks, uint32_t r, V ones) {
  constexpr int s = bit_slot(K + 1, I);
  V* pa = st + 8 * row_slot(K, 0) + s;
  V* pb = st + 8 * row_slot(K, 1) + s;
  V* pc = st + 8 * row_slot(K, 2) + s;
  V* pd = st + 8 * row_slot(K, 3) + s;
  V a = load(pa), b = load(pb), c = load(pc), d = load(pd);
  const V k0 = bcast(ks.row0[r][I]), k1 = vxor(bcast(ks.row1[r][I]), ones);
  if constexpr (!Inverse) {
    b = vxor(vxor(b, c), k1);
    a = vxor(a, k0);
    c = vxor(c, a);
    if constexpr (I == 1) c = vxor(c, bcast(ks.c2[r]));
    d = vxor(d, c);
    c = vxor(c, ones);
  } else {
    c = vxor(c, ones);
    d = vxor(d, c);
    if constexpr (I == 1) c = vxor(c, bcast(ks.c2[r]));
    c = vxor(c, a);
    a = vxor(a, k0);
    b = vxor(vxor(b, c), k1);
  }
  store(pa, a), store(pb, b), store(pc, c), store(pd, d);
}

// The S-box on rows 0..3 and the linear layer on planes 0..7, each call
// with its row / plane as a constant (fold expressions: the same calls as
// written out one by one).
template <int K, bool kDec, int... Q>
GPUCRYPTO_ALWAYS_INLINE void sbox_rows(V* st, std::integer_sequence<int, Q...>) {
  (sbox_row<K, kDec>(st, Q), ...);
}
template <int K, bool kDec, int... P>
GPUCRYPTO_ALWAYS_INLINE void linear_planes(V* st, const Schedule& ks, uint32_t r, V ones,
                                           std::integer_sequence<int, P...>) {
  (linear<K, P, kDec>(st, ks, r, ones), ...);
}

template <int K>
GPUCRYPTO_ALWAYS_INLINE void round_enc(V* st, const Schedule& ks, uint32_t r, V ones) {
  sbox_rows<K, false>(st, std::make_integer_sequence<int, 4>{});
  linear_planes<K, false>(st, ks, r, ones, std::make_integer_sequence<int, 8>{});
}
template <int K>
GPUCRYPTO_ALWAYS_INLINE void round_dec(V* st, const Schedule& ks, uint32_t r, V ones) {
  linear_planes<K, true>(st, ks, r, ones, std::make_integer_sequence<int, 8>{});
  sbox_rows<K, true>(st, std::make_integer_sequence<int, 4>{});
}

GPUCRYPTO_ALWAYS_INLINE void encrypt_state(V* st, const Schedule& ks) {
  const V ones = _mm256_set1_epi32(-1);
  for (uint32_t r = 0; r < ks.rounds; r += 8) {
    round_enc<0>(st, ks, r, ones);
    round_enc<1>(st, ks, r + 1, ones);
    round_enc<2>(st, ks, r + 2, ones);
    round_enc<3>(st, ks, r + 3, ones);
    round_enc<4>(st, ks, r + 4, ones);
    round_enc<5>(st, ks, r + 5, ones);
    round_enc<6>(st, ks, r + 6, ones);
    round_enc<7>(st, ks, r + 7, ones);
  }
}
GPUCRYPTO_ALWAYS_INLINE void decrypt_state(V* st, const Schedule& ks) {
  const V ones = _mm256_set1_epi32(-1);
  for (uint32_t r = ks.rounds; r != 0; r -= 8) {
    round_dec<7>(st, ks, r - 1, ones);
    round_dec<6>(st, ks, r - 2, ones);
    round_dec<5>(st, ks, r - 3, ones);
    round_dec<4>(st, ks, r - 4, ones);
    round_dec<3>(st, ks, r - 5, ones);
    round_dec<2>(st, ks, r - 6, ones);
    round_dec<1>(st, ks, r - 7, ones);
    round_dec<0>(st, ks, r - 8, ones);
  }
}

// --- transposition (see avx512.cpp): word m of a batch holds blocks 2m and
// 2m+1 (one per lane). (1) exchanges the bit-in-byte index with word-index
// bits 0..2 (SWAPMOVE), (2) the dword-in-lane index with word-index bits
// 3..4 (4x4 dword transposes); both are involutions and commute.
template <int S>
GPUCRYPTO_ALWAYS_INLINE void swap_bits(V& lo, V& hi) {
  constexpr uint64_t kMask0 = S == 0   ? 0x5555555555555555ull
                              : S == 1 ? 0x3333333333333333ull
                                       : 0x0f0f0f0f0f0f0f0full;
  const V m0 = _mm256_set1_epi64x(int64_t(kMask0));
  const V t = _mm256_and_si256(vxor(_mm256_srli_epi64(lo, 1 << S), hi), m0);
  hi = vxor(hi, t);
  lo = vxor(lo, _mm256_slli_epi64(t, 1 << S));
}
GPUCRYPTO_ALWAYS_INLINE void transpose_bits8(V (&x)[8]) {
  swap_bits<0>(x[0], x[1]), swap_bits<0>(x[2], x[3]);
  swap_bits<0>(x[4], x[5]), swap_bits<0>(x[6], x[7]);
  swap_bits<1>(x[0], x[2]), swap_bits<1>(x[1], x[3]);
  swap_bits<1>(x[4], x[6]), swap_bits<1>(x[5], x[7]);
  swap_bits<2>(x[0], x[4]), swap_bits<2>(x[1], x[5]);
  swap_bits<2>(x[2], x[6]), swap_bits<2>(x[3], x[7]);
}
// 4x4 dword transpose in each lane of st[b], st[b+8], st[b+16], st[b+24],
// complementing on the way (the state convention; self-inverse as well).
GPUCRYPTO_ALWAYS_INLINE void transpose_rows(V* st) {
  const V ones = _mm256_set1_epi32(-1);
  for (int b = 0; b < 8; ++b) {
    const V x0 = load(st + b), x1 = load(st + b + 8);
    const V x2 = load(st + b + 16), x3 = load(st + b + 24);
    const V t0 = _mm256_unpacklo_epi32(x0, x1), t1 = _mm256_unpackhi_epi32(x0, x1);
    const V t2 = _mm256_unpacklo_epi32(x2, x3), t3 = _mm256_unpackhi_epi32(x2, x3);
    store(st + b, vxor(_mm256_unpacklo_epi64(t0, t2), ones));
    store(st + b + 8, vxor(_mm256_unpackhi_epi64(t0, t2), ones));
    store(st + b + 16, vxor(_mm256_unpacklo_epi64(t1, t3), ones));
    store(st + b + 24, vxor(_mm256_unpackhi_epi64(t1, t3), ones));
  }
}

GPUCRYPTO_ALWAYS_INLINE void load_batch(V* st, const uint8_t* in) {
  for (int g = 0; g < 32; g += 8) {
    V x[8];
    for (int i = 0; i < 8; ++i) {
      x[i] = _mm256_loadu_si256(reinterpret_cast<const V*>(in + 32 * (g + i)));
    }
    transpose_bits8(x);
    for (int i = 0; i < 8; ++i) store(st + g + i, x[i]);
  }
  transpose_rows(st);
}

// Undoes the slicing; xors `in` into the result when given (CTR).
void store_batch(V* st, uint8_t* out, const uint8_t* in) {
  transpose_rows(st);
  for (int g = 0; g < 32; g += 8) {
    V x[8];
    for (int i = 0; i < 8; ++i) x[i] = load(st + g + i);
    transpose_bits8(x);
    for (int i = 0; i < 8; ++i) {
      V* p = reinterpret_cast<V*>(out + 32 * (g + i));
      if (in != nullptr) {
        x[i] = vxor(x[i], _mm256_loadu_si256(reinterpret_cast<const V*>(in + 32 * (g + i))));
      }
      _mm256_storeu_si256(p, x[i]);
    }
  }
}

// Counter blocks ctr + 0..63 (the caller rules out a carry out of the low
// 64 bits): lane i of word m is block 2m+i, native (hi, lo + 2m + i) qwords
// byte-reversed into big-endian.
void counter_batch(V* st, uint64_t hi, uint64_t lo) {
  const V bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                                   7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  const V step = _mm256_setr_epi64x(0, 2, 0, 2);
  V c = _mm256_setr_epi64x(int64_t(hi), int64_t(lo), int64_t(hi), int64_t(lo + 1));
  for (int g = 0; g < 32; g += 8) {
    V x[8];
    for (int i = 0; i < 8; ++i) {
      x[i] = _mm256_shuffle_epi8(c, bswap);
      c = _mm256_add_epi64(c, step);
    }
    transpose_bits8(x);
    for (int i = 0; i < 8; ++i) store(st + g + i, x[i]);
  }
  transpose_rows(st);
}

// The state is a stack array (16 ymm registers cannot hold it), wiped once
// per call.
template <bool kEncrypt>
void ecb(const void* ks_raw, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const Schedule& ks = *static_cast<const Schedule*>(ks_raw);
  if (nblocks < small::kSmallBlocks) return small::ecb<kEncrypt>(ks, in, out, nblocks);
  alignas(32) V st[32];
  run_padded<kBatch, 16>(in, out, nblocks, [&](const uint8_t* i, uint8_t* o) GPUCRYPTO_INLINE_LAMBDA {
    load_batch(st, i);
    if (kEncrypt) {
      encrypt_state(st, ks);
    } else {
      decrypt_state(st, ks);
    }
    store_batch(st, o, nullptr);
  });
  OPENSSL_cleanse(st, sizeof st);
}

void ctr(const void* ks_raw, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const Schedule& ks = *static_cast<const Schedule*>(ks_raw);
  if (nblocks < small::kSmallBlocks) return small::ctr(ks, ctr, in, out, nblocks);
  alignas(32) V st[32];
  alignas(32) uint8_t buf[kBatchBytes];
  ctr_batches<kBatch>(ecb<true>, ks_raw, ctr, in, out, nblocks,
                      [&](uint64_t hi, uint64_t lo, const uint8_t* i, uint8_t* o, size_t n)
                          GPUCRYPTO_INLINE_LAMBDA {
    counter_batch(st, hi, lo);
    encrypt_state(st, ks);
    if (n == kBatch) {
      store_batch(st, o, i);
    } else {
      store_batch(st, buf, nullptr);
      xor_bytes(o, i, buf, 16 * n);
    }
  });
  OPENSSL_cleanse(st, sizeof st);
  OPENSSL_cleanse(buf, sizeof buf);
}

}  // namespace

constinit const CipherHw avx2::kHw = {
    "avx2", compiled_features(), kScheduleBytes, kBatch, setkey, ecb<true>, ecb<false>, ctr};

}  // namespace gpucrypto::skinny_impl
