// Provider context shared by every algorithm implementation, and the error
// API (reasons are registered with the core, so ERR_print_errors shows
// "gpucrypto: <reason string>: <detail>").
#pragma once
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>
#include <sys/types.h>

#include "engine/config.h"

namespace gpucrypto {

struct ProvCtx {
  const OSSL_CORE_HANDLE* handle = nullptr;
  // Child library context: fetches from other providers loaded in the
  // application's context (e.g. SHA3 from the default provider).
  OSSL_LIB_CTX* libctx = nullptr;
  // Effective configuration of this provider instance (read-only after init).
  EngineConfig config;
  // The process that loaded this instance (a forked child has another pid).
  pid_t pid = 0;
};

// Error reasons. Keep in sync with the strings in provider/errors.cpp.
enum Reason : int {
  kErrWrongKeyLength = 1,
  kErrWrongIvLength,
  kErrNoKeySet,
  kErrWrongFinalBlockLength,
  kErrBadDecrypt,
  kErrNullOutput,
  kErrOutputTooSmall,
  kErrLengthOverflow,
  kErrOverlap,
  kErrBadParam,
  kErrUpdateAfterFinal,
  kErrConfig,
  kErrMalloc,
  kErrInternal,
  kErrWrongLength,      // KEM: wrong key/ciphertext/secret length
  kErrInvalidKey,       // KEM: malformed or missing key material
  kErrFetchFailed,      // a digest could not be fetched from another provider
  kErrBackendFailed,    // a back end (e.g. GPU) failed and fallback also failed
  kErrTlsRecord,        // TLS record mode: a record the cipher cannot take (cipher_tls.cpp)
};

// Raises an error in the calling thread's OpenSSL error queue, through the
// core callbacks captured at provider init. `fmt` may be nullptr.
void raise_error(const ProvCtx* ctx, int reason, const char* file, int line,
                 const char* func, const char* fmt = nullptr, ...)
    __attribute__((format(printf, 6, 7)));

// Installs the core's error callbacks (called once from OSSL_provider_init).
void errors_init(const OSSL_DISPATCH* in);
const OSSL_ITEM* reason_strings();

}  // namespace gpucrypto

#define GPUC_RAISE(provctx, reason, ...) \
  ::gpucrypto::raise_error((provctx), (reason), __FILE__, __LINE__, __func__, ##__VA_ARGS__)
