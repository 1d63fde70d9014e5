#include "provider/cipher_params.h"

#include <openssl/core_names.h>
#include <openssl/params.h>

namespace gpucrypto {

const OSSL_PARAM kAlgorithmGettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, nullptr),
    OSSL_PARAM_END};

int set_algorithm_params(OSSL_PARAM params[], const CipherShape& s) {
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) != nullptr && !OSSL_PARAM_set_uint(p, s.mode))
    return 0;
  const struct {
    const char* name;
    size_t value;
  } sizes[] = {{OSSL_CIPHER_PARAM_KEYLEN, s.key_bytes},
               {OSSL_CIPHER_PARAM_IVLEN, s.iv_bytes},
               {OSSL_CIPHER_PARAM_BLOCK_SIZE, s.block_size}};
  for (const auto& z : sizes)
    if ((p = OSSL_PARAM_locate(params, z.name)) != nullptr && !OSSL_PARAM_set_size_t(p, z.value)) return 0;
  const struct {
    const char* name;
    int value;
  } flags[] = {{OSSL_CIPHER_PARAM_AEAD, s.aead ? 1 : 0},
               {OSSL_CIPHER_PARAM_CUSTOM_IV, s.custom_iv ? 1 : 0},
               {OSSL_CIPHER_PARAM_CTS, 0},
               {OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0},
               {OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0}};
  for (const auto& f : flags)
    if ((p = OSSL_PARAM_locate(params, f.name)) != nullptr && !OSSL_PARAM_set_int(p, f.value))
      return 0;
  return 1;
}

}  // namespace gpucrypto
