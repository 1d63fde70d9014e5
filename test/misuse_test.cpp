// Misuse and limits: every cipher entry point of the provider with NULL,
// zero and huge lengths, undersized and overlapping buffers, params of the
// wrong type or value, re-init with a new key or IV mid-stream, dupctx in the
// middle of a stream; the babyKyber KEM and keymgmt likewise. Each call must
// give a clear error (queued, with a reason string) or the correct result --
// never a crash. CI also runs this executable under valgrind's leak checker
// (.ci/hardening.sh) and under ASan/LSan, which is where leaks would show.
#include <gtest/gtest.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/cipher_registry.h"
#include "gpucrypto/babykyber.h"
#include "gpucrypto/mlkem.h"
#include "test/test_util.h"

namespace {

using gpucrypto::test::Bytes;
using gpucrypto::test::ProviderFixture;
using gpucrypto::test::random_bytes;

// Drains the error queue; true when at least one error with a known reason
// string was queued (the "clear error" half of the contract).
bool take_clear_error(std::string* text = nullptr) {
  bool clear = false;
  unsigned long e;
  const char* file = nullptr;
  int line = 0;
  const char* data = nullptr;
  int flags = 0;
  while ((e = ERR_get_error_all(&file, &line, nullptr, &data, &flags)) != 0) {
    const char* reason = ERR_reason_error_string(e);
    if (reason != nullptr && *reason != 0) clear = true;
    if (text != nullptr) {
      *text += reason != nullptr ? reason : "(no reason)";
      if ((flags & ERR_TXT_STRING) != 0 && data != nullptr) *text += std::string(": ") + data;
      *text += "\n";
    }
  }
  return clear;
}

// The raw provider-side dispatch of one registered cipher, to call entry
// points with arguments the EVP layer would filter out (size_t lengths
// beyond INT_MAX, NULL buffers).
struct RawCipher {
  std::string name;
  OSSL_FUNC_cipher_newctx_fn* newctx = nullptr;
  OSSL_FUNC_cipher_freectx_fn* freectx = nullptr;
  OSSL_FUNC_cipher_dupctx_fn* dupctx = nullptr;
  OSSL_FUNC_cipher_encrypt_init_fn* einit = nullptr;
  OSSL_FUNC_cipher_decrypt_init_fn* dinit = nullptr;
  OSSL_FUNC_cipher_update_fn* update = nullptr;
  OSSL_FUNC_cipher_final_fn* final = nullptr;
  OSSL_FUNC_cipher_cipher_fn* cipher = nullptr;
  OSSL_FUNC_cipher_get_ctx_params_fn* get_ctx_params = nullptr;
  OSSL_FUNC_cipher_set_ctx_params_fn* set_ctx_params = nullptr;
};

struct Sizes {
  size_t key, iv, block;  // block: EVP block size (1 for the streams: CTR, CFB, OFB)
  bool ctr;               // a stream mode (no padding, `num`); iv > 0: the mode takes an IV
};

Sizes sizes_of(const EVP_CIPHER* c) {
  return {size_t(EVP_CIPHER_get_key_length(c)), size_t(EVP_CIPHER_get_iv_length(c)),
          size_t(EVP_CIPHER_get_block_size(c)), EVP_CIPHER_get_block_size(c) == 1};
}

// A random key, IV and `len`-byte message for cipher `name` (fetched as
// `c`), and their one-shot encryption through the provider: what every
// incremental path must reproduce.
struct OneShot {
  Sizes s;
  Bytes key, iv, msg, expect;
};
void one_shot(OSSL_LIB_CTX* lib, const std::string& name, const EVP_CIPHER* c, size_t len,
              OneShot* o) {
  o->s = sizes_of(c);
  o->key = random_bytes(o->s.key);
  o->iv = random_bytes(o->s.iv);
  o->msg = random_bytes(len);
  ASSERT_TRUE(gpucrypto::test::evp_crypt(lib, name.c_str(), "provider=gpucrypto", true, o->key,
                                         o->iv, o->msg, &o->expect));
}

class Misuse : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fx_.ok()) << "load gpucrypto from " << gpucrypto::test::module_dir();
    provctx_ = OSSL_PROVIDER_get0_provider_ctx(fx_.provider());
    int no_cache = 0;
    const OSSL_ALGORITHM* algs =
        OSSL_PROVIDER_query_operation(fx_.provider(), OSSL_OP_CIPHER, &no_cache);
    ASSERT_NE(algs, nullptr);
    for (; algs->algorithm_names != nullptr; ++algs) {
      RawCipher r;
      r.name = algs->algorithm_names;
      r.name = r.name.substr(0, r.name.find(':'));
      // The GCM AEAD ciphers follow other rules (tags, IV states, TLS
      // records): gcm_params_test checks them call for call against the
      // default provider, and fuzz_gcm. The checks here are the generic
      // layer's (ECB, CTR).
      if (r.name.size() > 4 && r.name.compare(r.name.size() - 4, 4, "-GCM") == 0) continue;
      for (const OSSL_DISPATCH* d = algs->implementation; d->function_id != 0; ++d) {
        switch (d->function_id) {
          case OSSL_FUNC_CIPHER_NEWCTX: r.newctx = OSSL_FUNC_cipher_newctx(d); break;
          case OSSL_FUNC_CIPHER_FREECTX: r.freectx = OSSL_FUNC_cipher_freectx(d); break;
          case OSSL_FUNC_CIPHER_DUPCTX: r.dupctx = OSSL_FUNC_cipher_dupctx(d); break;
          case OSSL_FUNC_CIPHER_ENCRYPT_INIT: r.einit = OSSL_FUNC_cipher_encrypt_init(d); break;
          case OSSL_FUNC_CIPHER_DECRYPT_INIT: r.dinit = OSSL_FUNC_cipher_decrypt_init(d); break;
          case OSSL_FUNC_CIPHER_UPDATE: r.update = OSSL_FUNC_cipher_update(d); break;
          case OSSL_FUNC_CIPHER_FINAL: r.final = OSSL_FUNC_cipher_final(d); break;
          case OSSL_FUNC_CIPHER_CIPHER: r.cipher = OSSL_FUNC_cipher_cipher(d); break;
          case OSSL_FUNC_CIPHER_GET_CTX_PARAMS:
            r.get_ctx_params = OSSL_FUNC_cipher_get_ctx_params(d);
            break;
          case OSSL_FUNC_CIPHER_SET_CTX_PARAMS:
            r.set_ctx_params = OSSL_FUNC_cipher_set_ctx_params(d);
            break;
          default: break;
        }
      }
      raw_.push_back(r);
    }
    // Every registry row in every mode it has (engine/cipher_registry.h;
    // today 14 block ciphers x ECB, CTR, CBC, CFB, OFB, and CFB1/CFB8 for the
    // three AES: 76).
    const auto every = [](const gpucrypto::CipherRow&, gpucrypto::Mode) { return true; };
    ASSERT_EQ(raw_.size(), gpucrypto::evp_names(every).size()) << "README, Algorithms";
    ERR_clear_error();
  }
  void TearDown() override { ERR_clear_error(); }

  EVP_CIPHER* fetch(const std::string& name, const char* propq = "provider=gpucrypto") {
    return EVP_CIPHER_fetch(fx_.libctx(), name.c_str(), propq);
  }

  // r's cipher fetched (nullptr if it cannot be), its sizes, its real block
  // (CTR's is the counter, the IV) and a random key and IV.
  struct Opened {
    EVP_CIPHER* c;
    Sizes s;
    size_t bs;
    Bytes key, iv;
  };
  Opened open(const RawCipher& r) {
    EVP_CIPHER* c = fetch(r.name);
    if (c == nullptr) return {};
    const Sizes s = sizes_of(c);
    return {c, s, s.ctr ? s.iv : s.block, random_bytes(s.key), random_bytes(s.iv)};
  }

  // body(c, o) for every raw cipher, traced with its name: `c` fetched from
  // our provider, `o` a fresh one-shot of a `len`-byte message.
  template <class Body>
  void for_each_one_shot(size_t len, Body body) {
    for (const RawCipher& r : raw_) {
      SCOPED_TRACE(r.name);
      EVP_CIPHER* c = fetch(r.name);
      OneShot o;
      ASSERT_NO_FATAL_FAILURE(one_shot(fx_.libctx(), r.name, c, len, &o));
      body(c, o);
      EVP_CIPHER_free(c);
    }
  }

  ProviderFixture fx_;
  void* provctx_ = nullptr;
  std::vector<RawCipher> raw_;
};

TEST_F(Misuse, RawEntryPointsRejectNullHugeAndOverlappingArguments) {
  for (const RawCipher& r : raw_) {
    SCOPED_TRACE(r.name);
    const auto [c, s, bs, key, iv] = open(r);
    ASSERT_NE(c, nullptr);
    uint8_t in[256] = {}, out[256 + 64] = {};
    size_t outl = 12345;

    void* ctx = r.newctx(provctx_);
    ASSERT_NE(ctx, nullptr);
    // No key yet: update, cipher and final all refuse.
    EXPECT_EQ(r.update(ctx, out, &outl, sizeof out, in, 16), 0);
    EXPECT_TRUE(take_clear_error());
    EXPECT_EQ(outl, 0u);
    EXPECT_EQ(r.final(ctx, out, &outl, sizeof out), 0);
    EXPECT_TRUE(take_clear_error());
    // Wrong key and IV lengths (one short, one long, zero).
    for (size_t kl : {s.key - 1, s.key + 1, size_t(0)}) {
      EXPECT_EQ(r.einit(ctx, key.data(), kl, nullptr, 0, nullptr), 0) << kl;
      EXPECT_TRUE(take_clear_error());
    }
    if (s.iv > 0) {
      for (size_t il : {s.iv - 1, s.iv + 1, size_t(0)}) {
        EXPECT_EQ(r.einit(ctx, key.data(), s.key, iv.data(), il, nullptr), 0) << il;
        EXPECT_TRUE(take_clear_error());
      }
    }
    ASSERT_EQ(r.einit(ctx, key.data(), s.key, s.iv ? iv.data() : nullptr, s.iv, nullptr), 1);
    // Zero length: success, nothing written, even with NULL buffers.
    EXPECT_EQ(r.update(ctx, nullptr, &outl, 0, nullptr, 0), 1);
    EXPECT_EQ(outl, 0u);
    // NULL with a non-zero length.
    EXPECT_EQ(r.update(ctx, out, &outl, sizeof out, nullptr, 16), 0);
    EXPECT_TRUE(take_clear_error());
    EXPECT_EQ(r.update(ctx, nullptr, &outl, sizeof out, in, 16), 0);
    EXPECT_TRUE(take_clear_error());
    // Huge lengths: rejected before any byte is touched.
    for (size_t huge : {SIZE_MAX, SIZE_MAX / 2 + 1, SIZE_MAX - 15}) {
      EXPECT_EQ(r.update(ctx, out, &outl, SIZE_MAX, in, huge), 0);
      EXPECT_TRUE(take_clear_error());
      EXPECT_EQ(r.cipher(ctx, out, &outl, SIZE_MAX, in, huge), 0);
      EXPECT_TRUE(take_clear_error());
    }
    // Output buffer too small for what the call must produce.
    EXPECT_EQ(r.update(ctx, out, &outl, 3 * bs - 1, in, 4 * bs), 0);
    EXPECT_TRUE(take_clear_error());
    EXPECT_EQ(r.cipher(ctx, out, &outl, bs - 1, in, bs), 0);
    EXPECT_TRUE(take_clear_error());
    // Partially overlapping buffers (in place is fine, shifted is not).
    std::memcpy(out, in, 4 * bs);
    EXPECT_EQ(r.update(ctx, out + 1, &outl, 4 * bs, out, 4 * bs), 0);
    EXPECT_TRUE(take_clear_error());
    EXPECT_EQ(r.update(ctx, out, &outl, 4 * bs, out + 1, 4 * bs), 0);
    EXPECT_TRUE(take_clear_error());
    // ECB and CBC: EVP_Cipher needs whole blocks.
    if (!s.ctr) {
      EXPECT_EQ(r.cipher(ctx, out, &outl, sizeof out, in, bs + 1), 0);
      EXPECT_TRUE(take_clear_error());
    }
    // Final into no buffer where padding must be written.
    if (!s.ctr) {
      ASSERT_EQ(r.einit(ctx, nullptr, 0, nullptr, 0, nullptr), 1);
      EXPECT_EQ(r.final(ctx, nullptr, &outl, 0), 0);
      EXPECT_TRUE(take_clear_error());
    }
    r.freectx(ctx);
    r.freectx(nullptr);  // like free(NULL)
    EVP_CIPHER_free(c);
  }
}

TEST_F(Misuse, ParamsOfTheWrongTypeOrValueAreRejected) {
  for (const RawCipher& r : raw_) {
    SCOPED_TRACE(r.name);
    const auto [c, s, bs, key, iv] = open(r);
    ASSERT_NE(c, nullptr);
    void* ctx = r.newctx(provctx_);
    ASSERT_EQ(r.einit(ctx, key.data(), s.key, s.iv ? iv.data() : nullptr, s.iv, nullptr), 1);

    char text[] = "1";
    uint8_t octets[8] = {1};
    unsigned big = 1u << 20;
    size_t wrong_keylen = s.key + 8, wrong_ivlen = s.iv + 1;
    const std::vector<std::vector<OSSL_PARAM>> bad_sets = {
        {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_PADDING, text, 0), OSSL_PARAM_END},
        {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_PADDING, octets, sizeof octets),
         OSSL_PARAM_END},
        {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_NUM, octets, sizeof octets),
         OSSL_PARAM_END},
        {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &wrong_keylen), OSSL_PARAM_END},
        {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_KEYLEN, text, 0), OSSL_PARAM_END},
        {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &wrong_ivlen), OSSL_PARAM_END},
    };
    for (size_t i = 0; i < bad_sets.size(); ++i) {
      EXPECT_EQ(r.set_ctx_params(ctx, bad_sets[i].data()), 0) << "set #" << i;
      EXPECT_TRUE(take_clear_error()) << "set #" << i;
    }
    // `num` by the default provider's rule of the running libcrypto (README,
    // Differences from the default provider): up to 3.0.19 any value, except
    // the block size and beyond where num indexes the register (CTR, CFB,
    // OFB: the default provider reads and writes out of bounds there); from
    // 3.0.20 on only values below the EVP block size (ECB/CBC: the cipher's
    // block; the streams: 1, so only 0). 0 is taken everywhere.
    const auto ends_with = [&](const char* sfx) {
      const size_t n = std::strlen(sfx);
      return r.name.size() > n && r.name.compare(r.name.size() - n, n, sfx) == 0;
    };
    const bool num_unused = !s.ctr || ends_with("-CFB8") || ends_with("-CFB1");
    for (unsigned v : {0u, 1u, unsigned(bs - 1), unsigned(bs), big}) {
      const int want = v == 0 ? 1
                       : v < bs ? (!s.ctr || gpucrypto::test::default_num_unbounded() ? 1 : 0)
                                : (num_unused && gpucrypto::test::default_num_unbounded() ? 1 : 0);
      const OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &v), OSSL_PARAM_END};
      EXPECT_EQ(r.set_ctx_params(ctx, p), want) << "num " << v;
      if (want == 0) {
        EXPECT_TRUE(take_clear_error()) << "num " << v;
      }
    }
    // Unknown keys are ignored, NULL is "nothing to set".
    int whatever = 7;
    const OSSL_PARAM unknown[] = {OSSL_PARAM_construct_int("no-such-param", &whatever),
                                  OSSL_PARAM_END};
    EXPECT_EQ(r.set_ctx_params(ctx, unknown), 1);
    EXPECT_EQ(r.set_ctx_params(ctx, nullptr), 1);

    // Getters into receivers of the wrong type or too small.
    uint8_t small[1];
    char str[64];
    const std::vector<std::vector<OSSL_PARAM>> bad_gets = {
        {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_KEYLEN, str, sizeof str), OSSL_PARAM_END},
        {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_MODE, small, sizeof small),
         OSSL_PARAM_END},
    };
    for (size_t i = 0; i < bad_gets.size(); ++i) {
      std::vector<OSSL_PARAM> p = bad_gets[i];
      EXPECT_EQ(r.get_ctx_params(ctx, p.data()), 0) << "get #" << i;
      EXPECT_TRUE(take_clear_error()) << "get #" << i;
    }
    if (s.iv > 0) {  // an IV does not fit into one byte
      OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, small,
                                                          sizeof small),
                        OSSL_PARAM_END};
      EXPECT_EQ(r.get_ctx_params(ctx, p), 0);
      EXPECT_TRUE(take_clear_error());
    }
    // And the right types still work afterwards: the context is intact.
    size_t keylen = 0;
    OSSL_PARAM ok[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
                       OSSL_PARAM_END};
    EXPECT_EQ(r.get_ctx_params(ctx, ok), 1);
    EXPECT_EQ(keylen, s.key);
    r.freectx(ctx);
    EVP_CIPHER_free(c);
  }
}

// Runs `data` through an initialised EVP context in the given pieces.
Bytes feed(EVP_CIPHER_CTX* ctx, const Bytes& data, const std::vector<size_t>& pieces,
           bool final = true) {
  Bytes out(data.size() + 64);
  size_t pos = 0, done = 0;
  for (size_t n : pieces) {
    int outl = 0;
    EXPECT_EQ(EVP_CipherUpdate(ctx, out.data() + done, &outl, data.data() + pos, int(n)), 1);
    pos += n;
    done += size_t(outl);
  }
  if (final) {
    int outl = 0;
    EXPECT_EQ(EVP_CipherFinal_ex(ctx, out.data() + done, &outl), 1);
    done += size_t(outl);
  }
  out.resize(done);
  return out;
}

TEST_F(Misuse, ZeroLengthUpdatesAndEmptyMessagesGiveTheCorrectResult) {
  for_each_one_shot(77, [&](const EVP_CIPHER* c, const OneShot& o) {
    const Sizes& s = o.s;
    const Bytes &key = o.key, &iv = o.iv, &msg = o.msg, &expect = o.expect;
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, c, key.data(), s.iv ? iv.data() : nullptr, nullptr), 1);
    EXPECT_EQ(feed(ctx, msg, {0, 5, 0, 0, 31, 0, 41, 0}), expect);
    // An empty message: a stream gives nothing, ECB and CBC one block of padding.
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, nullptr, key.data(), s.iv ? iv.data() : nullptr, nullptr), 1);
    const Bytes empty = feed(ctx, {}, {0});
    EXPECT_EQ(empty.size(), s.ctr ? 0u : s.block);
    EVP_CIPHER_CTX_free(ctx);
  });
}

TEST_F(Misuse, ReinitWithANewKeyOrIvMidStreamStartsAFreshStream) {
  for (const RawCipher& r : raw_) {
    SCOPED_TRACE(r.name);
    EVP_CIPHER* c = fetch(r.name);
    const Sizes s = sizes_of(c);
    const Bytes k1 = random_bytes(s.key), k2 = random_bytes(s.key), iv1 = random_bytes(s.iv),
                iv2 = random_bytes(s.iv), msg = random_bytes(100);
    Bytes fresh_k2, fresh_k2_iv2;
    ASSERT_TRUE(gpucrypto::test::evp_crypt(fx_.libctx(), r.name.c_str(), "provider=gpucrypto", true,
                                           k2, iv1, msg, &fresh_k2));
    ASSERT_TRUE(gpucrypto::test::evp_crypt(fx_.libctx(), r.name.c_str(), "provider=gpucrypto", true,
                                           k2, iv2, msg, &fresh_k2_iv2));
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    const uint8_t* i1 = s.iv ? iv1.data() : nullptr;
    const uint8_t* i2 = s.iv ? iv2.data() : nullptr;
    // Half a stream (with a partial block buffered), then a new key and IV.
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, c, k1.data(), i1, nullptr), 1);
    feed(ctx, msg, {37}, false);
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, nullptr, k2.data(), i2, nullptr), 1);
    EXPECT_EQ(feed(ctx, msg, {13, 87}), fresh_k2_iv2);
    // New key and the IV given again.
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, c, k1.data(), i1, nullptr), 1);
    feed(ctx, msg, {37}, false);
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, nullptr, k2.data(), i1, nullptr), 1);
    EXPECT_EQ(feed(ctx, msg, {100}), fresh_k2);
    // Encrypt context switched to decrypt mid-stream, same key.
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, c, k2.data(), i1, nullptr), 1);
    feed(ctx, msg, {37}, false);
    ASSERT_EQ(EVP_DecryptInit_ex2(ctx, nullptr, k2.data(), i1, nullptr), 1);
    EXPECT_EQ(feed(ctx, fresh_k2, {50, 0, fresh_k2.size() - 50}), msg);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
  }
}

// Where OpenSSL's default provider has the cipher, a re-init mid-stream must
// behave exactly like it, including re-init with only a key (no IV) and with
// neither (mode semantics identical to the default provider: README, Algorithms).
TEST_F(Misuse, ReinitSequencesMatchTheDefaultProvider) {
  for (const char* name : {"AES-128-CTR", "AES-256-CTR", "SM4-CTR", "AES-192-ECB", "SM4-ECB",
                           "AES-128-CBC", "SM4-CBC", "AES-192-CFB", "SM4-CFB", "AES-256-OFB",
                           "SM4-OFB", "AES-128-CFB8", "AES-256-CFB1"}) {
    SCOPED_TRACE(name);
    EVP_CIPHER* ours = fetch(name);
    EVP_CIPHER* theirs = fetch(name, "provider=default");
    ASSERT_NE(ours, nullptr);
    ASSERT_NE(theirs, nullptr);
    const Sizes s = sizes_of(ours);
    const Bytes k1 = random_bytes(s.key), k2 = random_bytes(s.key), iv = random_bytes(s.iv),
                msg = random_bytes(200);
    const uint8_t* ivp = s.iv ? iv.data() : nullptr;
    auto run = [&](EVP_CIPHER* c, int variant) {
      EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
      EXPECT_EQ(EVP_EncryptInit_ex2(ctx, c, k1.data(), ivp, nullptr), 1);
      Bytes out = feed(ctx, msg, {21}, false);
      switch (variant) {
        case 0: EXPECT_EQ(EVP_EncryptInit_ex2(ctx, nullptr, k2.data(), nullptr, nullptr), 1); break;
        case 1: EXPECT_EQ(EVP_EncryptInit_ex2(ctx, nullptr, nullptr, nullptr, nullptr), 1); break;
        case 2: EXPECT_EQ(EVP_EncryptInit_ex2(ctx, nullptr, nullptr, ivp, nullptr), 1); break;
      }
      const Bytes rest = feed(ctx, msg, {29, 150});
      out.insert(out.end(), rest.begin(), rest.end());
      EVP_CIPHER_CTX_free(ctx);
      return out;
    };
    for (int v = 0; v < 3; ++v)
      EXPECT_EQ(gpucrypto::test::to_hex(run(ours, v)), gpucrypto::test::to_hex(run(theirs, v)))
          << "variant " << v << " (0: new key only, 1: nothing, 2: IV only)";
    EVP_CIPHER_free(ours);
    EVP_CIPHER_free(theirs);
  }
}

// Decrypting with padding holds the last full block back; once padding is
// turned off, any update -- even an empty one -- releases it, step for step
// as the default provider does (a difference found by fuzz_cipher).
TEST_F(Misuse, HeldBackBlockIsReleasedByAnEmptyUpdateOncePaddingIsOff) {
  for (const char* name : {"AES-128-ECB", "SM4-ECB", "AES-128-CBC", "SM4-CBC"}) {
    SCOPED_TRACE(name);
    const Bytes key = random_bytes(16), ct = random_bytes(48);
    auto steps = [&](const char* propq) {
      EVP_CIPHER* c = fetch(name, propq);
      EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
      EXPECT_EQ(EVP_DecryptInit_ex2(ctx, c, key.data(), nullptr, nullptr), 1);
      std::vector<int> lens;
      Bytes out(ct.size() + 32);
      int outl = -1;
      EXPECT_EQ(EVP_DecryptUpdate(ctx, out.data(), &outl, ct.data(), 32), 1);  // 16 out, 16 held
      lens.push_back(outl);
      EXPECT_EQ(EVP_CIPHER_CTX_set_padding(ctx, 0), 1);
      EXPECT_EQ(EVP_DecryptUpdate(ctx, out.data() + 16, &outl, ct.data() + 32, 0), 1);
      lens.push_back(outl);
      EXPECT_EQ(EVP_DecryptUpdate(ctx, out.data() + 32, &outl, ct.data() + 32, 16), 1);
      lens.push_back(outl);
      EXPECT_EQ(EVP_DecryptFinal_ex(ctx, out.data() + 48, &outl), 1);
      lens.push_back(outl);
      out.resize(48);
      EVP_CIPHER_CTX_free(ctx);
      EVP_CIPHER_free(c);
      return std::make_pair(lens, out);
    };
    const auto ours = steps("provider=gpucrypto"), theirs = steps("provider=default");
    EXPECT_EQ(ours.first, (std::vector<int>{16, 16, 16, 0}));
    EXPECT_EQ(ours.first, theirs.first);
    EXPECT_EQ(gpucrypto::test::to_hex(ours.second), gpucrypto::test::to_hex(theirs.second));
  }
}

TEST_F(Misuse, DupctxMidStreamContinuesIndependently) {
  for_each_one_shot(150, [&](const EVP_CIPHER* c, const OneShot& o) {
    const Sizes& s = o.s;
    const Bytes &key = o.key, &iv = o.iv, &msg = o.msg, &expect = o.expect;
    EVP_CIPHER_CTX* a = EVP_CIPHER_CTX_new();
    EVP_CIPHER_CTX* b = EVP_CIPHER_CTX_new();
    ASSERT_EQ(EVP_EncryptInit_ex2(a, c, key.data(), s.iv ? iv.data() : nullptr, nullptr), 1);
    const Bytes head = feed(a, msg, {45}, false);  // a partial block is buffered
    ASSERT_EQ(EVP_CIPHER_CTX_copy(b, a), 1);
    const Bytes tail_a = feed(a, Bytes(msg.begin() + 45, msg.end()), {105});
    EVP_CIPHER_CTX_free(a);  // the copy must not depend on the original
    const Bytes tail_b = feed(b, Bytes(msg.begin() + 45, msg.end()), {7, 98});
    Bytes all_a = head, all_b = head;
    all_a.insert(all_a.end(), tail_a.begin(), tail_a.end());
    all_b.insert(all_b.end(), tail_b.begin(), tail_b.end());
    EXPECT_EQ(all_a, expect);
    EXPECT_EQ(all_b, expect);
    EVP_CIPHER_CTX_free(b);
  });
}

TEST_F(Misuse, EcbFinalErrorsAreReported) {
  for (const RawCipher& r : raw_) {
    EVP_CIPHER* c = fetch(r.name);
    const Sizes s = sizes_of(c);
    if (s.ctr) {
      EVP_CIPHER_free(c);
      continue;
    }
    SCOPED_TRACE(r.name);
    const Bytes key = random_bytes(s.key);
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    uint8_t out[64];
    int outl = 0;
    // No padding and a partial block.
    ASSERT_EQ(EVP_EncryptInit_ex2(ctx, c, key.data(), nullptr, nullptr), 1);
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    ASSERT_EQ(EVP_EncryptUpdate(ctx, out, &outl, out, 3), 1);
    EXPECT_EQ(EVP_EncryptFinal_ex(ctx, out, &outl), 0);
    std::string why;
    EXPECT_TRUE(take_clear_error(&why));
    EXPECT_NE(why.find("wrong final block length"), std::string::npos) << why;
    // Decrypting something that is not PKCS#7-padded (a block of zeros
    // decrypts to random bytes; a valid pad is possible but rare: retry).
    bool saw_bad = false;
    for (int attempt = 0; attempt < 8 && !saw_bad; ++attempt) {
      const Bytes junk = random_bytes(s.block);
      ASSERT_EQ(EVP_DecryptInit_ex2(ctx, c, key.data(), nullptr, nullptr), 1);
      EVP_CIPHER_CTX_set_padding(ctx, 1);  // the setting survives re-init
      ASSERT_EQ(EVP_DecryptUpdate(ctx, out, &outl, junk.data(), int(junk.size())), 1);
      if (EVP_DecryptFinal_ex(ctx, out, &outl) == 0) {
        why.clear();
        EXPECT_TRUE(take_clear_error(&why));
        EXPECT_NE(why.find("bad decrypt"), std::string::npos) << why;
        saw_bad = true;
      }
    }
    EXPECT_TRUE(saw_bad);
    // Truncated ciphertext.
    const Bytes short_ct = random_bytes(s.block - 1);
    ASSERT_EQ(EVP_DecryptInit_ex2(ctx, c, key.data(), nullptr, nullptr), 1);
    ASSERT_EQ(EVP_DecryptUpdate(ctx, out, &outl, short_ct.data(), int(short_ct.size())), 1);
    EXPECT_EQ(EVP_DecryptFinal_ex(ctx, out, &outl), 0);
    EXPECT_TRUE(take_clear_error());
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
  }
}

// --- KEMs: babyKyber and ML-KEM ------------------------------------------------

using gpucrypto::test::evp_fromdata;

EVP_PKEY* bk_from(OSSL_LIB_CTX* lib, const OSSL_PARAM* params, int selection) {
  return evp_fromdata(lib, "babyKyber", params, selection);
}

// The KEM misuse sequence, the same for every KEM: decapsulation without a
// private key, short output buffers, wrong ciphertext lengths (`bad_ct_lens`)
// -- each a clear error -- then size queries and a round trip. Takes
// ownership of both keys.
void kem_misuse_sequence(OSSL_LIB_CTX* lib, EVP_PKEY* pub_key, EVP_PKEY* pair, size_t ctl_want,
                         size_t ssl_want, const std::vector<size_t>& bad_ct_lens) {
  ASSERT_NE(pub_key, nullptr);
  ASSERT_NE(pair, nullptr);

  // Decapsulation needs the private key.
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(lib, pub_key, nullptr);
  EXPECT_NE(EVP_PKEY_decapsulate_init(ctx, nullptr), 1);
  EXPECT_TRUE(take_clear_error());
  EVP_PKEY_CTX_free(ctx);

  // Encapsulate: size query, then buffers one byte short.
  ctx = EVP_PKEY_CTX_new_from_pkey(lib, pub_key, nullptr);
  ASSERT_EQ(EVP_PKEY_encapsulate_init(ctx, nullptr), 1);
  size_t ctl = 0, ssl = 0;
  ASSERT_EQ(EVP_PKEY_encapsulate(ctx, nullptr, &ctl, nullptr, &ssl), 1);
  EXPECT_EQ(ctl, ctl_want);
  EXPECT_EQ(ssl, ssl_want);
  Bytes ct(ctl + 1), ss(ssl), ss2(ssl);
  size_t short_ct = ctl - 1, full_ss = ssl;
  EXPECT_EQ(EVP_PKEY_encapsulate(ctx, ct.data(), &short_ct, ss.data(), &full_ss), 0);
  EXPECT_TRUE(take_clear_error());
  size_t full_ct = ctl, short_ss = ssl - 1;
  EXPECT_EQ(EVP_PKEY_encapsulate(ctx, ct.data(), &full_ct, ss.data(), &short_ss), 0);
  EXPECT_TRUE(take_clear_error());
  full_ct = ctl, full_ss = ssl;
  ASSERT_EQ(EVP_PKEY_encapsulate(ctx, ct.data(), &full_ct, ss.data(), &full_ss), 1);
  EVP_PKEY_CTX_free(ctx);

  // Decapsulate: wrong ciphertext lengths, short output, then the real thing.
  ctx = EVP_PKEY_CTX_new_from_pkey(lib, pair, nullptr);
  ASSERT_EQ(EVP_PKEY_decapsulate_init(ctx, nullptr), 1);
  // (inlen 0 is refused by EVP itself, silently: only the result is checked.)
  size_t outl = ss2.size();
  EXPECT_EQ(EVP_PKEY_decapsulate(ctx, ss2.data(), &outl, ct.data(), 0), 0);
  ERR_clear_error();
  for (size_t n : bad_ct_lens) {
    outl = ss2.size();
    EXPECT_EQ(EVP_PKEY_decapsulate(ctx, ss2.data(), &outl, ct.data(), n), 0) << n;
    EXPECT_TRUE(take_clear_error()) << n;
  }
  outl = ss2.size() - 1;
  EXPECT_EQ(EVP_PKEY_decapsulate(ctx, ss2.data(), &outl, ct.data(), ctl), 0);
  EXPECT_TRUE(take_clear_error());
  outl = 0;
  ASSERT_EQ(EVP_PKEY_decapsulate(ctx, nullptr, &outl, ct.data(), ctl), 1);
  EXPECT_EQ(outl, ss2.size());
  ASSERT_EQ(EVP_PKEY_decapsulate(ctx, ss2.data(), &outl, ct.data(), ctl), 1);
  EXPECT_EQ(ss, ss2);
  EVP_PKEY_CTX_free(ctx);
}

// Frees both keys however kem_misuse_sequence ended (its ASSERTs return early).
struct KeyPairHolder {
  EVP_PKEY* pub;
  EVP_PKEY* pair;
  ~KeyPairHolder() {
    EVP_PKEY_free(pub);
    EVP_PKEY_free(pair);
  }
};

TEST_F(Misuse, BabyKyberImportRejectsWrongLengthsTypesAndValues) {
  uint8_t pk[BABYKYBER_PUBLICKEY_BYTES], sk[BABYKYBER_SECRETKEY_BYTES];
  ASSERT_EQ(babykyber_keypair(fx_.libctx(), pk, sk), BABYKYBER_OK);
  uint8_t longer[BABYKYBER_SECRETKEY_BYTES + 1] = {};
  char text[] = "not a key";
  std::memcpy(longer, sk, sizeof sk);
  // Coefficients are 5-bit fields below 17; all-ones is out of range.
  uint8_t bad_pk[BABYKYBER_PUBLICKEY_BYTES];
  std::memset(bad_pk, 0xff, sizeof bad_pk);
  uint8_t bad_hash[BABYKYBER_SECRETKEY_BYTES];
  std::memcpy(bad_hash, sk, sizeof sk);
  bad_hash[5 + BABYKYBER_PUBLICKEY_BYTES] ^= 1;  // the stored H(pk)
  struct Case {
    const char* what;
    OSSL_PARAM p[2];
    int selection;
  };
  // One parameter: the key (pub for EVP_PKEY_PUBLIC_KEY, else priv) as an
  // octet string of n bytes, or as text when n is 0 and text is set.
  auto key_case = [](const char* what, int sel, uint8_t* bytes, size_t n, char* as_text = nullptr) {
    const char* name = sel == EVP_PKEY_PUBLIC_KEY ? OSSL_PKEY_PARAM_PUB_KEY : OSSL_PKEY_PARAM_PRIV_KEY;
    return Case{what,
                {as_text != nullptr ? OSSL_PARAM_construct_utf8_string(name, as_text, 0)
                                    : OSSL_PARAM_construct_octet_string(name, bytes, n),
                 OSSL_PARAM_END},
                sel};
  };
  const int kPub = EVP_PKEY_PUBLIC_KEY, kPair = EVP_PKEY_KEYPAIR;
  const Case cases[] = {
      key_case("pub one byte short", kPub, pk, sizeof pk - 1),
      key_case("pub empty", kPub, pk, 0),
      key_case("pub as text", kPub, nullptr, 0, text),
      key_case("pub coefficient >= 17", kPub, bad_pk, sizeof bad_pk),
      key_case("priv one byte long", kPair, longer, sizeof longer),
      key_case("priv as text", kPair, nullptr, 0, text),
      key_case("priv with a wrong H(pk)", kPair, bad_hash, sizeof bad_hash),
  };
  for (const Case& c : cases) {
    EVP_PKEY* k = bk_from(fx_.libctx(), c.p, c.selection);
    EXPECT_EQ(k, nullptr) << c.what;
    EXPECT_TRUE(take_clear_error()) << c.what;
    EVP_PKEY_free(k);
  }
  // The good key still imports.
  const OSSL_PARAM good[] = {
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, sk, sizeof sk), OSSL_PARAM_END};
  EVP_PKEY* k = bk_from(fx_.libctx(), good, EVP_PKEY_KEYPAIR);
  EXPECT_NE(k, nullptr);
  EVP_PKEY_free(k);
}

TEST_F(Misuse, BabyKyberKemRejectsWrongLengthsAndMissingKeys) {
  uint8_t pk[BABYKYBER_PUBLICKEY_BYTES], sk[BABYKYBER_SECRETKEY_BYTES];
  ASSERT_EQ(babykyber_keypair(fx_.libctx(), pk, sk), BABYKYBER_OK);
  const OSSL_PARAM pub_only[] = {
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, pk, sizeof pk), OSSL_PARAM_END};
  const OSSL_PARAM priv[] = {
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, sk, sizeof sk), OSSL_PARAM_END};
  KeyPairHolder keys{bk_from(fx_.libctx(), pub_only, EVP_PKEY_PUBLIC_KEY),
                     bk_from(fx_.libctx(), priv, EVP_PKEY_KEYPAIR)};
  kem_misuse_sequence(fx_.libctx(), keys.pub, keys.pair, BABYKYBER_CIPHERTEXT_BYTES,
                      BABYKYBER_SHARED_SECRET_BYTES,
                      {size_t(BABYKYBER_CIPHERTEXT_BYTES - 1), size_t(BABYKYBER_CIPHERTEXT_BYTES + 1)});
}

TEST_F(Misuse, BabyKyberCApiRejectsNullAndOutOfRangeArguments) {
  uint8_t pk[BABYKYBER_PUBLICKEY_BYTES], sk[BABYKYBER_SECRETKEY_BYTES],
      ct[BABYKYBER_CIPHERTEXT_BYTES], ss[BABYKYBER_SHARED_SECRET_BYTES];
  ASSERT_EQ(babykyber_keypair(fx_.libctx(), pk, sk), BABYKYBER_OK);
  EXPECT_EQ(babykyber_encaps_derand(fx_.libctx(), ct, ss, pk, 16), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_encaps_derand(fx_.libctx(), nullptr, ss, pk, 1), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_decaps(fx_.libctx(), ss, nullptr, sk), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_keypair(fx_.libctx(), nullptr, sk), BABYKYBER_ERR_ARGS);
  const uint8_t ms[3] = {1, 0x20, 3};
  uint8_t cts[3 * BABYKYBER_CIPHERTEXT_BYTES], sss[3 * BABYKYBER_SHARED_SECRET_BYTES],
      pks[3 * BABYKYBER_PUBLICKEY_BYTES], sks[3 * BABYKYBER_SECRETKEY_BYTES];
  for (int i = 0; i < 3; ++i) std::memcpy(pks + i * sizeof pk, pk, sizeof pk);
  EXPECT_EQ(babykyber_encaps_batch(fx_.libctx(), 3, cts, sss, pks, ms, 1), BABYKYBER_ERR_ARGS);
  // n = 0 is a valid empty batch, whatever the pointers.
  EXPECT_EQ(babykyber_encaps_batch(fx_.libctx(), 0, nullptr, nullptr, nullptr, nullptr, 0),
            BABYKYBER_OK);
  // Counts whose byte sizes overflow size_t are refused, not run.
  EXPECT_EQ(babykyber_keypair_batch(fx_.libctx(), SIZE_MAX / 16, pks, sks, nullptr, 1), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_encaps_batch(fx_.libctx(), SIZE_MAX / 4, cts, sss, pks, nullptr, 1), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_decaps_batch(fx_.libctx(), SIZE_MAX / 8, sss, cts, sks, 1), BABYKYBER_ERR_ARGS);
  EXPECT_STRNE(babykyber_strerror(BABYKYBER_ERR_ARGS), "");
  EXPECT_STRNE(babykyber_strerror(-12345), "");
}

// The KEM misuse sequence on every ML-KEM level, with a huge ciphertext
// length among the wrong ones.
TEST_F(Misuse, MlkemKemRejectsWrongLengthsAndMissingKeys) {
  for (int level : {512, 768, 1024}) {
    const std::string name = "ML-KEM-" + std::to_string(level);
    SCOPED_TRACE(name);
    const size_t ekl = mlkem_publickey_bytes(level), ctl_want = mlkem_ciphertext_bytes(level);
    Bytes ek(ekl), dk(mlkem_secretkey_bytes(level)), seed = random_bytes(MLKEM_KEYGEN_SEED_BYTES);
    ASSERT_EQ(mlkem_keypair_derand(level, ek.data(), dk.data(), seed.data()), MLKEM_OK);
    const OSSL_PARAM pub_only[] = {
        OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, ek.data(), ek.size()), OSSL_PARAM_END};
    const OSSL_PARAM from_seed[] = {
        OSSL_PARAM_construct_octet_string("seed", seed.data(), seed.size()), OSSL_PARAM_END};
    KeyPairHolder keys{evp_fromdata(fx_.libctx(), name.c_str(), pub_only, EVP_PKEY_PUBLIC_KEY),
                       evp_fromdata(fx_.libctx(), name.c_str(), from_seed, EVP_PKEY_KEYPAIR)};
    kem_misuse_sequence(fx_.libctx(), keys.pub, keys.pair, ctl_want, MLKEM_SHARED_SECRET_BYTES,
                        {ctl_want - 1, ctl_want + 1, SIZE_MAX});
  }
}

TEST_F(Misuse, MlkemCApiRejectsNullAndOutOfRangeArguments) {
  uint8_t ek[MLKEM768_PUBLICKEY_BYTES], dk[MLKEM768_SECRETKEY_BYTES], ct[MLKEM768_CIPHERTEXT_BYTES],
      ss[MLKEM_SHARED_SECRET_BYTES], m[MLKEM_ENCAPS_SEED_BYTES] = {};
  ASSERT_EQ(mlkem_keypair(fx_.libctx(), 768, ek, dk, nullptr), MLKEM_OK);
  for (int bad : {0, 256, 767, 2048, -768})
    EXPECT_EQ(mlkem_keypair(fx_.libctx(), bad, ek, dk, nullptr), MLKEM_ERR_ARGS) << bad;
  EXPECT_EQ(mlkem_publickey_bytes(769), 0u);
  EXPECT_EQ(mlkem_keypair(fx_.libctx(), 768, nullptr, dk, nullptr), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_encaps_derand(768, nullptr, ss, ek, m), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_encaps_derand(768, ct, ss, nullptr, m), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_decaps(768, ss, nullptr, dk), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_decaps(768, ss, ct, nullptr), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_check_publickey(768, nullptr), MLKEM_ERR_ARGS);
  // An ek with a coefficient >= q: refused, outputs zeroed.
  uint8_t bad_ek[sizeof ek];
  std::memcpy(bad_ek, ek, sizeof ek);
  bad_ek[0] = 0xff, bad_ek[1] |= 0x0f;  // coefficient 0 = 0xfff
  std::memset(ss, 0xaa, sizeof ss);
  EXPECT_EQ(mlkem_encaps_derand(768, ct, ss, bad_ek, m), MLKEM_ERR_KEY);
  EXPECT_EQ(Bytes(ss, ss + sizeof ss), Bytes(sizeof ss, 0));
  // Batches: n = 0 is a valid empty batch whatever the pointers; NULL arrays
  // with n > 0 and counts whose byte sizes overflow size_t are refused.
  EXPECT_EQ(mlkem_encaps_batch(fx_.libctx(), 768, 0, nullptr, nullptr, nullptr, nullptr, 0), MLKEM_OK);
  EXPECT_EQ(mlkem_decaps_batch(768, 3, nullptr, ct, dk, 1), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_keypair_batch(fx_.libctx(), 768, SIZE_MAX / 64, ek, dk, nullptr, 1), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_encaps_batch(fx_.libctx(), 768, SIZE_MAX / 1000, ct, ss, ek, nullptr, 1), MLKEM_ERR_ARGS);
  EXPECT_EQ(mlkem_decaps_batch(768, SIZE_MAX / 2000, ss, ct, dk, 1), MLKEM_ERR_ARGS);
  EXPECT_STRNE(mlkem_strerror(MLKEM_ERR_ARGS), "");
  EXPECT_STRNE(mlkem_strerror(-12345), "");
}

}  // namespace
