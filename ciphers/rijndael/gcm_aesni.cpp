// AES's GCM key setup on AES-NI: the GcmHw (block_cipher.h) of the AES-NI
// and VAES implementations. The encryption key expansion (FIPS 197 §5.2)
// with AESKEYGENASSIST, E_K(0^128) (GCM's H) and E_K(J0) computed in the same
// pass: GCM needs no decryption keys, and libssl and `openssl speed` set a
// key per connection or per message, where the block cipher's setkey (both
// directions) and two more encrypt calls would cost a second pass. Writes the
// same enc rows into the shared KeySched. Compiled with -maes -mssse3
// -msse4.1; reached only after a CPU check.
#include <immintrin.h>
#include <openssl/crypto.h>

#include <cstring>

#include "ciphers/rijndael/internal.h"
#include "platform/isa.h"

namespace gpucrypto::rijndael_impl {
namespace {

#include "ciphers/rijndael/aes_key_steps.inc"

void store_row(KeySched* ks, unsigned r, __m128i k) {
  _mm_store_si128(reinterpret_cast<__m128i*>(ks->enc[r]), k);
}

// One block through the stored enc rows 0..nr (nr is public).
GPUCRYPTO_ALWAYS_INLINE __m128i encrypt_rows(const KeySched* ks, unsigned nr, __m128i x) {
  const auto row = [&](unsigned r) { return _mm_load_si128(reinterpret_cast<const __m128i*>(ks->enc[r])); };
  x = _mm_xor_si128(x, row(0));
  for (unsigned r = 1; r < nr; ++r) x = _mm_aesenc_si128(x, row(r));
  return _mm_aesenclast_si128(x, row(nr));
}

// Each expansion also runs two blocks, E_K(0^128) (GCM's H) and E_K(J0)
// (the tag mask of the message whose IV came with the key, or of a zero
// block), a round behind the rows it produces: the AES rounds hide in the
// latency of the expansion chain instead of a second pass over the stored
// schedule. Both start as block ^ row 0.
struct Two {
  __m128i h, j;
};

GPUCRYPTO_ALWAYS_INLINE Two round_row(KeySched* ks, unsigned r, __m128i k, Two e) {
  store_row(ks, r, k);
  return {_mm_aesenc_si128(e.h, k), _mm_aesenc_si128(e.j, k)};
}

GPUCRYPTO_ALWAYS_INLINE Two last_row(KeySched* ks, unsigned r, __m128i k, Two e) {
  store_row(ks, r, k);
  return {_mm_aesenclast_si128(e.h, k), _mm_aesenclast_si128(e.j, k)};
}

GPUCRYPTO_ALWAYS_INLINE Two first_row(KeySched* ks, __m128i k, __m128i j) {
  store_row(ks, 0, k);
  return {k, _mm_xor_si128(j, k)};
}

Two expand128(KeySched* ks, const uint8_t* key, __m128i j) {
  __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
  Two e = first_row(ks, k, j);
  e = round_row(ks, 1, k = step128<0x01>(k), e);
  e = round_row(ks, 2, k = step128<0x02>(k), e);
  e = round_row(ks, 3, k = step128<0x04>(k), e);
  e = round_row(ks, 4, k = step128<0x08>(k), e);
  e = round_row(ks, 5, k = step128<0x10>(k), e);
  e = round_row(ks, 6, k = step128<0x20>(k), e);
  e = round_row(ks, 7, k = step128<0x40>(k), e);
  e = round_row(ks, 8, k = step128<0x80>(k), e);
  e = round_row(ks, 9, k = step128<0x1b>(k), e);
  return last_row(ks, 10, step128<0x36>(k), e);
}

Two expand256(KeySched* ks, const uint8_t* key, __m128i j) {
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 16));
  Two e = round_row(ks, 1, b, first_row(ks, a, j));
  step256<0x01>(a, b), e = round_row(ks, 2, a, e), e = round_row(ks, 3, b, e);
  step256<0x02>(a, b), e = round_row(ks, 4, a, e), e = round_row(ks, 5, b, e);
  step256<0x04>(a, b), e = round_row(ks, 6, a, e), e = round_row(ks, 7, b, e);
  step256<0x08>(a, b), e = round_row(ks, 8, a, e), e = round_row(ks, 9, b, e);
  step256<0x10>(a, b), e = round_row(ks, 10, a, e), e = round_row(ks, 11, b, e);
  step256<0x20>(a, b), e = round_row(ks, 12, a, e), e = round_row(ks, 13, b, e);
  a = expand4(a, _mm_shuffle_epi32(_mm_aeskeygenassist_si128(b, 0x40), 0xff));
  return last_row(ks, 14, a, e);
}

// AES-192 word by word with the block cipher's expansion (aes_key_steps.inc);
// both blocks from the stored rows.
Two expand192(KeySched* ks, const uint8_t* key, __m128i j) {
  constexpr unsigned kNr = 12;
  __m128i r[kMaxRounds + 1];
  expand_words(r, key, 6, kNr);
  for (unsigned i = 0; i <= kNr; ++i) store_row(ks, i, r[i]);
  OPENSSL_cleanse(r, sizeof r);  // the round keys' copy on the stack
  return {encrypt_rows(ks, kNr, _mm_setzero_si128()), encrypt_rows(ks, kNr, j)};
}

// GcmHw::setkey (keylen 16, 24 or 32): enc rows 0..Nr (16 key bytes each;
// the upper halves stay as the zero-initialised schedule has them), nb and
// nr, h = E_K(0^128) and, when j0 is not null, ek0 = E_K(j0). The dec rows
// are left alone: GCM never decrypts a block.
void gcm_setkey(void* vks, const uint8_t* key, size_t keylen, uint8_t h[16], const uint8_t* j0,
                uint8_t ek0[16]) {
  auto* ks = static_cast<KeySched*>(vks);
  const unsigned nk = unsigned(keylen / 4), nr = nk + 6;
  const __m128i j = j0 != nullptr ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(j0))
                                  : _mm_setzero_si128();
  const Two e = nk == 4   ? expand128(ks, key, j)
                : nk == 8 ? expand256(ks, key, j)
                          : expand192(ks, key, j);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), e.h);
  if (j0 != nullptr) _mm_storeu_si128(reinterpret_cast<__m128i*>(ek0), e.j);
  for (unsigned r = nr + 1; r <= kMaxRounds; ++r) std::memset(ks->enc[r], 0, 16);
  ks->nb = 4;
  ks->nr = nr;
}

// GcmHw::encrypt_block: one block through the enc rows.
void gcm_encrypt_block(const void* vks, const uint8_t in[16], uint8_t out[16]) {
  const auto* ks = static_cast<const KeySched*>(vks);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   encrypt_rows(ks, ks->nr, _mm_loadu_si128(reinterpret_cast<const __m128i*>(in))));
}

}  // namespace

// The VAES implementation adds its fused kernel (gcm_vaes512.cpp, with its
// own requirements); both key setups are this file's.
constinit const GcmHw kAesAesniGcm = {compiled_features(), gcm_setkey, gcm_encrypt_block, nullptr};
constinit const GcmHw kAesVaes512Gcm = {compiled_features(), gcm_setkey, gcm_encrypt_block,
                                        &kAesGcmVaes512};

}  // namespace gpucrypto::rijndael_impl
