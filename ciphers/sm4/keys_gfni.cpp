// SM4 key schedule (GB/T 32907 §7.3) with the GFNI S-box: the GFNI
// implementations' CipherHw::setkey. The reference schedule computes its
// constant-time S-box by field inversion in software (~4 us per key, 7x the
// default provider's table-based schedule), which every EVP_CipherInit with a
// key pays: a TLS connection, a DRBG that re-keys, `openssl speed` per run.
// Writes the same Schedule (enc and dec) as ref_setkey; the S-box maps are
// sbox_consts.h's. Compiled with -mgfni -msse4.1; reached only after a CPU check.
#include <immintrin.h>

#include <openssl/crypto.h>

#include "ciphers/sm4/ref.h"
#include "ciphers/sm4/sbox_consts.h"
#include "platform/isa.h"

namespace gpucrypto::sm4_impl {
namespace {

GPUCRYPTO_ALWAYS_INLINE uint32_t sbox4(uint32_t t) {
  __m128i x = _mm_cvtsi32_si128(int(t));
  x = _mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x(int64_t(kGfniPreMatrix)), kGfniPreConst);
  x = _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x(int64_t(kGfniPostMatrix)), kGfniPostConst);
  return uint32_t(_mm_cvtsi128_si32(x));
}

GPUCRYPTO_ALWAYS_INLINE uint32_t rotl(uint32_t x, int n) { return x << n | x >> (32 - n); }

}  // namespace

void gfni_setkey(void* ks, const uint8_t* key, size_t /*keylen: 16*/, bool /*with_decrypt*/) {
  static constexpr uint32_t kFK[4] = {0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc};
  auto* s = static_cast<Schedule*>(ks);
  uint32_t k[4];
  for (int j = 0; j < 4; ++j) {
    k[j] = (uint32_t(key[4 * j]) << 24 | uint32_t(key[4 * j + 1]) << 16 | uint32_t(key[4 * j + 2]) << 8 |
            key[4 * j + 3]) ^
           kFK[j];
  }
  for (int i = 0; i < 32; ++i) {
    uint32_t ck = 0;  // CK_i bytes: (4i + j) * 7 mod 256, most significant first
    for (int j = 0; j < 4; ++j) ck = ck << 8 | ((4 * i + j) * 7 & 0xff);
    const uint32_t b = sbox4(k[1] ^ k[2] ^ k[3] ^ ck);
    const uint32_t rk = k[0] ^ b ^ rotl(b, 13) ^ rotl(b, 23);
    k[0] = k[1], k[1] = k[2], k[2] = k[3], k[3] = rk;
    s->enc[i] = rk;
  }
  for (int i = 0; i < 32; ++i) s->dec[i] = s->enc[31 - i];
  OPENSSL_cleanse(k, sizeof k);
}

constinit const uint32_t kGfniSetkeyRequired = compiled_features();

}  // namespace gpucrypto::sm4_impl
