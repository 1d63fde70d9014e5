// The bulk engine through EVP: every cipher gives byte-identical output on
// the calling thread, on the pool with 2 and 7 threads, and under 1-byte
// updates; many application threads at once.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

// Every registered cipher in ECB, CTR and one chained mode (test_util.h).
std::vector<std::string> ciphers_of_registry() {
  std::vector<std::string> v;
  for (const RegisteredCase& c : sampled_registered_ciphers()) v.push_back(c.evp_name);
  return v;
}
const std::vector<std::string>& ciphers() {
  static const std::vector<std::string> v = ciphers_of_registry();
  return v;
}

// A provider instance loaded with the given environment (test_util.h).
std::unique_ptr<ProviderFixture> load_with(const char* threads, const char* mt_min) {
  return provider_with(threads, mt_min);
}

struct Sizes {
  size_t key, iv;
};
Sizes sizes_of(OSSL_LIB_CTX* lib, const char* name) {
  EVP_CIPHER* c = EVP_CIPHER_fetch(lib, name, "provider=gpucrypto");
  Sizes s{size_t(EVP_CIPHER_get_key_length(c)), size_t(EVP_CIPHER_get_iv_length(c))};
  EVP_CIPHER_free(c);
  return s;
}

TEST(BulkEngine, ByteIdenticalAcrossThreadCounts) {
  auto single = load_with("1", "0");
  auto two = load_with("2", "0");
  auto seven = load_with("7", "0");
  ASSERT_TRUE(single->ok() && two->ok() && seven->ok());
  for (const std::string& n : ciphers()) {
    const char* name = n.c_str();
    SCOPED_TRACE(name);
    const Sizes sz = sizes_of(single->libctx(), name);
    Bytes key = random_bytes(sz.key), iv(sz.iv, 0xff), pt = random_bytes((1 << 20) + 5);
    if (!iv.empty()) iv.back() = 0x10;  // counters carry through every byte mid-buffer
    Bytes want;
    ASSERT_TRUE(evp_crypt(single->libctx(), name, "provider=gpucrypto", true, key, iv, pt, &want));
    for (auto* p : {two.get(), seven.get()}) {
      Bytes got;
      ASSERT_TRUE(evp_crypt(p->libctx(), name, "provider=gpucrypto", true, key, iv, pt, &got));
      ASSERT_EQ(got, want);
      // Chunkings whose pieces end inside blocks and inside the carry.
      ASSERT_TRUE(evp_crypt(p->libctx(), name, "provider=gpucrypto", true, key, iv, pt, &got, true,
                            {1, 300000, 7, 500001}));
      ASSERT_EQ(got, want);
      Bytes back;
      ASSERT_TRUE(evp_crypt(p->libctx(), name, "provider=gpucrypto", false, key, iv, want, &back));
      ASSERT_EQ(back, pt);
    }
  }
}

TEST(BulkEngine, OneByteUpdatesEqualOneShot) {
  ProviderFixture prov;
  ASSERT_TRUE(prov.ok());
  for (const std::string& n : ciphers()) {
    const char* name = n.c_str();
    SCOPED_TRACE(name);
    const Sizes sz = sizes_of(prov.libctx(), name);
    Bytes key = random_bytes(sz.key), iv = random_bytes(sz.iv), pt = random_bytes(999);
    Bytes one, bytewise;
    ASSERT_TRUE(evp_crypt(prov.libctx(), name, "provider=gpucrypto", true, key, iv, pt, &one));
    ASSERT_TRUE(evp_crypt(prov.libctx(), name, "provider=gpucrypto", true, key, iv, pt, &bytewise,
                          true, std::vector<size_t>(pt.size(), 1)));
    ASSERT_EQ(bytewise, one);
  }
}

TEST(BulkEngine, SixteenApplicationThreadsWithLargeBuffers) {
  auto prov = load_with("2", "64k");
  ASSERT_TRUE(prov->ok());
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      const char* name = ciphers()[size_t(t) % ciphers().size()].c_str();
      const Sizes sz = sizes_of(prov->libctx(), name);
      Bytes key = random_bytes(sz.key), iv = random_bytes(sz.iv), pt = random_bytes(3 << 20);
      for (int i = 0; i < 3; ++i) {
        Bytes ct, back;
        if (!evp_crypt(prov->libctx(), name, "provider=gpucrypto", true, key, iv, pt, &ct) ||
            !evp_crypt(prov->libctx(), name, "provider=gpucrypto", false, key, iv, ct, &back) ||
            back != pt)
          ++bad;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

}  // namespace
}  // namespace gpucrypto::test
