// The GCM parameter and state rules call for call against OpenSSL's default
// provider: each scenario runs the same EVP calls on a context of each
// provider and compares every return value and every byte returned. Covers
// misuse (tag before final, wrong tag lengths, final without a tag on
// decrypt, IV reuse on encrypt, AAD after data, IV length changes, TLS AAD of
// the wrong length), EVP_CIPHER_CTX_copy mid-message, the parameter lists and
// the TLS 1.2 record path (tlsivfixed, tlsaad, tlsivgen, tlsivinv, EVP_Cipher
// in place, tampered records).
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <cstring>
#include <functional>
#include <set>

#include "test/gcm_util.h"

namespace gpucrypto::test {
namespace {

// What a scenario observed: return values and bytes, in order.
struct Trace {
  std::vector<std::string> items;
  void add(const std::string& what, int rv) { items.push_back(what + "=" + std::to_string(rv)); }
  void bytes(const std::string& what, const uint8_t* p, size_t n) { items.push_back(what + ":" + to_hex(p, n)); }
};

using Scenario = std::function<void(OSSL_LIB_CTX*, EVP_CIPHER*, Trace&)>;

class GcmParams : public ::testing::Test {
 protected:
  ProviderFixture fx_;
  void same(const char* name, const Scenario& s) {
    ASSERT_TRUE(fx_.ok());
    Trace t[2];
    const char* pq[2] = {"provider=gpucrypto", "provider=default"};
    for (int i = 0; i < 2; ++i) {
      EVP_CIPHER* c = EVP_CIPHER_fetch(fx_.libctx(), name, pq[i]);
      ASSERT_NE(c, nullptr) << pq[i];
      s(fx_.libctx(), c, t[i]);
      EVP_CIPHER_free(c);
      ERR_clear_error();
    }
    ASSERT_FALSE(t[0].items.empty());
    EXPECT_EQ(t[0].items, t[1].items);
  }
};

const Bytes kKey = hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308");
const Bytes kIv = hex("cafebabefacedbaddecaf888");
const Bytes kData = hex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39");

int upd(EVP_CIPHER_CTX* x, uint8_t* out, const uint8_t* in, size_t n, int* outl) {
  return EVP_CipherUpdate(x, out, outl, in, int(n));
}

TEST_F(GcmParams, AlgorithmParametersAndLists) {
  for (const char* name : {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM", "id-aes128-GCM", "id-aes256-GCM",
                           "2.16.840.1.101.3.4.1.6", "2.16.840.1.101.3.4.1.26", "2.16.840.1.101.3.4.1.46"}) {
    same(name, [](OSSL_LIB_CTX*, EVP_CIPHER* c, Trace& t) {
      t.add("mode", EVP_CIPHER_get_mode(c));
      t.add("flags", int(EVP_CIPHER_get_flags(c)));
      t.add("keylen", EVP_CIPHER_get_key_length(c));
      t.add("ivlen", EVP_CIPHER_get_iv_length(c));
      t.add("block", EVP_CIPHER_get_block_size(c));
      t.add("nid", EVP_CIPHER_get_nid(c));
      for (const OSSL_PARAM* (*list)(const EVP_CIPHER*) :
           {EVP_CIPHER_gettable_params, EVP_CIPHER_gettable_ctx_params, EVP_CIPHER_settable_ctx_params}) {
        std::set<std::string> keys;
        for (const OSSL_PARAM* p = list(c); p != nullptr && p->key != nullptr; ++p)
          keys.insert(std::string(p->key) + "/" + std::to_string(p->data_type));
        std::string all;
        for (const auto& k : keys) all.append(k).append(" ");
        t.items.push_back(all);
      }
    });
  }
  EVP_CIPHER* sm4 = EVP_CIPHER_fetch(fx_.libctx(), "1.2.156.10197.1.104.8", "provider=gpucrypto");
  ASSERT_NE(sm4, nullptr);
  EXPECT_EQ(EVP_CIPHER_get_mode(sm4), EVP_CIPH_GCM_MODE);
  EXPECT_EQ(EVP_CIPHER_get_iv_length(sm4), 12);
  EXPECT_TRUE(EVP_CIPHER_get_flags(sm4) & EVP_CIPH_FLAG_AEAD_CIPHER);
  EVP_CIPHER_free(sm4);
}

// `iv-generated` (OpenSSL 3.5's default provider; 3.0 has no such parameter
// and leaves it unanswered): 0 until the context draws a random IV itself
// (an encryption started without an IV, or tlsivfixed's random part), then 1
// for the rest of the context's life, even after a new IV is given (3.5.9).
// The same calls on both providers; the explicit expectations pin the line.
TEST_F(GcmParams, IvGeneratedFollowsTheRunningLine) {
  const bool v35 = OpenSSL_version_num() >= 0x30500000UL;
  for (int enc : {1, 0}) {
    Trace ours;
    same("AES-128-GCM", [&](OSSL_LIB_CTX*, EVP_CIPHER* c, Trace& t) {
      EVP_CIPHER_CTX* x = EVP_CIPHER_CTX_new();
      uint8_t out[32];
      int outl = 0;
      auto generated = [&](const char* what) {
        unsigned v = 77;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_uint("iv-generated", &v), OSSL_PARAM_END};
        t.add(std::string(what) + " rc", EVP_CIPHER_CTX_get_params(x, p));
        t.add(std::string(what) + " value", int(v));
      };
      t.add("init", EVP_CipherInit_ex2(x, c, kKey.data(), nullptr, enc, nullptr));
      generated("fresh");
      t.add("update", upd(x, out, kData.data(), 16, &outl));
      generated("after update");
      t.add("reinit with iv", EVP_CipherInit_ex2(x, nullptr, nullptr, kIv.data(), enc, nullptr));
      generated("after iv");
      EVP_CIPHER_CTX_free(x);
      if (ours.items.empty()) ours = t;
    });
    SCOPED_TRACE(enc ? "encrypt" : "decrypt");
    ASSERT_GE(ours.items.size(), 9u);
    const int fresh = v35 ? 0 : 77, later = v35 ? enc : 77;  // 77: left unanswered
    EXPECT_EQ(ours.items[2], "fresh value=" + std::to_string(fresh));
    EXPECT_EQ(ours.items[5], "after update value=" + std::to_string(later));
    EXPECT_EQ(ours.items[8], "after iv value=" + std::to_string(later));
  }
}

TEST_F(GcmParams, TagRules) {
  same("AES-256-GCM", [](OSSL_LIB_CTX*, EVP_CIPHER* c, Trace& t) {
    EVP_CIPHER_CTX* x = EVP_CIPHER_CTX_new();
    uint8_t out[128], tag[32] = {};
    int outl = 0;
    t.add("init", EVP_EncryptInit_ex2(x, c, kKey.data(), kIv.data(), nullptr));
    t.add("tag before final", EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag));
    t.add("set tag on encrypt", EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag));
    t.add("aad", upd(x, nullptr, kData.data(), 20, &outl));
    t.add("data", upd(x, out, kData.data(), kData.size(), &outl));
    t.add("outl", outl);
    t.add("aad after data", upd(x, nullptr, kData.data(), 5, &outl));
    t.add("final", EVP_EncryptFinal_ex(x, out + 60, &outl));
    t.add("final outl", outl);
    for (int len : {0, 1, 4, 12, 16, 17}) {
      std::memset(tag, 0, sizeof tag);
      t.add("get tag " + std::to_string(len), EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, len, tag));
      t.bytes("tag", tag, 17);
    }
    size_t taglen = 0;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &taglen), OSSL_PARAM_construct_end()};
    t.add("taglen", EVP_CIPHER_CTX_get_params(x, p));
    t.add("taglen value", int(taglen));
    Bytes ct(out, out + kData.size());
    Bytes good(tag, tag + 16);
    // Decrypt: tag lengths, final without a tag, wrong tag.
    for (int len : {0, 17, 1, 16}) {
      t.add("dinit", EVP_DecryptInit_ex2(x, c, kKey.data(), kIv.data(), nullptr));
      t.add("set tag " + std::to_string(len), EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, len, good.data()));
      t.add("aad", upd(x, nullptr, kData.data(), 20, &outl));
      t.add("data", upd(x, out, ct.data(), ct.size(), &outl));
      t.bytes("pt", out, size_t(outl));
      t.add("final", EVP_DecryptFinal_ex(x, out, &outl));
      t.add("final outl", outl);
    }
    EVP_CIPHER_CTX_free(x);
    x = EVP_CIPHER_CTX_new();
    t.add("dinit", EVP_DecryptInit_ex2(x, c, kKey.data(), kIv.data(), nullptr));
    t.add("data", upd(x, out, ct.data(), ct.size(), &outl));
    t.add("final without tag", EVP_DecryptFinal_ex(x, out, &outl));
    t.add("dinit", EVP_DecryptInit_ex2(x, nullptr, nullptr, kIv.data(), nullptr));
    good[3] ^= 4;
    t.add("wrong tag", EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, good.data()));
    t.add("aad", upd(x, nullptr, kData.data(), 20, &outl));
    t.add("data", upd(x, out, ct.data(), ct.size(), &outl));
    t.add("outl", outl);
    ERR_clear_error();
    t.add("final wrong tag", EVP_DecryptFinal_ex(x, out, &outl));
    // A tag that does not authenticate is told by the return value alone:
    // the default provider queues no error for it.
    t.add("wrong tag queued an error", ERR_peek_error() != 0);
    ERR_clear_error();
    t.add("decrypt get tag", EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag));
    EVP_CIPHER_CTX_free(x);
  });
}

TEST_F(GcmParams, IvRules) {
  same("AES-128-GCM", [](OSSL_LIB_CTX*, EVP_CIPHER* c, Trace& t) {
    EVP_CIPHER_CTX* x = EVP_CIPHER_CTX_new();
    uint8_t out[128], iv[128] = {};
    int outl = 0;
    const uint8_t* key = kKey.data();
    t.add("init no iv", EVP_EncryptInit_ex2(x, c, key, nullptr, nullptr));
    OSSL_PARAM g[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, iv, 12), OSSL_PARAM_construct_end()};
    t.add("get iv unset", EVP_CIPHER_CTX_get_params(x, g));
    for (size_t len : {size_t(0), size_t(129), size_t(128), size_t(1), size_t(12)}) {
      OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_construct_end()};
      t.add("ivlen " + std::to_string(len), EVP_CIPHER_CTX_set_params(x, p));
      t.add("get ivlen", EVP_CIPHER_CTX_get_iv_length(x));
    }
    t.add("init iv", EVP_EncryptInit_ex2(x, nullptr, nullptr, kIv.data(), nullptr));
    t.add("get iv", EVP_CIPHER_CTX_get_params(x, g));
    t.bytes("iv", iv, 12);
    OSSL_PARAM u[] = {OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, iv, 8), OSSL_PARAM_construct_end()};
    t.add("updated iv too short", EVP_CIPHER_CTX_get_params(x, u));
    t.add("data", upd(x, out, kData.data(), 33, &outl));
    t.bytes("ct", out, size_t(outl));
    t.add("final", EVP_EncryptFinal_ex(x, out, &outl));
    t.add("IV reuse: update", upd(x, out, kData.data(), 16, &outl));
    t.add("IV reuse: aad", upd(x, nullptr, kData.data(), 16, &outl));
    t.add("re-key without IV", EVP_EncryptInit_ex2(x, nullptr, key, nullptr, nullptr));
    t.add("update", upd(x, out, kData.data(), 16, &outl));
    t.add("final", EVP_EncryptFinal_ex(x, out, &outl));
    t.add("new IV", EVP_EncryptInit_ex2(x, nullptr, nullptr, kIv.data(), nullptr));
    t.add("update", upd(x, out, kData.data(), 16, &outl));
    t.bytes("ct", out, size_t(outl));
    size_t len = 16;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_construct_end()};
    t.add("init iv", EVP_EncryptInit_ex2(x, nullptr, nullptr, kIv.data(), nullptr));
    t.add("ivlen change after IV", EVP_CIPHER_CTX_set_params(x, p));
    t.add("update", upd(x, out, kData.data(), 16, &outl));
    EVP_CIPHER_CTX_free(x);
    x = EVP_CIPHER_CTX_new();
    t.add("decrypt init no iv", EVP_DecryptInit_ex2(x, c, key, nullptr, nullptr));
    t.add("decrypt update without IV", upd(x, out, kData.data(), 16, &outl));
    auto update_without_key = [&](int n) {
      EVP_CIPHER_CTX* y = EVP_CIPHER_CTX_new();
      EVP_EncryptInit_ex2(y, c, nullptr, kIv.data(), nullptr);
      const int r = upd(y, out, kData.data(), n, &outl);
      EVP_CIPHER_CTX_free(y);
      return r;
    };
    t.add("update without key", update_without_key(16));
    t.add("empty update without key", update_without_key(0));
    EVP_CIPHER_CTX_free(x);
  });
}

// EVP_CIPHER_CTX_copy in the middle of a message: both copies finish it the same way.
TEST_F(GcmParams, CopyMidMessage) {
  same("AES-192-GCM", [](OSSL_LIB_CTX*, EVP_CIPHER* c, Trace& t) {
    const Bytes key = hex("000102030405060708090a0b0c0d0e0f1011121314151617");
    EVP_CIPHER_CTX* x = EVP_CIPHER_CTX_new();
    EVP_CIPHER_CTX* y = EVP_CIPHER_CTX_new();
    uint8_t out[4096], tag[16];
    Bytes data(3000, 0x5a);
    int outl = 0;
    t.add("init", EVP_EncryptInit_ex2(x, c, key.data(), kIv.data(), nullptr));
    t.add("aad", upd(x, nullptr, data.data(), 7, &outl));
    t.add("data", upd(x, out, data.data(), 1001, &outl));
    t.add("copy", EVP_CIPHER_CTX_copy(y, x));
    for (EVP_CIPHER_CTX* z : {x, y}) {
      t.add("data", upd(z, out, data.data(), 1999, &outl));
      t.bytes("ct", out, size_t(outl));
      t.add("final", EVP_EncryptFinal_ex(z, out, &outl));
      t.add("tag", EVP_CIPHER_CTX_ctrl(z, EVP_CTRL_AEAD_GET_TAG, 16, tag));
      t.bytes("tag", tag, 16);
    }
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_CTX_free(y);
  });
}

// The TLS 1.2 record path as libssl drives it.
TEST_F(GcmParams, Tls12Records) {
  same("AES-128-GCM", [](OSSL_LIB_CTX*, EVP_CIPHER* c, Trace& t) {
    const Bytes key(kKey.begin(), kKey.begin() + 16);
    EVP_CIPHER_CTX* e = EVP_CIPHER_CTX_new();
    EVP_CIPHER_CTX* d = EVP_CIPHER_CTX_new();
    uint8_t fixed[12] = {1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 9, 9};
    t.add("einit", EVP_EncryptInit_ex2(e, c, key.data(), nullptr, nullptr));
    t.add("dinit", EVP_DecryptInit_ex2(d, c, key.data(), nullptr, nullptr));
    t.add("fixed 3", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_GCM_SET_IV_FIXED, 3, fixed));
    t.add("fixed 5", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_GCM_SET_IV_FIXED, 5, fixed));
    // -1: the whole IV (deterministic explicit nonces on both providers).
    t.add("fixed -1", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_GCM_SET_IV_FIXED, -1, fixed));
    t.add("fixed 4 (dec)", EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_GCM_SET_IV_FIXED, 4, fixed));
    uint8_t aad[13] = {0, 0, 0, 0, 0, 0, 0, 1, 23, 3, 3, 0, 0};
    for (size_t plen : {size_t(0), size_t(1), size_t(16), size_t(300), size_t(16384)}) {
      const size_t rec = 8 + plen + 16;
      aad[11] = uint8_t(rec >> 8);
      aad[12] = uint8_t(rec);
      for (int len : {12, 14}) t.add("tlsaad " + std::to_string(len), EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_TLS1_AAD, len, aad));
      t.add("tlsaad pad", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
      Bytes r(rec, 0);
      for (size_t i = 8; i < rec - 16; ++i) r.at(i) = uint8_t(i * 7);
      t.add("record", EVP_Cipher(e, r.data(), r.data(), unsigned(rec)));
      t.bytes("record", r.data(), r.size());
      // Decrypt on the other context; then a tampered copy.
      t.add("dec tlsaad", EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
      Bytes q = r;
      t.add("open", EVP_Cipher(d, q.data(), q.data(), unsigned(rec)));
      t.bytes("payload", q.data() + 8, plen);
      q = r;
      q[rec - 1] ^= 1;
      t.add("dec tlsaad", EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
      t.add("open tampered", EVP_Cipher(d, q.data(), q.data(), unsigned(rec)));
      t.bytes("wiped", q.data() + 8, plen);
    }
    // Not in place, too short, and a header whose length is below the nonce.
    Bytes r(40, 0), o(40);
    aad[11] = 0, aad[12] = 40;
    t.add("tlsaad", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
    t.add("not in place", EVP_Cipher(e, o.data(), r.data(), 40));
    t.add("tlsaad", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
    t.add("too short", EVP_Cipher(e, r.data(), r.data(), 23));
    aad[12] = 7;
    t.add("length below nonce", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
    aad[12] = 23;
    t.add("dec: length below nonce + tag", EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_AEAD_TLS1_AAD, 13, aad));
    // tlsivgen / tlsivinv as ctrls.
    uint8_t gen[8];
    t.add("fixed -1", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_GCM_SET_IV_FIXED, -1, fixed));
    t.add("ivgen", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_GCM_IV_GEN, 8, gen));
    t.bytes("gen", gen, 8);
    t.add("ivgen", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_GCM_IV_GEN, 8, gen));
    t.bytes("gen", gen, 8);
    t.add("ivinv on encrypt", EVP_CIPHER_CTX_ctrl(e, EVP_CTRL_GCM_SET_IV_INV, 8, gen));
    t.add("ivinv", EVP_CIPHER_CTX_ctrl(d, EVP_CTRL_GCM_SET_IV_INV, 8, gen));
    EVP_CIPHER_CTX_free(e);
    EVP_CIPHER_CTX_free(d);
  });
}

}  // namespace
}  // namespace gpucrypto::test
