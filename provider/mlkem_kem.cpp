// KEM "ML-KEM-512/768/1024" through the shared KEM operation
// (provider/kem_operation.h); the level comes from the key. Decapsulation of
// a well-formed ciphertext never fails (implicit rejection); the private key
// was checked when it was imported or generated.
#include "provider/kem_operation.h"
#include "provider/mlkem_key.h"

namespace gpucrypto::mlkprov {
namespace {

struct KemTraits {
  using Key = mlkprov::Key;
  static constexpr int kOk = MLKEM_OK;
  static constexpr size_t kSecretBytes = MLKEM_SHARED_SECRET_BYTES;
  static constexpr bool kCheckCtBeforeQuery = false;
  static const char* name(const Key& k) { return k.info->name; }
  static size_t ct_bytes(const Key& k) { return k.info->ct_bytes; }
  static const char* strerror(int rc) { return mlkem_strerror(rc); }
  static int encaps_reason(int rc) { return rc == MLKEM_ERR_KEY ? kErrInvalidKey : kErrInternal; }
  static int decaps_reason(int) { return kErrInternal; }
  static int encaps(ProvCtx* p, const Key& k, uint8_t* ct, uint8_t* ss) {
    return mlkem_encaps(p->libctx, k.info->level, ct, ss, k.ek);
  }
  static int decaps(ProvCtx*, const Key& k, uint8_t* ss, const uint8_t* ct) {
    return mlkem_decaps(k.info->level, ss, ct, k.dk);
  }
};

}  // namespace

const OSSL_DISPATCH* const kKemFunctions = kemglue::kKemDispatch<KemTraits>;

}  // namespace gpucrypto::mlkprov
