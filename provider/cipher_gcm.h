// The GCM AEAD ciphers (the registry's rows with GCM) with the default
// provider's EVP semantics (README "GCM"), and the provider-wide count of
// GCM messages and bytes they served.
#pragma once
#include <openssl/core.h>

#include <cstdint>

#include "ciphers/block_cipher.h"

namespace gpucrypto {

struct ProvCtx;

// One GCM cipher: a registry row with GCM (CipherRow::gcm_names), registered
// by cipher_table.cpp like the block modes: a newctx/get_params pair bound to
// each descriptor, then kGcmCommonFunctions.
struct GcmDesc {
  const CipherAlgo& (*algo)();
};
void* gcm_newctx(void* provctx, const GcmDesc* d);
int gcm_get_params(const GcmDesc* d, OSSL_PARAM params[]);
// Every function that does not depend on the descriptor, 0-terminated.
extern const OSSL_DISPATCH kGcmCommonFunctions[];

// Provider parameters "gcm-records" and "gcm-bytes" (uint64): messages
// (tags produced or verified, TLS records included) and their payload bytes,
// process-wide since load (a forked child counts from zero).
inline constexpr const char* kParamGcmRecords = "gcm-records";
inline constexpr const char* kParamGcmBytes = "gcm-bytes";
int gcm_get_provider_params(OSSL_PARAM params[]);
// The counts (tests, the log line).
void gcm_stats(uint64_t* records, uint64_t* bytes);
// With `log` on: one stderr line with the counts (at teardown), where safe
// (engine/diag_write.h; a forked child that served nothing stays quiet).
void gcm_log_stats(const ProvCtx* p);

}  // namespace gpucrypto
