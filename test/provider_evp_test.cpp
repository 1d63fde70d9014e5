// The provider through EVP: known answers, differential against OpenSSL's
// default provider, CTR streaming, padding, bad input, library contexts and
// threads.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <thread>

#include "engine/cipher_registry.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

constexpr const char* kOurs = "provider=gpucrypto";
constexpr const char* kDefault = "provider=default";

struct CipherInfo {
  const char* name;
  size_t key, iv, block;
};

// Every ECB and CTR name the provider registers (README, Algorithms); the
// chained modes (CBC, CFB, OFB, CFB8, CFB1) are checked by modes_test.
const CipherInfo kAll[] = {
    {"SKINNY-128-256-ECB", 32, 0, 16}, {"SKINNY-128-256-CTR", 32, 16, 16},
    {"SKINNY-256-ECB", 32, 0, 16},     {"SKINNY-256-CTR", 32, 16, 16},
    {"SKINNY-128-384-ECB", 48, 0, 16}, {"SKINNY-128-384-CTR", 48, 16, 16},
    {"SM4-ECB", 16, 0, 16},            {"SM4-CTR", 16, 16, 16},
    {"RECTANGLE-80-ECB", 10, 0, 8},    {"RECTANGLE-80-CTR", 10, 8, 8},
    {"RECTANGLE-128-ECB", 16, 0, 8},   {"RECTANGLE-128-CTR", 16, 8, 8},
    {"AES-128-ECB", 16, 0, 16},        {"AES-128-CTR", 16, 16, 16},
    {"AES-192-ECB", 24, 0, 16},        {"AES-192-CTR", 24, 16, 16},
    {"AES-256-ECB", 32, 0, 16},        {"AES-256-CTR", 32, 16, 16},
    {"RIJNDAEL-192-128-ECB", 16, 0, 24}, {"RIJNDAEL-192-128-CTR", 16, 24, 24},
    {"RIJNDAEL-192-192-ECB", 24, 0, 24}, {"RIJNDAEL-192-192-CTR", 24, 24, 24},
    {"RIJNDAEL-192-256-ECB", 32, 0, 24}, {"RIJNDAEL-192-256-CTR", 32, 24, 24},
    {"RIJNDAEL-256-128-ECB", 16, 0, 32}, {"RIJNDAEL-256-128-CTR", 16, 32, 32},
    {"RIJNDAEL-256-192-ECB", 24, 0, 32}, {"RIJNDAEL-256-192-CTR", 24, 32, 32},
    {"RIJNDAEL-256-256-ECB", 32, 0, 32}, {"RIJNDAEL-256-256-CTR", 32, 32, 32},
};

bool is_ctr(const CipherInfo& c) { return std::string(c.name).ends_with("-CTR"); }

class Evp : public ::testing::Test {
 protected:
  ProviderFixture prov;
  void SetUp() override { ASSERT_TRUE(prov.ok()) << "cannot load gpucrypto from " << module_dir(); }
  OSSL_LIB_CTX* lib() { return prov.libctx(); }

  Bytes crypt(const char* name, bool enc, const Bytes& key, const Bytes& iv, const Bytes& in,
              bool pad = true, const std::vector<size_t>& chunks = {}, const char* pq = kOurs) {
    Bytes out;
    EXPECT_TRUE(evp_crypt(lib(), name, pq, enc, key, iv, in, &out, pad, chunks))
        << name << " " << ERR_reason_error_string(ERR_peek_last_error());
    return out;
  }
};

// --- parameters ---------------------------------------------------------------

// The table above states the sizes independently of the code; every row of
// the registry (and its alias) must be in it, so a new cipher cannot skip it.
TEST(EvpTable, CoversEveryRegisteredCipher) {
  auto listed = [](const std::string& n) {
    return std::any_of(std::begin(kAll), std::end(kAll), [&](const CipherInfo& c) { return n == c.name; });
  };
  for (const CipherRow& r : cipher_rows())
    for (Mode m : {Mode::kECB, Mode::kCTR}) {
      EXPECT_TRUE(listed(r.evp_name(m))) << r.evp_name(m);
      if (r.alias != nullptr) {
        EXPECT_TRUE(listed(std::string(r.alias) + "-" + mode_suffix(m))) << r.alias;
      }
    }
}

TEST_F(Evp, EveryNameFetchesWithTheDocumentedSizes) {
  for (const auto& c : kAll) {
    EVP_CIPHER* ci = EVP_CIPHER_fetch(lib(), c.name, kOurs);
    ASSERT_NE(ci, nullptr) << c.name;
    EXPECT_EQ(size_t(EVP_CIPHER_get_key_length(ci)), c.key) << c.name;
    EXPECT_EQ(size_t(EVP_CIPHER_get_iv_length(ci)), c.iv) << c.name;
    EXPECT_EQ(size_t(EVP_CIPHER_get_block_size(ci)), is_ctr(c) ? 1 : c.block) << c.name;
    EXPECT_EQ(EVP_CIPHER_get_mode(ci), is_ctr(c) ? EVP_CIPH_CTR_MODE : EVP_CIPH_ECB_MODE) << c.name;
    EVP_CIPHER_free(ci);
  }
}

// --- known answers (typed in from test/vectors, sources named) -----------

struct Kat {
  const char* cipher;
  const char* key;
  const char* iv;
  const char* pt;
  const char* ct;
};

const Kat kKats[] = {
    // SKINNY: Beierle et al., CRYPTO 2016 (ePrint 2016/660), Appendix B.2.
    {"SKINNY-128-256-ECB", "009cec81605d4ac1d2ae9e3085d7a1f31ac123ebfc00fddcf01046ceeddfcab3", "",
     "3a0c47767a26a68dd382a695e7022e25", "b731d98a4bde147a7ed4a6f16b9b587f"},
    {"SKINNY-128-384-ECB",
     "df889548cfc7ea52d296339301797449ab588a34a47f1ab2dfe9c8293fbea9a5ab1afac2611012cd8cef952618c3ebe8",
     "", "a3994b66ad85a3459f44e92b08f550cb", "94ecf589e2017c601b38c6346a10dcfa"},
    // SM4: GB/T 32907-2016 Appendix A Example 1.
    {"SM4-ECB", "0123456789abcdeffedcba9876543210", "", "0123456789abcdeffedcba9876543210",
     "681edf34d206965e86b3e94f536e4246"},
    // SM4: draft-ribose-cfrg-sm4-10 A.2.5.1 (CTR).
    {"SM4-CTR", "0123456789abcdeffedcba9876543210", "000102030405060708090a0b0c0d0e0f",
     "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbccccccccccccccccddddddddddddddddeeeeeeeeeeeeeeeeffffffffffffffffaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb",
     "ac3236cb970cc20791364c395a1342d1a3cbc1878c6f30cd074cce385cdd70c7f234bc0e24c11980fd1286310ce37b926e02fcd0faa0baf38b2933851d824514"},
    // SM4: GmSSL sm4_ctrtest.c, counter wraps ff..ff -> 00..00 (implementation vector).
    {"SM4-CTR", "0123456789abcdeffedcba9876543210", "ffffffffffffffffffffffffffffffff",
     "6162636465666768696a6b6c6d6e6f706b72737475767778797a313233343536",
     "0973cc1a6c15038fef912ea230f40f804d05871f7cb755b4ee2f022268e0971c"},
    // RECTANGLE: Zhang et al., Sci. China Inf. Sci. 2015 (ePrint 2014/084), test vectors.
    {"RECTANGLE-80-ECB", "00000000000000000000", "", "0000000000000000", "2d96e354e8b10874"},
    {"RECTANGLE-80-ECB", "ffffffffffffffffffff", "", "ffffffffffffffff", "9945aa34ae3d0112"},
    {"RECTANGLE-128-ECB", "00000000000000000000000000000000", "", "0000000000000000",
     "aee6361344a499ee"},
    {"RECTANGLE-128-ECB", "ffffffffffffffffffffffffffffffff", "", "ffffffffffffffff",
     "e83eefee4a157a46"},
    // AES: FIPS 197 Appendix C.1-C.3.
    {"AES-128-ECB", "000102030405060708090a0b0c0d0e0f", "", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {"AES-192-ECB", "000102030405060708090a0b0c0d0e0f1011121314151617", "",
     "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"},
    {"AES-256-ECB", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "",
     "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
    // AES: NIST SP 800-38A F.5.1 (CTR-AES128).
    {"AES-128-CTR", "2b7e151628aed2a6abf7158809cf4f3c", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
     "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
     "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
};

TEST_F(Evp, KnownAnswersEncryptAndDecrypt) {
  for (const auto& k : kKats) {
    SCOPED_TRACE(k.cipher);
    const Bytes key = hex(k.key), iv = hex(k.iv), pt = hex(k.pt), ct = hex(k.ct);
    EXPECT_EQ(to_hex(crypt(k.cipher, true, key, iv, pt, false)), k.ct);
    EXPECT_EQ(to_hex(crypt(k.cipher, false, key, iv, ct, false)), k.pt);
  }
}

// GB/T 32907-2016 Appendix A Example 2: 1,000,000 encryptions of the block.
TEST_F(Evp, Sm4MillionIterations) {
  EVP_CIPHER* c = EVP_CIPHER_fetch(lib(), "SM4-ECB", kOurs);
  ASSERT_NE(c, nullptr);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  Bytes key = hex("0123456789abcdeffedcba9876543210"), block = key;
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, c, key.data(), nullptr, nullptr), 1);
  EVP_CIPHER_CTX_set_padding(ctx, 0);
  for (int i = 0; i < 1000000; ++i) {
    int outl = 0;
    ASSERT_EQ(EVP_EncryptUpdate(ctx, block.data(), &outl, block.data(), 16), 1);
  }
  EXPECT_EQ(to_hex(block), "595298c7c6fd271f0402f804c33d3f66");
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(c);
}

// --- differential against the default provider ---------------------------------

struct Peer {
  const char* name;
  size_t key;
};
const Peer kPeers[] = {{"AES-128-ECB", 16}, {"AES-192-ECB", 24}, {"AES-256-ECB", 32},
                       {"AES-128-CTR", 16}, {"AES-192-CTR", 24}, {"AES-256-CTR", 32},
                       {"SM4-ECB", 16},     {"SM4-CTR", 16}};

std::vector<size_t> random_chunks(std::mt19937& rng, size_t total) {
  std::vector<size_t> v;
  size_t left = total;
  while (left > 0) {
    size_t n = std::uniform_int_distribution<size_t>(0, std::min<size_t>(left, 300))(rng);
    v.push_back(n);
    left -= n;
  }
  return v;
}

TEST_F(Evp, DifferentialAgainstDefaultProvider) {
  std::mt19937 rng(20261202);
  EVP_CIPHER* sm4_default = EVP_CIPHER_fetch(lib(), "SM4-ECB", kDefault);
  const bool have_sm4 = sm4_default != nullptr;
  EVP_CIPHER_free(sm4_default);
  for (const auto& p : kPeers) {
    if (std::string(p.name).starts_with("SM4") && !have_sm4) continue;
    SCOPED_TRACE(p.name);
    const bool ctr = std::string(p.name).ends_with("CTR");
    for (int trial = 0; trial < 60; ++trial) {
      size_t len = trial < 40 ? std::uniform_int_distribution<size_t>(0, 5000)(rng)
                              : size_t(trial - 40) * 17;
      if (trial == 59) len = 1 << 20;
      if (!ctr) len -= len % 16;
      const bool pad = ctr || trial % 2 == 0;
      Bytes key = random_bytes(p.key), iv = ctr ? random_bytes(16) : Bytes{}, pt = random_bytes(len);
      if (ctr && trial % 3 == 0) {  // counters near 2^128 wrap
        std::fill(iv.begin(), iv.end(), 0xff);
        iv[15] = 0xf0;
      }
      const auto chunks = random_chunks(rng, len);
      Bytes ours = crypt(p.name, true, key, iv, pt, pad, chunks);
      Bytes theirs = crypt(p.name, true, key, iv, pt, pad, {}, kDefault);
      ASSERT_EQ(ours, theirs) << "len " << len << " trial " << trial;
      Bytes back = crypt(p.name, false, key, iv, ours, pad, random_chunks(rng, ours.size()));
      ASSERT_EQ(back, pt);
    }
  }
}

// In-place and misaligned buffers through the raw EVP update.
TEST_F(Evp, InPlaceAndMisaligned) {
  for (const auto& c : kAll) {
    SCOPED_TRACE(c.name);
    Bytes key = random_bytes(c.key), iv = random_bytes(c.iv);
    const size_t len = 37 * c.block;
    Bytes pt = random_bytes(len);
    Bytes want = crypt(c.name, true, key, iv, pt, false);
    for (size_t off = 0; off < 4; ++off) {
      Bytes buf(len + 8);
      std::memcpy(buf.data() + off, pt.data(), len);
      EVP_CIPHER* ci = EVP_CIPHER_fetch(lib(), c.name, kOurs);
      EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
      ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, key.data(), iv.empty() ? nullptr : iv.data(), nullptr), 1);
      EVP_CIPHER_CTX_set_padding(ctx, 0);
      int outl = 0;
      ASSERT_EQ(EVP_EncryptUpdate(ctx, buf.data() + off, &outl, buf.data() + off, int(len)), 1);
      EXPECT_EQ(size_t(outl), len);
      EXPECT_EQ(Bytes(buf.begin() + off, buf.begin() + off + len), want) << "offset " << off;
      EVP_CIPHER_CTX_free(ctx);
      EVP_CIPHER_free(ci);
    }
  }
}

// --- CTR streaming: any split equals the one-shot result ------------------------

TEST_F(Evp, CtrAnySplitEqualsOneShot) {
  std::mt19937 rng(7);
  for (const auto& c : kAll) {
    if (!is_ctr(c)) continue;
    SCOPED_TRACE(c.name);
    Bytes key = random_bytes(c.key), iv(c.iv, 0xff), pt = random_bytes(3 * 1024 + 5);
    iv.back() = 0xfd;  // the counter carries through every byte within 3 blocks
    const Bytes one = crypt(c.name, true, key, iv, pt);
    for (int t = 0; t < 20; ++t) EXPECT_EQ(crypt(c.name, true, key, iv, pt, true, random_chunks(rng, pt.size())), one);
    std::vector<size_t> ones(pt.size(), 1);  // 1-byte updates
    EXPECT_EQ(crypt(c.name, true, key, iv, pt, true, ones), one);
  }
}

TEST_F(Evp, CtrUpdatedIvAndNum) {
  EVP_CIPHER* ci = EVP_CIPHER_fetch(lib(), "AES-128-CTR", kOurs);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  Bytes key = random_bytes(16), iv = hex("000000000000000000000000fffffffe");
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, key.data(), iv.data(), nullptr), 1);
  Bytes buf(37);
  int outl;
  ASSERT_EQ(EVP_EncryptUpdate(ctx, buf.data(), &outl, buf.data(), 37), 1);
  unsigned num = 99;
  uint8_t next[16];
  OSSL_PARAM params[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                         OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, next, 16),
                         OSSL_PARAM_construct_end()};
  ASSERT_EQ(EVP_CIPHER_CTX_get_params(ctx, params), 1);
  EXPECT_EQ(num, 5u);  // 37 = 2 blocks + 5 bytes
  // Three keystream blocks were generated: fffffffe, ffffffff, 1_00000000.
  EXPECT_EQ(to_hex(next, 16), "00000000000000000000000100000001");
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(ci);
}

// A stream saved as (updated-iv, num) resumes in a fresh context (up to
// 3.0.19; from 3.0.20 on num is refused, as by the default provider).
TEST_F(Evp, CtrResumesFromUpdatedIvAndNum) {
  for (const char* name : {"AES-128-CTR", "RECTANGLE-80-CTR", "RIJNDAEL-256-256-CTR"}) {
    SCOPED_TRACE(name);
    EVP_CIPHER* ci = EVP_CIPHER_fetch(lib(), name, kOurs);
    const size_t ivlen = size_t(EVP_CIPHER_get_iv_length(ci));
    Bytes key = random_bytes(size_t(EVP_CIPHER_get_key_length(ci))), iv(ivlen, 0);
    iv[ivlen - 1] = 1;  // resuming must step back across a borrow: counter 00..01 -> 00..00
    Bytes pt = random_bytes(100), want;
    ASSERT_TRUE(evp_crypt(lib(), name, kOurs, true, key, iv, pt, &want));
    const size_t first = ivlen + 3;  // one block and a bit
    EVP_CIPHER_CTX* a = EVP_CIPHER_CTX_new();
    Bytes out(pt.size());
    int outl;
    ASSERT_EQ(EVP_EncryptInit_ex2(a, ci, key.data(), iv.data(), nullptr), 1);
    ASSERT_EQ(EVP_EncryptUpdate(a, out.data(), &outl, pt.data(), int(first)), 1);
    unsigned num = 0;
    Bytes next(ivlen);
    OSSL_PARAM get[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, next.data(), ivlen),
                        OSSL_PARAM_construct_end()};
    ASSERT_EQ(EVP_CIPHER_CTX_get_params(a, get), 1);
    EXPECT_EQ(num, 3u);
    EVP_CIPHER_CTX* b = EVP_CIPHER_CTX_new();
    ASSERT_EQ(EVP_EncryptInit_ex2(b, ci, key.data(), next.data(), nullptr), 1);
    OSSL_PARAM set[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num), OSSL_PARAM_construct_end()};
    if (!default_num_unbounded()) {
      // From 3.0.20 on the default provider takes only num 0 on a stream, and
      // so do we (README, Differences from the default provider).
      EXPECT_EQ(EVP_CIPHER_CTX_set_params(b, set), 0);
      ERR_clear_error();
      EVP_CIPHER_CTX_free(a);
      EVP_CIPHER_CTX_free(b);
      EVP_CIPHER_free(ci);
      continue;
    }
    ASSERT_EQ(EVP_CIPHER_CTX_set_params(b, set), 1);
    ASSERT_EQ(EVP_EncryptUpdate(b, out.data() + first, &outl, pt.data() + first, int(pt.size() - first)), 1);
    EXPECT_EQ(out, want);
    EVP_CIPHER_CTX_free(a);
    EVP_CIPHER_CTX_free(b);
    EVP_CIPHER_free(ci);
  }
}

// --- ECB padding -------------------------------------------------------------------

TEST_F(Evp, EcbPaddingRoundTripsEveryLength) {
  for (const auto& c : kAll) {
    if (is_ctr(c)) continue;
    SCOPED_TRACE(c.name);
    Bytes key = random_bytes(c.key);
    for (size_t len = 0; len <= 3 * c.block + 1; ++len) {
      Bytes pt = random_bytes(len);
      Bytes ct = crypt(c.name, true, key, {}, pt);
      ASSERT_EQ(ct.size(), (len / c.block + 1) * c.block);
      ASSERT_EQ(crypt(c.name, false, key, {}, ct), pt);
    }
  }
}

// --- bad input: clear errors, no crash -------------------------------------------

std::string last_error() {
  unsigned long e = ERR_peek_last_error();
  const char* r = ERR_reason_error_string(e);
  ERR_clear_error();
  return r != nullptr ? r : "(none)";
}

class EvpErrors : public Evp {
 protected:
  EVP_CIPHER* ci = nullptr;
  EVP_CIPHER_CTX* ctx = nullptr;
  void open(const char* name) {
    ci = EVP_CIPHER_fetch(lib(), name, kOurs);
    ASSERT_NE(ci, nullptr);
    ctx = EVP_CIPHER_CTX_new();
    ERR_clear_error();
  }
  void TearDown() override {
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ci);
  }
};

TEST_F(EvpErrors, WrongKeyLength) {
  open("SM4-ECB");
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, nullptr, nullptr, nullptr), 1);
  EXPECT_LE(EVP_CIPHER_CTX_set_key_length(ctx, 15), 0);
  EXPECT_EQ(last_error(), "wrong key length");
}

TEST_F(EvpErrors, WrongIvLength) {
  open("AES-128-CTR");
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, nullptr, nullptr, nullptr), 1);
  size_t ivlen = 12;
  OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen),
                    OSSL_PARAM_construct_end()};
  EXPECT_EQ(EVP_CIPHER_CTX_set_params(ctx, p), 0);
  EXPECT_EQ(last_error(), "wrong iv length");
}

TEST_F(EvpErrors, UpdateBeforeKey) {
  open("SKINNY-128-256-CTR");
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, nullptr, nullptr, nullptr), 1);
  uint8_t buf[16] = {};
  int outl;
  EXPECT_EQ(EVP_EncryptUpdate(ctx, buf, &outl, buf, 16), 0);
  EXPECT_EQ(last_error(), "no key set");
}

TEST_F(EvpErrors, EcbPartialFinalWithoutPadding) {
  open("RECTANGLE-128-ECB");
  Bytes key = random_bytes(16);
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, key.data(), nullptr, nullptr), 1);
  EVP_CIPHER_CTX_set_padding(ctx, 0);
  uint8_t buf[32] = {};
  int outl;
  ASSERT_EQ(EVP_EncryptUpdate(ctx, buf, &outl, buf, 13), 1);
  EXPECT_EQ(EVP_EncryptFinal_ex(ctx, buf, &outl), 0);
  EXPECT_EQ(last_error(), "wrong final block length");
}

TEST_F(EvpErrors, BadPaddingOnDecrypt) {
  open("AES-128-ECB");
  Bytes key = random_bytes(16);
  // A block whose decryption ends in 0x00 cannot be valid PKCS#7: make one.
  Bytes pt(16, 0), ct;
  ASSERT_TRUE(evp_crypt(lib(), "AES-128-ECB", kOurs, true, key, {}, pt, &ct, false));
  ASSERT_EQ(EVP_DecryptInit_ex2(ctx, ci, key.data(), nullptr, nullptr), 1);
  uint8_t out[48];
  int outl;
  ASSERT_EQ(EVP_DecryptUpdate(ctx, out, &outl, ct.data(), 16), 1);
  EXPECT_EQ(EVP_DecryptFinal_ex(ctx, out + outl, &outl), 0);
  EXPECT_EQ(last_error(), "bad decrypt");
}

TEST_F(EvpErrors, NullOutputWithLength) {
  open("SM4-CTR");
  Bytes key = random_bytes(16), iv = random_bytes(16);
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, key.data(), iv.data(), nullptr), 1);
  uint8_t in[16] = {};
  int outl;
  EXPECT_EQ(EVP_EncryptUpdate(ctx, nullptr, &outl, in, 16), 0);
  EXPECT_EQ(last_error(), "null output buffer with non-zero length");
}

TEST_F(EvpErrors, PartiallyOverlappingBuffers) {
  open("AES-128-CTR");
  Bytes key = random_bytes(16), iv = random_bytes(16), buf(64);
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, ci, key.data(), iv.data(), nullptr), 1);
  int outl;
  EXPECT_EQ(EVP_EncryptUpdate(ctx, buf.data() + 1, &outl, buf.data(), 32), 0);
  EXPECT_EQ(last_error(), "partially overlapping buffers");
}

TEST_F(EvpErrors, LengthOverflowThroughTheProviderInterface) {
  // EVP takes int lengths, so drive the provider's own size_t interface
  // directly: lengths that wrap the address space must be refused.
  int no_cache = 0;
  const OSSL_ALGORITHM* algs = OSSL_PROVIDER_query_operation(prov.provider(), OSSL_OP_CIPHER, &no_cache);
  ASSERT_NE(algs, nullptr);
  const OSSL_DISPATCH* fns = nullptr;
  for (; algs->algorithm_names != nullptr; ++algs)
    if (std::string(algs->algorithm_names).starts_with("AES-128-CTR")) fns = algs->implementation;
  ASSERT_NE(fns, nullptr);
  OSSL_FUNC_cipher_newctx_fn* newctx = nullptr;
  OSSL_FUNC_cipher_encrypt_init_fn* init = nullptr;
  OSSL_FUNC_cipher_update_fn* update = nullptr;
  OSSL_FUNC_cipher_freectx_fn* freectx = nullptr;
  for (; fns->function_id != 0; ++fns) {
    if (fns->function_id == OSSL_FUNC_CIPHER_NEWCTX) newctx = OSSL_FUNC_cipher_newctx(fns);
    if (fns->function_id == OSSL_FUNC_CIPHER_ENCRYPT_INIT) init = OSSL_FUNC_cipher_encrypt_init(fns);
    if (fns->function_id == OSSL_FUNC_CIPHER_UPDATE) update = OSSL_FUNC_cipher_update(fns);
    if (fns->function_id == OSSL_FUNC_CIPHER_FREECTX) freectx = OSSL_FUNC_cipher_freectx(fns);
  }
  ASSERT_TRUE(newctx && init && update && freectx);
  void* algctx = newctx(OSSL_PROVIDER_get0_provider_ctx(prov.provider()));
  Bytes key = random_bytes(16), iv = random_bytes(16);
  ASSERT_EQ(init(algctx, key.data(), 16, iv.data(), 16, nullptr), 1);
  uint8_t buf[64];
  size_t outl = 0;
  ERR_clear_error();
  EXPECT_EQ(update(algctx, buf, &outl, SIZE_MAX, buf, SIZE_MAX - 3), 0);
  EXPECT_EQ(last_error(), "length overflow");
  EXPECT_EQ(update(algctx, buf, &outl, 8, buf, 16), 0);  // output buffer too small
  EXPECT_EQ(last_error(), "output buffer too small");
  EXPECT_EQ(init(algctx, key.data(), 15, iv.data(), 16, nullptr), 0);
  EXPECT_EQ(last_error(), "wrong key length");
  EXPECT_EQ(init(algctx, key.data(), 16, iv.data(), 8, nullptr), 0);
  EXPECT_EQ(last_error(), "wrong iv length");
  freectx(algctx);
}

// --- library contexts and threads ---------------------------------------------

TEST(EvpContexts, DefaultLibraryContextToo) {
  OSSL_PROVIDER_set_default_search_path(nullptr, module_dir().c_str());
  OSSL_PROVIDER* p = OSSL_PROVIDER_load(nullptr, "gpucrypto");
  ASSERT_NE(p, nullptr);
  Bytes out;
  const Kat& k = kKats[0];
  ASSERT_TRUE(evp_crypt(nullptr, k.cipher, kOurs, true, hex(k.key), {}, hex(k.pt), &out, false));
  EXPECT_EQ(to_hex(out), k.ct);
  OSSL_PROVIDER_unload(p);
}

TEST_F(Evp, EightThreadsWithSeparateContexts) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      const CipherInfo& c = kAll[(t * 5) % std::size(kAll)];
      Bytes key = random_bytes(c.key), iv = random_bytes(c.iv), pt = random_bytes(64 * 1024);
      for (int i = 0; i < 20; ++i) {
        Bytes ct, back;
        if (!evp_crypt(lib(), c.name, kOurs, true, key, iv, pt, &ct) ||
            !evp_crypt(lib(), c.name, kOurs, false, key, iv, ct, &back) || back != pt)
          ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace gpucrypto::test
