// SHA3-256 (H), SHA3-512 (G) and SHAKE256 (J, and seed expansion), fetched
// from a library context (normally the default provider) on first use and
// reused for every later call: a batch worker keeps one of these, so the
// per-hash cost is one digest init/update/final, not a fetch.
#pragma once
#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>

namespace gpucrypto::kem {

class Sha3Hasher {
 public:
  explicit Sha3Hasher(OSSL_LIB_CTX* libctx) : libctx_(libctx) {}
  ~Sha3Hasher();
  Sha3Hasher(const Sha3Hasher&) = delete;
  Sha3Hasher& operator=(const Sha3Hasher&) = delete;

  bool sha3_256(const uint8_t* a, size_t alen, uint8_t out[32]);
  bool sha3_512(const uint8_t* a, size_t alen, const uint8_t* b, size_t blen, uint8_t out[64]);
  bool shake256(const uint8_t* a, size_t alen, const uint8_t* b, size_t blen, uint8_t* out,
                size_t outlen);

 private:
  // One context per digest: OpenSSL 3.0 re-initialises a context that last
  // ran another SHA-3 variant without resetting its rate (wrong output).
  struct Slot {
    EVP_MD* md = nullptr;
    EVP_MD_CTX* ctx = nullptr;
  };
  bool digest(Slot* slot, const char* name, const uint8_t* a, size_t alen, const uint8_t* b,
              size_t blen, uint8_t* out, size_t outlen, bool xof);

  OSSL_LIB_CTX* libctx_;
  Slot sha3_256_, sha3_512_, shake256_;
};

}  // namespace gpucrypto::kem
