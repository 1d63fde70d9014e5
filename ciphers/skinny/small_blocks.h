// SKINNY-128 for a few blocks (the small-call path of avx2.cpp and
// avx512.cpp): the reference's byte-sliced round with the whole block in one
// xmm register. The rows are the register's 32-bit lanes (little-endian, byte
// k = column k, so the 16 input bytes load as they are); the 8-bit S-box
// circuit runs on all 16 cells at once with 64-bit lane shifts and masks,
// ShiftRows is one byte shuffle, MixColumns three lane shuffles and XORs.
// Table-free, no data-dependent branch or index. Two blocks are interleaved
// so their dependency chains overlap. A bit-sliced batch costs the same for
// 1 … kBatch blocks; this path is faster for the first few, so the hooks use
// it below kSmallBlocks (docs/ARCHITECTURE.md, "an instruction-set path").
// ISA files only (platform/isa.h: anonymous namespace, one copy per file).
#pragma once
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "ciphers/skinny/ref.h"
#include "platform/isa.h"

namespace gpucrypto::skinny_impl {
namespace {
namespace small {

using X = __m128i;

GPUCRYPTO_ALWAYS_INLINE X bytes_mask(uint8_t b) { return _mm_set1_epi8(char(b)); }

// x4 ^= ~(x7 | x6), x0 ^= ~(x3 | x2) in every byte (as ref.cpp's nor_xor).
GPUCRYPTO_ALWAYS_INLINE X nor_xor(X x) {
  const X o = _mm_or_si128(_mm_srli_epi64(x, 3), _mm_srli_epi64(x, 2));
  return _mm_xor_si128(x, _mm_andnot_si128(o, bytes_mask(0x11)));
}
// New bit i = old bit {5,3,0,4,6,7,1,2}[i], and its inverse.
GPUCRYPTO_ALWAYS_INLINE X perm(X x) {
  const X a = _mm_and_si128(_mm_srli_epi64(x, 5), bytes_mask(0x01));
  const X b = _mm_and_si128(_mm_srli_epi64(x, 2), bytes_mask(0x32));
  const X c = _mm_and_si128(_mm_slli_epi64(x, 2), bytes_mask(0x04));
  const X d = _mm_and_si128(_mm_srli_epi64(x, 1), bytes_mask(0x08));
  const X e = _mm_and_si128(_mm_slli_epi64(x, 5), bytes_mask(0xc0));
  return _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(_mm_or_si128(c, d), e));
}
GPUCRYPTO_ALWAYS_INLINE X perm_inv(X x) {
  const X a = _mm_and_si128(_mm_slli_epi64(x, 5), bytes_mask(0x20));
  const X b = _mm_and_si128(_mm_slli_epi64(x, 2), bytes_mask(0xc8));
  const X c = _mm_and_si128(_mm_srli_epi64(x, 2), bytes_mask(0x01));
  const X d = _mm_and_si128(_mm_slli_epi64(x, 1), bytes_mask(0x10));
  const X e = _mm_and_si128(_mm_srli_epi64(x, 5), bytes_mask(0x06));
  return _mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(_mm_or_si128(c, d), e));
}
GPUCRYPTO_ALWAYS_INLINE X swap12(X x) {
  const X keep = _mm_and_si128(x, bytes_mask(0xf9));
  const X b1 = _mm_and_si128(_mm_srli_epi64(x, 1), bytes_mask(0x02));
  const X b2 = _mm_and_si128(_mm_slli_epi64(x, 1), bytes_mask(0x04));
  return _mm_or_si128(keep, _mm_or_si128(b1, b2));
}
GPUCRYPTO_ALWAYS_INLINE X sbox(X x) {
  x = perm(nor_xor(x));
  x = perm(nor_xor(x));
  x = perm(nor_xor(x));
  return swap12(nor_xor(x));
}
GPUCRYPTO_ALWAYS_INLINE X sbox_inv(X x) {
  x = nor_xor(swap12(x));
  x = nor_xor(perm_inv(x));
  x = nor_xor(perm_inv(x));
  return nor_xor(perm_inv(x));
}

// Round r's tweakey on rows 0 and 1 (the schedule's byte form) and the
// constant c2 = 0x02 on cell 8 (row 2, column 0).
GPUCRYPTO_ALWAYS_INLINE X round_key(const Schedule& ks, uint32_t r) {
  return _mm_xor_si128(_mm_loadl_epi64(reinterpret_cast<const X*>(ks.rtk[r])),
                       _mm_setr_epi32(0, 0, 2, 0));
}

// ShiftRows: row i rotated left by 8i bits (right by i cells), and back.
GPUCRYPTO_ALWAYS_INLINE X shift_rows(X x) {
  return _mm_shuffle_epi8(x, _mm_setr_epi8(0, 1, 2, 3, 7, 4, 5, 6, 10, 11, 8, 9, 13, 14, 15, 12));
}
GPUCRYPTO_ALWAYS_INLINE X shift_rows_inv(X x) {
  return _mm_shuffle_epi8(x, _mm_setr_epi8(0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14));
}

// Rows (a, b, c, d) -> (a^c^d, a, b^c, a^c), and the inverse
// (r0, r1, r2, r3) -> (r1, r1^r2^r3, r1^r3, r0^r3).
GPUCRYPTO_ALWAYS_INLINE X mix_columns(X y) {
  const X p = _mm_shuffle_epi32(y, _MM_SHUFFLE(0, 1, 0, 0));
  const X q = _mm_and_si128(_mm_shuffle_epi32(y, _MM_SHUFFLE(2, 2, 2, 2)), _mm_setr_epi32(-1, 0, -1, -1));
  const X w = _mm_srli_si128(y, 12);
  return _mm_xor_si128(_mm_xor_si128(p, q), w);
}
GPUCRYPTO_ALWAYS_INLINE X mix_columns_inv(X y) {
  const X s1 = _mm_shuffle_epi32(y, _MM_SHUFFLE(0, 3, 2, 1));
  const X s2 = _mm_and_si128(_mm_shuffle_epi32(y, _MM_SHUFFLE(3, 1, 3, 3)), _mm_setr_epi32(0, -1, -1, -1));
  const X s3 = _mm_and_si128(y, _mm_setr_epi32(0, -1, 0, 0));
  return _mm_xor_si128(_mm_xor_si128(s1, s2), s3);
}

template <int K>
GPUCRYPTO_ALWAYS_INLINE void encrypt_k(const Schedule& ks, X (&x)[K]) {
  for (uint32_t r = 0; r < ks.rounds; ++r) {
    const X rk = round_key(ks, r);
    for (int j = 0; j < K; ++j) x[j] = mix_columns(shift_rows(_mm_xor_si128(sbox(x[j]), rk)));
  }
}
template <int K>
GPUCRYPTO_ALWAYS_INLINE void decrypt_k(const Schedule& ks, X (&x)[K]) {
  for (uint32_t r = ks.rounds; r-- > 0;) {
    const X rk = round_key(ks, r);
    for (int j = 0; j < K; ++j) x[j] = sbox_inv(_mm_xor_si128(shift_rows_inv(mix_columns_inv(x[j])), rk));
  }
}

// Below this many blocks the hooks take this path (measured: one or two
// blocks here cost less than a padded bit-sliced batch; from three on the
// batch is cheaper).
constexpr size_t kSmallBlocks = 3;

template <bool kEncrypt>
GPUCRYPTO_ALWAYS_INLINE void ecb(const Schedule& ks, const uint8_t* in, uint8_t* out,
                                       size_t nblocks) {
  for (; nblocks >= 2; nblocks -= 2, in += 32, out += 32) {
    X x[2] = {_mm_loadu_si128(reinterpret_cast<const X*>(in)),
              _mm_loadu_si128(reinterpret_cast<const X*>(in + 16))};
    kEncrypt ? encrypt_k<2>(ks, x) : decrypt_k<2>(ks, x);
    _mm_storeu_si128(reinterpret_cast<X*>(out), x[0]);
    _mm_storeu_si128(reinterpret_cast<X*>(out + 16), x[1]);
  }
  if (nblocks == 1) {
    X x[1] = {_mm_loadu_si128(reinterpret_cast<const X*>(in))};
    kEncrypt ? encrypt_k<1>(ks, x) : decrypt_k<1>(ks, x);
    _mm_storeu_si128(reinterpret_cast<X*>(out), x[0]);
  }
}

// CTR over a few blocks (two interleaved): the counter blocks are public,
// the keystream is XORed in registers and never stored.
GPUCRYPTO_ALWAYS_INLINE void ctr(const Schedule& ks, uint8_t* ctr, const uint8_t* in,
                                 uint8_t* out, size_t nblocks) {
  for (; nblocks >= 2; nblocks -= 2, in += 32, out += 32) {
    X x[2];
    x[0] = _mm_loadu_si128(reinterpret_cast<const X*>(ctr));
    ctr_add(ctr, 16, 1);
    x[1] = _mm_loadu_si128(reinterpret_cast<const X*>(ctr));
    ctr_add(ctr, 16, 1);
    encrypt_k<2>(ks, x);
    _mm_storeu_si128(reinterpret_cast<X*>(out),
                     _mm_xor_si128(x[0], _mm_loadu_si128(reinterpret_cast<const X*>(in))));
    _mm_storeu_si128(reinterpret_cast<X*>(out + 16),
                     _mm_xor_si128(x[1], _mm_loadu_si128(reinterpret_cast<const X*>(in + 16))));
  }
  if (nblocks == 1) {
    X x[1] = {_mm_loadu_si128(reinterpret_cast<const X*>(ctr))};
    ctr_add(ctr, 16, 1);
    encrypt_k<1>(ks, x);
    _mm_storeu_si128(reinterpret_cast<X*>(out),
                     _mm_xor_si128(x[0], _mm_loadu_si128(reinterpret_cast<const X*>(in))));
  }
}

}  // namespace small
}  // namespace
}  // namespace gpucrypto::skinny_impl
