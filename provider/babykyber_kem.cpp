// KEM "babyKyber": EVP_PKEY_encapsulate / EVP_PKEY_decapsulate through the
// shared KEM operation (provider/kem_operation.h). 8-byte ciphertext, 32-byte
// secret; a ciphertext of another length is rejected even by a length query.
#include "provider/babykyber_key.h"
#include "provider/kem_operation.h"

namespace gpucrypto::bkprov {
namespace {

struct KemTraits {
  using Key = bkprov::Key;
  static constexpr int kOk = BABYKYBER_OK;
  static constexpr size_t kSecretBytes = BABYKYBER_SHARED_SECRET_BYTES;
  static constexpr bool kCheckCtBeforeQuery = true;
  static const char* name(const Key&) { return "babyKyber"; }
  static size_t ct_bytes(const Key&) { return BABYKYBER_CIPHERTEXT_BYTES; }
  static const char* strerror(int rc) { return babykyber_strerror(rc); }
  static int reason(int rc) { return rc == BABYKYBER_ERR_HASH ? kErrFetchFailed : kErrInternal; }
  static int encaps_reason(int rc) { return reason(rc); }
  static int decaps_reason(int rc) { return reason(rc); }
  static int encaps(ProvCtx* p, const Key& k, uint8_t* ct, uint8_t* ss) {
    return babykyber_encaps(p->libctx, ct, ss, k.pub);
  }
  static int decaps(ProvCtx* p, const Key& k, uint8_t* ss, const uint8_t* ct) {
    return babykyber_decaps(p->libctx, ss, ct, k.priv);
  }
};

}  // namespace

const OSSL_DISPATCH* const kKemFunctions = kemglue::kKemDispatch<KemTraits>;

}  // namespace gpucrypto::bkprov
