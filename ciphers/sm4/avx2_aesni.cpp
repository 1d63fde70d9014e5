// SM4 with AVX2 + AES-NI, for CPUs without GFNI. SM4's S-box is affine-
// equivalent to AES's (both are inversions in GF(2^8) up to a field
// isomorphism), so
//   S(x) = post(Saes(pre(x)))
// with pre/post affine maps evaluated as two 16-entry vpshufb nibble lookups
// each (sbox_consts.h; an in-register permute with public tables, not a
// memory lookup). Saes comes from aesenclast with a zero round key; its
// ShiftRows is undone beforehand by a byte shuffle. Without VAES,
// aesenclast works on xmm, so the two 128-bit halves go through it
// separately. The rest of the round is the shared AVX2 body (avx2_body.inc),
// 32 blocks per iteration.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ciphers/sm4/ref.h"
#include "ciphers/sm4/sbox_consts.h"
#include "platform/isa.h"

namespace gpucrypto::sm4_impl {
namespace {

GPUCRYPTO_ALWAYS_INLINE __m256i table(const uint8_t t[16]) {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

// y = lo_table[y & 15] ^ hi_table[y >> 4], byte-wise.
GPUCRYPTO_ALWAYS_INLINE __m256i nibble_affine(__m256i y, __m256i lo_table,
                                                    __m256i hi_table) {
  const __m256i m = _mm256_set1_epi8(0x0f);
  const __m256i lo = _mm256_and_si256(y, m);
  const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(y, 4), m);
  return _mm256_xor_si256(_mm256_shuffle_epi8(lo_table, lo), _mm256_shuffle_epi8(hi_table, hi));
}

GPUCRYPTO_ALWAYS_INLINE __m256i sbox(__m256i x) {
  // aesenclast applies ShiftRows before SubBytes; pre-applying its inverse
  // leaves every byte in place.
  const __m256i inv_shift_rows = _mm256_setr_epi8(
      0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3,  //
      0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3);
  __m256i y = nibble_affine(x, table(kAesPreLo), table(kAesPreHi));
  y = _mm256_shuffle_epi8(y, inv_shift_rows);
  const __m128i zero = _mm_setzero_si128();
  const __m128i lo = _mm_aesenclast_si128(_mm256_castsi256_si128(y), zero);
  const __m128i hi = _mm_aesenclast_si128(_mm256_extracti128_si256(y, 1), zero);
  y = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
  return nibble_affine(y, table(kAesPostLo), table(kAesPostHi));
}

#include "ciphers/sm4/avx2_body.inc"

}  // namespace

// The descriptor (ECB, CTR and the fused CBC/CFB decryption of avx2_body.inc).
constinit const CipherHw avx2_aesni::kHw = {"avx2-aesni", compiled_features(), kScheduleBytes, kBatch, ref_setkey, encrypt, decrypt, ctr, nullptr, nullptr, nullptr, chained_dec<false>, chained_dec<true>};

void avx2_aesni::sbox_layer(const uint8_t* in, uint8_t* out, size_t n) { sbox_bytes(in, out, n); }

}  // namespace gpucrypto::sm4_impl
