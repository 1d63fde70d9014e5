// GHASH with VPCLMULQDQ on zmm (four blocks per register, 32 blocks per
// reduction with H^32 .. H^1; the pieces in ghash_clmul512.inc, which the
// fused AES-GCM kernel of ciphers/rijndael/gcm_vaes512.cpp shares).
// Compiled with -mavx512f -mavx512bw -mavx512vl -mvpclmulqdq -mvaes -maes
// -mpclmul (the flags, and so the requirements, it had when it also held the
// fused kernel); reached only after a CPU check.

// GCC 12's AVX-512 headers self-initialise an "undefined" vector in
// _mm512_extracti64x4_epi64 (__Y = __Y), which -Wmaybe-uninitialized
// reports once inlined; the value is never used. Must precede the include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "ciphers/ghash/internal.h"
#include "platform/isa.h"

namespace gpucrypto::ghash_impl {
namespace {

#include "ciphers/ghash/ghash_clmul.inc"
#include "ciphers/ghash/ghash_clmul512.inc"

// reduce3 on each 128-bit lane (four independent products).
GPUCRYPTO_ALWAYS_INLINE __m512i reduce_lanes(const Acc512& a) {
  const __m512i poly = bcast128(gf_poly());
  const __m512i mid = _mm512_ternarylogic_epi64(a.mid, _mm512_shuffle_epi32(a.lo, _MM_PERM_BADC),
                                                _mm512_clmulepi64_epi128(a.lo, poly, 0x10), 0x96);
  return _mm512_ternarylogic_epi64(a.hi, _mm512_shuffle_epi32(mid, _MM_PERM_BADC),
                                   _mm512_clmulepi64_epi128(mid, poly, 0x10), 0x96);
}

// Four products at once, reduced per lane: r[l] = x[l] * y[l].
GPUCRYPTO_ALWAYS_INLINE __m512i mul_lanes(__m512i x, __m512i y) {
  Acc512 a = acc_zero();
  clmul_acc512(a, x, y);
  return reduce_lanes(a);
}

// Stores four consecutive powers (the highest in lane 0) from table row `row`.
GPUCRYPTO_ALWAYS_INLINE void store_powers4(GhashKey* key, size_t row, __m512i p) {
  _mm512_storeu_si512(key->pow[row], p);
  _mm512_storeu_si512(key->kara[row], _mm512_xor_si512(p, _mm512_shuffle_epi32(p, _MM_PERM_BADC)));
}

// H^1 .. H^8 in three dependent steps (H^2; H^3 and H^4; H^5 .. H^8 as one
// four-lane product), stored as 512-bit rows, which extend512 and the
// kernels load whole (a 512-bit load of rows written 16 bytes at a time
// cannot be forwarded from the store buffer). Per key: libssl sets one per
// connection, `openssl speed` one per message.
void init512(GhashKey* key, const uint8_t h[16]) {
  static_assert(kGhashFewPowers == 8);
  const __m128i h1 = twist(load_spec(h));
  const __m128i h2 = gf_mul(h1, h1);
  const __m128i h3 = gf_mul(h2, h1), h4 = gf_mul(h2, h2);
  // Lane 0 the highest power (store_powers4).
  const __m512i p4_1 = _mm512_inserti64x4(
      _mm512_castsi256_si512(_mm256_set_m128i(h3, h4)), _mm256_set_m128i(h1, h2), 1);
  store_powers4(key, kGhashPowers - 4, p4_1);
  store_powers4(key, kGhashPowers - 8, mul_lanes(p4_1, bcast128(h4)));
  std::memset(key->pow[kGhashPowers], 0, 3 * 16);  // the zero rows after H^1
  std::memset(key->kara[kGhashPowers], 0, 3 * 16);
  key->npowers = kGhashFewPowers;
}

// H^9 .. H^32 from H^1 .. H^8 in two dependent steps of independent
// products (libssl and `openssl speed` set a key per connection or message,
// so the latency of this chain is paid per key): times H^8, then times H^16.
void extend512(GhashKey* key) {
  static_assert(kGhashPowers == 32 && kGhashFewPowers == 8);
  const __m512i p8_5 = _mm512_loadu_si512(key->pow[kGhashPowers - 8]);  // H^8, H^7, H^6, H^5
  const __m512i p4_1 = _mm512_loadu_si512(key->pow[kGhashPowers - 4]);  // H^4 .. H^1
  const __m512i h8 = bcast128(power(key, 8));
  const __m512i p12_9 = mul_lanes(p4_1, h8), p16_13 = mul_lanes(p8_5, h8);
  const __m512i h16 = bcast128(_mm512_castsi512_si128(p16_13));
  store_powers4(key, kGhashPowers - 12, p12_9);
  store_powers4(key, kGhashPowers - 16, p16_13);
  store_powers4(key, kGhashPowers - 20, mul_lanes(p4_1, h16));
  store_powers4(key, kGhashPowers - 24, mul_lanes(p8_5, h16));
  store_powers4(key, kGhashPowers - 28, mul_lanes(p12_9, h16));
  store_powers4(key, kGhashPowers - 32, mul_lanes(p16_13, h16));
  key->npowers = kGhashPowers;
}

void ghash(const GhashKey* key, uint8_t xi[16], const uint8_t* in, size_t nblocks) {
  __m128i x = load_spec(xi);
  // A few blocks, or a key without the high powers: the xmm path.
  if (nblocks < 4 || key->npowers < kGhashPowers) {
    for (; nblocks >= 4; nblocks -= 4, in += 64) x = ghash_few(key, x, in, 4);
    if (nblocks != 0) x = ghash_few(key, x, in, nblocks);
    store_spec(xi, x);
    return;
  }
  for (; nblocks >= kBatch; nblocks -= kBatch, in += 16 * kBatch) x = ghash_run(key, x, in, kBatch);
  if (nblocks != 0) x = ghash_run(key, x, in, nblocks);
  store_spec(xi, x);
}

}  // namespace

constinit const GhashHw kGhashVpclmul512 = {"vpclmul512", compiled_features(), init512,
                                            extend512,          ghash,               clmul_mul};

}  // namespace gpucrypto::ghash_impl
