// The GCM AEAD ciphers (AES-128/192/256-GCM, SM4-GCM) with the default
// provider's EVP semantics (README "GCM"), and the provider-wide count of
// GCM messages and bytes they served.
#pragma once
#include <openssl/core.h>

#include <cstdint>

namespace gpucrypto {

struct ProvCtx;

// The GCM rows as an OSSL_ALGORITHM array (null-terminated).
const OSSL_ALGORITHM* gcm_algorithms();
// Every cipher of the provider: cipher_algorithms() then the GCM rows.
const OSSL_ALGORITHM* all_cipher_algorithms();

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
