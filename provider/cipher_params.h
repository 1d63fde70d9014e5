// The algorithm-level parameters every cipher of the provider reports, as
// OpenSSL's ossl_cipher_generic_get_params does, and the parameter lookup of
// the contexts' get/set calls (shared by the generic block cipher layer and
// the GCM AEAD layer).
#pragma once
#include <openssl/core.h>

#include <array>
#include <cstddef>
#include <string_view>

namespace gpucrypto {

struct CipherShape {
  unsigned mode;      // EVP_CIPH_*_MODE
  size_t key_bytes;
  size_t iv_bytes;
  size_t block_size;  // as EVP reports it: 1 for stream modes and AEADs
  bool aead;
  bool custom_iv;
};

// Fills the parameters of `params` it knows; 0 when one cannot be set.
int set_algorithm_params(OSSL_PARAM params[], const CipherShape& s);
// Their gettable list.
extern const OSSL_PARAM kAlgorithmGettable[];

// Whether a parameter key is `name`: byte by byte, stopping at the key's NUL
// (names hold none) or the first differing byte, most often the first. No
// strlen/memcmp call: those were 10 % of a 16-byte AES-GCM record.
inline bool key_is(const char* key, std::string_view name) {
  for (size_t j = 0; j < name.size(); ++j)
    if (key[j] != name[j]) return false;
  return key[name.size()] == '\0';
}

// The entries of a get/set request that a context knows, found in one pass
// over the request, as OpenSSL 3.5's generated parameter decoders do: slot i
// holds the first entry named names[i] (OSSL_PARAM_locate's answer), or
// null. libssl, EVP_CipherInit and `openssl speed` ask for one or two
// parameters per call (ivlen, padding, the tag per record), so each entry is
// compared once with the names (key_is, most stopping at the first byte)
// instead of one lookup per known name that almost always misses (a strcmp
// per name). The caller then takes the slots in its own fixed order, so the
// order of the request never matters. Inline: it runs per call.
template <class P, size_t N>
std::array<P*, N> locate_params(P* params, const std::array<std::string_view, N>& names) {
  std::array<P*, N> slot{};
  if (params == nullptr) return slot;
  for (P* p = params; p->key != nullptr; ++p) {
    for (size_t i = 0; i < N; ++i) {
      if (!key_is(p->key, names[i])) continue;
      if (slot[i] == nullptr) slot[i] = p;
      break;
    }
  }
  return slot;
}

}  // namespace gpucrypto
