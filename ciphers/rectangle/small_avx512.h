// RECTANGLE for 1 … 8 blocks (the smallest calls of avx512.cpp): a ymm
// register holds one state row of 8 blocks, each block's 16-bit row
// duplicated into both halves of a dword, so ShiftRow is one vprold per row
// (a 32-bit rotation of x:x is the 16-bit rotation of x in both halves).
// SubColumn is a depth-2 vpternlog circuit whose four output gates are XORs
// of two first-layer values, so the round key enters as the third operand
// of those gates: 10 vpternlog and 3 vprold per round, against 10 vpternlog,
// 6 shifts and an XOR for the 16-bit-lane round of the batches. A call is
// one dependency chain of 25 rounds (on AMD Zen 4 about 8.6 cycles a round
// measured, for this and for the alternatives tried: 16-bit lanes with
// shifts, or two-input logic with vprold), so what counts is what surrounds
// it: data moves through byte-masked loads and stores of the caller's
// buffers (masks from the public block count only), without the padded
// stack copy, wipe and 128-block conversion a batch would pay. Measured
// with gpucrypto-block-sweep: 59 ns for 1 … 8 blocks, against ~63 ns for
// one 16-block ymm group and 104-111 ns for the previous reference fallback.
// Table-free, no data-dependent branch or index. Included by avx512.cpp only
// (it needs AVX-512VL and VBMI; platform/isa.h: anonymous namespace, one
// copy).
#pragma once
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "ciphers/rectangle/simd.h"
#include "platform/isa.h"

namespace gpucrypto::rectangle {
namespace {
namespace dup {

using Y = __m256i;

constexpr size_t kGroup = 8;

#define TERN(a, b, c, imm) _mm256_ternarylogic_epi32(a, b, c, imm)

// S = 6 5 C A 1 E 7 9 B 0 3 D 8 F 4 2 on every column, followed by the XOR
// of k: six first-layer gates of three inputs, then b_j = p ^ q ^ k_j (or
// its complement) (exhaustive search over depth-2 circuits whose outputs are
// two-input functions of the first layer: six gates is the minimum).
GPUCRYPTO_ALWAYS_INLINE void sbox_key(Y (&a)[4], const Y (&k)[4]) {
  const Y g0 = TERN(a[1], a[2], a[3], 0x0b);
  const Y g1 = TERN(a[0], a[1], a[2], 0x92);
  const Y g2 = TERN(a[0], a[1], a[3], 0x9a);
  const Y g3 = TERN(a[1], a[2], a[3], 0x9c);
  const Y g4 = TERN(a[0], a[2], a[3], 0x8e);
  const Y g5 = TERN(a[0], a[2], a[3], 0xed);
  const Y b0 = TERN(a[2], g2, k[0], 0x96);
  a[1] = TERN(a[0], g3, k[1], 0x69);
  a[0] = b0;
  a[2] = TERN(g1, g5, k[2], 0x96);
  a[3] = TERN(g0, g4, k[3], 0x69);
}

// S^-1 = 9 4 F A E 1 0 6 C 7 3 8 2 B 5 D followed by the XOR of k, the same
// form with five first-layer gates.
GPUCRYPTO_ALWAYS_INLINE void inv_sbox_key(Y (&a)[4], const Y (&k)[4]) {
  const Y g0 = TERN(a[0], a[1], a[2], 0x61);
  const Y g1 = TERN(a[1], a[2], a[3], 0x4d);
  const Y g2 = TERN(a[0], a[1], a[3], 0xd6);
  const Y g3 = TERN(a[0], a[2], a[3], 0xc9);
  const Y g4 = TERN(a[0], a[2], a[3], 0xac);
  const Y a1 = a[1];
  a[0] = TERN(g0, g1, k[0], 0x69);
  a[1] = TERN(a1, g4, k[1], 0x96);
  a[2] = TERN(a1, g3, k[2], 0x69);
  a[3] = TERN(g1, g2, k[3], 0x96);
}

#undef TERN

GPUCRYPTO_ALWAYS_INLINE void bcast(const uint32_t (&k)[4], Y (&v)[4]) {
  for (int i = 0; i < 4; ++i) v[i] = _mm256_set1_epi32(int(k[i]));
}

// The schedule's dword-duplicated keys serve as they are (avx512.cpp folds
// no complements into them): a round's S-box output is XORed with K_r
// pre-rotated right, rot(b ^ rotr(K)) = rot(b) ^ K, which is dec[r]; the
// inverse S-box output with the plain K_r, which is enc[r].
template <int G>
GPUCRYPTO_ALWAYS_INLINE void encrypt_rows(const SimdRoundKeys& ks, Y (&s)[G][4]) {
  Y k[4];
  bcast(ks.enc[0], k);
  for (int g = 0; g < G; ++g)
    for (int i = 0; i < 4; ++i) s[g][i] = _mm256_xor_si256(s[g][i], k[i]);
  for (int r = 1; r <= kRounds; ++r) {
    bcast(ks.dec[r], k);
    for (int g = 0; g < G; ++g) {
      sbox_key(s[g], k);
      s[g][1] = _mm256_rol_epi32(s[g][1], 1);
      s[g][2] = _mm256_rol_epi32(s[g][2], 12);
      s[g][3] = _mm256_rol_epi32(s[g][3], 13);
    }
  }
}

template <int G>
GPUCRYPTO_ALWAYS_INLINE void decrypt_rows(const SimdRoundKeys& ks, Y (&s)[G][4]) {
  Y k[4];
  bcast(ks.enc[kRounds], k);
  for (int g = 0; g < G; ++g)
    for (int i = 0; i < 4; ++i) s[g][i] = _mm256_xor_si256(s[g][i], k[i]);
  for (int r = kRounds; r >= 1; --r) {
    bcast(ks.enc[r - 1], k);
    for (int g = 0; g < G; ++g) {
      s[g][1] = _mm256_rol_epi32(s[g][1], 15);
      s[g][2] = _mm256_rol_epi32(s[g][2], 4);
      s[g][3] = _mm256_rol_epi32(s[g][3], 3);
      inv_sbox_key(s[g], k);
    }
  }
}

// --- layout conversion: 8 blocks in a zmm <-> four duplicated-row ymm ------

struct alignas(64) ByteIdx {
  uint8_t b[64];
};

// Dword j of row i: row i of block j (bytes 8j + 2i, 8j + 2i + 1) as a host
// 16-bit word, twice. `swap`: the block bytes are big-endian rows (data);
// otherwise they are a little-endian uint64 counter, whose word 3 - i is
// row i.
constexpr ByteIdx make_row_idx(int i, bool swap) {
  ByteIdx x{};
  for (int j = 0; j < 8; ++j) {
    const int lo = swap ? 8 * j + 2 * i + 1 : 8 * j + 2 * (3 - i);
    const int hi = swap ? 8 * j + 2 * i : lo + 1;
    x.b[4 * j] = x.b[4 * j + 2] = uint8_t(lo);
    x.b[4 * j + 1] = x.b[4 * j + 3] = uint8_t(hi);
  }
  return x;
}

// From (rows 0 | rows 1) and (rows 2 | rows 3) back to big-endian blocks.
constexpr ByteIdx make_store_idx() {
  ByteIdx x{};
  for (int j = 0; j < 8; ++j) {
    for (int i = 0; i < 4; ++i) {
      x.b[8 * j + 2 * i] = uint8_t(32 * i + 4 * j + 1);
      x.b[8 * j + 2 * i + 1] = uint8_t(32 * i + 4 * j);
    }
  }
  return x;
}

constexpr ByteIdx kDataRows[4] = {make_row_idx(0, true), make_row_idx(1, true),
                                  make_row_idx(2, true), make_row_idx(3, true)};
constexpr ByteIdx kCounterRows[4] = {make_row_idx(0, false), make_row_idx(1, false),
                                     make_row_idx(2, false), make_row_idx(3, false)};
constexpr ByteIdx kStore = make_store_idx();

// The bytes of blocks 0 … n-1 (1 <= n <= 8).
GPUCRYPTO_ALWAYS_INLINE __mmask64 block_mask(size_t n) { return ~0ull >> (64 - 8 * n); }

// Rows from 8 blocks in two ymm (a two-source byte permute reads all 64
// bytes; GCC 12's zmm-to-ymm cast would trip -Wmaybe-uninitialized).
GPUCRYPTO_ALWAYS_INLINE void to_rows(Y lo, Y hi, const ByteIdx (&idx)[4], Y (&r)[4]) {
  for (int i = 0; i < 4; ++i) {
    const Y ix = _mm256_load_si256(reinterpret_cast<const Y*>(idx[i].b));
    r[i] = _mm256_permutex2var_epi8(lo, ix, hi);
  }
}

// The unmasked insert intrinsic passes an "undefined" source that trips the
// same warning; an all-ones zero-mask is the same instruction.
GPUCRYPTO_ALWAYS_INLINE __m512i from_rows(const Y (&r)[4]) {
  const __mmask8 all = 0xff;
  const __m512i z01 = _mm512_maskz_inserti64x4(all, _mm512_castsi256_si512(r[0]), r[1], 1);
  const __m512i z23 = _mm512_maskz_inserti64x4(all, _mm512_castsi256_si512(r[2]), r[3], 1);
  return _mm512_permutex2var_epi8(z01, _mm512_load_si512(kStore.b), z23);
}

// Blocks in group g of an n-block call.
GPUCRYPTO_ALWAYS_INLINE size_t group_blocks(size_t n, int g) {
  return n - kGroup * g < kGroup ? n - kGroup * g : kGroup;
}

template <int G, bool kEncrypt>
GPUCRYPTO_ALWAYS_INLINE void ecb_groups(const SimdRoundKeys& ks, const uint8_t* in, uint8_t* out,
                                        size_t n) {
  Y s[G][4];
  __mmask64 m[G];
  for (int g = 0; g < G; ++g) {
    m[g] = block_mask(group_blocks(n, g));
    const uint8_t* p = in + 8 * kGroup * g;
    to_rows(_mm256_maskz_loadu_epi8(__mmask32(m[g]), p),
            _mm256_maskz_loadu_epi8(__mmask32(m[g] >> 32), p + 32), kDataRows, s[g]);
  }
  if (kEncrypt) {
    encrypt_rows<G>(ks, s);
  } else {
    decrypt_rows<G>(ks, s);
  }
  for (int g = 0; g < G; ++g) _mm512_mask_storeu_epi8(out + 8 * kGroup * g, m[g], from_rows(s[g]));
}

// The counter blocks c, c + 1, … (mod 2^64) as 64-bit lanes, then rows; the
// keystream is XORed in registers and never stored.
template <int G>
GPUCRYPTO_ALWAYS_INLINE void ctr_groups(const SimdRoundKeys& ks, uint64_t c, const uint8_t* in,
                                        uint8_t* out, size_t n) {
  Y s[G][4];
  __mmask64 m[G];
  for (int g = 0; g < G; ++g) {
    m[g] = block_mask(group_blocks(n, g));
    const Y base = _mm256_set1_epi64x(int64_t(c + kGroup * g));
    to_rows(_mm256_add_epi64(base, _mm256_setr_epi64x(0, 1, 2, 3)),
            _mm256_add_epi64(base, _mm256_setr_epi64x(4, 5, 6, 7)), kCounterRows, s[g]);
  }
  encrypt_rows<G>(ks, s);
  for (int g = 0; g < G; ++g) {
    const __m512i d = _mm512_maskz_loadu_epi8(m[g], in + 8 * kGroup * g);
    _mm512_mask_storeu_epi8(out + 8 * kGroup * g, m[g], _mm512_xor_si512(from_rows(s[g]), d));
  }
}

// 1 <= nblocks <= kGroup. (Two interleaved groups for up to 16 blocks took
// 81 ns, more than one 16-block ymm group.)
template <bool kEncrypt>
GPUCRYPTO_ALWAYS_INLINE void ecb(const SimdRoundKeys& ks, const uint8_t* in, uint8_t* out,
                                 size_t nblocks) {
  ecb_groups<1, kEncrypt>(ks, in, out, nblocks);
}

GPUCRYPTO_ALWAYS_INLINE void ctr(const SimdRoundKeys& ks, uint64_t c, const uint8_t* in,
                                 uint8_t* out, size_t nblocks) {
  ctr_groups<1>(ks, c, in, out, nblocks);
}

}  // namespace dup
}  // namespace
}  // namespace gpucrypto::rectangle
