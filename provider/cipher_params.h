// The algorithm-level parameters every cipher of the provider reports, as
// OpenSSL's ossl_cipher_generic_get_params does (shared by the generic block
// cipher layer and the GCM AEAD layer).
#pragma once
#include <openssl/core.h>

#include <cstddef>

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

}  // namespace gpucrypto
