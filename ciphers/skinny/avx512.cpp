// SKINNY-128 bit-sliced on AVX-512: 128 blocks per batch held in all 32 zmm
// registers, one register per (state row, bit plane).
//
// Layout of the register for row q and bit b: dword d, byte k (= column k),
// bit j holds bit b of cell (q, k) of one block (slot (d, j)); which block
// sits in which slot is fixed by the transposition below and undone by its
// inverse. With columns as the bytes of a dword:
//  * ShiftRows on row q is one vprold by 8*q;
//  * MixColumns is XORs between the four row registers of a plane;
//  * a round-key bit is the same for all blocks, so its mask for a plane is
//    one dword (byte k = 0x00/0xff) broadcast from the schedule ({1to16});
//  * the S-box is the published circuit: eight NOR-XOR steps per row, one
//    vpternlogd each; its bit permutations and MixColumns' row rotation are
//    register renaming, resolved at compile time (period 8 rounds).

// GCC 12 flags its own _mm512_undefined_*() self-initialisation once the
// intrinsics are inlined (GCC bug 105593); the pragma covers the header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC-only warning
#endif
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cstddef>
#include <cstdint>

#include "ciphers/skinny/ref.h"
#include "ciphers/skinny/simd_modes.h"
#include "ciphers/skinny/small_blocks.h"

namespace gpucrypto::skinny_impl {
namespace {

using V = __m512i;
constexpr size_t kBatch = 128;
constexpr size_t kBatchBytes = 16 * kBatch;

template <int Imm>
GPUCRYPTO_ALWAYS_INLINE V tern(V a, V b, V c) {
  return _mm512_ternarylogic_epi32(a, b, c, Imm);
}
constexpr int kXor3 = 0x96;    // a ^ b ^ c
constexpr int kNorXor = 0xe1;  // a ^ ~(b | c)
constexpr int kSelect = 0xca;  // a ? b : c (bitwise)

// One NOR-XOR layer of the S-box on logical bits: x4 ^= ~(x7|x6), x0 ^= ~(x3|x2).
GPUCRYPTO_ALWAYS_INLINE void nor_xor(V& b0, V& b2, V& b3, V& b4, V& b6, V& b7) {
  b4 = tern<kNorXor>(b4, b7, b6);
  b0 = tern<kNorXor>(b0, b3, b2);
}
GPUCRYPTO_ALWAYS_INLINE void sbox(V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6, V& x7) {
  sbox_layers<nor_xor>(x0, x1, x2, x3, x4, x5, x6, x7);
}
GPUCRYPTO_ALWAYS_INLINE void sbox_inv(V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6, V& x7) {
  sbox_inv_layers<nor_xor>(x0, x1, x2, x3, x4, x5, x6, x7);
}

template <int K>
GPUCRYPTO_ALWAYS_INLINE void sbox_row(V (&x)[32], int q) {
  V* r = x + 8 * q;
  sbox(r[bit_slot(K, 0)], r[bit_slot(K, 1)], r[bit_slot(K, 2)], r[bit_slot(K, 3)],
       r[bit_slot(K, 4)], r[bit_slot(K, 5)], r[bit_slot(K, 6)], r[bit_slot(K, 7)]);
}
template <int K>
GPUCRYPTO_ALWAYS_INLINE void sbox_inv_row(V (&x)[32], int q) {
  V* r = x + 8 * q;
  sbox_inv(r[bit_slot(K, 0)], r[bit_slot(K, 1)], r[bit_slot(K, 2)], r[bit_slot(K, 3)],
           r[bit_slot(K, 4)], r[bit_slot(K, 5)], r[bit_slot(K, 6)], r[bit_slot(K, 7)]);
}

GPUCRYPTO_ALWAYS_INLINE V bcast(const uint32_t& w) { return _mm512_set1_epi32(int(w)); }

// AddRoundTweakey + ShiftRows + MixColumns on bit plane I of round r (phase
// K): with a..d the rows after ShiftRows and k0/k1 the rotated round keys,
//   row2' = b ^ c ^ k1,  row1' = a ^ k0,  row3' = c ^ row1',  row0' = d ^ row3'
// (c2 on cell 8 rides in k1 and, for bit 1, in the constant on row3').
template <int K, int I>
GPUCRYPTO_ALWAYS_INLINE void linear(V (&x)[32], const Schedule& ks, uint32_t r) {
  constexpr int s = bit_slot(K + 1, I);
  V& a = x[8 * row_slot(K, 0) + s];
  V& b = x[8 * row_slot(K, 1) + s];
  V& c = x[8 * row_slot(K, 2) + s];
  V& d = x[8 * row_slot(K, 3) + s];
  b = _mm512_rol_epi32(b, 8);
  c = _mm512_rol_epi32(c, 16);
  d = _mm512_rol_epi32(d, 24);
  b = tern<kXor3>(b, c, bcast(ks.row1[r][I]));
  a = _mm512_xor_si512(a, bcast(ks.row0[r][I]));
  if constexpr (I == 1) {
    c = tern<kXor3>(c, a, bcast(ks.c2[r]));
  } else {
    c = _mm512_xor_si512(c, a);
  }
  d = _mm512_xor_si512(d, c);
}
template <int K, int I>
GPUCRYPTO_ALWAYS_INLINE void linear_inv(V (&x)[32], const Schedule& ks, uint32_t r) {
  constexpr int s = bit_slot(K + 1, I);
  V& a = x[8 * row_slot(K, 0) + s];
  V& b = x[8 * row_slot(K, 1) + s];
  V& c = x[8 * row_slot(K, 2) + s];
  V& d = x[8 * row_slot(K, 3) + s];
  d = _mm512_xor_si512(d, c);
  if constexpr (I == 1) {
    c = tern<kXor3>(c, a, bcast(ks.c2[r]));
  } else {
    c = _mm512_xor_si512(c, a);
  }
  a = _mm512_xor_si512(a, bcast(ks.row0[r][I]));
  b = tern<kXor3>(b, c, bcast(ks.row1[r][I]));
  b = _mm512_ror_epi32(b, 8);
  c = _mm512_ror_epi32(c, 16);
  d = _mm512_ror_epi32(d, 24);
}

template <int K>
GPUCRYPTO_ALWAYS_INLINE void round_enc(V (&x)[32], const Schedule& ks, uint32_t r) {
  sbox_row<K>(x, 0);
  sbox_row<K>(x, 1);
  sbox_row<K>(x, 2);
  sbox_row<K>(x, 3);
  linear<K, 0>(x, ks, r);
  linear<K, 1>(x, ks, r);
  linear<K, 2>(x, ks, r);
  linear<K, 3>(x, ks, r);
  linear<K, 4>(x, ks, r);
  linear<K, 5>(x, ks, r);
  linear<K, 6>(x, ks, r);
  linear<K, 7>(x, ks, r);
}
template <int K>
GPUCRYPTO_ALWAYS_INLINE void round_dec(V (&x)[32], const Schedule& ks, uint32_t r) {
  linear_inv<K, 0>(x, ks, r);
  linear_inv<K, 1>(x, ks, r);
  linear_inv<K, 2>(x, ks, r);
  linear_inv<K, 3>(x, ks, r);
  linear_inv<K, 4>(x, ks, r);
  linear_inv<K, 5>(x, ks, r);
  linear_inv<K, 6>(x, ks, r);
  linear_inv<K, 7>(x, ks, r);
  sbox_inv_row<K>(x, 0);
  sbox_inv_row<K>(x, 1);
  sbox_inv_row<K>(x, 2);
  sbox_inv_row<K>(x, 3);
}

// The round count (48 or 56) is a multiple of the renaming period 8, so the
// state leaves the loop in the registers it entered with.
GPUCRYPTO_ALWAYS_INLINE void encrypt_state(V (&x)[32], const Schedule& ks) {
  for (uint32_t r = 0; r < ks.rounds; r += 8) {
    round_enc<0>(x, ks, r);
    round_enc<1>(x, ks, r + 1);
    round_enc<2>(x, ks, r + 2);
    round_enc<3>(x, ks, r + 3);
    round_enc<4>(x, ks, r + 4);
    round_enc<5>(x, ks, r + 5);
    round_enc<6>(x, ks, r + 6);
    round_enc<7>(x, ks, r + 7);
  }
}
GPUCRYPTO_ALWAYS_INLINE void decrypt_state(V (&x)[32], const Schedule& ks) {
  for (uint32_t r = ks.rounds; r != 0; r -= 8) {
    round_dec<7>(x, ks, r - 1);
    round_dec<6>(x, ks, r - 2);
    round_dec<5>(x, ks, r - 3);
    round_dec<4>(x, ks, r - 4);
    round_dec<3>(x, ks, r - 5);
    round_dec<2>(x, ks, r - 6);
    round_dec<1>(x, ks, r - 7);
    round_dec<0>(x, ks, r - 8);
  }
}

// --- transposition ----------------------------------------------------------
// Loaded as is, register m holds blocks 4m..4m+3: block 4m+l in lane l, cell
// (row, col) in byte 4*row + col of the lane, state bit b at bit b of that
// byte. Two exchanges of address bits give the sliced layout; both are
// involutions and commute, so the same code undoes them:
//  (1) bit-in-byte (b) <-> register-index bits 0..2, by three SWAPMOVE
//      stages between register pairs;
//  (2) dword-in-lane (row) <-> register-index bits 3..4, by a 4x4 dword
//      transpose in every lane across registers m, m+8, m+16, m+24.
// Register 8*row + b then holds bit b of row `row`, the column still being
// the byte in the dword; block 32u + 4j' + l (u, j' and l from the old
// register index and lane) lands in dword 4l + u, bit j'.

// Exchanges bit (1 << S) of the bit-in-byte index with register bit S.
template <int S>
GPUCRYPTO_ALWAYS_INLINE void swap_bits(V& lo, V& hi) {
  constexpr uint64_t kMask0 = S == 0   ? 0x5555555555555555ull
                              : S == 1 ? 0x3333333333333333ull
                                       : 0x0f0f0f0f0f0f0f0full;
  const V m0 = _mm512_set1_epi64(int64_t(kMask0));
  const V new_lo = tern<kSelect>(m0, lo, _mm512_slli_epi64(hi, 1 << S));
  hi = tern<kSelect>(m0, _mm512_srli_epi64(lo, 1 << S), hi);
  lo = new_lo;
}

GPUCRYPTO_ALWAYS_INLINE void transpose_bits(V (&x)[32]) {
#pragma GCC unroll 4
  for (int g = 0; g < 32; g += 8) {
#pragma GCC unroll 4
    for (int i = 0; i < 8; i += 2) swap_bits<0>(x[g + i], x[g + i + 1]);
#pragma GCC unroll 2
    for (int i = 0; i < 8; i += 4) {
      swap_bits<1>(x[g + i], x[g + i + 2]);
      swap_bits<1>(x[g + i + 1], x[g + i + 3]);
    }
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) swap_bits<2>(x[g + i], x[g + i + 4]);
  }
}

GPUCRYPTO_ALWAYS_INLINE void transpose_rows(V (&x)[32]) {
#pragma GCC unroll 8
  for (int b = 0; b < 8; ++b) {
    const V t0 = _mm512_unpacklo_epi32(x[b], x[b + 8]);
    const V t1 = _mm512_unpackhi_epi32(x[b], x[b + 8]);
    const V t2 = _mm512_unpacklo_epi32(x[b + 16], x[b + 24]);
    const V t3 = _mm512_unpackhi_epi32(x[b + 16], x[b + 24]);
    x[b] = _mm512_unpacklo_epi64(t0, t2);
    x[b + 8] = _mm512_unpackhi_epi64(t0, t2);
    x[b + 16] = _mm512_unpacklo_epi64(t1, t3);
    x[b + 24] = _mm512_unpackhi_epi64(t1, t3);
  }
}

GPUCRYPTO_ALWAYS_INLINE void load_batch(V (&x)[32], const uint8_t* in) {
#pragma GCC unroll 32
  for (int m = 0; m < 32; ++m) x[m] = _mm512_loadu_si512(in + 64 * m);
  transpose_rows(x);
  transpose_bits(x);
}
GPUCRYPTO_ALWAYS_INLINE void unslice(V (&x)[32]) {
  transpose_bits(x);
  transpose_rows(x);
}

// Counter blocks ctr + 0..127 (no carry out of the low 64 bits in this batch:
// the caller checks). Lane i of register m is block 4m+i: native (hi, lo+i)
// qwords, byte-reversed per qword into big-endian.
GPUCRYPTO_ALWAYS_INLINE void counter_batch(V (&x)[32], uint64_t hi, uint64_t lo) {
  const V bswap =
      _mm512_broadcast_i32x4(_mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  const V step = _mm512_set_epi64(4, 0, 4, 0, 4, 0, 4, 0);
  V c = _mm512_set_epi64(int64_t(lo + 3), int64_t(hi), int64_t(lo + 2), int64_t(hi),
                         int64_t(lo + 1), int64_t(hi), int64_t(lo), int64_t(hi));
#pragma GCC unroll 32
  for (int m = 0; m < 32; ++m) {
    x[m] = _mm512_shuffle_epi8(c, bswap);
    c = _mm512_add_epi64(c, step);
  }
  transpose_rows(x);
  transpose_bits(x);
}

__attribute__((noinline)) void encrypt_batch(const Schedule& ks, const uint8_t* in, uint8_t* out) {
  V x[32];
  load_batch(x, in);
  encrypt_state(x, ks);
  unslice(x);
#pragma GCC unroll 32
  for (int m = 0; m < 32; ++m) _mm512_storeu_si512(out + 64 * m, x[m]);
}

__attribute__((noinline)) void decrypt_batch(const Schedule& ks, const uint8_t* in, uint8_t* out) {
  V x[32];
  load_batch(x, in);
  decrypt_state(x, ks);
  unslice(x);
#pragma GCC unroll 32
  for (int m = 0; m < 32; ++m) _mm512_storeu_si512(out + 64 * m, x[m]);
}

// out = in ^ E(ctr + i) for the first `nblocks` (<= 128) blocks of a batch.
__attribute__((noinline)) void ctr_batch(const Schedule& ks, uint64_t hi, uint64_t lo,
                                         const uint8_t* in, uint8_t* out, size_t nblocks) {
  V x[32];
  counter_batch(x, hi, lo);
  encrypt_state(x, ks);
  unslice(x);
  if (nblocks == kBatch) {
#pragma GCC unroll 32
    for (int m = 0; m < 32; ++m) {
      const V v = _mm512_loadu_si512(in + 64 * m);
      _mm512_storeu_si512(out + 64 * m, _mm512_xor_si512(x[m], v));
    }
    return;
  }
  alignas(64) uint8_t stream[kBatchBytes];
  for (int m = 0; m < 32; ++m) _mm512_store_si512(stream + 64 * m, x[m]);
  xor_bytes(out, in, stream, 16 * nblocks);
  OPENSSL_cleanse(stream, sizeof stream);
}

// A partial batch runs as a full one through a stack buffer; a few blocks
// take the small-call path.
template <void (*Batch)(const Schedule&, const uint8_t*, uint8_t*)>
void ecb(const void* ks_raw, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const Schedule& ks = *static_cast<const Schedule*>(ks_raw);
  if (nblocks < small::kSmallBlocks)
    return small::ecb<Batch == encrypt_batch>(ks, in, out, nblocks);
  run_padded<kBatch, 16>(in, out, nblocks, [&ks](const uint8_t* i, uint8_t* o)
                                               GPUCRYPTO_INLINE_LAMBDA { Batch(ks, i, o); });
}

void ctr(const void* ks_raw, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const Schedule& ks = *static_cast<const Schedule*>(ks_raw);
  if (nblocks < small::kSmallBlocks) return small::ctr(ks, ctr, in, out, nblocks);
  ctr_batches<kBatch>(ecb<encrypt_batch>, ks_raw, ctr, in, out, nblocks,
                      [&ks](uint64_t hi, uint64_t lo, const uint8_t* i, uint8_t* o, size_t n)
                          GPUCRYPTO_INLINE_LAMBDA { ctr_batch(ks, hi, lo, i, o, n); });
}

}  // namespace

constinit const CipherHw kAvx512Hw = {"avx512", compiled_features(), kScheduleBytes,
                                      kBatch,   setkey,              ecb<encrypt_batch>,
                                      ecb<decrypt_batch>, ctr};

}  // namespace gpucrypto::skinny_impl
