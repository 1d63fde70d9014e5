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

// H^1 at key setup (clmul_extend adds the others when a run needs them).
void clmul_init(GhashKey* key, const uint8_t h[16]) {
  store_power(key, 1, twist(load_spec(h)));
  std::memset(key->pow[kGhashPowers], 0, 3 * 16);
  std::memset(key->kara[kGhashPowers], 0, 3 * 16);
  key->npowers = 1;
}

// H^2 .. H^4 from H, then H^(m+4) = H^m * H^4 in four independent chains
// (bound by multiply throughput, not latency).
void clmul_extend(GhashKey* key, uint32_t want) {
  const uint32_t level = ghash_power_level(want);
  if (key->npowers >= level) return;
  if (key->npowers < 4) {
    const __m128i h1 = power(key, 1), h2 = gf_mul(h1, h1);
    store_power(key, 2, h2);
    store_power(key, 3, gf_mul(h2, h1));
    store_power(key, 4, gf_mul(h2, h2));
  }
  const __m128i h4 = power(key, 4);
  for (size_t m = key->npowers < 4 ? 5 : key->npowers + 1; m <= level; ++m)
    store_power(key, m, gf_mul(power(key, m - 4), h4));
  key->npowers = level;
}

void ghash(const GhashKey* key, uint8_t xi[16], const uint8_t* in, size_t nblocks) {
  __m128i x = load_spec(xi);
  const size_t step = key->npowers < 4 ? 1 : 4;  // a key with H^1 alone: block by block
  for (; nblocks >= step; nblocks -= step, in += 16 * step) x = ghash_few(key, x, in, step);
  if (nblocks != 0) x = ghash_few(key, x, in, nblocks);
  store_spec(xi, x);
}

}  // namespace

constinit const GhashHw kGhashPclmul = {"pclmul", compiled_features(), clmul_init, clmul_extend, ghash, clmul_mul};

}  // namespace gpucrypto::ghash_impl
