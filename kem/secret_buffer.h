// Heap bytes that may hold secrets (pre-drawn seeds and messages, whole-batch
// intermediates of a batch bound for the GPU): wiped and freed on scope exit.
// Shared by the babyKyber and ML-KEM batch APIs.
#pragma once
#include <openssl/crypto.h>

#include <cstddef>
#include <cstdint>

namespace gpucrypto::kem {

class SecretBuffer {
 public:
  SecretBuffer() = default;
  SecretBuffer(const SecretBuffer&) = delete;
  SecretBuffer& operator=(const SecretBuffer&) = delete;
  ~SecretBuffer() { OPENSSL_clear_free(p_, n_); }
  bool allocate(size_t n) {
    p_ = static_cast<uint8_t*>(OPENSSL_malloc(n));
    n_ = p_ != nullptr ? n : 0;
    return p_ != nullptr;
  }
  uint8_t* data() const { return p_; }

 private:
  uint8_t* p_ = nullptr;
  size_t n_ = 0;
};

}  // namespace gpucrypto::kem
