// GHASH with PCLMULQDQ on xmm: four blocks per reduction (H^4 .. H^1 from
// the key's powers). Compiled with -mpclmul -mssse3 -msse4.1; reached only
// after a CPU check.
#include <immintrin.h>

#include <cstring>

#include "ciphers/ghash/internal.h"
#include "platform/isa.h"

namespace gpucrypto::ghash_impl {
namespace {

#include "ciphers/ghash/ghash_clmul.inc"

// H^1 .. H^8 at key setup (clmul_extend adds H^9 .. H^32 when needed).
void clmul_init(GhashKey* key, const uint8_t h[16]) {
  __m128i p[kGhashFewPowers + 1];
  p[1] = twist(load_spec(h));
  p[2] = gf_mul(p[1], p[1]);
  p[3] = gf_mul(p[2], p[1]);
  p[4] = gf_mul(p[2], p[2]);
  p[5] = gf_mul(p[1], p[4]);
  p[6] = gf_mul(p[2], p[4]);
  p[7] = gf_mul(p[3], p[4]);
  p[8] = gf_mul(p[4], p[4]);
  for (size_t m = 1; m <= kGhashFewPowers; ++m) store_power(key, m, p[m]);
  std::memset(key->pow[kGhashPowers], 0, 3 * 16);
  std::memset(key->kara[kGhashPowers], 0, 3 * 16);
  key->npowers = kGhashFewPowers;
  OPENSSL_cleanse(p, sizeof p);
}

// H^9 .. H^32 in four independent chains H^(m+4) = H^m * H^4 (bound by
// multiply throughput, not latency).
void clmul_extend(GhashKey* key) {
  const __m128i h4 = power(key, 4);
  for (size_t m = kGhashFewPowers + 1; m <= kGhashPowers; m += 4) {
    for (size_t j = 0; j < 4; ++j) {
      _mm_store_si128(reinterpret_cast<__m128i*>(key->pow[kGhashPowers - m - j]),
                      gf_mul(power(key, m + j - 4), h4));
    }
  }
  key->npowers = kGhashPowers;
}

void ghash(const GhashKey* key, uint8_t xi[16], const uint8_t* in, size_t nblocks) {
  __m128i x = load_spec(xi);
  for (; nblocks >= 4; nblocks -= 4, in += 64) x = ghash_few(key, x, in, 4);
  if (nblocks != 0) x = ghash_few(key, x, in, nblocks);
  store_spec(xi, x);
}

}  // namespace

constinit const GhashHw kGhashPclmul = {"pclmul", compiled_features(), clmul_init, clmul_extend, ghash, clmul_mul};

}  // namespace gpucrypto::ghash_impl
