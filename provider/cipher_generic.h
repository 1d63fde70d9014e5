// The generic EVP cipher layer, written once for every block cipher:
// ECB (PKCS#7 padding, decrypt holds back the last block) and CTR (stream:
// `num`, `updated-iv`), params, dupctx, wipe on free. Per-algorithm behaviour
// comes only from the CipherAlgo hook table (ciphers/) chosen at key setup
// (docs/ARCHITECTURE.md, "Ciphers").
#pragma once
#include <openssl/core_dispatch.h>

#include <optional>

#include "ciphers/block_cipher.h"
#include "gpu/gpu_backend.h"

namespace gpucrypto {

// The modes of the generic layer; cipher_table.cpp registers every cipher in
// each of them.
enum class Mode { kECB, kCTR };
inline constexpr Mode kModes[] = {Mode::kECB, Mode::kCTR};
inline constexpr size_t kModeCount = std::size(kModes);
// "ECB", "CTR": the suffix of the registered names.
const char* mode_suffix(Mode m);

// One registered EVP cipher: a block cipher in one mode.
struct CipherDesc {
  const CipherAlgo& (*algo)();     // the block cipher
  Mode mode;
  std::optional<gpu::Cipher> gpu;  // CUDA kernel, if there is one
};

// Generic entry points (cipher_generic.cpp).
void* cipher_newctx(void* provctx, const CipherDesc* d);
int cipher_get_params(const CipherDesc* d, OSSL_PARAM params[]);
// Every function that does not depend on the descriptor, 0-terminated.
extern const OSSL_DISPATCH kCipherCommonFunctions[];

}  // namespace gpucrypto
