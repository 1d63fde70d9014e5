// The generic EVP cipher layer, written once for every block cipher:
// ECB (PKCS#7 padding, decrypt holds back the last block) and CTR (stream:
// `num`, `updated-iv`), params, dupctx, wipe on free. Per-algorithm behaviour
// comes only from the CipherAlgo hook table (ciphers/) chosen at key setup.
#pragma once
#include <openssl/core_dispatch.h>

#include <array>
#include <optional>

#include "ciphers/block_cipher.h"
#include "gpu/gpu_backend.h"

namespace gpucrypto {

enum class Mode { kECB, kCTR };

// One registered EVP cipher (one row of the algorithm table).
struct CipherDesc {
  const char* names;                 // "SKINNY-128-256-ECB:SKINNY-256-ECB"
  const CipherAlgo& (*algo)();       // the block cipher
  Mode mode;
  std::optional<gpu::Cipher> gpu;    // CUDA kernel, if there is one
};

// Generic entry points (cipher_generic.cpp).
void* cipher_newctx(void* provctx, const CipherDesc* d);
int cipher_get_params(const CipherDesc* d, OSSL_PARAM params[]);
// Every function that does not depend on the descriptor, 0-terminated.
extern const OSSL_DISPATCH kCipherCommonFunctions[];
inline constexpr size_t kCipherCommonCount = 12;

// OpenSSL's newctx/get_params carry no algorithm argument, so each registered
// name gets its own pair, bound to its descriptor at compile time.
template <const CipherDesc* D>
struct CipherDispatch {
  static void* newctx(void* provctx) { return cipher_newctx(provctx, D); }
  static int get_params(OSSL_PARAM params[]) { return cipher_get_params(D, params); }
  static const OSSL_DISPATCH* table() {
    static const auto t = [] {
      std::array<OSSL_DISPATCH, kCipherCommonCount + 3> a{};
      a[0] = {OSSL_FUNC_CIPHER_NEWCTX, reinterpret_cast<void (*)()>(&newctx)};
      a[1] = {OSSL_FUNC_CIPHER_GET_PARAMS, reinterpret_cast<void (*)()>(&get_params)};
      for (size_t i = 0; i < kCipherCommonCount; ++i) a[2 + i] = kCipherCommonFunctions[i];
      a[kCipherCommonCount + 2] = {0, nullptr};
      return a;
    }();
    return t.data();
  }
};

}  // namespace gpucrypto
