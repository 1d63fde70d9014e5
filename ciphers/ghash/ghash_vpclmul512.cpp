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

// H^1 at key setup: what a one-block message needs (libssl sets a key per
// connection, `openssl speed` one per message, so whatever else it computed
// would be latency on every such message); extend512 adds the rest.
void init512(GhashKey* key, const uint8_t h[16]) {
  store_power(key, 1, twist(load_spec(h)));
  std::memset(key->pow[kGhashPowers], 0, 3 * 16);  // the zero rows after H^1
  std::memset(key->kara[kGhashPowers], 0, 3 * 16);
  key->npowers = 1;
}

// The power levels (ghash_power_level) in dependent steps of independent
// four-lane products, rows stored whole (the kernels load them as 512-bit
// rows: a wide load of a row written 16 bytes at a time would wait for those
// stores to commit instead of forwarding): H^2; H^3 and H^4; H^5 .. H^8 =
// (H^4 .. H^1) * H^4; H^9 .. H^16 times H^8; H^17 .. H^32 times H^16. Lane 0
// of a row holds its highest power.
void extend512(GhashKey* key, uint32_t want) {
  static_assert(kGhashPowers == 32);
  const uint32_t level = ghash_power_level(want);
  if (key->npowers >= level) return;
  const auto row = [key](uint32_t m) { return _mm512_loadu_si512(key->pow[kGhashPowers - m]); };
  __m512i p4_1;  // H^4, H^3, H^2, H^1
  if (key->npowers < 4) {
    const __m128i h1 = power(key, 1), h2 = gf_mul(h1, h1);
    const __m128i h3 = gf_mul(h2, h1), h4 = gf_mul(h2, h2);
    p4_1 = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set_m128i(h3, h4)), _mm256_set_m128i(h1, h2), 1);
    store_powers4(key, kGhashPowers - 4, p4_1);
  } else {
    p4_1 = row(4);
  }
  if (level > 4) {
    __m512i p8_5;
    if (key->npowers < 8) {
      p8_5 = mul_lanes(p4_1, bcast128(_mm512_castsi512_si128(p4_1)));
      store_powers4(key, kGhashPowers - 8, p8_5);
    } else {
      p8_5 = row(8);
    }
    if (level > 8) {
      __m512i p12_9, p16_13;
      if (key->npowers < 16) {
        const __m512i h8 = bcast128(_mm512_castsi512_si128(p8_5));
        p12_9 = mul_lanes(p4_1, h8);
        p16_13 = mul_lanes(p8_5, h8);
        store_powers4(key, kGhashPowers - 12, p12_9);
        store_powers4(key, kGhashPowers - 16, p16_13);
      } else {
        p12_9 = row(12);
        p16_13 = row(16);
      }
      if (level > 16) {
        const __m512i h16 = bcast128(_mm512_castsi512_si128(p16_13));
        store_powers4(key, kGhashPowers - 20, mul_lanes(p4_1, h16));
        store_powers4(key, kGhashPowers - 24, mul_lanes(p8_5, h16));
        store_powers4(key, kGhashPowers - 28, mul_lanes(p12_9, h16));
        store_powers4(key, kGhashPowers - 32, mul_lanes(p16_13, h16));
      }
    }
  }
  key->npowers = level;
}

// Runs of up to npowers blocks under one reduction (zmm), fewer than four
// blocks on xmm; a key with H^1 alone goes block by block.
void ghash(const GhashKey* key, uint8_t xi[16], const uint8_t* in, size_t nblocks) {
  __m128i x = load_spec(xi);
  const size_t cap = key->npowers;
  while (nblocks != 0) {
    const size_t m = nblocks < cap ? nblocks : cap;
    x = m < 4 ? ghash_few(key, x, in, m) : ghash_run(key, x, in, m);
    in += 16 * m;
    nblocks -= m;
  }
  store_spec(xi, x);
}

}  // namespace

constinit const GhashHw kGhashVpclmul512 = {"vpclmul512", compiled_features(), init512,
                                            extend512,          ghash,               clmul_mul};

}  // namespace gpucrypto::ghash_impl
