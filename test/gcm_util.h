// What the GCM tests share: one AEAD message through EVP (IV length set
// first, AAD and data in given pieces, optionally in place), the provider's
// served counts, and the GCM records of test/vectors/modes.txt.
#pragma once
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "test/test_util.h"

namespace gpucrypto::test {

struct GcmMessage {
  Bytes key, iv, aad, in;
  Bytes tag;                       // decrypt: the tag to check (its length is the tag length)
  size_t taglen = 16;              // encrypt: bytes of tag to read
  std::vector<size_t> aad_pieces;  // sizes of the AAD updates (rest in one more); empty: one
  std::vector<size_t> data_pieces;
  bool in_place = false;
};

struct GcmResult {
  bool init_ok = false, updates_ok = false, final_ok = false;
  Bytes out;  // every byte the updates and final returned
  Bytes tag;  // encrypt
};

inline std::vector<std::pair<size_t, size_t>> pieces_of(size_t total, const std::vector<size_t>& sizes) {
  std::vector<std::pair<size_t, size_t>> r;
  size_t at = 0;
  for (size_t s : sizes) {
    if (at >= total) break;
    const size_t n = std::min(s, total - at);
    r.push_back({at, n});
    at += n;
  }
  if (at < total || r.empty()) r.push_back({at, total - at});
  return r;
}

inline GcmResult evp_gcm(OSSL_LIB_CTX* lib, const char* name, const char* propq, bool enc,
                         const GcmMessage& m) {
  GcmResult res;
  EVP_CIPHER* c = EVP_CIPHER_fetch(lib, name, propq);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  if (c == nullptr || ctx == nullptr) {
    EVP_CIPHER_free(c);
    EVP_CIPHER_CTX_free(ctx);
    return res;
  }
  size_t ivlen = m.iv.size();
  OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen),
                    OSSL_PARAM_construct_end()};
  res.init_ok = EVP_CipherInit_ex2(ctx, c, nullptr, nullptr, enc, nullptr) == 1 &&
                EVP_CIPHER_CTX_set_params(ctx, p) == 1 &&
                EVP_CipherInit_ex2(ctx, nullptr, m.key.data(), m.iv.data(), enc, nullptr) == 1;
  if (res.init_ok && !enc) {
    res.init_ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, int(m.tag.size()),
                                      const_cast<uint8_t*>(m.tag.data())) == 1;
  }
  if (res.init_ok) {
    res.updates_ok = true;
    int outl = 0;
    for (auto [at, n] : pieces_of(m.aad.size(), m.aad_pieces)) {
      if (EVP_CipherUpdate(ctx, nullptr, &outl, m.aad.data() + at, int(n)) != 1) res.updates_ok = false;
    }
    Bytes buf = m.in;
    buf.resize(m.in.size() + 16);
    Bytes out(m.in.size() + 16);
    size_t total = 0;
    for (auto [at, n] : pieces_of(m.in.size(), m.data_pieces)) {
      uint8_t* dst = m.in_place ? buf.data() + at : out.data() + total;
      const uint8_t* src = m.in_place ? buf.data() + at : m.in.data() + at;
      if (EVP_CipherUpdate(ctx, dst, &outl, src, int(n)) != 1) res.updates_ok = false;
      total += size_t(outl);
    }
    uint8_t* fin = m.in_place ? buf.data() + total : out.data() + total;
    res.final_ok = EVP_CipherFinal_ex(ctx, fin, &outl) == 1;
    total += size_t(outl);
    res.out.assign(m.in_place ? buf.begin() : out.begin(), (m.in_place ? buf.begin() : out.begin()) + total);
    if (enc && res.final_ok) {
      res.tag.resize(m.taglen);
      if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, int(m.taglen), res.tag.data()) != 1) res.tag.clear();
    }
  }
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(c);
  return res;
}

// (records, bytes) the provider says its GCM served.
inline std::pair<uint64_t, uint64_t> gcm_served(OSSL_PROVIDER* prov) {
  uint64_t r = ~0ull, b = ~0ull;
  OSSL_PARAM p[] = {OSSL_PARAM_construct_uint64("gcm-records", &r),
                    OSSL_PARAM_construct_uint64("gcm-bytes", &b), OSSL_PARAM_construct_end()};
  if (OSSL_PROVIDER_get_params(prov, p) != 1) return {~0ull, ~0ull};
  return {r, b};
}

struct GcmVector {
  std::string name, cipher;  // cipher: "AES-128-GCM", "AES-256-GCM", "SM4-GCM"
  Bytes key, iv, aad, pt, ct, tag;
};

inline std::vector<GcmVector> gcm_vectors() {
  std::vector<GcmVector> v;
  const KatFile f = load_vector_blocks("modes.txt");
  for (const KatRecord& r : f.records) {
    if (r.count("mode") == 0 || r.at("mode") != "GCM") continue;
    GcmVector g;
    g.name = r.at("name");
    g.key = hex(r.at("key"));
    const bool sm4 = r.count("cipher") != 0 && r.at("cipher") == "SM4";
    g.cipher = sm4 ? "SM4-GCM" : g.key.size() == 16 ? "AES-128-GCM" : g.key.size() == 24 ? "AES-192-GCM" : "AES-256-GCM";
    g.iv = hex(r.at("iv"));
    g.aad = hex(r.count("aad") ? r.at("aad") : "");
    g.pt = hex(r.count("plaintext") ? r.at("plaintext") : "");
    g.ct = hex(r.count("ciphertext") ? r.at("ciphertext") : "");
    g.tag = hex(r.at("tag"));
    v.push_back(g);
  }
  return v;
}

// A provider instance with GPUCRYPTO_BACKEND=`backend` (read at provider init).
class BackendFixture {
 public:
  explicit BackendFixture(const char* backend) {
    const char* old = std::getenv("GPUCRYPTO_BACKEND");
    if (old != nullptr) saved_ = old, had_ = true;
    setenv("GPUCRYPTO_BACKEND", backend, 1);
    fx_ = new ProviderFixture;
    if (had_) setenv("GPUCRYPTO_BACKEND", saved_.c_str(), 1);
    else unsetenv("GPUCRYPTO_BACKEND");
  }
  ~BackendFixture() { delete fx_; }
  BackendFixture(const BackendFixture&) = delete;
  BackendFixture& operator=(const BackendFixture&) = delete;
  ProviderFixture& fx() { return *fx_; }

 private:
  ProviderFixture* fx_;
  std::string saved_;
  bool had_ = false;
};

inline constexpr const char* kBackends[] = {"ref", "avx2", "avx512"};

}  // namespace gpucrypto::test
