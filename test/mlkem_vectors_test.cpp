// ML-KEM against the known-answer files test/vectors/mlkem{512,768,1024}.txt
// (read from GPUCRYPTO_VECTORS_DIR; skipped with the reason when absent):
//   * every keyGen, encapsulation, decapsulation (valid and "modified
//     ciphertext" = implicit rejection), encapsulationKeyCheck and
//     decapsulationKeyCheck record — sources: NIST ACVP-Server sample vectors
//     (ML-KEM-keyGen-FIPS203 / ML-KEM-encapDecap-FIPS203 internalProjection.json,
//     as vendored by liboqs d39268b) and the C2SP/CCTV modulus vectors, as the
//     files' headers describe;
//   * the C2SP/CCTV "accumulated" test (final FIPS 203 variant) over 1000 and
//     10000 iterations, whose RNG and accumulator are OpenSSL's SHAKE128.
// Every kernel set this CPU runs (ref, avx2, avx512) is checked, and the C API.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <map>
#include <string>
#include <vector>

#include "platform/cpu_features.h"
#include "gpucrypto/mlkem.h"
#include "kem/mlkem/mlkem_impl.h"
#include "test_util.h"

namespace gpucrypto::test {
namespace {

namespace mk = kem::mlkem;

using Record = test::KatRecord;

test::KatFile load(int level) { return test::load_kat("mlkem" + std::to_string(level) + ".txt"); }

std::vector<const mk::Impl*> runnable() {
  std::vector<const mk::Impl*> v;
  for (const mk::Impl* impl : mk::impls())
    if ((impl->required & cpu_features_detected()) == impl->required) v.push_back(impl);
  return v;
}

// A keyCheck record: `check` must accept `key` exactly when the record says
// testPassed (a key of the wrong length counts as refused). Returns that verdict.
bool expect_key_check(const Record& r, const Bytes& key, size_t len, int level,
                      int (*check)(int, const uint8_t*)) {
  const bool expect = r.at("testPassed") == "true";
  const bool got = key.size() == len && check(level, key.data()) == MLKEM_OK;
  EXPECT_EQ(got, expect) << r.at("reason");
  return expect;
}

class MlkemVectors : public ::testing::TestWithParam<int> {};

TEST_P(MlkemVectors, AllRecordsEveryImpl) {
  const int level = GetParam();
  const test::KatFile f = load(level);
  ASSERT_TRUE(f.error.empty()) << f.error;
  const int li = mk::level_index(level);
  const size_t ek_len = mlkem_publickey_bytes(level), dk_len = mlkem_secretkey_bytes(level),
               ct_len = mlkem_ciphertext_bytes(level);
  std::map<std::string, int> counts;
  for (const mk::Impl* impl : runnable()) {
    const mk::LevelOps& ops = impl->ops[li];
    for (const Record& r : f.records) {
      const std::string& type = r.at("test");
      const std::string id = std::string(impl->name) + " " + type + " tcId " +
                             (r.count("tcId") ? r.at("tcId") : r.count("source") ? r.at("source") : "?");
      SCOPED_TRACE(id);
      ++counts[type];
      if (type == "keyGen") {
        const Bytes d = hex(r.at("d")), z = hex(r.at("z"));
        Bytes ek(ek_len), dk(dk_len);
        ops.keygen(ek.data(), dk.data(), d.data(), z.data());
        EXPECT_EQ(to_hex(ek), r.at("ek"));
        EXPECT_EQ(to_hex(dk), r.at("dk"));
      } else if (type == "encapsulation") {
        const Bytes ek = hex(r.at("ek")), dk = hex(r.at("dk")), m = hex(r.at("m"));
        ASSERT_EQ(ek.size(), ek_len);
        Bytes ct(ct_len), ss(32), ss2(32);
        EXPECT_NE(ops.encaps(ct.data(), ss.data(), ek.data(), m.data()), 0u);
        EXPECT_EQ(to_hex(ct), r.at("c"));
        EXPECT_EQ(to_hex(ss), r.at("k"));
        ops.decaps(ss2.data(), ct.data(), dk.data());  // the round trip
        EXPECT_EQ(to_hex(ss2), r.at("k"));
      } else if (type == "decapsulation") {
        const Bytes dk = hex(r.at("dk")), c = hex(r.at("c"));
        ASSERT_EQ(dk.size(), dk_len);
        ASSERT_EQ(c.size(), ct_len);
        Bytes ss(32);
        ops.decaps(ss.data(), c.data(), dk.data());
        EXPECT_EQ(to_hex(ss), r.at("k")) << r.at("reason");
      } else if (type == "encapsulationKeyCheck") {
        const Bytes ek = hex(r.at("ek"));
        const bool expect = expect_key_check(r, ek, ek_len, level, mlkem_check_publickey);
        if (ek.size() == ek_len) {  // encapsulation itself must refuse a bad ek
          Bytes ct(ct_len), ss(32), m(32, 7);
          EXPECT_EQ(ops.encaps(ct.data(), ss.data(), ek.data(), m.data()) != 0, expect);
          const int rc = mlkem_encaps_derand(level, ct.data(), ss.data(), ek.data(), m.data());
          EXPECT_EQ(rc, expect ? MLKEM_OK : MLKEM_ERR_KEY);
          if (!expect) {
            EXPECT_EQ(ss, Bytes(32, 0)) << "outputs must be wiped on rejection";
          }
        }
      } else if (type == "decapsulationKeyCheck") {
        expect_key_check(r, hex(r.at("dk")), dk_len, level, mlkem_check_secretkey);
      } else {
        ADD_FAILURE() << "unknown record type " << type;
      }
    }
  }
  // The files hold 4 keyGen, 4 encapsulation, 4 decapsulation (2 valid, 2
  // modified ciphertexts), 4 encapsulationKeyCheck and 2 decapsulationKeyCheck
  // records per level; make sure none was silently lost by the parser.
  const int n = int(runnable().size());
  EXPECT_EQ(counts["keyGen"], 4 * n);
  EXPECT_EQ(counts["encapsulation"], 4 * n);
  EXPECT_EQ(counts["decapsulation"], 4 * n);
  EXPECT_EQ(counts["encapsulationKeyCheck"], 4 * n);
  EXPECT_EQ(counts["decapsulationKeyCheck"], 2 * n);
}

// C2SP/CCTV accumulated test, final FIPS 203 variant (see the vector files):
// RNG = SHAKE128(""), per iteration d, z, m (32 bytes each) and a random
// ciphertext; absorb ek, dk, c, K, then Decaps(dk, random ct) into a running
// SHAKE128; the result is its first 32 bytes.
std::string accumulated(const mk::LevelOps& ops, int level, int iterations) {
  const size_t ek_len = mlkem_publickey_bytes(level), dk_len = mlkem_secretkey_bytes(level),
               ct_len = mlkem_ciphertext_bytes(level);
  const size_t per = 96 + ct_len;
  Bytes rng(per * size_t(iterations));
  EVP_MD* shake = EVP_MD_fetch(nullptr, "SHAKE128", nullptr);
  EVP_MD_CTX* r = EVP_MD_CTX_new();
  EVP_MD_CTX* o = EVP_MD_CTX_new();
  EXPECT_EQ(EVP_DigestInit_ex2(r, shake, nullptr), 1);
  EXPECT_EQ(EVP_DigestFinalXOF(r, rng.data(), rng.size()), 1);
  EXPECT_EQ(EVP_DigestInit_ex2(o, shake, nullptr), 1);
  Bytes ek(ek_len), dk(dk_len), ct(ct_len), k(32), k2(32), k3(32);
  for (int it = 0; it < iterations; ++it) {
    const uint8_t* p = rng.data() + per * size_t(it);
    ops.keygen(ek.data(), dk.data(), p, p + 32);
    EXPECT_NE(ops.encaps(ct.data(), k.data(), ek.data(), p + 64), 0u);
    ops.decaps(k2.data(), ct.data(), dk.data());
    EXPECT_EQ(k, k2) << "iteration " << it;
    ops.decaps(k3.data(), p + 96, dk.data());
    EVP_DigestUpdate(o, ek.data(), ek.size());
    EVP_DigestUpdate(o, dk.data(), dk.size());
    EVP_DigestUpdate(o, ct.data(), ct.size());
    EVP_DigestUpdate(o, k.data(), k.size());
    EVP_DigestUpdate(o, k3.data(), k3.size());
  }
  uint8_t out[32];
  EXPECT_EQ(EVP_DigestFinalXOF(o, out, sizeof out), 1);
  EVP_MD_CTX_free(r);
  EVP_MD_CTX_free(o);
  EVP_MD_free(shake);
  return to_hex(out, sizeof out);
}

TEST_P(MlkemVectors, Cctv1000IterationsEveryImpl) {
  const int level = GetParam();
  const test::KatFile f = load(level);
  ASSERT_TRUE(f.error.empty()) << f.error;
  ASSERT_EQ(f.globals.count("derived_final_1000_iterations"), 1u);
  for (const mk::Impl* impl : runnable()) {
    SCOPED_TRACE(impl->name);
    EXPECT_EQ(accumulated(impl->ops[mk::level_index(level)], level, 1),
              f.globals.at("derived_final_1_iteration"));
    EXPECT_EQ(accumulated(impl->ops[mk::level_index(level)], level, 1000),
              f.globals.at("derived_final_1000_iterations"));
  }
}

TEST_P(MlkemVectors, Cctv10000IterationsBestImpl) {
  const int level = GetParam();
  const test::KatFile f = load(level);
  ASSERT_TRUE(f.error.empty()) << f.error;
  ASSERT_EQ(f.globals.count("cctv_final_10000_iterations"), 1u);
  EXPECT_EQ(accumulated(mk::select().ops[mk::level_index(level)], level, 10000),
            f.globals.at("cctv_final_10000_iterations"));
}

INSTANTIATE_TEST_SUITE_P(Levels, MlkemVectors, ::testing::Values(512, 768, 1024),
                         [](const auto& info) { return "MLKEM" + std::to_string(info.param); });

}  // namespace
}  // namespace gpucrypto::test
