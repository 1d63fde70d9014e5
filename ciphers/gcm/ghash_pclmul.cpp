// GHASH with PCLMULQDQ on xmm: four blocks per reduction (H^4 .. H^1 from
// the key's powers). Compiled with -mpclmul -mssse3 -msse4.1; reached only
// after a CPU check.
#include <immintrin.h>

#include <cstring>

#include "ciphers/gcm/internal.h"
#include "platform/isa.h"

namespace gpucrypto::gcm_impl {
namespace {

#include "ciphers/gcm/ghash_clmul.inc"

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

}  // namespace gpucrypto::gcm_impl
