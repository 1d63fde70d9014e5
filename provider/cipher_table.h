// The registered EVP ciphers (README "Algorithms") as an OSSL_ALGORITHM array.
#pragma once
#include <openssl/core.h>

namespace gpucrypto {
const OSSL_ALGORITHM* cipher_algorithms();
}  // namespace gpucrypto
