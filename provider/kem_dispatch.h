// The OSSL_DISPATCH tables of the KEM glue, per row of provider/kem_table.h:
// keymgmt (kem_keymgmt.cpp), KEM operation (kem_operation.cpp, one table for
// every row: the key names its row), encoders and decoders (kem_codecs.cpp).
// provider/kem_algorithms.cpp turns them into the OSSL_ALGORITHM arrays.
#pragma once
#include <openssl/core.h>

#include <cstddef>

namespace gpucrypto::kemprov {

enum class Format { kDer, kPem, kText };
enum class Structure { kSpki, kPki, kNone };

const OSSL_DISPATCH* keymgmt_dispatch(size_t row);
const OSSL_DISPATCH* kem_dispatch();
// Format::kText goes with Structure::kNone; DER and PEM with kSpki or kPki.
const OSSL_DISPATCH* encoder_dispatch(size_t row, Format format, Structure structure);
const OSSL_DISPATCH* decoder_dispatch(size_t row, Structure structure);

}  // namespace gpucrypto::kemprov
