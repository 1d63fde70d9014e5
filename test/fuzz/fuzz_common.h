// Shared by the fuzz targets: one library context with gpucrypto and the
// default provider, loaded once per process, and a reader over the input.
#pragma once
#include <openssl/provider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpucrypto::fuzz {

struct Providers {
  OSSL_LIB_CTX* lib = nullptr;
  OSSL_PROVIDER* ours = nullptr;
  OSSL_PROVIDER* def = nullptr;
};

inline const Providers& providers() {
  static const Providers p = [] {
    Providers r;
    r.lib = OSSL_LIB_CTX_new();
    const char* dir = std::getenv("GPUCRYPTO_MODULE_DIR");
    OSSL_PROVIDER_set_default_search_path(r.lib, dir != nullptr && *dir ? dir : GPUCRYPTO_MODULE_DIR);
    r.ours = OSSL_PROVIDER_load(r.lib, "gpucrypto");
    r.def = OSSL_PROVIDER_load(r.lib, "default");
    if (r.ours == nullptr || r.def == nullptr) {
      std::fprintf(stderr, "fuzz: cannot load gpucrypto from %s\n", GPUCRYPTO_MODULE_DIR);
      std::abort();
    }
    return r;
  }();
  return p;
}

// Consumes the input front to back; past the end it yields zeros.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t byte() { return pos_ < n_ ? p_[pos_++] : 0; }
  uint16_t u16() { return uint16_t(byte() | byte() << 8); }
  void bytes(uint8_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = byte();
  }
  size_t left() const { return n_ - pos_; }
  const uint8_t* rest() const { return p_ + pos_; }

 private:
  const uint8_t* p_;
  size_t n_, pos_ = 0;
};

// A failed check: print and abort so that libFuzzer saves the input.
#define FUZZ_CHECK(cond, ...)                                   \
  do {                                                          \
    if (!(cond)) {                                              \
      std::fprintf(stderr, "FUZZ CHECK FAILED: %s: ", #cond);   \
      std::fprintf(stderr, __VA_ARGS__);                        \
      std::fprintf(stderr, "\n");                               \
      std::abort();                                             \
    }                                                           \
  } while (0)

}  // namespace gpucrypto::fuzz
