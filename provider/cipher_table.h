// The registered EVP cipher names (DESIGN.md §1) as an OSSL_ALGORITHM array.
#pragma once
#include <openssl/core.h>

namespace gpucrypto {
const OSSL_ALGORITHM* cipher_algorithms();
}  // namespace gpucrypto
