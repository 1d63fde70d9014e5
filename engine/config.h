// Engine configuration: back-end cap, thread count and size thresholds.
// Sources, in order: openssl.cnf provider-section keys, environment variables
// (GPUCRYPTO_BACKEND, GPUCRYPTO_THREADS, GPUCRYPTO_MT_MIN_BYTES,
// GPUCRYPTO_GPU_MIN_BYTES, GPUCRYPTO_LOG, GPUCRYPTO_GPU_KERNELS,
// GPUCRYPTO_MLKEM_IMPORT_PCT, GPUCRYPTO_KEY_CODECS), then measured defaults.
// Malformed values are errors, never silently replaced by a default.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "gpu/gpu_backend.h"
#include "platform/cpu_features.h"

namespace gpucrypto {

// Measured on the reference machine (AMD Zen 5, 2 cores, shared) with
// `gpucrypto-bench --mode threads --sizes 64k,256k,512k,768k,1m,2m,16m`: with
// the second core free, splitting 1 MiB gave 1.55-1.80x for AES-128, SM4,
// SKINNY and RECTANGLE; at 256 KiB and below no run showed a gain (0.5-0.9x:
// waking a helper costs about as much as the chunk), and with the second core
// busy a split costs 10-40%. README "Thresholds" has the tables.
inline constexpr size_t kDefaultMtMinBytes = 256 * 1024;

// The pairwise consistency test run on an imported or decoded ML-KEM expanded
// private key (and a hybrid's ML-KEM half): OpenSSL 3.5's provider setting of
// the same name and values. random: encapsulate with a fresh m, decapsulate,
// compare (3.5's default); fixed: the same with m = 0x55..55; none: skip it
// (the FIPS 203 section 7.3 hash and modulus checks still run).
enum class PairwiseTest : uint8_t { kRandom, kFixed, kNone };
inline constexpr char kMlkemImportPctKey[] = "ml-kem.import_pct_type";

struct EngineConfig {
  Backend backend = Backend::kAuto;
  size_t threads = 0;  // 0: number of online CPUs
  size_t mt_min_bytes = kDefaultMtMinBytes;
  std::optional<size_t> gpu_min_bytes;  // unset: measured by the GPU runtime
  bool log = false;                     // log which back end served large calls
  // GPU kernel family (README "Security notes"): constant time unless the
  // configuration asks for the table kernels by name.
  gpu::KernelFamily gpu_kernels = gpu::KernelFamily::kConstantTime;
  PairwiseTest mlkem_import_pct = PairwiseTest::kRandom;
  // The KEM key encoders and decoders (DER/PEM SubjectPublicKeyInfo and
  // PrivateKeyInfo, text) are offered. 0: not offered, for an OpenSSL 3.0
  // host that needs no ML-KEM or babyKyber key files: 3.0 walks every
  // provider's decoders and key managers for each certificate it parses
  // (3.2+ caches that), and ours made a P-256 certificate parse 16 % more
  // instructions (README "Configuration").
  bool key_codecs = true;

  // Features the CPU paths may use under `backend`.
  uint32_t features() const { return cpu_features_detected() & backend_feature_mask(backend); }
};

// Applies one key ("backend", "threads", "mt_min_bytes", "gpu_min_bytes",
// "log", "gpu_kernels", "ml-kem.import_pct_type", "key_codecs"). Returns an empty string on success, else a message naming the key
// and value.
std::string config_set(EngineConfig* cfg, const std::string& key, const std::string& value);

// Applies the environment overrides; same error convention.
std::string config_apply_env(EngineConfig* cfg);

// "backend=avx512 threads=2 mt_min_bytes=262144 gpu_min_bytes=auto
// gpu_kernels=constant-time"
std::string config_describe(const EngineConfig& cfg);

}  // namespace gpucrypto
