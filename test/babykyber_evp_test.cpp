// babyKyber through EVP and the built provider: keygen (random and seeded),
// encapsulate/decapsulate with length queries and wrong lengths, params,
// export/import, and DER/PEM encoder/decoder round trips.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <string>

#include "gpucrypto/babykyber.h"
#include "test/test_util.h"

namespace {

using gpucrypto::test::Bytes;
using gpucrypto::test::ProviderFixture;
using gpucrypto::test::random_bytes;

class BabyKyberEvp : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fx_.ok()) GTEST_SKIP() << "gpucrypto provider not loadable from " << gpucrypto::test::module_dir();
    ERR_clear_error();
  }
  OSSL_LIB_CTX* lib() const { return fx_.libctx(); }

  // The shared EVP KEM helpers of test_util, bound to this library context.
  EVP_PKEY* generate(const Bytes* seed = nullptr) {
    return gpucrypto::test::evp_keygen(lib(), "babyKyber", seed);
  }
  Bytes octets(EVP_PKEY* k, const char* name) { return gpucrypto::test::evp_octets(k, name); }
  bool encap(EVP_PKEY* k, Bytes* ct, Bytes* ss) {
    return gpucrypto::test::evp_encapsulate(lib(), k, ct, ss);
  }
  bool decap(EVP_PKEY* k, const Bytes& ct, Bytes* ss, size_t outlen = BABYKYBER_SHARED_SECRET_BYTES) {
    return gpucrypto::test::evp_decapsulate(lib(), k, ct, ss, outlen);
  }

  static std::string last_error() {
    char buf[256] = "";
    ERR_error_string_n(ERR_peek_last_error(), buf, sizeof buf);
    ERR_clear_error();
    return buf;
  }

  ProviderFixture fx_;
};

TEST_F(BabyKyberEvp, KeygenParamsAndSeededKeys) {
  EVP_PKEY* k = generate();
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(EVP_PKEY_is_a(k, "babyKyber"));
  EXPECT_EQ(EVP_PKEY_get_bits(k), 120);
  EXPECT_EQ(EVP_PKEY_get_security_bits(k), 0);
  EXPECT_EQ(EVP_PKEY_get_size(k), BABYKYBER_CIPHERTEXT_BYTES);
  EXPECT_EQ(octets(k, OSSL_PKEY_PARAM_PUB_KEY).size(), size_t(BABYKYBER_PUBLICKEY_BYTES));
  EXPECT_EQ(octets(k, OSSL_PKEY_PARAM_PRIV_KEY).size(), size_t(BABYKYBER_SECRETKEY_BYTES));
  EVP_PKEY_free(k);

  // A seeded key equals the C API's deterministic key generation.
  const Bytes seed = random_bytes(64);
  EVP_PKEY* a = generate(&seed);
  EVP_PKEY* b = generate(&seed);
  uint8_t pk[BABYKYBER_PUBLICKEY_BYTES], sk[BABYKYBER_SECRETKEY_BYTES];
  ASSERT_EQ(babykyber_keypair_derand(nullptr, pk, sk, seed.data()), BABYKYBER_OK);
  EXPECT_EQ(octets(a, OSSL_PKEY_PARAM_PRIV_KEY), Bytes(sk, sk + sizeof sk));
  EXPECT_EQ(octets(a, OSSL_PKEY_PARAM_PUB_KEY), Bytes(pk, pk + sizeof pk));
  EXPECT_EQ(EVP_PKEY_eq(a, b), 1);
  EVP_PKEY_free(a);
  EVP_PKEY_free(b);

  // A seed of the wrong length is refused.
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(lib(), "babyKyber", "provider=gpucrypto");
  ASSERT_EQ(EVP_PKEY_keygen_init(ctx), 1);
  uint8_t shortseed[32] = {};
  OSSL_PARAM p[] = {OSSL_PARAM_octet_string("seed", shortseed, sizeof shortseed), OSSL_PARAM_END};
  EXPECT_NE(EVP_PKEY_CTX_set_params(ctx, p), 1);
  EXPECT_NE(last_error().find("wrong length"), std::string::npos);
  EVP_PKEY_CTX_free(ctx);
}

TEST_F(BabyKyberEvp, EncapsulateDecapsulate) {
  EVP_PKEY* k = generate();
  ASSERT_NE(k, nullptr);
  for (int i = 0; i < 50; ++i) {
    Bytes ct, ss, ss2;
    ASSERT_TRUE(encap(k, &ct, &ss));
    ASSERT_EQ(ct.size(), size_t(BABYKYBER_CIPHERTEXT_BYTES));
    ASSERT_EQ(ss.size(), size_t(BABYKYBER_SHARED_SECRET_BYTES));
    ASSERT_TRUE(decap(k, ct, &ss2));
    EXPECT_EQ(ss, ss2);
    // The C API decapsulates the EVP ciphertext identically.
    const Bytes sk = octets(k, OSSL_PKEY_PARAM_PRIV_KEY);
    uint8_t s3[32];
    ASSERT_EQ(babykyber_decaps(nullptr, s3, ct.data(), sk.data()), BABYKYBER_OK);
    EXPECT_EQ(Bytes(s3, s3 + 32), ss);
    // A flipped bit: the implicit-rejection secret SHAKE256(z || ct').
    ct[i % ct.size()] ^= uint8_t(1u << (i % 8));
    Bytes r1, r2;
    ASSERT_TRUE(decap(k, ct, &r1));
    ASSERT_TRUE(decap(k, ct, &r2));
    EXPECT_NE(r1, ss);
    EXPECT_EQ(r1, r2);
  }
  EVP_PKEY_free(k);
}

TEST_F(BabyKyberEvp, WrongLengthsRejected) {
  EVP_PKEY* k = generate();
  ASSERT_NE(k, nullptr);
  Bytes ct, ss, out;
  ASSERT_TRUE(encap(k, &ct, &ss));
  for (size_t len : {0u, 7u, 9u, 16u}) {
    Bytes bad(len, 0x11);
    if (len >= ct.size()) std::copy(ct.begin(), ct.end(), bad.begin());
    EXPECT_FALSE(decap(k, bad, &out)) << len;
    // (An empty input is already refused by EVP itself.)
    if (len != 0) {
      EXPECT_NE(last_error().find("wrong length"), std::string::npos) << len;
    }
    ERR_clear_error();
  }
  EXPECT_FALSE(decap(k, ct, &out, 31));  // secret buffer too small
  EXPECT_NE(last_error().find("output buffer too small"), std::string::npos);

  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(lib(), k, nullptr);
  ASSERT_EQ(EVP_PKEY_encapsulate_init(ctx, nullptr), 1);
  uint8_t c[8], s[32];
  size_t cl = 7, sl = 32;
  EXPECT_NE(EVP_PKEY_encapsulate(ctx, c, &cl, s, &sl), 1);
  EXPECT_NE(last_error().find("output buffer too small"), std::string::npos);
  EVP_PKEY_CTX_free(ctx);
  EVP_PKEY_free(k);
}

TEST_F(BabyKyberEvp, ExportImport) {
  EVP_PKEY* k = generate();
  ASSERT_NE(k, nullptr);
  const Bytes pub = octets(k, OSSL_PKEY_PARAM_PUB_KEY);
  const Bytes priv = octets(k, OSSL_PKEY_PARAM_PRIV_KEY);
  // Private import (the public key comes with it).
  EVP_PKEY_CTX* fc = EVP_PKEY_CTX_new_from_name(lib(), "babyKyber", "provider=gpucrypto");
  ASSERT_EQ(EVP_PKEY_fromdata_init(fc), 1);
  OSSL_PARAM pp[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, const_cast<uint8_t*>(priv.data()), priv.size()),
                     OSSL_PARAM_END};
  EVP_PKEY* k2 = nullptr;
  ASSERT_EQ(EVP_PKEY_fromdata(fc, &k2, EVP_PKEY_KEYPAIR, pp), 1);
  EXPECT_EQ(EVP_PKEY_eq(k, k2), 1);
  EXPECT_EQ(octets(k2, OSSL_PKEY_PARAM_PUB_KEY), pub);
  // Public-only import: encapsulates; decapsulation needs the private key.
  OSSL_PARAM pu[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<uint8_t*>(pub.data()), pub.size()),
                     OSSL_PARAM_END};
  EVP_PKEY* kp = nullptr;
  ASSERT_EQ(EVP_PKEY_fromdata(fc, &kp, EVP_PKEY_PUBLIC_KEY, pu), 1);
  Bytes ct, ss, ss2;
  ASSERT_TRUE(encap(kp, &ct, &ss));
  ASSERT_TRUE(decap(k2, ct, &ss2));
  EXPECT_EQ(ss, ss2);
  EXPECT_FALSE(decap(kp, ct, &ss2));
  ERR_clear_error();
  // Malformed imports: wrong sizes, a tampered hash, a non-canonical public key.
  Bytes bad_priv = priv;
  bad_priv[40] ^= 1;
  Bytes bad_pub = pub;
  bad_pub[14] = 0xff;
  for (auto [name, data] : {std::pair{OSSL_PKEY_PARAM_PRIV_KEY, Bytes(priv.begin(), priv.end() - 1)},
                            std::pair{OSSL_PKEY_PARAM_PRIV_KEY, bad_priv},
                            std::pair{OSSL_PKEY_PARAM_PUB_KEY, Bytes(pub.begin(), pub.end() - 1)},
                            std::pair{OSSL_PKEY_PARAM_PUB_KEY, bad_pub}}) {
    OSSL_PARAM b[] = {OSSL_PARAM_octet_string(name, data.data(), data.size()), OSSL_PARAM_END};
    EVP_PKEY* kb = nullptr;
    EXPECT_NE(EVP_PKEY_fromdata(fc, &kb, EVP_PKEY_KEYPAIR, b), 1) << name << " " << data.size();
    EVP_PKEY_free(kb);
  }
  ERR_clear_error();
  EVP_PKEY_CTX_free(fc);
  EVP_PKEY_free(kp);
  EVP_PKEY_free(k2);
  EVP_PKEY_free(k);
}

using gpucrypto::test::evp_encode;

EVP_PKEY* decode(OSSL_LIB_CTX* lib, const Bytes& in, int selection, const char* type, const char* structure) {
  return gpucrypto::test::evp_decode(lib, in, selection, type, structure, "babyKyber");
}

TEST_F(BabyKyberEvp, DerPemRoundTrips) {
  EVP_PKEY* k = generate();
  ASSERT_NE(k, nullptr);
  const Bytes pub = octets(k, OSSL_PKEY_PARAM_PUB_KEY);
  const Bytes priv = octets(k, OSSL_PKEY_PARAM_PRIV_KEY);
  const Bytes spki = evp_encode(k, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo");
  // 30 20 30 0c 06 0a <1.3.6.1.4.1.99999.1.1> 03 10 00 <15-byte public key>
  Bytes expect = gpucrypto::test::hex("3020300c060a2b06010401868d1f0101031000");
  expect.insert(expect.end(), pub.begin(), pub.end());
  EXPECT_EQ(spki, expect);
  const Bytes pki = evp_encode(k, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo");
  // 30 67 02 01 00 30 0c 06 0a <oid> 04 54 <84-byte private key>
  expect = gpucrypto::test::hex("3067020100300c060a2b06010401868d1f01010454");
  expect.insert(expect.end(), priv.begin(), priv.end());
  EXPECT_EQ(pki, expect);

  EVP_PKEY* kpub = decode(lib(), spki, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo");
  ASSERT_NE(kpub, nullptr);
  EXPECT_EQ(octets(kpub, OSSL_PKEY_PARAM_PUB_KEY), pub);
  EVP_PKEY* kpriv = decode(lib(), pki, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo");
  ASSERT_NE(kpriv, nullptr);
  EXPECT_EQ(octets(kpriv, OSSL_PKEY_PARAM_PRIV_KEY), priv);
  EXPECT_EQ(EVP_PKEY_eq(k, kpriv), 1);

  const Bytes pem = evp_encode(k, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo");
  ASSERT_FALSE(pem.empty());
  EXPECT_EQ(std::string(pem.begin(), pem.begin() + 27), "-----BEGIN PRIVATE KEY-----");
  EVP_PKEY* kpem = decode(lib(), pem, EVP_PKEY_KEYPAIR, "PEM", nullptr);
  ASSERT_NE(kpem, nullptr);
  EXPECT_EQ(octets(kpem, OSSL_PKEY_PARAM_PRIV_KEY), priv);
  const Bytes pubpem = evp_encode(k, EVP_PKEY_PUBLIC_KEY, "PEM", "SubjectPublicKeyInfo");
  EVP_PKEY* kpubpem = decode(lib(), pubpem, EVP_PKEY_PUBLIC_KEY, "PEM", nullptr);
  ASSERT_NE(kpubpem, nullptr);
  EXPECT_EQ(octets(kpubpem, OSSL_PKEY_PARAM_PUB_KEY), pub);

  // Text output says what this is.
  const Bytes text = evp_encode(k, EVP_PKEY_KEYPAIR, "TEXT", nullptr);
  const std::string t(text.begin(), text.end());
  EXPECT_NE(t.find("babyKyber Private-Key"), std::string::npos);
  EXPECT_NE(t.find("NO SECURITY"), std::string::npos);

  // A truncated or altered structure does not decode as babyKyber.
  Bytes bad = pki;
  bad.pop_back();
  EVP_PKEY* kb = decode(lib(), bad, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo");
  EXPECT_EQ(kb, nullptr);
  EVP_PKEY_free(kb);
  ERR_clear_error();

  for (EVP_PKEY* x : {kpub, kpriv, kpem, kpubpem, k}) EVP_PKEY_free(x);
}

}  // namespace
