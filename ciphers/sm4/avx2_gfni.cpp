// SM4 with AVX2 + GFNI (VEX-encoded gf2p8affineqb on ymm): the S-box is one
// gf2p8affineqb and one gf2p8affineinvqb (constants in sbox_consts.h); the
// rest of the round is the shared AVX2 body (avx2_body.inc), 32 blocks per
// iteration.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ciphers/sm4/ref.h"
#include "ciphers/sm4/sbox_consts.h"
#include "platform/isa.h"

namespace gpucrypto::sm4_impl {
namespace {

GPUCRYPTO_ALWAYS_INLINE __m256i sbox(__m256i x) {
  const __m256i pre = _mm256_set1_epi64x(int64_t(kGfniPreMatrix));
  const __m256i post = _mm256_set1_epi64x(int64_t(kGfniPostMatrix));
  x = _mm256_gf2p8affine_epi64_epi8(x, pre, kGfniPreConst);
  return _mm256_gf2p8affineinv_epi64_epi8(x, post, kGfniPostConst);
}

#include "ciphers/sm4/avx2_body.inc"

}  // namespace

// The descriptor (ECB, CTR and the fused CBC/CFB decryption of avx2_body.inc).
constinit const CipherHw avx2_gfni::kHw = {"avx2-gfni", compiled_features(), kScheduleBytes, kBatch, gfni_setkey, encrypt, decrypt, ctr, nullptr, nullptr, nullptr, chained_dec<false>, chained_dec<true>};

void avx2_gfni::sbox_layer(const uint8_t* in, uint8_t* out, size_t n) { sbox_bytes(in, out, n); }

}  // namespace gpucrypto::sm4_impl
