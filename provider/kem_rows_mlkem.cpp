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
// Each failure with its own code, so the message says which check failed.
int mlkem_check_priv(KemCall&, const KemDesc& d, const uint8_t* priv) {
  int rc = mlkem_check_secretkey(d.param, priv);
  if (rc != MLKEM_OK) return rc == MLKEM_ERR_KEY ? kErrDkHash : rc;
  rc = mlkem_check_publickey(d.param, priv + d.pub_in_priv);
  return rc == MLKEM_ERR_KEY ? kErrEkModulus : rc;
}

// OpenSSL 3.5 says "public key hash mismatch" for the first.
const char* mlkem_row_strerror(int rc) {
  switch (rc) {
    case kErrDkHash:
      return "public key hash mismatch (H(ek) in dk is not SHA3-256 of its ek: FIPS 203 "
             "section 7.3 hash check)";
    case kErrEkModulus:
      return "ek has a coefficient >= q (FIPS 203 section 7.2 modulus check)";
    case kErrPairwise:
      return "pairwise test failed (dk does not decapsulate what is encapsulated to its ek)";
    default:
      return mlkem_strerror(rc);
  }
}

// OpenSSL 3.5's ml_kem_pairwise_test: encapsulate to ek (m from the DRBG, or
// 0x55..55 for "fixed", as 3.5), decapsulate with dk, compare the secrets.
// It catches what section 7.3's checks cannot: they bind H(ek) to ek, but
// nothing binds dk_pke (s_hat) to ek -- a dk_pke from elsewhere or with one
// bit flipped passes them and decapsulates to wrong secrets. It cannot see z
// (the implicit-rejection seed), which a valid ciphertext never reaches.
int mlkem_pairwise(KemCall& c, const KemDesc& d, const uint8_t* pub, const uint8_t* priv,
                   PairwiseTest how) {
  if (how == PairwiseTest::kNone) return kOk;
  uint8_t m[MLKEM_ENCAPS_SEED_BYTES];
  if (how == PairwiseTest::kFixed) std::memset(m, 0x55, sizeof m);
  else if (RAND_bytes_ex(c.prov.libctx, m, sizeof m, 256) != 1) return MLKEM_ERR_RAND;
  uint8_t ct[MLKEM_MAX_CIPHERTEXT_BYTES];
  uint8_t ss[MLKEM_SHARED_SECRET_BYTES], back[MLKEM_SHARED_SECRET_BYTES];
  const mk::Impl& impl = kernels(c);
  int rc = mk::encaps_batch(impl, c.prov.config, c.prov.libctx, d.param, 1, ct, ss, pub, m, 1);
  if (rc == MLKEM_OK) rc = mk::decaps_batch(impl, c.prov.config, d.param, 1, back, ct, priv, 1);
  if (rc == MLKEM_OK && CRYPTO_memcmp(ss, back, sizeof ss) != 0) rc = kErrPairwise;
  OPENSSL_cleanse(m, sizeof m);
  OPENSSL_cleanse(ss, sizeof ss);
  OPENSSL_cleanse(back, sizeof back);
  return rc;
}

}  // namespace gpucrypto::kemprov::rows
