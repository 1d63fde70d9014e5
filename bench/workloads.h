// What gets timed: EVP_EncryptUpdate on a pre-initialised context (like
// `openssl speed -evp`), messages and AEAD records on one key, the 2-core
// compute probe and the memory probe.
#pragma once
#include <openssl/types.h>

#include <array>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gpucrypto::bench {

// A 64-byte aligned, pre-faulted byte buffer.
class Buffer {
 public:
  explicit Buffer(size_t n);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  uint8_t* data() const { return p_; }
  size_t size() const { return n_; }

 private:
  uint8_t* p_;
  size_t n_;
};

// Source and destination shared by every single-threaded workload.
struct IoBuffers {
  explicit IoBuffers(size_t n);
  Buffer in, out;
};

class Workload {
 public:
  virtual ~Workload() = default;
  // Bytes one call processes for a `size`-byte buffer: ECB takes the whole
  // blocks in it (4080 of 4096 bytes for 24-byte blocks), 0 if none fit.
  virtual size_t usable_bytes(size_t size) const { return size; }
  // Bytes processed by one iteration of `len` (n threads x len for probes).
  virtual double bytes_per_iter(size_t len) const { return double(len); }
  // Whether all work runs on the calling thread (its cycle counter then
  // covers the whole job).
  virtual bool on_calling_thread() const { return true; }
  // Called once per size before that size is calibrated, untimed: set-up
  // that depends on the length (a decryption's expected tag) and a first
  // checked call. Throws std::runtime_error on any failure.
  virtual void prepare(size_t len) { (void)len; }
  // Runs `iters` back-to-back operations of `len` bytes. Throws
  // std::runtime_error on any failure.
  virtual void run(size_t len, uint64_t iters) = 0;
};

struct EvpCipherFree {
  void operator()(EVP_CIPHER* c) const;
};
struct EvpCipherCtxFree {
  void operator()(EVP_CIPHER_CTX* c) const;
};
using CipherPtr = std::unique_ptr<EVP_CIPHER, EvpCipherFree>;
using CipherCtxPtr = std::unique_ptr<EVP_CIPHER_CTX, EvpCipherCtxFree>;

// How the timed EVP calls are framed.
enum class Calls {
  kStream,   // update after update on one context (openssl speed -evp)
  kMessage,  // per call a message of its own: new IV + update + final
  kRekey,    // the same under a new key too: new key + IV + update + final
  kRecord,   // an AEAD (GCM) record: new IV + AAD + update + final + tag
};

// AEAD records as TLS frames them: a 13-byte header as AAD, a 16-byte tag.
inline constexpr size_t kRecordAadLen = 13;
inline constexpr size_t kRecordTagLen = 16;

// EVP_EncryptUpdate (or, with `decrypt`, EVP_DecryptUpdate) of (out, in,
// len) on a context initialised once with a random key and IV (padding off
// for ECB and CBC). Stream contexts (CTR, CFB, OFB) keep streaming, CBC keeps
// chaining. Per message (Calls::kMessage): every operation is a message of
// its own under a new IV on the same key: EVP_CipherInit_ex2(ctx, NULL, NULL,
// iv) + update + final, the small-message pattern of protocols; with
// Calls::kRekey under a new key as well (EVP_CipherInit_ex2(ctx, NULL, key,
// iv): a DRBG re-keying per generate, a connection's first record). Per record
// (Calls::kRecord, GCM): the same plus 13 bytes of AAD before the data and
// the 16-byte tag, read after final when encrypting, set before the data
// when decrypting (`in` is then the ciphertext of a record whose tag
// prepare() computed, and every final verifies it).
class EvpCipherWorkload : public Workload {
 public:
  EvpCipherWorkload(OSSL_LIB_CTX* libctx, const std::string& cipher, const std::string& propq,
                    const IoBuffers& io, bool decrypt = false, Calls calls = Calls::kStream);
  size_t usable_bytes(size_t size) const override;
  void prepare(size_t len) override;
  void run(size_t len, uint64_t iters) override;

 private:
  void next_iv(uint64_t i);
  void begin_message(uint64_t i, const uint8_t* tag);
  void end_message(size_t len);
  [[noreturn]] void fail(const std::string& what) const;

  OSSL_LIB_CTX* libctx_;
  std::string name_, propq_, label_;
  CipherPtr cipher_;
  CipherCtxPtr ctx_;
  size_t block_ = 1;
  bool decrypt_ = false;
  const IoBuffers& io_;
  Calls calls_;
  std::vector<uint8_t> key_, iv_;
  std::vector<uint8_t> aad_;                                   // kRecord
  std::array<uint8_t, kRecordTagLen> tag_{};                   // kRecord encryption: the last tag
  std::map<size_t, std::array<uint8_t, kRecordTagLen>> tags_;  // kRecord decryption: per length
};

// n threads (the caller is one of them) kept alive between runs, so the
// timed region holds a wake-up, not a thread creation.
class Gang {
 public:
  explicit Gang(int n);
  ~Gang();
  Gang(const Gang&) = delete;
  Gang& operator=(const Gang&) = delete;
  int size() const { return n_; }
  // Runs fn(i) for i in [0, n) concurrently; returns when all are done.
  void run(const std::function<void(int)>& fn);

 private:
  void loop(int index);
  int n_;
  std::vector<std::thread> helpers_;
  std::mutex mu_;
  std::condition_variable cv_;
  const std::function<void(int)>* job_ = nullptr;
  uint64_t generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

// n threads each running one EVP cipher (the default provider's SM4-CTR for
// the probe) on private buffers: what 1 -> n cores give to fully
// independent compute, the ceiling for our threads=n rows.
class ParallelCipherWorkload : public Workload {
 public:
  ParallelCipherWorkload(OSSL_LIB_CTX* libctx, const std::string& cipher,
                         const std::string& propq, int threads, size_t max_len);
  size_t usable_bytes(size_t size) const override { return workers_[0]->usable_bytes(size); }
  double bytes_per_iter(size_t len) const override { return double(len) * gang_.size(); }
  bool on_calling_thread() const override { return gang_.size() == 1; }
  void run(size_t len, uint64_t iters) override;

 private:
  std::vector<std::unique_ptr<IoBuffers>> io_;
  std::vector<std::unique_ptr<EvpCipherWorkload>> workers_;
  Gang gang_;
};

// In-place XOR of a constant over len bytes on n threads with private
// buffers (read + write of each byte once, as a CTR cipher in place does):
// the memory probe, the scaling a memory-bound cipher (AES-CTR at 16 MiB)
// can get from n threads.
class MemoryProbeWorkload : public Workload {
 public:
  MemoryProbeWorkload(int threads, size_t max_len);
  double bytes_per_iter(size_t len) const override { return double(len) * gang_.size(); }
  bool on_calling_thread() const override { return gang_.size() == 1; }
  void run(size_t len, uint64_t iters) override;

 private:
  std::vector<std::unique_ptr<IoBuffers>> io_;
  Gang gang_;
};

// One-shot encryption (or decryption) for the correctness check (update +
// final, padding off for ECB and CBC). With `aad` (AEAD ciphers): the AAD
// goes in before the data, encryption appends the kRecordTagLen-byte tag, and
// decryption takes it from the end of `in` and throws unless it verifies.
std::vector<uint8_t> encrypt_once(OSSL_LIB_CTX* libctx, const std::string& cipher,
                                  const std::string& propq, const std::vector<uint8_t>& key,
                                  const std::vector<uint8_t>& iv, const std::vector<uint8_t>& in,
                                  bool decrypt = false,
                                  const std::vector<uint8_t>* aad = nullptr);

// Key and IV lengths of a cipher (throws when it cannot be fetched).
void cipher_lengths(OSSL_LIB_CTX* libctx, const std::string& cipher, const std::string& propq,
                    size_t* key_len, size_t* iv_len, size_t* block);

// Whether `cipher` can be fetched with `propq` in `libctx`.
bool cipher_available(OSSL_LIB_CTX* libctx, const std::string& cipher, const std::string& propq);

// Fast non-cryptographic fill: the ciphers are constant time, so the data
// does not matter, only that it is not all zero.
void fill_pattern(uint8_t* p, size_t n, uint64_t seed);

}  // namespace gpucrypto::bench
