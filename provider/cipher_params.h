// The algorithm-level parameters every cipher of the provider reports, as
// OpenSSL's ossl_cipher_generic_get_params does, and the parameter lookup of
// the contexts' get/set calls (shared by the generic block cipher layer and
// the GCM AEAD layer).
#pragma once
#include <openssl/core.h>

#include <cstddef>
#include <cstring>

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

// OSSL_PARAM_locate with the first byte compared before the strcmp: libssl,
// EVP_CipherInit and `openssl speed` query one or two parameters per call
// (ivlen, keylen, padding, tag several times per record), so a get/set runs
// a dozen lookups that almost all miss (a new IV per small message spent
// ~40 % of its instructions in OSSL_PARAM_locate/strcmp). Same result: the
// first entry with that key. Inline: it runs per call.
template <class P>
P* find_param(P* params, const char* key) {
  if (params == nullptr) return nullptr;
  for (P* p = params; p->key != nullptr; ++p)
    if (p->key[0] == key[0] && std::strcmp(p->key, key) == 0) return p;
  return nullptr;
}

}  // namespace gpucrypto
