// AES's GCM key setup on AES-NI: the GcmHw (block_cipher.h) of the AES-NI
// and VAES implementations. The encryption key expansion (FIPS 197 §5.2)
// (aes_key_steps.inc), E_K(0^128) (GCM's H) and E_K(J0) computed in the same
// pass: GCM needs no decryption keys, and libssl and `openssl speed` set a
// key per connection or per message, where the block cipher's setkey (both
// directions) and two more encrypt calls would cost a second pass. Writes the
// same enc rows into the shared KeySched. Compiled with -maes -mssse3
// -msse4.1; reached only after a CPU check.
#include <immintrin.h>

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

// Each expansion also runs E_K(0^128) (GCM's H) and the blocks J0 .. J0+4
// (the tag mask and first keystream blocks of the message whose IV came with
// the key, or zero blocks), a round behind the rows it produces: the AES
// rounds hide in the latency of the expansion chain instead of a second pass
// over the stored schedule. All start as block ^ row 0.
constexpr int kBlocks = 1 + int(kGcmEkBlocks);  // h, then the J0 blocks
struct Blocks {
  __m128i b[kBlocks];
};

GPUCRYPTO_ALWAYS_INLINE Blocks round_row(KeySched* ks, unsigned r, __m128i k, Blocks e) {
  store_row(ks, r, k);
  for (int i = 0; i < kBlocks; ++i) e.b[i] = _mm_aesenc_si128(e.b[i], k);
  return e;
}

GPUCRYPTO_ALWAYS_INLINE Blocks last_row(KeySched* ks, unsigned r, __m128i k, Blocks e) {
  store_row(ks, r, k);
  for (int i = 0; i < kBlocks; ++i) e.b[i] = _mm_aesenclast_si128(e.b[i], k);
  return e;
}

GPUCRYPTO_ALWAYS_INLINE Blocks first_row(KeySched* ks, __m128i k, const Blocks& in) {
  store_row(ks, 0, k);
  Blocks e;
  for (int i = 0; i < kBlocks; ++i) e.b[i] = _mm_xor_si128(in.b[i], k);
  return e;
}

Blocks expand128(KeySched* ks, const uint8_t* key, const Blocks& in) {
  __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
  Blocks e = first_row(ks, k, in);
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

Blocks expand256(KeySched* ks, const uint8_t* key, const Blocks& in) {
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 16));
  Blocks e = round_row(ks, 1, b, first_row(ks, a, in));
  step256<0x01>(a, b), e = round_row(ks, 2, a, e), e = round_row(ks, 3, b, e);
  step256<0x02>(a, b), e = round_row(ks, 4, a, e), e = round_row(ks, 5, b, e);
  step256<0x04>(a, b), e = round_row(ks, 6, a, e), e = round_row(ks, 7, b, e);
  step256<0x08>(a, b), e = round_row(ks, 8, a, e), e = round_row(ks, 9, b, e);
  step256<0x10>(a, b), e = round_row(ks, 10, a, e), e = round_row(ks, 11, b, e);
  step256<0x20>(a, b), e = round_row(ks, 12, a, e), e = round_row(ks, 13, b, e);
  return last_row(ks, 14, step256a<0x40>(a, b), e);
}

// AES-192 with the block cipher's expansion (aes_key_steps.inc), the blocks'
// rounds on each row as it is made and stored: no array of rows to wipe.
Blocks expand192(KeySched* ks, const uint8_t* key, const Blocks& in) {
  Blocks e;
  expand_rows192(key, [&](unsigned i, __m128i k) {
    e = i == 0 ? first_row(ks, k, in) : i < 12 ? round_row(ks, i, k, e) : last_row(ks, i, k, e);
  });
  return e;
}

// GcmHw::setkey (keylen 16, 24 or 32): enc rows 0..Nr (16 key bytes each;
// the upper halves stay as the zero-initialised schedule has them), nb and
// nr, h = E_K(0^128) and, when j0 is not null, ek[i] = E_K(j0 + i) (inc32,
// i < kGcmEkBlocks). The dec rows are left alone: GCM never decrypts a block.
void gcm_setkey(void* vks, const uint8_t* key, size_t keylen, uint8_t h[16], const uint8_t* j0,
                uint8_t ek[][16]) {
  auto* ks = static_cast<KeySched*>(vks);
  const unsigned nk = unsigned(keylen / 4), nr = nk + 6;
  Blocks in;
  in.b[0] = _mm_setzero_si128();
  const __m128i j = j0 != nullptr ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(j0))
                                  : _mm_setzero_si128();
  // J0 + i in the last (big-endian) word: J0 is public.
  const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m128i jw = _mm_shuffle_epi8(j, swap);
  for (int i = 1; i < kBlocks; ++i)
    in.b[i] = _mm_shuffle_epi8(_mm_add_epi32(jw, _mm_set_epi32(i - 1, 0, 0, 0)), swap);
  const Blocks e = nk == 4   ? expand128(ks, key, in)
                   : nk == 8 ? expand256(ks, key, in)
                             : expand192(ks, key, in);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), e.b[0]);
  if (j0 != nullptr) {
    for (int i = 1; i < kBlocks; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(ek[i - 1]), e.b[i]);
  }
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
