// CTR contexts that buffer keystream ahead (up to one batch): a stream of
// updates of any sizes gives the one-shot result, and `num` / `updated-iv`
// describe the bytes consumed, never the bytes generated — after every update,
// across re-inits mid-buffer, resumed streams and counter wraps. AES and SM4
// are compared step by step with OpenSSL's default provider, the others with
// the counter arithmetic itself. The ctest backend.* variants force every
// CPU path (batch sizes 1 … 128 blocks).
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <random>
#include <string>
#include <vector>

#include "engine/cipher_registry.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

constexpr const char* kOurs = "provider=gpucrypto";
constexpr const char* kDefault = "provider=default";

// Every registered cipher's CTR mode (engine/cipher_registry.h).
std::vector<std::string> ctr_names() {
  return evp_names([](const CipherRow&, Mode m) { return m == Mode::kCTR; });
}

bool has_default_peer(const std::string& n) {
  const CipherRow* r = find_row(n);
  return r != nullptr && r->in_default;
}

class Stream {
 public:
  Stream(OSSL_LIB_CTX* lib, const char* name, const char* propq) {
    ci_ = EVP_CIPHER_fetch(lib, name, propq);
    ctx_ = EVP_CIPHER_CTX_new();
  }
  ~Stream() {
    EVP_CIPHER_CTX_free(ctx_);
    EVP_CIPHER_free(ci_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  bool ok() const { return ci_ != nullptr && ctx_ != nullptr; }
  size_t iv_len() const { return size_t(EVP_CIPHER_get_iv_length(ci_)); }
  size_t key_len() const { return size_t(EVP_CIPHER_get_key_length(ci_)); }
  // The first init names the cipher; later ones re-init the same context.
  bool init(const Bytes* key, const Bytes* iv) {
    const bool first = !inited_;
    inited_ = true;
    return EVP_EncryptInit_ex2(ctx_, first ? ci_ : nullptr, key ? key->data() : nullptr,
                               iv ? iv->data() : nullptr, nullptr) == 1;
  }
  Bytes update(const uint8_t* in, size_t n) {
    Bytes out(n);
    int outl = -1;
    if (EVP_EncryptUpdate(ctx_, out.data(), &outl, in, int(n)) != 1 || size_t(outl) != n) out.clear();
    return out;
  }
  // (num, updated-iv)
  std::pair<unsigned, Bytes> state() const {
    unsigned num = 999;
    Bytes next(iv_len());
    OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                      OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, next.data(), next.size()),
                      OSSL_PARAM_construct_end()};
    if (EVP_CIPHER_CTX_get_params(ctx_, p) != 1) return {999, {}};
    return {num, next};
  }
  bool set_num(unsigned num) {
    OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num), OSSL_PARAM_construct_end()};
    return EVP_CIPHER_CTX_set_params(ctx_, p) == 1;
  }
  EVP_CIPHER_CTX* ctx() const { return ctx_; }

 private:
  EVP_CIPHER* ci_ = nullptr;
  EVP_CIPHER_CTX* ctx_ = nullptr;
  bool inited_ = false;
};

// iv + k as a big-endian integer, modulo 2^(8*len).
Bytes add(Bytes iv, uint64_t k) {
  for (size_t i = iv.size(); i-- > 0 && k != 0;) {
    const uint64_t s = iv[i] + (k & 0xff);
    iv[i] = uint8_t(s);
    k = (k >> 8) + (s >> 8);
  }
  return iv;
}

// Update sizes around every batch boundary (1 … 128 blocks of 8 … 32 bytes).
std::vector<size_t> chunk_sizes(std::mt19937& rng, size_t total) {
  static const size_t kEdges[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 63, 64, 65,
                                  127, 128, 129, 255, 256, 257, 511, 512, 513, 767, 768, 769,
                                  1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097};
  std::vector<size_t> out;
  size_t sum = 0;
  while (sum < total) {
    size_t n = rng() % 3 == 0 ? kEdges[rng() % std::size(kEdges)] : 1 + rng() % 48;
    n = std::min(n, total - sum);
    out.push_back(n);
    sum += n;
  }
  return out;
}

class CtrStream : public ::testing::TestWithParam<std::string> {
 protected:
  ProviderFixture fx_;
};

TEST_P(CtrStream, EveryUpdateMatchesOneShotAndReportsConsumedState) {
  ASSERT_TRUE(fx_.ok());
  const std::string name = GetParam();
  std::mt19937 rng(1234);
  for (int round = 0; round < 6; ++round) {
    Stream ours(fx_.libctx(), name.c_str(), kOurs);
    ASSERT_TRUE(ours.ok());
    const size_t bs = ours.iv_len();
    Bytes key = random_bytes(ours.key_len()), iv = random_bytes(bs);
    if (round % 2 == 0) std::fill(iv.begin(), iv.end() - 1, 0xff);  // wraps to 00..00 soon
    const Bytes pt = random_bytes(20000 + rng() % 5000);
    Bytes want;
    ASSERT_TRUE(evp_crypt(fx_.libctx(), name.c_str(), kOurs, true, key, iv, pt, &want));
    std::unique_ptr<Stream> peer;
    if (has_default_peer(name)) {
      peer = std::make_unique<Stream>(fx_.libctx(), name.c_str(), kDefault);
      ASSERT_TRUE(peer->ok() && peer->init(&key, &iv));
    }
    ASSERT_TRUE(ours.init(&key, &iv));
    size_t pos = 0;
    for (size_t n : chunk_sizes(rng, pt.size())) {
      const Bytes got = ours.update(pt.data() + pos, n);
      ASSERT_EQ(got, Bytes(want.begin() + pos, want.begin() + pos + n)) << "at " << pos << " +" << n;
      pos += n;
      const auto [num, next] = ours.state();
      EXPECT_EQ(num, pos % bs) << "at " << pos;
      EXPECT_EQ(next, add(iv, (pos + bs - 1) / bs)) << "at " << pos;
      if (peer) {
        EXPECT_EQ(peer->update(pt.data() + pos - n, n), got);
        EXPECT_EQ(peer->state(), ours.state()) << "default provider's num/updated-iv at " << pos;
      }
    }
  }
}

// Re-init mid-buffer: without an IV the stream continues at the next unused
// block (as the default provider does); with a new IV it restarts there; a
// new key drops the buffered keystream of the old one.
TEST_P(CtrStream, ReinitMidBuffer) {
  ASSERT_TRUE(fx_.ok());
  const std::string name = GetParam();
  Stream ours(fx_.libctx(), name.c_str(), kOurs);
  ASSERT_TRUE(ours.ok());
  const size_t bs = ours.iv_len();
  Bytes key = random_bytes(ours.key_len()), key2 = random_bytes(ours.key_len());
  Bytes iv = random_bytes(bs), iv2 = random_bytes(bs), pt = random_bytes(600);
  ASSERT_TRUE(ours.init(&key, &iv));
  for (int i = 0; i < 8; ++i) ASSERT_EQ(ours.update(pt.data(), 5).size(), 5u);  // 40 bytes in, buffer filled ahead
  // 1. no IV: continue at block ceil(40 / bs).
  ASSERT_TRUE(ours.init(nullptr, nullptr));
  Bytes want;
  ASSERT_TRUE(evp_crypt(fx_.libctx(), name.c_str(), kOurs, true, key, add(iv, (40 + bs - 1) / bs), pt, &want));
  EXPECT_EQ(ours.update(pt.data(), 7), Bytes(want.begin(), want.begin() + 7));
  if (has_default_peer(name)) {
    Stream peer(fx_.libctx(), name.c_str(), kDefault);
    ASSERT_TRUE(peer.init(&key, &iv));
    for (int i = 0; i < 8; ++i) peer.update(pt.data(), 5);
    ASSERT_TRUE(peer.init(nullptr, nullptr));
    EXPECT_EQ(peer.update(pt.data(), 7), Bytes(want.begin(), want.begin() + 7)) << "default provider";
  }
  // 2. new IV mid-buffer.
  ASSERT_TRUE(ours.init(nullptr, &iv2));
  ASSERT_TRUE(evp_crypt(fx_.libctx(), name.c_str(), kOurs, true, key, iv2, pt, &want));
  EXPECT_EQ(ours.update(pt.data(), pt.size()), want);
  // 3. new key, same IV, mid-buffer.
  ASSERT_TRUE(ours.init(&key2, &iv2));
  ours.update(pt.data(), 3);
  ASSERT_TRUE(ours.init(&key, &iv2));
  EXPECT_EQ(ours.update(pt.data(), 100), Bytes(want.begin(), want.begin() + 100));
}

// A stream saved as (updated-iv, num) mid-buffer resumes in a fresh context,
// and setting num on a live context mid-buffer regenerates from there (up to
// 3.0.19; from 3.0.20 on num is refused, as by the default provider).
TEST_P(CtrStream, ResumesFromSavedStateMidBuffer) {
  ASSERT_TRUE(fx_.ok());
  const std::string name = GetParam();
  Stream a(fx_.libctx(), name.c_str(), kOurs), b(fx_.libctx(), name.c_str(), kOurs);
  ASSERT_TRUE(a.ok() && b.ok());
  const size_t bs = a.iv_len();
  Bytes key = random_bytes(a.key_len()), iv(bs, 0xff), pt = random_bytes(8000), want;
  ASSERT_TRUE(evp_crypt(fx_.libctx(), name.c_str(), kOurs, true, key, iv, pt, &want));
  for (size_t first : {size_t(1), bs - 1, bs + 3, 5 * bs + 1, 200 * bs + 7}) {
    ASSERT_TRUE(a.init(&key, &iv));
    size_t pos = 0;
    while (pos < first) pos += a.update(pt.data() + pos, std::min<size_t>(3, first - pos)).size();
    const auto [num, next] = a.state();
    ASSERT_TRUE(b.init(&key, &next));
    if (!default_num_unbounded()) {
      // From 3.0.20 on the default provider takes only num 0 on a stream, and
      // so do we (README, Differences from the default provider).
      ASSERT_NE(num, 0u);
      EXPECT_FALSE(b.set_num(num)) << "after " << first;
      EXPECT_FALSE(a.set_num(num)) << "after " << first;
      ERR_clear_error();
      continue;
    }
    ASSERT_TRUE(b.set_num(num));
    EXPECT_EQ(b.update(pt.data() + first, 500), Bytes(want.begin() + first, want.begin() + first + 500))
        << "resumed after " << first;
    // The live context, num set to what it already is: the same continuation.
    ASSERT_TRUE(a.set_num(num));
    EXPECT_EQ(a.update(pt.data() + first, 500), Bytes(want.begin() + first, want.begin() + first + 500))
        << "num re-set after " << first;
  }
}

// EVP_CIPHER_CTX_copy mid-buffer: both copies continue the same stream.
TEST_P(CtrStream, CopyMidBuffer) {
  ASSERT_TRUE(fx_.ok());
  const std::string name = GetParam();
  Stream a(fx_.libctx(), name.c_str(), kOurs);
  ASSERT_TRUE(a.ok());
  Bytes key = random_bytes(a.key_len()), iv = random_bytes(a.iv_len()), pt = random_bytes(400), want;
  ASSERT_TRUE(evp_crypt(fx_.libctx(), name.c_str(), kOurs, true, key, iv, pt, &want));
  ASSERT_TRUE(a.init(&key, &iv));
  a.update(pt.data(), 11);
  EVP_CIPHER_CTX* b = EVP_CIPHER_CTX_new();
  ASSERT_EQ(EVP_CIPHER_CTX_copy(b, a.ctx()), 1);
  Bytes out(389);
  int outl = 0;
  ASSERT_EQ(EVP_EncryptUpdate(b, out.data(), &outl, pt.data() + 11, 389), 1);
  EXPECT_EQ(out, Bytes(want.begin() + 11, want.end()));
  EXPECT_EQ(a.update(pt.data() + 11, 389), out);
  EVP_CIPHER_CTX_free(b);
}

INSTANTIATE_TEST_SUITE_P(Ciphers, CtrStream, ::testing::ValuesIn(ctr_names()),
                         [](const auto& info) { return gtest_name(info.param); });

}  // namespace
}  // namespace gpucrypto::test
