// The babyKyber row's entry points (provider/kem_table.h): the PKE kernels
// are the best ones this provider instance's backend cap allows (its
// EngineConfig), reported back through KemCall::kernels; hashing is fetched
// from the provider's library context. The text output adds the key's
// polynomials.
#include <string>

#include "kem/babykyber/batch_impl.h"
#include "kem/core/babykyber_pke.h"
#include "provider/kem_key.h"
#include "provider/kem_table.h"

namespace gpucrypto::kemprov::rows {
namespace {
namespace bk = kem::babykyber;

const kem::PkeBatchImpl& kernels(KemCall& c) {
  return uses(c, kem::pke_batch_select(c.prov.config.features()));
}

std::string poly_text(const bk::Poly& a) {
  std::string s = "[";
  for (int i = 0; i < bk::P::n; ++i) {
    s += std::to_string(a.c[i]);
    s += i + 1 < bk::P::n ? ", " : "]";
  }
  return s;
}
}  // namespace

// babyKyber keeps no seed (seed_out unused): a key is its 84-byte private key.
int bk_keygen(KemCall& c, const KemDesc&, uint8_t* pub, uint8_t* priv, const uint8_t* seed_in,
              uint8_t*) {
  return bk::keypair_batch(kernels(c), c.prov.config, c.prov.libctx, 1, pub, priv, seed_in, 1);
}

int bk_encaps(KemCall& c, const KemDesc&, uint8_t* ct, uint8_t* ss, const uint8_t* pub) {
  return bk::encaps_batch(kernels(c), c.prov.config, c.prov.libctx, 1, ct, ss, pub, nullptr, 1);
}

int bk_decaps(KemCall& c, const KemDesc&, uint8_t* ss, const uint8_t* ct, const uint8_t* priv) {
  return bk::decaps_batch(kernels(c), c.prov.config, c.prov.libctx, 1, ss, ct, priv, 1);
}

int bk_check_pub(KemCall&, const KemDesc&, const uint8_t* pub) { return babykyber_check_publickey(pub); }

int bk_check_priv(KemCall& c, const KemDesc&, const uint8_t* priv) {
  return babykyber_check_secretkey(c.prov.libctx, priv);
}

void bk_text(const Key& k, bool with_priv, std::string& s) {
  bk::PolyMat A;
  bk::PolyVec t;
  (void)bk::decode_ek(A, t, k.pub);
  s += "coefficients (c0, c1, c2, c3; mod 17):\n";
  for (int i = 0; i < bk::P::k; ++i)
    for (int j = 0; j < bk::P::k; ++j)
      s += "    A[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + poly_text(A.a[i][j]) + "\n";
  for (int i = 0; i < bk::P::k; ++i) s += "    t[" + std::to_string(i) + "]    = " + poly_text(t.p[i]) + "\n";
  if (with_priv) {
    bk::PolyVec sv;
    (void)bk::decode_dk(sv, k.priv);
    for (int i = 0; i < bk::P::k; ++i)
      s += "    s[" + std::to_string(i) + "]    = " + poly_text(sv.p[i]) + "\n";
  }
}

}  // namespace gpucrypto::kemprov::rows
