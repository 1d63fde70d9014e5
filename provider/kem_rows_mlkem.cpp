// The ML-KEM rows' entry points (provider/kem_table.h): the kernel set is the
// best one this provider instance's backend cap allows (its EngineConfig, not
// GPUCRYPTO_BACKEND alone), reported back through KemCall::kernels.
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstring>

#include "kem/mlkem/mlkem_impl.h"
#include "provider/kem_table.h"

namespace gpucrypto::kemprov::rows {
namespace {
namespace mk = kem::mlkem;

const mk::Impl& kernels(KemCall& c) { return uses(c, mk::select(c.prov.config.features())); }
}  // namespace

int mlkem_keygen(KemCall& c, const KemDesc& d, uint8_t* pub, uint8_t* priv, const uint8_t* seed_in,
                 uint8_t* seed_out) {
  uint8_t fresh[MLKEM_KEYGEN_SEED_BYTES];
  const uint8_t* seed = seed_in;
  if (seed == nullptr) {
    if (RAND_bytes_ex(c.prov.libctx, fresh, sizeof fresh, 256) != 1) return MLKEM_ERR_RAND;
    seed = fresh;
  }
  const int rc = mk::keypair_batch(kernels(c), c.prov.config, nullptr, d.param, 1, pub, priv, seed, 1);
  if (rc == MLKEM_OK && seed_out != nullptr && seed_out != seed)
    std::memcpy(seed_out, seed, MLKEM_KEYGEN_SEED_BYTES);
  OPENSSL_cleanse(fresh, sizeof fresh);
  return rc;
}

int mlkem_encaps(KemCall& c, const KemDesc& d, uint8_t* ct, uint8_t* ss, const uint8_t* pub) {
  return mk::encaps_batch(kernels(c), c.prov.config, c.prov.libctx, d.param, 1, ct, ss, pub, nullptr, 1);
}

int mlkem_decaps(KemCall& c, const KemDesc& d, uint8_t* ss, const uint8_t* ct, const uint8_t* priv) {
  return mk::decaps_batch(kernels(c), c.prov.config, d.param, 1, ss, ct, priv, 1);
}

int mlkem_check_pub(KemCall&, const KemDesc& d, const uint8_t* pub) {
  return mlkem_check_publickey(d.param, pub);
}

// FIPS 203 section 7.3 (H(ek) stored in dk) and 7.2 on the embedded ek.
int mlkem_check_priv(KemCall&, const KemDesc& d, const uint8_t* priv) {
  const int rc = mlkem_check_secretkey(d.param, priv);
  return rc != MLKEM_OK ? rc : mlkem_check_publickey(d.param, priv + d.pub_in_priv);
}

}  // namespace gpucrypto::kemprov::rows
