// KEM-side algorithm tables (keymgmt, KEM, encoders, decoders), provided by
// the KEM glue files in provider/ and queried by provider.cpp.
#pragma once
#include <openssl/core.h>

namespace gpucrypto {
// The OSSL_ALGORITHM array (terminated by a {nullptr,...} entry) for
// `operation_id` (OSSL_OP_KEYMGMT, OSSL_OP_KEM, OSSL_OP_ENCODER,
// OSSL_OP_DECODER), or nullptr when the KEM glue has none.
const OSSL_ALGORITHM* kem_algorithms(int operation_id);
}  // namespace gpucrypto
