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

// Four products at once, reduced per lane: r[l] = x[l] * y[l].
GPUCRYPTO_ALWAYS_INLINE __m512i mul_lanes(__m512i x, __m512i y) {
  Acc512 a = acc_zero();
  clmul_acc512(a, x, y);
  return reduce_lanes(a);
}

// The same with Karatsuba products, xk and yk the factors' Karatsuba rows
// (both halves XORed, in each half): three multiplies per product instead of
// four.
GPUCRYPTO_ALWAYS_INLINE __m512i kara_mul_lanes(__m512i x, __m512i xk, __m512i y, __m512i yk) {
  return reduce_kara_lanes({_mm512_clmulepi64_epi128(x, y, 0x00), _mm512_clmulepi64_epi128(xk, yk, 0x00),
                            _mm512_clmulepi64_epi128(x, y, 0x11)});
}

// t * t for a twisted t: the product's middle term t.lo*t.hi + t.hi*t.lo
// is zero, so two multiplies and the reduction.
GPUCRYPTO_ALWAYS_INLINE __m128i gf_square(__m128i t) {
  return reduce3(_mm_clmulepi64_si128(t, t, 0x00), _mm_setzero_si128(), _mm_clmulepi64_si128(t, t, 0x11));
}

// Lane 0 of v in all four lanes.
GPUCRYPTO_ALWAYS_INLINE __m512i lane0(__m512i v) { return _mm512_shuffle_i64x2(v, v, 0); }

// Stores four consecutive powers (the highest in lane 0) from table row
// `row`, and returns their Karatsuba row.
GPUCRYPTO_ALWAYS_INLINE __m512i store_powers4(GhashKey* key, size_t row, __m512i p) {
  const __m512i k = _mm512_xor_si512(p, _mm512_shuffle_epi32(p, _MM_PERM_BADC));
  _mm512_storeu_si512(key->pow[row], p);
  _mm512_storeu_si512(key->kara[row], k);
  return k;
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
// stores to commit instead of forwarding): H^2 (a square); H^4 and H^3 in one
// product; H^5 .. H^8 = (H^4 .. H^1) * H^4; H^9 .. H^16 times H^8; H^17 ..
// H^32 times H^16, those seven with Karatsuba products (the rows' Karatsuba
// factors are stored anyway, and a broadcast power's is its row's lane 0).
// Lane 0 of a row holds its highest power. 45 carry-less multiplies for all
// 32 powers, 60 with schoolbook products: the fused AES-GCM kernel is bound
// by that multiplier (ciphers/rijndael/gcm_vaes512.cpp), and `openssl speed`
// sets a key, so runs this, per message.
void extend512(GhashKey* key, uint32_t want) {
  static_assert(kGhashPowers == 32);
  const uint32_t level = ghash_power_level(want);
  if (key->npowers >= level) return;
  const auto row = [key](uint32_t m) { return _mm512_loadu_si512(key->pow[kGhashPowers - m]); };
  const auto kara = [key](uint32_t m) { return _mm512_loadu_si512(key->kara[kGhashPowers - m]); };
  __m512i p4_1, k4_1;  // H^4, H^3, H^2, H^1 and their Karatsuba row
  if (key->npowers < 4) {
    const __m128i h1 = power(key, 1), h2 = gf_square(h1);
    // h2 * (h2, h1) in lanes 0-1; lanes 2-3 keep (h2, h1).
    const __m512i lo2 = _mm512_broadcast_i64x4(_mm256_set_m128i(h1, h2));
    p4_1 = _mm512_mask_blend_epi64(0xf0, mul_lanes(bcast128(h2), lo2), lo2);
    k4_1 = store_powers4(key, kGhashPowers - 4, p4_1);
  } else {
    p4_1 = row(4);
    k4_1 = kara(4);
  }
  if (level > 4) {
    __m512i p8_5, k8_5;
    if (key->npowers < 8) {
      p8_5 = kara_mul_lanes(p4_1, k4_1, lane0(p4_1), lane0(k4_1));
      k8_5 = store_powers4(key, kGhashPowers - 8, p8_5);
    } else {
      p8_5 = row(8);
      k8_5 = kara(8);
    }
    if (level > 8) {
      __m512i p12_9, k12_9, p16_13, k16_13;
      if (key->npowers < 16) {
        const __m512i h8 = lane0(p8_5), h8k = lane0(k8_5);
        p12_9 = kara_mul_lanes(p4_1, k4_1, h8, h8k);
        p16_13 = kara_mul_lanes(p8_5, k8_5, h8, h8k);
        k12_9 = store_powers4(key, kGhashPowers - 12, p12_9);
        k16_13 = store_powers4(key, kGhashPowers - 16, p16_13);
      } else {
        p12_9 = row(12);
        k12_9 = kara(12);
        p16_13 = row(16);
        k16_13 = kara(16);
      }
      if (level > 16) {
        const __m512i h16 = lane0(p16_13), h16k = lane0(k16_13);
        store_powers4(key, kGhashPowers - 20, kara_mul_lanes(p4_1, k4_1, h16, h16k));
        store_powers4(key, kGhashPowers - 24, kara_mul_lanes(p8_5, k8_5, h16, h16k));
        store_powers4(key, kGhashPowers - 28, kara_mul_lanes(p12_9, k12_9, h16, h16k));
        store_powers4(key, kGhashPowers - 32, kara_mul_lanes(p16_13, k16_13, h16, h16k));
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
