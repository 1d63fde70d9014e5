// The KEM rows (provider/kem_table.h) through EVP and the engine around them:
//   * the `backend` setting of a provider's openssl.cnf section caps the
//     kernel sets its KEM calls run (the KEM context's "gpucrypto-kernels"
//     names the set that served the last call), while the C API keeps
//     following GPUCRYPTO_BACKEND;
//   * one length-query rule for every row (OpenSSL 3.5's ML-KEM one);
//   * babyKyber's KEM batches hand the whole batch to the (emulated) GPU as
//     one job per PKE step and agree byte for byte with the CPU.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

#include "engine/config.h"
#include "platform/cpu_features.h"
#include "gpu/gpu_backend.h"
#include "gpucrypto/babykyber.h"
#include "gpucrypto/mlkem.h"
#include "kem/babykyber/batch_impl.h"
#include "test/test_util.h"

namespace {

using gpucrypto::test::Bytes;
using gpucrypto::test::module_dir;
using gpucrypto::test::random_bytes;

// A library context configured from an openssl.cnf whose gpucrypto section
// holds `settings`, plus the default provider.
class ConfiguredCtx {
 public:
  explicit ConfiguredCtx(const std::string& settings) {
    char path[] = "/tmp/kem_table_test_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return;
    close(fd);
    path_ = path;
    std::ofstream(path_) << "openssl_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n"
                            "[provider_sect]\ndefault = default_sect\ngpucrypto = gpu_sect\n"
                            "[default_sect]\nactivate = 1\n[gpu_sect]\nmodule = "
                         << module_dir() << "/gpucrypto.so\nactivate = 1\n" << settings << "\n";
    libctx_ = OSSL_LIB_CTX_new();
    if (libctx_ != nullptr && OSSL_LIB_CTX_load_config(libctx_, path_.c_str()) == 1)
      ok_ = OSSL_PROVIDER_available(libctx_, "gpucrypto") == 1;
  }
  ~ConfiguredCtx() {
    OSSL_LIB_CTX_free(libctx_);
    if (!path_.empty()) std::remove(path_.c_str());
  }
  ConfiguredCtx(const ConfiguredCtx&) = delete;
  ConfiguredCtx& operator=(const ConfiguredCtx&) = delete;
  OSSL_LIB_CTX* libctx() const { return libctx_; }
  bool ok() const { return ok_; }

 private:
  std::string path_;
  OSSL_LIB_CTX* libctx_ = nullptr;
  bool ok_ = false;
};

EVP_PKEY* generate(OSSL_LIB_CTX* lib, const char* alg) {
  EVP_PKEY_CTX* g = EVP_PKEY_CTX_new_from_name(lib, alg, "provider=gpucrypto");
  EVP_PKEY* k = nullptr;
  if (g == nullptr || EVP_PKEY_keygen_init(g) != 1 || EVP_PKEY_generate(g, &k) != 1) k = nullptr;
  EVP_PKEY_CTX_free(g);
  return k;
}

std::string kernels_of(EVP_PKEY_CTX* ctx) {
  char name[32] = {};
  OSSL_PARAM p[] = {OSSL_PARAM_utf8_string("gpucrypto-kernels", name, sizeof name), OSSL_PARAM_END};
  if (EVP_PKEY_CTX_get_params(ctx, p) != 1 || !OSSL_PARAM_modified(p)) return "(unset)";
  return name;
}

// The kernel sets that served one encapsulation and one decapsulation of `alg`
// in `lib`, as "encaps/decaps"; the secrets must agree.
std::string kernels_used(OSSL_LIB_CTX* lib, const char* alg) {
  EVP_PKEY* k = generate(lib, alg);
  if (k == nullptr) return "(no key)";
  std::string used;
  Bytes ct(MLKEM_MAX_CIPHERTEXT_BYTES), ss(32), ss2(32);
  size_t ctl = ct.size(), ssl = ss.size(), ssl2 = ss2.size();
  // Our KEM explicitly: OpenSSL >= 3.5's default provider serves ML-KEM too,
  // and without a property query it may take the operation (the key is then
  // exported to it and no kernel of ours runs).
  EVP_PKEY_CTX* e = EVP_PKEY_CTX_new_from_pkey(lib, k, "provider=gpucrypto");
  if (EVP_PKEY_encapsulate_init(e, nullptr) == 1 &&
      EVP_PKEY_encapsulate(e, ct.data(), &ctl, ss.data(), &ssl) == 1)
    used = kernels_of(e);
  EVP_PKEY_CTX_free(e);
  EVP_PKEY_CTX* d = EVP_PKEY_CTX_new_from_pkey(lib, k, "provider=gpucrypto");
  if (EVP_PKEY_decapsulate_init(d, nullptr) == 1 &&
      EVP_PKEY_decapsulate(d, ss2.data(), &ssl2, ct.data(), ctl) == 1 && ss == ss2)
    used += "/" + kernels_of(d);
  EVP_PKEY_CTX_free(d);
  EVP_PKEY_free(k);
  return used;
}

class KemBackendCap : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The environment overrides openssl.cnf: keep it out of this test.
    unsetenv("GPUCRYPTO_BACKEND");
  }
};

TEST_F(KemBackendCap, ProviderWithBackendRefRunsTheRefKernels) {
  ConfiguredCtx ref("backend = ref");
  ASSERT_TRUE(ref.ok()) << "gpucrypto not loadable from " << module_dir();
  for (const char* alg : {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"})
    EXPECT_EQ(kernels_used(ref.libctx(), alg), "ref/ref") << alg;
  EXPECT_EQ(kernels_used(ref.libctx(), "babyKyber"), "ref/ref");
}

// The control: without a cap the same calls run the best set, which is what
// the C API (GPUCRYPTO_BACKEND unset) reports. On a CPU without AVX2 both are
// "ref" and the cap cannot be told apart; this machine has AVX-512.
TEST_F(KemBackendCap, UncappedProviderRunsTheBestKernelsLikeTheCApi) {
  ConfiguredCtx best("backend = auto");
  ASSERT_TRUE(best.ok());
  const std::string mlkem = mlkem_impl(), bk = babykyber_batch_impl();
  EXPECT_EQ(kernels_used(best.libctx(), "ML-KEM-768"), mlkem + "/" + mlkem);
  EXPECT_EQ(kernels_used(best.libctx(), "babyKyber"), bk + "/" + bk);
  if ((gpucrypto::cpu_features_detected() & gpucrypto::kAVX2) != 0) {
    EXPECT_NE(mlkem, "ref");
  }
  // Two instances, two caps, at once.
  ConfiguredCtx ref("backend = avx2");
  ASSERT_TRUE(ref.ok());
  const bool avx2 = (gpucrypto::cpu_features_detected() & gpucrypto::kAVX2) != 0;
  EXPECT_EQ(kernels_used(ref.libctx(), "ML-KEM-768"), avx2 ? "avx2/avx2" : "ref/ref");
  EXPECT_EQ(kernels_used(best.libctx(), "ML-KEM-768"), mlkem + "/" + mlkem);
}

// --- one length-query rule ---------------------------------------------------------

TEST(KemLengthQueries, EveryRowAnswersANullBufferWithItsSizes) {
  gpucrypto::test::ProviderFixture fx;
  if (!fx.ok()) GTEST_SKIP() << "gpucrypto not loadable from " << module_dir();
  struct Row {
    const char* alg;
    size_t ct;
  };
  for (const Row& r : {Row{"babyKyber", BABYKYBER_CIPHERTEXT_BYTES}, Row{"ML-KEM-512", MLKEM512_CIPHERTEXT_BYTES},
                       Row{"ML-KEM-768", MLKEM768_CIPHERTEXT_BYTES},
                       Row{"ML-KEM-1024", MLKEM1024_CIPHERTEXT_BYTES}}) {
    SCOPED_TRACE(r.alg);
    EVP_PKEY* k = generate(fx.libctx(), r.alg);
    ASSERT_NE(k, nullptr);
    EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(fx.libctx(), k, nullptr);
    ASSERT_EQ(EVP_PKEY_encapsulate_init(ctx, nullptr), 1);
    size_t ctl = 0, ssl = 0;
    EXPECT_EQ(EVP_PKEY_encapsulate(ctx, nullptr, &ctl, nullptr, &ssl), 1);
    EXPECT_EQ(ctl, r.ct);
    EXPECT_EQ(ssl, 32u);
    EVP_PKEY_CTX_free(ctx);
    // Decapsulation: the query is answered before the ciphertext is looked at
    // (as OpenSSL 3.5's ML-KEM); the real call then rejects a wrong length.
    ctx = EVP_PKEY_CTX_new_from_pkey(fx.libctx(), k, nullptr);
    ASSERT_EQ(EVP_PKEY_decapsulate_init(ctx, nullptr), 1);
    const Bytes short_ct(r.ct - 1, 0x11);
    size_t outl = 0;
    EXPECT_EQ(EVP_PKEY_decapsulate(ctx, nullptr, &outl, short_ct.data(), short_ct.size()), 1);
    EXPECT_EQ(outl, 32u);
    Bytes ss(outl);
    EXPECT_EQ(EVP_PKEY_decapsulate(ctx, ss.data(), &outl, short_ct.data(), short_ct.size()), 0);
    ERR_clear_error();
    // get_params agrees: max-size is the ciphertext.
    int max_size = 0;
    EXPECT_EQ(EVP_PKEY_get_int_param(k, OSSL_PKEY_PARAM_MAX_SIZE, &max_size), 1);
    EXPECT_EQ(size_t(max_size), r.ct);
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(k);
  }
}

// --- babyKyber KEM batches on the emulated GPU ------------------------------------

class BabyKyberWholeBatch : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("GPUCRYPTO_GPU_FAULT", "emulate", 1);
    gpucrypto::gpu::testing::reset();
    if (!gpucrypto::gpu::usable()) GTEST_SKIP() << "no emulated device: " << gpucrypto::gpu::describe();
    gpu_.gpu_min_bytes = 1024;       // the test batches are far above it
    cpu_.backend = gpucrypto::Backend::kRef;  // never the GPU
  }
  void TearDown() override {
    unsetenv("GPUCRYPTO_GPU_FAULT");
    gpucrypto::gpu::testing::reset();
  }
  gpucrypto::EngineConfig gpu_, cpu_;
};

TEST_F(BabyKyberWholeBatch, OneGpuJobPerPkeStepAndTheCpuResult) {
  namespace bk = gpucrypto::kem::babykyber;
  const auto& best = gpucrypto::kem::pke_batch_select();
  const auto& ref = *gpucrypto::kem::pke_batch_find("ref");
  constexpr size_t n = 3000;
  const Bytes seeds = random_bytes(n * BABYKYBER_KEYGEN_SEED_BYTES);
  Bytes ms = random_bytes(n);
  for (auto& m : ms) m &= 15;
  Bytes pk(n * BABYKYBER_PUBLICKEY_BYTES), sk(n * BABYKYBER_SECRETKEY_BYTES);
  Bytes pk2(pk.size()), sk2(sk.size());
  const uint64_t jobs0 = gpucrypto::gpu::stats().jobs;
  ASSERT_EQ(bk::keypair_batch(best, gpu_, nullptr, n, pk.data(), sk.data(), seeds.data(), 0), BABYKYBER_OK);
  EXPECT_EQ(gpucrypto::gpu::stats().jobs, jobs0 + 1) << "keygen: the whole batch, once";
  ASSERT_EQ(bk::keypair_batch(ref, cpu_, nullptr, n, pk2.data(), sk2.data(), seeds.data(), 0), BABYKYBER_OK);
  EXPECT_EQ(pk, pk2);
  EXPECT_EQ(sk, sk2);

  Bytes ct(n * BABYKYBER_CIPHERTEXT_BYTES), ss(n * 32), ct2(ct.size()), ss2(ss.size());
  ASSERT_EQ(bk::encaps_batch(best, gpu_, nullptr, n, ct.data(), ss.data(), pk.data(), ms.data(), 0),
            BABYKYBER_OK);
  EXPECT_EQ(gpucrypto::gpu::stats().jobs, jobs0 + 2) << "encaps: one encrypt job";
  ASSERT_EQ(bk::encaps_batch(ref, cpu_, nullptr, n, ct2.data(), ss2.data(), pk.data(), ms.data(), 0),
            BABYKYBER_OK);
  EXPECT_EQ(ct, ct2);
  EXPECT_EQ(ss, ss2);

  // Decapsulation: decrypt and re-encrypt, one job each; every 7th
  // ciphertext tampered (implicit rejection must match the CPU too).
  for (size_t i = 0; i < n; i += 7) ct[i * BABYKYBER_CIPHERTEXT_BYTES] ^= 0x40;
  Bytes out(ss.size()), out2(ss.size());
  ASSERT_EQ(bk::decaps_batch(best, gpu_, nullptr, n, out.data(), ct.data(), sk.data(), 0), BABYKYBER_OK);
  EXPECT_EQ(gpucrypto::gpu::stats().jobs, jobs0 + 4) << "decaps: decrypt + re-encrypt";
  ASSERT_EQ(bk::decaps_batch(ref, cpu_, nullptr, n, out2.data(), ct.data(), sk.data(), 0), BABYKYBER_OK);
  EXPECT_EQ(out, out2);
  for (size_t i = 1; i < n; i += 7)  // untampered ones give the encapsulated secret
    EXPECT_EQ(Bytes(out.begin() + i * 32, out.begin() + i * 32 + 32),
              Bytes(ss.begin() + i * 32, ss.begin() + i * 32 + 32)) << i;
  EXPECT_EQ(gpucrypto::gpu::stats().failed_jobs, 0u);
}

TEST_F(BabyKyberWholeBatch, AGpuFaultLeavesTheCpuResult) {
  setenv("GPUCRYPTO_GPU_FAULT", "emulate,launch", 1);
  gpucrypto::gpu::testing::reset();
  namespace bk = gpucrypto::kem::babykyber;
  const auto& ref = *gpucrypto::kem::pke_batch_find("ref");
  constexpr size_t n = 1500;
  const Bytes seeds = random_bytes(n * BABYKYBER_KEYGEN_SEED_BYTES);
  Bytes pk(n * BABYKYBER_PUBLICKEY_BYTES), sk(n * BABYKYBER_SECRETKEY_BYTES), pk2(pk.size()), sk2(sk.size());
  ASSERT_EQ(bk::keypair_batch(gpucrypto::kem::pke_batch_select(), gpu_, nullptr, n, pk.data(), sk.data(),
                              seeds.data(), 2),
            BABYKYBER_OK);
  EXPECT_GE(gpucrypto::gpu::stats().failed_jobs, 1u);
  ASSERT_EQ(bk::keypair_batch(ref, cpu_, nullptr, n, pk2.data(), sk2.data(), seeds.data(), 1), BABYKYBER_OK);
  EXPECT_EQ(pk, pk2);
  EXPECT_EQ(sk, sk2);
}

}  // namespace
