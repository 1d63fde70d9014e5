// The KEM-side algorithm tables: babyKyber's keymgmt, KEM, encoders and
// decoders (see provider/babykyber_*.cpp).
#include "provider/kem_algorithms.h"

#include <openssl/core_dispatch.h>

#include "provider/babykyber_key.h"

namespace gpucrypto {
namespace {

using bkprov::kDescription;
using bkprov::kNames;

#define GPUC_PROPS "provider=gpucrypto"

const OSSL_ALGORITHM kKeymgmt[] = {
    {kNames, GPUC_PROPS, bkprov::kKeymgmtFunctions, kDescription},
    {nullptr, nullptr, nullptr, nullptr}};

const OSSL_ALGORITHM kKem[] = {
    {kNames, GPUC_PROPS, bkprov::kKemFunctions, kDescription},
    {nullptr, nullptr, nullptr, nullptr}};

const OSSL_ALGORITHM kEncoders[] = {
    {kNames, GPUC_PROPS ",output=der,structure=SubjectPublicKeyInfo", bkprov::encoder_spki_der(),
     kDescription},
    {kNames, GPUC_PROPS ",output=pem,structure=SubjectPublicKeyInfo", bkprov::encoder_spki_pem(),
     kDescription},
    {kNames, GPUC_PROPS ",output=der,structure=PrivateKeyInfo", bkprov::encoder_pki_der(),
     kDescription},
    {kNames, GPUC_PROPS ",output=pem,structure=PrivateKeyInfo", bkprov::encoder_pki_pem(),
     kDescription},
    {kNames, GPUC_PROPS ",output=text", bkprov::encoder_text(), kDescription},
    {nullptr, nullptr, nullptr, nullptr}};

const OSSL_ALGORITHM kDecoders[] = {
    {kNames, GPUC_PROPS ",input=der,structure=SubjectPublicKeyInfo", bkprov::decoder_spki(),
     kDescription},
    {kNames, GPUC_PROPS ",input=der,structure=PrivateKeyInfo", bkprov::decoder_pki(),
     kDescription},
    {nullptr, nullptr, nullptr, nullptr}};

#undef GPUC_PROPS

}  // namespace

const OSSL_ALGORITHM* kem_algorithms(int operation_id) {
  switch (operation_id) {
    case OSSL_OP_KEYMGMT:
      return kKeymgmt;
    case OSSL_OP_KEM:
      return kKem;
    case OSSL_OP_ENCODER:
      return kEncoders;
    case OSSL_OP_DECODER:
      return kDecoders;
    default:
      return nullptr;
  }
}

}  // namespace gpucrypto
