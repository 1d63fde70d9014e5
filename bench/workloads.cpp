#include "bench/workloads.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "bench/providers.h"

namespace gpucrypto::bench {
namespace {

// ECB and CBC take whole blocks (padding off); the other modes are streams.
bool is_ecb(const std::string& name) {
  auto ends = [&](const char* s) { return name.size() > 4 && name.compare(name.size() - 4, 4, s) == 0; };
  return ends("-ECB") || ends("-CBC");
}

std::vector<uint8_t> random_bytes(size_t n) {
  std::vector<uint8_t> v(n);
  if (n != 0 && RAND_bytes(v.data(), int(n)) != 1)
    throw std::runtime_error("RAND_bytes failed: " + openssl_errors());
  return v;
}

CipherPtr fetch(OSSL_LIB_CTX* libctx, const std::string& cipher, const std::string& propq) {
  CipherPtr c(EVP_CIPHER_fetch(libctx, cipher.c_str(), propq.c_str()));
  if (!c)
    throw std::runtime_error("cannot fetch " + cipher + " (" + propq + "): " + openssl_errors());
  return c;
}

// Initialises `ctx` for encryption (or decryption) with padding off.
void init_encrypt(EVP_CIPHER_CTX* ctx, const EVP_CIPHER* cipher, const std::string& label,
                  const std::vector<uint8_t>& key, const std::vector<uint8_t>& iv,
                  bool decrypt = false) {
  if (EVP_CipherInit_ex2(ctx, cipher, key.data(), iv.empty() ? nullptr : iv.data(), decrypt ? 0 : 1,
                         nullptr) != 1 ||
      EVP_CIPHER_CTX_set_padding(ctx, 0) != 1)
    throw std::runtime_error("cannot initialise " + label + ": " + openssl_errors());
}

CipherCtxPtr new_ctx() {
  CipherCtxPtr ctx(EVP_CIPHER_CTX_new());
  if (!ctx) throw std::bad_alloc();
  return ctx;
}

}  // namespace

void EvpCipherFree::operator()(EVP_CIPHER* c) const { EVP_CIPHER_free(c); }
void EvpCipherCtxFree::operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }

void fill_pattern(uint8_t* p, size_t n, uint64_t seed) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p[i] = uint8_t(x >> 32);
  }
}

Buffer::Buffer(size_t n) : n_(n) {
  const size_t rounded = (n + 63) / 64 * 64;
  p_ = static_cast<uint8_t*>(std::aligned_alloc(64, rounded == 0 ? 64 : rounded));
  if (p_ == nullptr) throw std::bad_alloc();
  std::memset(p_, 0, rounded);  // fault the pages in before timing
}

Buffer::~Buffer() { std::free(p_); }

IoBuffers::IoBuffers(size_t n) : in(n), out(n) { fill_pattern(in.data(), n, n); }

EvpCipherWorkload::EvpCipherWorkload(OSSL_LIB_CTX* libctx, const std::string& cipher,
                                     const std::string& propq, const IoBuffers& io, bool decrypt,
                                     Calls calls)
    : libctx_(libctx),
      name_(cipher),
      propq_(propq),
      label_(cipher + (decrypt ? " decrypt (" : " (") + propq + ")"),
      decrypt_(decrypt),
      io_(io),
      calls_(calls) {
  cipher_ = fetch(libctx, cipher, propq);
  ctx_ = new_ctx();
  if (is_ecb(cipher)) block_ = size_t(EVP_CIPHER_get_block_size(cipher_.get()));
  key_ = random_bytes(size_t(EVP_CIPHER_get_key_length(cipher_.get())));
  iv_ = random_bytes(size_t(EVP_CIPHER_get_iv_length(cipher_.get())));
  if (calls_ == Calls::kRecord) {
    if (iv_.size() < 8) throw std::runtime_error(label_ + ": a record IV needs 8 counter bytes");
    aad_.resize(kRecordAadLen);
    fill_pattern(aad_.data(), aad_.size(), 13);
  }
  init_encrypt(ctx_.get(), cipher_.get(), label_, key_, iv_, decrypt_);
}

size_t EvpCipherWorkload::usable_bytes(size_t size) const {
  if (block_ == 0 || size > io_.in.size() || size > size_t(INT_MAX)) return 0;
  return size / block_ * block_;
}

void EvpCipherWorkload::prepare(size_t len) {
  if (calls_ != Calls::kRecord || !decrypt_ || tags_.count(len) != 0) return;
  // GCM encrypts and decrypts with the same keystream, so sealing `in`
  // gives the plaintext whose sealing gives back `in` and the tag that the
  // timed decryptions of `in` verify.
  const std::vector<uint8_t> ct(io_.in.data(), io_.in.data() + len);
  std::vector<uint8_t> plain = encrypt_once(libctx_, name_, propq_, key_, iv_, ct, false, &aad_);
  plain.resize(len);
  const std::vector<uint8_t> sealed =
      encrypt_once(libctx_, name_, propq_, key_, iv_, plain, false, &aad_);
  if (!std::equal(ct.begin(), ct.end(), sealed.begin()))
    throw std::runtime_error(label_ + ": re-encrypting the plaintext did not give the ciphertext");
  std::copy(sealed.end() - kRecordTagLen, sealed.end(), tags_[len].begin());
  run(len, 1);  // the final must verify before anything is timed
}

void EvpCipherWorkload::run(size_t len, uint64_t iters) {
  uint8_t* out = io_.out.data();
  const uint8_t* in = io_.in.data();
  const auto tag = tags_.find(len);
  const uint8_t* expected = tag != tags_.end() ? tag->second.data() : nullptr;
  if (calls_ == Calls::kRecord && decrypt_ && expected == nullptr)
    fail("no tag prepared at " + std::to_string(len) + " bytes");
  for (uint64_t i = 0; i < iters; ++i) {
    if (calls_ != Calls::kStream) begin_message(i, expected);
    int outl = 0;
    if (EVP_CipherUpdate(ctx_.get(), out, &outl, in, int(len)) != 1 || size_t(outl) != len)
      fail("EVP_CipherUpdate at " + std::to_string(len) + " bytes");
    if (calls_ != Calls::kStream) end_message(len);
  }
}

void EvpCipherWorkload::next_iv(uint64_t i) {
  if (iv_.empty()) return;
  if (calls_ == Calls::kMessage || calls_ == Calls::kRekey) {
    ++iv_[i % iv_.size()];
    return;
  }
  // Records: encryption takes a new IV per message, a big-endian counter in
  // the last 8 bytes as TLS's sequence number (GCM must never repeat one).
  // Decryption keeps its IV: a receiver sets whatever IV came, at the same
  // cost, and one IV means one precomputed tag per length.
  if (decrypt_) return;
  for (size_t n = iv_.size(); n-- > iv_.size() - 8;)
    if (++iv_[n] != 0) break;
}

void EvpCipherWorkload::begin_message(uint64_t i, const uint8_t* tag) {
  next_iv(i);
  if (calls_ == Calls::kRekey) ++key_[i % key_.size()];
  if (EVP_CipherInit_ex2(ctx_.get(), nullptr, calls_ == Calls::kRekey ? key_.data() : nullptr,
                         iv_.empty() ? nullptr : iv_.data(), decrypt_ ? 0 : 1, nullptr) != 1)
    fail("EVP_CipherInit_ex2 (new IV)");
  if (calls_ != Calls::kRecord) return;
  if (decrypt_ && EVP_CIPHER_CTX_ctrl(ctx_.get(), EVP_CTRL_AEAD_SET_TAG, int(kRecordTagLen),
                                      const_cast<uint8_t*>(tag)) != 1)
    fail("setting the expected tag");
  int outl = 0;
  if (EVP_CipherUpdate(ctx_.get(), nullptr, &outl, aad_.data(), int(aad_.size())) != 1)
    fail("the AAD update");
}

void EvpCipherWorkload::end_message(size_t len) {
  int outl = 0;
  if (EVP_CipherFinal_ex(ctx_.get(), io_.out.data() + len, &outl) != 1 || outl != 0)
    fail(decrypt_ && calls_ == Calls::kRecord ? "EVP_CipherFinal_ex (tag check)"
                                              : "EVP_CipherFinal_ex");
  if (calls_ == Calls::kRecord && !decrypt_ &&
      EVP_CIPHER_CTX_ctrl(ctx_.get(), EVP_CTRL_AEAD_GET_TAG, int(tag_.size()), tag_.data()) != 1)
    fail("reading the tag");
}

void EvpCipherWorkload::fail(const std::string& what) const {
  throw std::runtime_error(what + " failed for " + label_ + ": " + openssl_errors());
}

Gang::Gang(int n) : n_(n) {
  for (int i = 1; i < n; ++i) helpers_.emplace_back([this, i] { loop(i); });
}

Gang::~Gang() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : helpers_) t.join();
}

void Gang::loop(int index) {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(index);
    {
      std::lock_guard lock(mu_);
      --pending_;
    }
    cv_.notify_all();
  }
}

void Gang::run(const std::function<void(int)>& fn) {
  if (n_ == 1) return fn(0);
  {
    std::lock_guard lock(mu_);
    job_ = &fn;
    pending_ = n_ - 1;
    ++generation_;
  }
  cv_.notify_all();
  fn(0);
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return pending_ == 0; });
}

ParallelCipherWorkload::ParallelCipherWorkload(OSSL_LIB_CTX* libctx, const std::string& cipher,
                                               const std::string& propq, int threads,
                                               size_t max_len)
    : gang_(threads) {
  for (int i = 0; i < threads; ++i) {
    io_.push_back(std::make_unique<IoBuffers>(max_len));
    workers_.push_back(std::make_unique<EvpCipherWorkload>(libctx, cipher, propq, *io_.back()));
  }
}

void ParallelCipherWorkload::run(size_t len, uint64_t iters) {
  // Exceptions must not cross the thread boundary: collect, rethrow here.
  std::vector<std::string> errors(workers_.size());
  gang_.run([&](int i) {
    try {
      workers_[size_t(i)]->run(len, iters);
    } catch (const std::exception& e) {
      errors[size_t(i)] = e.what();
    }
  });
  for (const auto& e : errors)
    if (!e.empty()) throw std::runtime_error(e);
}

MemoryProbeWorkload::MemoryProbeWorkload(int threads, size_t max_len) : gang_(threads) {
  for (int i = 0; i < threads; ++i) io_.push_back(std::make_unique<IoBuffers>(max_len));
}

void MemoryProbeWorkload::run(size_t len, uint64_t iters) {
  gang_.run([&](int i) {
    uint8_t* p = io_[size_t(i)]->out.data();
    for (uint64_t k = 0; k < iters; ++k) {
      for (size_t j = 0; j + 8 <= len; j += 8) {  // vectorised by the compiler
        uint64_t w;
        std::memcpy(&w, p + j, 8);
        w ^= 0x5a5a5a5a5a5a5a5aull;
        std::memcpy(p + j, &w, 8);
      }
      asm volatile("" ::: "memory");  // keep every pass
    }
  });
}

std::vector<uint8_t> encrypt_once(OSSL_LIB_CTX* libctx, const std::string& cipher,
                                  const std::string& propq, const std::vector<uint8_t>& key,
                                  const std::vector<uint8_t>& iv, const std::vector<uint8_t>& in,
                                  bool decrypt, const std::vector<uint8_t>* aad) {
  const CipherPtr c = fetch(libctx, cipher, propq);
  const CipherCtxPtr ctx = new_ctx();
  init_encrypt(ctx.get(), c.get(), cipher, key, iv, decrypt);
  const std::string what = std::string(decrypt ? "decryption" : "encryption") + " failed for " +
                           cipher + " (" + propq + "): ";
  size_t data_len = in.size();
  if (aad != nullptr) {
    if (decrypt && data_len < kRecordTagLen) throw std::runtime_error(what + "no tag");
    if (decrypt) data_len -= kRecordTagLen;
    int n = 0;
    if (decrypt && EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, int(kRecordTagLen),
                                       const_cast<uint8_t*>(in.data() + data_len)) != 1)
      throw std::runtime_error(what + openssl_errors());
    if (EVP_CipherUpdate(ctx.get(), nullptr, &n, aad->data(), int(aad->size())) != 1)
      throw std::runtime_error(what + openssl_errors());
  }
  std::vector<uint8_t> out(data_len + 64);
  int n1 = 0, n2 = 0;
  if (EVP_CipherUpdate(ctx.get(), out.data(), &n1, in.data(), int(data_len)) != 1 ||
      EVP_CipherFinal_ex(ctx.get(), out.data() + n1, &n2) != 1)
    throw std::runtime_error(what + openssl_errors());
  out.resize(size_t(n1 + n2));
  if (aad != nullptr && !decrypt) {
    out.resize(out.size() + kRecordTagLen);
    if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, int(kRecordTagLen),
                            out.data() + out.size() - kRecordTagLen) != 1)
      throw std::runtime_error(what + openssl_errors());
  }
  return out;
}

void cipher_lengths(OSSL_LIB_CTX* libctx, const std::string& cipher, const std::string& propq,
                    size_t* key_len, size_t* iv_len, size_t* block) {
  const CipherPtr c = fetch(libctx, cipher, propq);
  *key_len = size_t(EVP_CIPHER_get_key_length(c.get()));
  *iv_len = size_t(EVP_CIPHER_get_iv_length(c.get()));
  *block = is_ecb(cipher) ? size_t(EVP_CIPHER_get_block_size(c.get())) : 1;
}

bool cipher_available(OSSL_LIB_CTX* libctx, const std::string& cipher, const std::string& propq) {
  const CipherPtr c(EVP_CIPHER_fetch(libctx, cipher.c_str(), propq.c_str()));
  if (!c) openssl_errors();  // drop the fetch error
  return c != nullptr;
}

}  // namespace gpucrypto::bench
