// The KEM-side algorithm tables: babyKyber's and ML-KEM-512/768/1024's
// keymgmt, KEM, encoders and decoders (see provider/babykyber_*.cpp and
// provider/mlkem_*.cpp).
#include "provider/kem_algorithms.h"

#include <openssl/core_dispatch.h>

#include "provider/babykyber_key.h"
#include "provider/mlkem_key.h"

namespace gpucrypto {
namespace {

using bkprov::kDescription;
using bkprov::kNames;

#define GPUC_PROPS "provider=gpucrypto"

using mlkprov::kLevels;
#define MLKEM_ALG(li, props, fns) {kLevels[li].names, GPUC_PROPS props, fns, kLevels[li].description}
#define MLKEM_ALL(props, fn) MLKEM_ALG(0, props, fn(0)), MLKEM_ALG(1, props, fn(1)), MLKEM_ALG(2, props, fn(2))

const OSSL_ALGORITHM kKeymgmt[] = {
    {kNames, GPUC_PROPS, bkprov::kKeymgmtFunctions, kDescription},
    MLKEM_ALL("", mlkprov::keymgmt_functions),
    {nullptr, nullptr, nullptr, nullptr}};

const OSSL_ALGORITHM kKem[] = {
    {kNames, GPUC_PROPS, bkprov::kKemFunctions, kDescription},
    MLKEM_ALG(0, "", mlkprov::kKemFunctions),
    MLKEM_ALG(1, "", mlkprov::kKemFunctions),
    MLKEM_ALG(2, "", mlkprov::kKemFunctions),
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
    MLKEM_ALL(",output=der,structure=SubjectPublicKeyInfo", mlkprov::encoder_spki_der),
    MLKEM_ALL(",output=pem,structure=SubjectPublicKeyInfo", mlkprov::encoder_spki_pem),
    MLKEM_ALL(",output=der,structure=PrivateKeyInfo", mlkprov::encoder_pki_der),
    MLKEM_ALL(",output=pem,structure=PrivateKeyInfo", mlkprov::encoder_pki_pem),
    MLKEM_ALL(",output=text", mlkprov::encoder_text),
    {nullptr, nullptr, nullptr, nullptr}};

const OSSL_ALGORITHM kDecoders[] = {
    {kNames, GPUC_PROPS ",input=der,structure=SubjectPublicKeyInfo", bkprov::decoder_spki(),
     kDescription},
    {kNames, GPUC_PROPS ",input=der,structure=PrivateKeyInfo", bkprov::decoder_pki(),
     kDescription},
    MLKEM_ALL(",input=der,structure=SubjectPublicKeyInfo", mlkprov::decoder_spki),
    MLKEM_ALL(",input=der,structure=PrivateKeyInfo", mlkprov::decoder_pki),
    {nullptr, nullptr, nullptr, nullptr}};

#undef MLKEM_ALL
#undef MLKEM_ALG
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
