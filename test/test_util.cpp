#include "test/test_util.h"

#include <gtest/gtest.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "engine/cipher_registry.h"
#include "platform/cpu_features.h"

namespace gpucrypto::test {

Bytes hex(const std::string& s) {
  Bytes out;
  int hi = -1;
  for (char c : s) {
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    else if (c == ' ' || c == '\n') continue;
    else throw std::invalid_argument("bad hex digit");
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(uint8_t(hi << 4 | v));
      hi = -1;
    }
  }
  if (hi >= 0) throw std::invalid_argument("odd hex length");
  return out;
}

std::string to_hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

bool default_num_unbounded() { return OpenSSL_version_num() < 0x30000140UL; }  // <= 3.0.19

Bytes random_bytes(size_t n) {
  Bytes b(n);
  if (n != 0 && RAND_bytes(b.data(), int(n)) != 1) throw std::runtime_error("RAND_bytes");
  return b;
}

std::vector<const CipherHw*> runnable_impls(const CipherAlgo& algo) {
  std::vector<const CipherHw*> v;
  const uint32_t f = cpu_features_detected();
  for (const CipherHw* hw : algo.impls) {
    if ((hw->required & ~f) == 0) v.push_back(hw);
  }
  return v;
}

KeySchedule::KeySchedule(const CipherHw& hw, const Bytes& key, bool with_decrypt)
    : ks_(nullptr), size_(hw.ks_bytes) {
  const size_t alloc = (size_ + 63) / 64 * 64;
  ks_ = std::aligned_alloc(64, alloc == 0 ? 64 : alloc);
  std::memset(ks_, 0, alloc == 0 ? 64 : alloc);
  hw.setkey(ks_, key.data(), key.size(), with_decrypt);
}

KeySchedule::~KeySchedule() {
  OPENSSL_cleanse(ks_, size_);
  std::free(ks_);
}

namespace {

// ECB through one hook; encryption with an encrypt-only schedule (as the
// provider sets one up), decryption with a full one.
Bytes ecb_run(const CipherAlgo& algo, const CipherHw& hw, const Bytes& key, const Bytes& in,
              bool enc) {
  if (in.size() % algo.block_bytes != 0) throw std::invalid_argument("partial block");
  KeySchedule ks(hw, key, !enc);
  Bytes out(in.size());
  uint8_t none[kMaxBlockBytes];  // never a null pointer into the hooks, even for 0 blocks
  (enc ? hw.encrypt : hw.decrypt)(ks.get(), in.empty() ? none : in.data(),
                                  out.empty() ? none : out.data(), in.size() / algo.block_bytes);
  return out;
}

}  // namespace

Bytes ecb_encrypt(const CipherAlgo& algo, const CipherHw& hw, const Bytes& key,
                  const Bytes& pt) {
  return ecb_run(algo, hw, key, pt, true);
}

Bytes ecb_decrypt(const CipherAlgo& algo, const CipherHw& hw, const Bytes& key,
                  const Bytes& ct) {
  return ecb_run(algo, hw, key, ct, false);
}

Bytes ctr_crypt(const CipherAlgo& algo, const CipherHw& hw, const Bytes& key, const Bytes& iv,
                const Bytes& in) {
  const size_t bs = algo.block_bytes;
  if (iv.size() != bs) throw std::invalid_argument("iv length");
  KeySchedule ks(hw, key, false);
  Bytes ctr = iv, out(in.size());
  const size_t full = in.size() / bs;
  uint8_t none[kMaxBlockBytes];  // never a null pointer into the hooks, even for 0 blocks
  hw.ctr(ks.get(), ctr.data(), in.empty() ? none : in.data(), out.empty() ? none : out.data(),
         full);
  const size_t rest = in.size() - full * bs;
  if (rest != 0) {
    Bytes zero(bs, 0), stream(bs);
    hw.ctr(ks.get(), ctr.data(), zero.data(), stream.data(), 1);
    for (size_t i = 0; i < rest; ++i) out[full * bs + i] = in[full * bs + i] ^ stream[i];
  }
  return out;
}

std::string vectors_dir() {
  const char* e = std::getenv("GPUCRYPTO_VECTORS_DIR");
  return e != nullptr && *e != 0 ? e : GPUCRYPTO_VECTORS_DEFAULT;
}

namespace {

// Shared by load_kat and load_vector_blocks. `opener` is the name that opens
// a record; empty: every blank-line-separated block of name = value lines is
// one record.
KatFile read_name_value_file(const std::string& file, const std::string& opener) {
  KatFile f;
  const std::string path = vectors_dir() + "/" + file;
  std::ifstream in(path);
  if (!in) {
    // The files are the repository's own (test/vectors): a missing one is a
    // failure of the test that reads it, never a skip.
    f.error = "vector file " + path + " not found (test/vectors, or GPUCRYPTO_VECTORS_DIR)";
    ADD_FAILURE() << f.error;
    return f;
  }
  auto trim = [](const std::string& s) {
    const size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  std::string line;
  KatRecord cur;
  auto flush = [&] {
    if (opener.empty() ? !cur.empty() : cur.count(opener) != 0) f.records.push_back(cur);
    cur.clear();
  };
  while (std::getline(in, line)) {
    if (line.empty()) {
      flush();
      continue;
    }
    if (line[0] == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = trim(line.substr(0, eq)), val = trim(line.substr(eq + 1));
    if (opener.empty() || key == opener || !cur.empty()) cur[key] = val;
    else f.globals[key] = val;
  }
  flush();
  return f;
}

}  // namespace

KatFile load_kat(const std::string& file) { return read_name_value_file(file, "test"); }

KatFile load_vector_blocks(const std::string& file) { return read_name_value_file(file, ""); }

std::string module_dir() {
  const char* e = std::getenv("GPUCRYPTO_MODULE_DIR");
  return e != nullptr && *e != 0 ? e : GPUCRYPTO_MODULE_DIR;
}

ProviderFixture::ProviderFixture() {
  libctx_ = OSSL_LIB_CTX_new();
  if (libctx_ == nullptr) return;
  OSSL_PROVIDER_set_default_search_path(libctx_, module_dir().c_str());
  gpu_ = OSSL_PROVIDER_load(libctx_, "gpucrypto");
  def_ = OSSL_PROVIDER_load(libctx_, "default");
}

ProviderFixture::~ProviderFixture() {
  if (gpu_ != nullptr) OSSL_PROVIDER_unload(gpu_);
  if (def_ != nullptr) OSSL_PROVIDER_unload(def_);
  OSSL_LIB_CTX_free(libctx_);
}

std::unique_ptr<ProviderFixture> provider_with(const char* threads, const char* mt_min_bytes) {
  setenv("GPUCRYPTO_THREADS", threads, 1);
  setenv("GPUCRYPTO_MT_MIN_BYTES", mt_min_bytes, 1);
  auto p = std::make_unique<ProviderFixture>();
  unsetenv("GPUCRYPTO_THREADS");
  unsetenv("GPUCRYPTO_MT_MIN_BYTES");
  return p;
}

std::unique_ptr<ProviderFixture> provider_with_env(const char* var, const char* value) {
  setenv(var, value, 1);
  auto p = std::make_unique<ProviderFixture>();
  unsetenv(var);
  return p;
}

std::string provider_buildinfo(OSSL_PROVIDER* p) {
  const char* info = nullptr;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, const_cast<char**>(&info), 0),
                         OSSL_PARAM_construct_end()};
  return OSSL_PROVIDER_get_params(p, params) == 1 && info != nullptr ? info : "";
}

bool evp_crypt(OSSL_LIB_CTX* libctx, const char* cipher, const char* propq, bool enc,
               const Bytes& key, const Bytes& iv, const Bytes& in, Bytes* out, bool padding,
               const std::vector<size_t>& chunks) {
  EVP_CIPHER* c = EVP_CIPHER_fetch(libctx, cipher, propq);
  if (c == nullptr) return false;
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  bool ok = ctx != nullptr &&
            EVP_CipherInit_ex2(ctx, c, key.data(), iv.empty() ? nullptr : iv.data(), enc ? 1 : 0,
                               nullptr) == 1 &&
            EVP_CIPHER_CTX_set_padding(ctx, padding ? 1 : 0) == 1;
  out->assign(in.size() + 2 * kMaxBlockBytes, 0);
  size_t pos = 0, done = 0;
  auto step = [&](size_t n) {
    int outl = 0;
    ok = ok && EVP_CipherUpdate(ctx, out->data() + done, &outl, in.data() + pos, int(n)) == 1;
    if (ok) {
      pos += n;
      done += size_t(outl);
    }
  };
  for (size_t c_len : chunks) {
    if (pos + c_len > in.size()) break;
    step(c_len);
  }
  if (pos < in.size()) step(in.size() - pos);
  int outl = 0;
  ok = ok && EVP_CipherFinal_ex(ctx, out->data() + done, &outl) == 1;
  if (ok) done += size_t(outl);
  out->resize(ok ? done : 0);
  EVP_CIPHER_CTX_free(ctx);
  EVP_CIPHER_free(c);
  return ok;
}

EVP_PKEY* evp_keygen(OSSL_LIB_CTX* lib, const char* name, const Bytes* seed) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(lib, name, "provider=gpucrypto");
  EVP_PKEY* k = nullptr;
  EXPECT_NE(ctx, nullptr);
  EXPECT_EQ(EVP_PKEY_keygen_init(ctx), 1);
  if (seed != nullptr) {
    OSSL_PARAM p[] = {
        OSSL_PARAM_octet_string("seed", const_cast<uint8_t*>(seed->data()), seed->size()),
        OSSL_PARAM_END};
    EXPECT_EQ(EVP_PKEY_CTX_set_params(ctx, p), 1);
  }
  EXPECT_EQ(EVP_PKEY_generate(ctx, &k), 1);
  EVP_PKEY_CTX_free(ctx);
  return k;
}

EVP_PKEY* evp_fromdata(OSSL_LIB_CTX* lib, const char* name, const OSSL_PARAM* params,
                       int selection) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(lib, name, "provider=gpucrypto");
  EVP_PKEY* k = nullptr;
  if (ctx == nullptr || EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &k, selection, const_cast<OSSL_PARAM*>(params)) != 1)
    k = nullptr;
  EVP_PKEY_CTX_free(ctx);
  return k;
}

Bytes evp_octets(EVP_PKEY* k, const char* name) {
  size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(k, name, nullptr, 0, &len) != 1) return {};
  Bytes b(len);
  if (EVP_PKEY_get_octet_string_param(k, name, b.data(), b.size(), &len) != 1) return {};
  b.resize(len);
  return b;
}

bool evp_encapsulate(OSSL_LIB_CTX* lib, EVP_PKEY* k, Bytes* ct, Bytes* ss) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(lib, k, nullptr);
  size_t ctlen = 0, sslen = 0;
  bool ok = ctx != nullptr && EVP_PKEY_encapsulate_init(ctx, nullptr) == 1 &&
            EVP_PKEY_encapsulate(ctx, nullptr, &ctlen, nullptr, &sslen) == 1;
  if (ok) {
    ct->resize(ctlen);
    ss->resize(sslen);
    ok = EVP_PKEY_encapsulate(ctx, ct->data(), &ctlen, ss->data(), &sslen) == 1;
  }
  EVP_PKEY_CTX_free(ctx);
  return ok;
}

bool evp_decapsulate(OSSL_LIB_CTX* lib, EVP_PKEY* k, const Bytes& ct, Bytes* ss, size_t outlen) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(lib, k, nullptr);
  ss->assign(outlen, 0);
  size_t sslen = outlen;
  const bool ok = ctx != nullptr && EVP_PKEY_decapsulate_init(ctx, nullptr) == 1 &&
                  EVP_PKEY_decapsulate(ctx, ss->data(), &sslen, ct.data(), ct.size()) == 1;
  EVP_PKEY_CTX_free(ctx);
  if (ok) ss->resize(sslen);
  return ok;
}

Bytes evp_encode(EVP_PKEY* k, int selection, const char* format, const char* structure) {
  OSSL_ENCODER_CTX* ectx = OSSL_ENCODER_CTX_new_for_pkey(k, selection, format, structure, nullptr);
  unsigned char* data = nullptr;
  size_t len = 0;
  Bytes out;
  if (ectx != nullptr && OSSL_ENCODER_CTX_get_num_encoders(ectx) > 0 &&
      OSSL_ENCODER_to_data(ectx, &data, &len) == 1)
    out.assign(data, data + len);
  OPENSSL_free(data);
  OSSL_ENCODER_CTX_free(ectx);
  return out;
}

EVP_PKEY* evp_decode(OSSL_LIB_CTX* lib, const Bytes& in, int selection, const char* format,
                     const char* structure, const char* keytype, const char* propq) {
  EVP_PKEY* k = nullptr;
  OSSL_DECODER_CTX* dctx =
      OSSL_DECODER_CTX_new_for_pkey(&k, format, structure, keytype, selection, lib, propq);
  const unsigned char* p = in.data();
  size_t len = in.size();
  if (dctx == nullptr || OSSL_DECODER_from_data(dctx, &p, &len) != 1) {
    EVP_PKEY_free(k);
    k = nullptr;
  }
  OSSL_DECODER_CTX_free(dctx);
  return k;
}

std::string cipher_ctx_state(EVP_CIPHER_CTX* ctx) {
  unsigned num = 999, pad = 9;
  uint8_t iv[32] = {}, uiv[32] = {};
  size_t ivlen = 0, keylen = 0;
  OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                    OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &pad),
                    OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, iv, sizeof iv),
                    OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, uiv, sizeof uiv),
                    OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen),
                    OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
                    OSSL_PARAM_END};
  const int rc = EVP_CIPHER_CTX_get_params(ctx, p);
  return "rc=" + std::to_string(rc) + " num=" + std::to_string(num) + " pad=" + std::to_string(pad) +
         " ivlen=" + std::to_string(ivlen) + " keylen=" + std::to_string(keylen) + " iv=" +
         to_hex(iv, 16) + " updated-iv=" + to_hex(uiv, 16) + " block=" +
         std::to_string(EVP_CIPHER_CTX_get_block_size(ctx)) + " mode=" +
         std::to_string(EVP_CIPHER_CTX_get_mode(ctx));
}

const std::vector<RegisteredCase>& sampled_registered_ciphers() {
  static const std::vector<RegisteredCase> v = [] {
    std::vector<RegisteredCase> out;
    size_t i = 0;
    for (const CipherRow& r : cipher_rows()) {
      for (Mode m : {Mode::kECB, Mode::kCTR, std::array{Mode::kCBC, Mode::kCFB, Mode::kOFB}[i++ % 3]})
        out.push_back({r.evp_name(m), &r.algo()});
    }
    return out;
  }();
  return v;
}

}  // namespace gpucrypto::test
