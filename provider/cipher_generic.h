// The generic EVP cipher layer, written once for every block cipher:
// ECB and CBC (PKCS#7 padding, decrypt holds back the last block), CTR, CFB,
// OFB, CFB8 and CFB1 (streams: `num`, `updated-iv`; CFB1 counts in bits with
// `use-bits`), params, dupctx, wipe on free. Per-algorithm behaviour comes
// only from the CipherAlgo hook table (ciphers/) chosen at key setup, the
// whole-block mode work from engine/block_modes.h (docs/ARCHITECTURE.md,
// "a mode").
#pragma once
#include <openssl/core_dispatch.h>

#include <optional>

#include "ciphers/block_cipher.h"
#include "engine/cipher_registry.h"
#include "gpu/gpu_backend.h"

namespace gpucrypto {

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
// The update of one mode (what OSSL_FUNC_CIPHER_UPDATE of a row in that mode
// should be): ECB and CBC rows go straight to the block layer, without the
// generic update's switch over modes on every small call.
using CipherUpdateFn = int (*)(void*, unsigned char*, size_t*, size_t, const unsigned char*, size_t);
CipherUpdateFn cipher_update_fn(Mode m);

}  // namespace gpucrypto
