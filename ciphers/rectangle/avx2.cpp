// AVX2 vector-sliced RECTANGLE: a ymm register holds one state row of 16
// blocks in its 16-bit lanes; SubColumn is an 11-operation and/andnot/or/xor
// circuit over four registers and ShiftRow a pair of 16-bit shifts and an OR
// per row. vpshufb and dword/qword unpacks convert between the big-endian
// byte blocks and host-order rows. Three 16-block groups are interleaved to
// hide the round's latency, at the price of a few spills (16 ymm registers).
// A call (or the rest after whole batches) of fewer than 48 blocks runs just
// enough groups with masked loads and stores (ymm_groups.inc).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ciphers/rectangle/simd.h"
#include "platform/isa.h"

namespace gpucrypto::rectangle {
namespace {

constexpr size_t kGroupBlocks = 16;  // blocks per row register
constexpr int kGroups = 3;           // groups interleaved in the main loop
constexpr bool kFoldComplements = true;  // see simd_modes.inc
using V = __m256i;

GPUCRYPTO_ALWAYS_INLINE __m256i bcast(uint32_t k) { return _mm256_set1_epi32(int(k)); }
GPUCRYPTO_ALWAYS_INLINE __m256i x_or(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
GPUCRYPTO_ALWAYS_INLINE __m256i andn(__m256i a, __m256i b) { return _mm256_andnot_si256(a, b); }  // ~a & b

// (x <<< K) ^ k on 16-bit lanes.
template <int K>
GPUCRYPTO_ALWAYS_INLINE __m256i rotl_xor(__m256i x, __m256i k) {
  return x_or(_mm256_or_si256(_mm256_slli_epi16(x, K), _mm256_srli_epi16(x, 16 - K)), k);
}

// S = 6 5 C A 1 E 7 9 B 0 3 D 8 F 4 2 on every column (a0 = row 0 = least
// significant nibble bit): the designers' 12-operation circuit with its NOT
// pushed into and-not and the outputs; returns b0, ~b1, ~b2, b3.
GPUCRYPTO_ALWAYS_INLINE void sbox(__m256i (&a)[4]) {
  const __m256i t3 = x_or(a[2], a[3]);
  const __m256i b0 = x_or(andn(a[1], a[0]), t3);
  const __m256i u = x_or(a[0], andn(a[3], a[1]));  // ~t6 = a0 ^ (a1 & ~a3)
  const __m256i nb1 = x_or(a[2], u);
  const __m256i t8 = x_or(a[1], a[2]);
  const __m256i b3 = x_or(t8, andn(u, t3));
  const __m256i nb2 = x_or(u, _mm256_or_si256(b0, t8));
  a[0] = b0;
  a[1] = nb1;
  a[2] = nb2;
  a[3] = b3;
}

// S^-1 = 9 4 F A E 1 0 6 C 7 3 8 2 B 5 D, 11 operations (exhaustive search);
// returns ~b0, b1, b2, ~b3.
GPUCRYPTO_ALWAYS_INLINE void inv_sbox(__m256i (&a)[4]) {
  const __m256i t4 = x_or(a[1], andn(a[0], a[3]));
  const __m256i t5 = x_or(a[3], _mm256_and_si256(a[0], a[2]));
  const __m256i y = x_or(a[2], t4);
  const __m256i b1 = x_or(y, t5);
  const __m256i b2 = x_or(y, a[0]);
  const __m256i nb0 = x_or(t4, andn(t5, b2));
  const __m256i nb3 = x_or(t5, andn(b1, nb0));
  a[0] = nb0;
  a[1] = b1;
  a[2] = b2;
  a[3] = nb3;
}

template <int G>
GPUCRYPTO_ALWAYS_INLINE void encrypt_rows(const SimdRoundKeys* ks, __m256i (&s)[G][4]) {
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) s[g][i] = x_or(s[g][i], bcast(ks->enc[0][i]));
  }
  for (int r = 1; r <= kRounds; ++r) {
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      sbox(s[g]);
      s[g][0] = x_or(s[g][0], bcast(ks->enc[r][0]));
      s[g][1] = rotl_xor<1>(s[g][1], bcast(ks->enc[r][1]));
      s[g][2] = rotl_xor<12>(s[g][2], bcast(ks->enc[r][2]));
      s[g][3] = rotl_xor<13>(s[g][3], bcast(ks->enc[r][3]));
    }
  }
}

template <int G>
GPUCRYPTO_ALWAYS_INLINE void decrypt_rows(const SimdRoundKeys* ks, __m256i (&s)[G][4]) {
  // Inverse ShiftRow rotates right by 1, 12, 13, i.e. left by 15, 4, 3.
  for (int r = kRounds; r >= 1; --r) {
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      s[g][0] = x_or(s[g][0], bcast(ks->dec[r][0]));
      s[g][1] = rotl_xor<15>(s[g][1], bcast(ks->dec[r][1]));
      s[g][2] = rotl_xor<4>(s[g][2], bcast(ks->dec[r][2]));
      s[g][3] = rotl_xor<3>(s[g][3], bcast(ks->dec[r][3]));
      inv_sbox(s[g]);
    }
  }
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) s[g][i] = x_or(s[g][i], bcast(ks->dec[0][i]));
  }
}

#include "ciphers/rectangle/ymm_groups.inc"

// --- whole batches: unmasked ---------------------------------------------------

GPUCRYPTO_ALWAYS_INLINE void bytes_to_rows(const uint8_t* in, __m256i (&r)[4]) {
  __m256i x[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) x[i] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * i));
  blocks_to_rows(x, r);
}

GPUCRYPTO_ALWAYS_INLINE void rows_to_bytes(const __m256i (&r)[4], uint8_t* out) {
  __m256i x[4];
  rows_to_blocks(r, x);
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * i), x[i]);
}

GPUCRYPTO_ALWAYS_INLINE void rows_to_bytes_xor(const __m256i (&r)[4], const uint8_t* in, uint8_t* out) {
  __m256i x[4];
  rows_to_blocks(r, x);
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * i), x_or(x[i], d));
  }
}

// --- below a whole batch: 1, 2 or 3 masked groups (ymm_groups.inc) ---------
namespace small {

template <bool kEncrypt>
GPUCRYPTO_ALWAYS_INLINE void ecb(const SimdRoundKeys& ks, const uint8_t* in, uint8_t* out,
                                 size_t nblocks) {
  ymm::ecb<kGroups, kEncrypt>(ks, in, out, nblocks);
}

GPUCRYPTO_ALWAYS_INLINE void ctr(const SimdRoundKeys& ks, uint64_t c, const uint8_t* in,
                                 uint8_t* out, size_t nblocks) {
  ymm::ctr<kGroups>(ks, c, in, out, nblocks);
}

}  // namespace small

// --- CTR (the wrap check and its fallback: simd_modes.inc) -----------------

// The block index of each 16-bit lane after bytes_to_rows.
GPUCRYPTO_ALWAYS_INLINE V lane_blocks() {
  return _mm256_setr_epi16(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
}
GPUCRYPTO_ALWAYS_INLINE V bcast16(uint64_t x) { return _mm256_set1_epi16(short(x)); }
GPUCRYPTO_ALWAYS_INLINE V add16(V a, V b) { return _mm256_add_epi16(a, b); }

#include "ciphers/rectangle/simd_modes.inc"

}  // namespace

constinit const CipherHw avx2::kHw = simd_hw("avx2");

}  // namespace gpucrypto::rectangle
