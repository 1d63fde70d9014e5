// ML-KEM through the provider (EVP) and the batch API:
//   * seeded key generation reproduces the ACVP keyGen vectors
//     (test/vectors/mlkem*.txt, NIST ACVP-Server internalProjection.json,
//     see the file headers) through EVP_PKEY "pub"/"priv"/"seed";
//   * encapsulate/decapsulate round trips; a tampered ciphertext gives the
//     implicit-rejection secret SHAKE256(z || c) computed here with OpenSSL's
//     own SHAKE256 (independent of our Keccak);
//   * malformed ek (coefficient >= q) and dk (hash mismatch) are refused;
//   * PKCS#8 seed / expandedKey / both forms and SPKI: DER and PEM round trips;
//   * batch = one-by-one for every thread setting;
//   * key_codecs = 0 (GPUCRYPTO_KEY_CODECS): no encoder or decoder of ours,
//     the KEM itself unchanged.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/encoder.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/pem.h>

#include <fstream>
#include <string>

#include "gpucrypto/mlkem.h"
#include "test_util.h"

namespace gpucrypto::test {
namespace {

const char* name_of(int level) {
  return level == 512 ? "ML-KEM-512" : level == 768 ? "ML-KEM-768" : "ML-KEM-1024";
}

// The first keyGen record of the level's vector file: d, z, ek, dk.
struct KeyGenVector {
  Bytes d, z, ek, dk;
};
bool first_keygen(int level, KeyGenVector* v) {
  std::ifstream in(vectors_dir() + "/mlkem" + std::to_string(level) + ".txt");
  std::string line;
  bool in_keygen = false;
  auto val = [&] { return hex(line.substr(line.find('=') + 1)); };
  while (std::getline(in, line)) {
    if (line.rfind("test = keyGen", 0) == 0) in_keygen = true;
    if (!in_keygen) continue;
    if (line.rfind("d = ", 0) == 0) v->d = val();
    if (line.rfind("z = ", 0) == 0) v->z = val();
    if (line.rfind("ek = ", 0) == 0) v->ek = val();
    if (line.rfind("dk = ", 0) == 0) {
      v->dk = val();
      return true;
    }
  }
  return false;
}

Bytes get_octets(EVP_PKEY* k, const char* name) { return evp_octets(k, name); }

class MlkemEvp : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (!prov_.ok()) GTEST_SKIP() << "gpucrypto provider not loadable from " << module_dir();
  }
  // The shared EVP KEM helpers of test_util, bound to this level.
  EVP_PKEY* keygen(const Bytes* seed) { return evp_keygen(prov_.libctx(), name_of(GetParam()), seed); }
  // EVP_PKEY_fromdata with one octet-string parameter; nullptr on refusal.
  EVP_PKEY* fromdata(const char* param, const Bytes& v, int selection) {
    OSSL_PARAM p[] = {OSSL_PARAM_octet_string(param, const_cast<uint8_t*>(v.data()), v.size()),
                      OSSL_PARAM_END};
    return evp_fromdata(prov_.libctx(), name_of(GetParam()), p, selection);
  }
  bool encap(EVP_PKEY* k, Bytes* ct, Bytes* ss) { return evp_encapsulate(prov_.libctx(), k, ct, ss); }
  // ML-KEM's shared secret is always 32 bytes.
  bool decap(EVP_PKEY* k, const Bytes& ct, Bytes* ss) {
    return evp_decapsulate(prov_.libctx(), k, ct, ss, 32) && ss->size() == 32;
  }
  Bytes encode(EVP_PKEY* k, int selection, const char* format, const char* structure) {
    return evp_encode(k, selection, format, structure);
  }
  EVP_PKEY* decode(const Bytes& in, int selection, const char* format) {
    return evp_decode(prov_.libctx(), in, selection, format, nullptr, nullptr);
  }
  ProviderFixture prov_;
};

TEST_P(MlkemEvp, SeededKeygenMatchesAcvpAndRoundTrips) {
  const int level = GetParam();
  KeyGenVector v;
  ASSERT_TRUE(first_keygen(level, &v)) << "no keyGen record in " << vectors_dir() << "/mlkem" << level << ".txt";
  Bytes seed = v.d;
  seed.insert(seed.end(), v.z.begin(), v.z.end());
  EVP_PKEY* k = keygen(&seed);
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(EVP_PKEY_is_a(k, name_of(level)));
  EXPECT_EQ(get_octets(k, OSSL_PKEY_PARAM_PUB_KEY), v.ek);
  EXPECT_EQ(get_octets(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY), v.ek);
  EXPECT_EQ(get_octets(k, OSSL_PKEY_PARAM_PRIV_KEY), v.dk);
  EXPECT_EQ(get_octets(k, "seed"), seed);
  int bits = 0, secbits = 0, maxsize = 0;
  EXPECT_EQ(EVP_PKEY_get_int_param(k, OSSL_PKEY_PARAM_SECURITY_BITS, &secbits), 1);
  EXPECT_EQ(secbits, level == 512 ? 128 : level == 768 ? 192 : 256);
  // OpenSSL 3.5 reports the parameter set (512 / 768 / 1024), not 8 * |ek|.
  EXPECT_EQ(EVP_PKEY_get_int_param(k, OSSL_PKEY_PARAM_BITS, &bits), 1);
  EXPECT_EQ(bits, level);
  EXPECT_EQ(EVP_PKEY_get_bits(k), level);
  EXPECT_EQ(EVP_PKEY_get_int_param(k, OSSL_PKEY_PARAM_MAX_SIZE, &maxsize), 1);
  EXPECT_EQ(size_t(maxsize), mlkem_ciphertext_bytes(level));

  Bytes ct, ss, ss2;
  ASSERT_TRUE(encap(k, &ct, &ss));
  EXPECT_EQ(ct.size(), mlkem_ciphertext_bytes(level));
  ASSERT_TRUE(decap(k, ct, &ss2));
  EXPECT_EQ(ss, ss2);

  // Implicit rejection: K_bar = SHAKE256(z || c', 32), from OpenSSL's SHAKE256.
  for (size_t pos : {size_t(0), ct.size() / 2, ct.size() - 1}) {
    Bytes bad = ct;
    bad[pos] ^= 0x10;
    Bytes rej, expect(32);
    ASSERT_TRUE(decap(k, bad, &rej));
    EVP_MD_CTX* md = EVP_MD_CTX_new();
    ASSERT_EQ(EVP_DigestInit_ex2(md, EVP_shake256(), nullptr), 1);
    EVP_DigestUpdate(md, v.z.data(), v.z.size());
    EVP_DigestUpdate(md, bad.data(), bad.size());
    EVP_DigestFinalXOF(md, expect.data(), expect.size());
    EVP_MD_CTX_free(md);
    EXPECT_EQ(rej, expect) << "tampered byte " << pos;
    EXPECT_NE(rej, ss);
  }
  // Wrong ciphertext length: an error, not a secret.
  Bytes shortct(ct.begin(), ct.end() - 1), out;
  EXPECT_FALSE(decap(k, shortct, &out));
  EVP_PKEY_free(k);
}

TEST_P(MlkemEvp, MalformedKeysRefused) {
  const int level = GetParam();
  EVP_PKEY* k = keygen(nullptr);
  ASSERT_NE(k, nullptr);
  const Bytes ek = get_octets(k, OSSL_PKEY_PARAM_PUB_KEY), dk = get_octets(k, OSSL_PKEY_PARAM_PRIV_KEY);
  EVP_PKEY* ok_pub = fromdata(OSSL_PKEY_PARAM_PUB_KEY, ek, EVP_PKEY_PUBLIC_KEY);
  EXPECT_NE(ok_pub, nullptr);
  EVP_PKEY* ok_priv = fromdata(OSSL_PKEY_PARAM_PRIV_KEY, dk, EVP_PKEY_KEYPAIR);
  EXPECT_NE(ok_priv, nullptr);
  if (ok_pub != nullptr && ok_priv != nullptr) {  // encaps to the imported ek, decaps with dk
    Bytes ct, ss, ss2;
    EXPECT_TRUE(encap(ok_pub, &ct, &ss));
    EXPECT_TRUE(decap(ok_priv, ct, &ss2));
    EXPECT_EQ(ss, ss2);
  }
  EVP_PKEY_free(ok_pub);
  EVP_PKEY_free(ok_priv);
  // ek: the first 12-bit coefficient set to q = 3329 = 0xd01 (FIPS 203 7.2).
  Bytes bad_ek = ek;
  bad_ek[0] = 0x01;
  bad_ek[1] = uint8_t((bad_ek[1] & 0xf0) | 0x0d);
  EXPECT_EQ(fromdata(OSSL_PKEY_PARAM_PUB_KEY, bad_ek, EVP_PKEY_PUBLIC_KEY), nullptr);
  EXPECT_EQ(mlkem_check_publickey(level, bad_ek.data()), MLKEM_ERR_KEY);
  Bytes ct(mlkem_ciphertext_bytes(level)), ss(32, 0xaa), m(32, 1);
  EXPECT_EQ(mlkem_encaps_derand(level, ct.data(), ss.data(), bad_ek.data(), m.data()),
            MLKEM_ERR_KEY);
  EXPECT_EQ(ss, Bytes(32, 0));
  // Wrong lengths.
  EXPECT_EQ(fromdata(OSSL_PKEY_PARAM_PUB_KEY, Bytes(ek.begin(), ek.end() - 1), EVP_PKEY_PUBLIC_KEY),
            nullptr);
  EXPECT_EQ(fromdata(OSSL_PKEY_PARAM_PRIV_KEY, Bytes(dk.begin(), dk.end() - 1), EVP_PKEY_KEYPAIR),
            nullptr);
  EXPECT_EQ(fromdata("seed", Bytes(63, 1), EVP_PKEY_KEYPAIR), nullptr);
  // dk: H(ek) no longer matches (FIPS 203 7.3): flip a bit of the stored hash,
  // and separately of the embedded ek.
  const size_t hpos = dk.size() - 64, ekpos = 384 * size_t(level / 256);
  for (size_t pos : {hpos, ekpos + 5}) {
    Bytes bad_dk = dk;
    bad_dk[pos] ^= 1;
    EXPECT_EQ(fromdata(OSSL_PKEY_PARAM_PRIV_KEY, bad_dk, EVP_PKEY_KEYPAIR), nullptr) << pos;
    EXPECT_EQ(mlkem_check_secretkey(level, bad_dk.data()), MLKEM_ERR_KEY);
  }
  EVP_PKEY_free(k);
}

TEST_P(MlkemEvp, DerPemRoundTrips) {
  const int level = GetParam();
  EVP_PKEY* k = keygen(nullptr);
  ASSERT_NE(k, nullptr);
  const Bytes ek = get_octets(k, OSSL_PKEY_PARAM_PUB_KEY), dk = get_octets(k, OSSL_PKEY_PARAM_PRIV_KEY),
              seed = get_octets(k, "seed");
  const uint8_t oid_last = level == 512 ? 1 : level == 768 ? 2 : 3;
  // SPKI DER: 30 82 LL LL 30 0b 06 09 <2.16.840.1.101.3.4.4.n> 03 82 LL LL 00 ek.
  const Bytes spki = encode(k, EVP_PKEY_PUBLIC_KEY, "DER", "SubjectPublicKeyInfo");
  ASSERT_EQ(spki.size(), 4 + 13 + 5 + ek.size());
  const Bytes alg = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, oid_last};
  EXPECT_EQ(Bytes(spki.begin() + 4, spki.begin() + 17), alg);
  EXPECT_EQ(Bytes(spki.end() - long(ek.size()), spki.end()), ek);
  // PKCS#8 DER, seed form: 30 54 02 01 00 <alg> 04 42 80 40 <d || z>.
  const Bytes pki = encode(k, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo");
  ASSERT_EQ(pki.size(), 86u);
  Bytes want = {0x30, 0x54, 0x02, 0x01, 0x00};
  want.insert(want.end(), alg.begin(), alg.end());
  want.insert(want.end(), {0x04, 0x42, 0x80, 0x40});
  want.insert(want.end(), seed.begin(), seed.end());
  EXPECT_EQ(pki, want);

  for (const char* fmt : {"DER", "PEM"}) {
    SCOPED_TRACE(fmt);
    EVP_PKEY* pub = decode(encode(k, EVP_PKEY_PUBLIC_KEY, fmt, "SubjectPublicKeyInfo"),
                           EVP_PKEY_PUBLIC_KEY, fmt);
    ASSERT_NE(pub, nullptr);
    EXPECT_TRUE(EVP_PKEY_is_a(pub, name_of(level)));
    EXPECT_EQ(get_octets(pub, OSSL_PKEY_PARAM_PUB_KEY), ek);
    EXPECT_EQ(EVP_PKEY_eq(pub, k), 1);
    EVP_PKEY* priv =
        decode(encode(k, EVP_PKEY_KEYPAIR, fmt, "PrivateKeyInfo"), EVP_PKEY_KEYPAIR, fmt);
    ASSERT_NE(priv, nullptr);
    EXPECT_EQ(get_octets(priv, OSSL_PKEY_PARAM_PRIV_KEY), dk);
    EXPECT_EQ(get_octets(priv, "seed"), seed);
    Bytes ct, ss, ss2;  // keys from files interoperate
    ASSERT_TRUE(encap(pub, &ct, &ss));
    ASSERT_TRUE(decap(priv, ct, &ss2));
    EXPECT_EQ(ss, ss2);
    EVP_PKEY_free(pub);
    EVP_PKEY_free(priv);
  }

  // PKCS#8 with the expandedKey form, and with "both": decoded to the same
  // key; the expanded-only key is re-encoded in expandedKey form.
  auto pkcs8 = [&](const Bytes& inner) {
    // Built by appending (GCC 12 at -O3 flags vector::insert of short
    // initializer lists here with a false -Warray-bounds).
    Bytes body = {0x02, 0x01, 0x00};
    for (uint8_t b : alg) body.push_back(b);
    for (uint8_t b : {uint8_t(0x04), uint8_t(0x82), uint8_t(inner.size() >> 8), uint8_t(inner.size())})
      body.push_back(b);
    for (uint8_t b : inner) body.push_back(b);
    Bytes out = {0x30, 0x82, uint8_t(body.size() >> 8), uint8_t(body.size())};
    for (uint8_t b : body) out.push_back(b);
    return out;
  };
  Bytes expanded = {0x04, 0x82, uint8_t(dk.size() >> 8), uint8_t(dk.size())};
  expanded.insert(expanded.end(), dk.begin(), dk.end());
  const Bytes pk_expanded = pkcs8(expanded);
  EVP_PKEY* e = decode(pk_expanded, EVP_PKEY_KEYPAIR, "DER");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(get_octets(e, OSSL_PKEY_PARAM_PRIV_KEY), dk);
  EXPECT_EQ(encode(e, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo"), pk_expanded);
  EVP_PKEY_free(e);
  Bytes both_body = {0x04, 0x40};
  both_body.insert(both_body.end(), seed.begin(), seed.end());
  both_body.insert(both_body.end(), expanded.begin(), expanded.end());
  Bytes both = {0x30, 0x82, uint8_t(both_body.size() >> 8), uint8_t(both_body.size())};
  both.insert(both.end(), both_body.begin(), both_body.end());
  EVP_PKEY* b = decode(pkcs8(both), EVP_PKEY_KEYPAIR, "DER");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(get_octets(b, OSSL_PKEY_PARAM_PRIV_KEY), dk);
  EVP_PKEY_free(b);
  both[4 + 2] ^= 1;  // seed no longer matches the expanded key
  EXPECT_EQ(decode(pkcs8(both), EVP_PKEY_KEYPAIR, "DER"), nullptr);
  // A corrupted expanded key (hash check) is refused by the decoder.
  Bytes bad = pk_expanded;
  bad[bad.size() - 40] ^= 1;
  EXPECT_EQ(decode(bad, EVP_PKEY_KEYPAIR, "DER"), nullptr);
  EVP_PKEY_free(k);
}

TEST_P(MlkemEvp, BatchEqualsOneByOne) {
  const int level = GetParam();
  const size_t n = 67;  // not a multiple of any chunk size
  const size_t ekb = mlkem_publickey_bytes(level), dkb = mlkem_secretkey_bytes(level),
               ctb = mlkem_ciphertext_bytes(level);
  const Bytes seeds = random_bytes(n * 64), ms = random_bytes(n * 32);
  Bytes ek1(n * ekb), dk1(n * dkb), ct1(n * ctb), ss1(n * 32), ssd1(n * 32);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(mlkem_keypair_derand(level, &ek1[i * ekb], &dk1[i * dkb], &seeds[i * 64]), MLKEM_OK);
    ASSERT_EQ(mlkem_encaps_derand(level, &ct1[i * ctb], &ss1[i * 32], &ek1[i * ekb], &ms[i * 32]),
              MLKEM_OK);
    ct1[i * ctb + i] ^= uint8_t(i & 1);  // every other ciphertext tampered
    ASSERT_EQ(mlkem_decaps(level, &ssd1[i * 32], &ct1[i * ctb], &dk1[i * dkb]), MLKEM_OK);
  }
  for (unsigned threads : {0u, 1u, 2u}) {
    SCOPED_TRACE(threads);
    Bytes ek(n * ekb), dk(n * dkb), ct(n * ctb), ss(n * 32), ssd(n * 32);
    ASSERT_EQ(mlkem_keypair_batch(nullptr, level, n, ek.data(), dk.data(), seeds.data(), threads),
              MLKEM_OK);
    EXPECT_EQ(ek, ek1);
    EXPECT_EQ(dk, dk1);
    ASSERT_EQ(mlkem_encaps_batch(nullptr, level, n, ct.data(), ss.data(), ek.data(), ms.data(),
                                 threads),
              MLKEM_OK);
    EXPECT_EQ(ss, ss1);
    for (size_t i = 0; i < n; ++i) ct[i * ctb + i] ^= uint8_t(i & 1);
    EXPECT_EQ(ct, ct1);
    ASSERT_EQ(mlkem_decaps_batch(level, n, ssd.data(), ct.data(), dk.data(), threads), MLKEM_OK);
    EXPECT_EQ(ssd, ssd1);
    // One malformed ek anywhere fails the whole batch and wipes all outputs.
    Bytes bad = ek;
    bad[(n / 2) * ekb] = 0xff;
    bad[(n / 2) * ekb + 1] |= 0x0f;  // coefficient 0xfff >= q
    EXPECT_EQ(mlkem_encaps_batch(nullptr, level, n, ct.data(), ss.data(), bad.data(), nullptr,
                                 threads),
              MLKEM_ERR_KEY);
    EXPECT_EQ(ss, Bytes(n * 32, 0));
    // Random keys and messages: the pairs still agree.
    ASSERT_EQ(mlkem_keypair_batch(nullptr, level, n, ek.data(), dk.data(), nullptr, threads), MLKEM_OK);
    ASSERT_EQ(mlkem_encaps_batch(nullptr, level, n, ct.data(), ss.data(), ek.data(), nullptr, threads),
              MLKEM_OK);
    ASSERT_EQ(mlkem_decaps_batch(level, n, ssd.data(), ct.data(), dk.data(), threads), MLKEM_OK);
    EXPECT_EQ(ss, ssd);
  }
  EXPECT_EQ(mlkem_keypair_batch(nullptr, 700, 1, ek1.data(), dk1.data(), nullptr, 1), MLKEM_ERR_ARGS);
}

// key_codecs = 0 takes our encoders and decoders out of what the provider
// offers (an OpenSSL 3.0 host's certificate parsing walks all of them, README
// "Configuration"); the key managers and the KEM stay. 1 is the default.
TEST(MlkemKeyCodecs, ZeroOffersNoEncoderOrDecoderAndKeepsTheKem) {
  for (const char* v : {"1", "0"}) {
    SCOPED_TRACE(v);
    const bool on = v[0] == '1';
    auto prov = provider_with_env("GPUCRYPTO_KEY_CODECS", v);
    ASSERT_TRUE(prov->ok());
    OSSL_LIB_CTX* lib = prov->libctx();
    for (const char* name : {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"}) {
      SCOPED_TRACE(name);
      OSSL_DECODER* dec = OSSL_DECODER_fetch(lib, name, "provider=gpucrypto");
      OSSL_ENCODER* enc = OSSL_ENCODER_fetch(lib, name, "provider=gpucrypto");
      EXPECT_EQ(dec != nullptr, on);
      EXPECT_EQ(enc != nullptr, on);
      OSSL_DECODER_free(dec);
      OSSL_ENCODER_free(enc);
      ERR_clear_error();
      EVP_PKEY* k = evp_keygen(lib, name, nullptr);
      ASSERT_NE(k, nullptr);
      Bytes ct, ss, ss2;
      ASSERT_TRUE(evp_encapsulate(lib, k, &ct, &ss));
      ASSERT_TRUE(evp_decapsulate(lib, k, ct, &ss2, 32));
      EXPECT_EQ(ss, ss2);
      EVP_PKEY_free(k);
    }
    EXPECT_EQ(provider_buildinfo(prov->provider()).find("key_codecs=0") != std::string::npos, !on);
  }
  // Anything but 0 or 1 is a configuration error: the provider does not load.
  auto bad = provider_with_env("GPUCRYPTO_KEY_CODECS", "no");
  EXPECT_FALSE(bad->ok());
  ERR_clear_error();
}

INSTANTIATE_TEST_SUITE_P(Levels, MlkemEvp, ::testing::Values(512, 768, 1024),
                         [](const auto& info) { return "MLKEM" + std::to_string(info.param); });

}  // namespace
}  // namespace gpucrypto::test
