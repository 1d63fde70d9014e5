// AES encryption key expansion (FIPS 197 §5.2) with AESKEYGENASSIST, for
// GCM's key setup: GCM needs no decryption keys, and libssl and `openssl
// speed` set a key per connection or per message, where the generic expansion
// of ciphers/rijndael (constant-time S-box arithmetic, both directions) would
// cost microseconds. Writes the same enc rows into the shared KeySched.
// Compiled with -maes -msse4.1; reached only after a CPU check.
#include <immintrin.h>

#include <cstring>

#include "ciphers/gcm/internal.h"
#include "ciphers/rijndael/internal.h"
#include "platform/isa.h"

namespace gpucrypto::gcm_impl {
namespace {

// AESKEYGENASSIST puts SubWord(x1) in dword 0 and RotWord(SubWord(x1)) ^ rcon
// in dword 1 (words are little-endian dwords of the key bytes).
template <int kRcon>
GPUCRYPTO_ALWAYS_INLINE uint32_t sub_rot(uint32_t w) {
  const __m128i r = _mm_aeskeygenassist_si128(_mm_set_epi32(0, 0, int(w), 0), kRcon);
  return uint32_t(_mm_extract_epi32(r, 1));
}

uint32_t sub_rot_rcon(uint32_t w, unsigned i) {  // i: round constant index, public
  switch (i) {
    case 0: return sub_rot<0x01>(w);
    case 1: return sub_rot<0x02>(w);
    case 2: return sub_rot<0x04>(w);
    case 3: return sub_rot<0x08>(w);
    case 4: return sub_rot<0x10>(w);
    case 5: return sub_rot<0x20>(w);
    case 6: return sub_rot<0x40>(w);
    case 7: return sub_rot<0x80>(w);
    case 8: return sub_rot<0x1b>(w);
    default: return sub_rot<0x36>(w);
  }
}

#include "ciphers/rijndael/aes_key_steps.inc"

void store_row(rijndael_impl::KeySched* ks, unsigned r, __m128i k) {
  _mm_store_si128(reinterpret_cast<__m128i*>(ks->enc[r]), k);
}

// One block through the stored enc rows 0..nr (nr is public).
GPUCRYPTO_ALWAYS_INLINE __m128i encrypt_rows(const rijndael_impl::KeySched* ks, unsigned nr, __m128i x) {
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

GPUCRYPTO_ALWAYS_INLINE Two round_row(rijndael_impl::KeySched* ks, unsigned r, __m128i k, Two e) {
  store_row(ks, r, k);
  return {_mm_aesenc_si128(e.h, k), _mm_aesenc_si128(e.j, k)};
}

GPUCRYPTO_ALWAYS_INLINE Two last_row(rijndael_impl::KeySched* ks, unsigned r, __m128i k, Two e) {
  store_row(ks, r, k);
  return {_mm_aesenclast_si128(e.h, k), _mm_aesenclast_si128(e.j, k)};
}

GPUCRYPTO_ALWAYS_INLINE Two first_row(rijndael_impl::KeySched* ks, __m128i k, __m128i j) {
  store_row(ks, 0, k);
  return {k, _mm_xor_si128(j, k)};
}

Two expand128(rijndael_impl::KeySched* ks, const uint8_t* key, __m128i j) {
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

Two expand256(rijndael_impl::KeySched* ks, const uint8_t* key, __m128i j) {
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

// Any Nk word by word (AES-192); both blocks from the stored rows.
Two expand_words(rijndael_impl::KeySched* ks, const uint8_t* key, unsigned nk, unsigned nr,
                 __m128i j) {
  const unsigned total = 4 * (nr + 1);
  uint32_t w[4 * (rijndael_impl::kMaxRounds + 1)];
  std::memcpy(w, key, 4 * nk);
  for (unsigned i = nk; i < total; ++i) {
    uint32_t t = w[i - 1];
    if (i % nk == 0) {
      t = sub_rot_rcon(t, i / nk - 1);
    } else if (nk > 6 && i % nk == 4) {
      t = sub_word(t);
    }
    w[i] = w[i - nk] ^ t;
  }
  for (unsigned r = 0; r <= nr; ++r) std::memcpy(ks->enc[r], w + 4 * r, 16);
  OPENSSL_cleanse(w, sizeof w);
  return {encrypt_rows(ks, nr, _mm_setzero_si128()), encrypt_rows(ks, nr, j)};
}

}  // namespace

// Writes enc rows 0..Nr (16 key bytes each; the upper halves stay as the
// zero-initialised schedule has them), nb and nr, h = E_K(0^128) and, when
// j_in is not null, j_out = E_K(j_in). The dec rows are left alone: GCM
// never decrypts a block.
void aes_setkey_aesni(void* vks, const uint8_t* key, size_t keylen, uint8_t h[16],
                      const uint8_t* j_in, uint8_t* j_out) {
  auto* ks = static_cast<rijndael_impl::KeySched*>(vks);
  const unsigned nk = unsigned(keylen / 4), nr = nk + 6;
  const __m128i j = j_in != nullptr ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(j_in))
                                    : _mm_setzero_si128();
  const Two e = nk == 4   ? expand128(ks, key, j)
                : nk == 8 ? expand256(ks, key, j)
                          : expand_words(ks, key, nk, nr, j);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), e.h);
  if (j_out != nullptr) _mm_storeu_si128(reinterpret_cast<__m128i*>(j_out), e.j);
  for (unsigned r = nr + 1; r <= rijndael_impl::kMaxRounds; ++r) std::memset(ks->enc[r], 0, 16);
  ks->nb = 4;
  ks->nr = nr;
}

void aes_encrypt_block_aesni(const void* vks, const uint8_t in[16], uint8_t out[16]) {
  const auto* ks = static_cast<const rijndael_impl::KeySched*>(vks);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   encrypt_rows(ks, ks->nr, _mm_loadu_si128(reinterpret_cast<const __m128i*>(in))));
}

constinit const uint32_t kAesKeysAesniRequired = compiled_features();

}  // namespace gpucrypto::gcm_impl
