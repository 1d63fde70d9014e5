// The one place that decides, per call, which back end runs a bulk cipher
// job (DESIGN.md §4):
//   len <  mt_min_bytes            -> calling thread, best SIMD path
//   len >= mt_min_bytes            -> thread pool, chunks of whole blocks
//   len >= gpu_min_bytes, GPU ok   -> CUDA; any GPU failure -> same chunk on CPU
// Results are byte-identical whichever path runs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "ciphers/block_cipher.h"
#include "gpu/gpu_backend.h"
#include "provider/dispatch/config.h"

namespace gpucrypto {

struct CipherJob {
  const CipherHw* hw;
  const void* ks;
  size_t block_bytes;
  bool ctr_mode;     // false: ECB
  bool encrypt;      // ECB direction
  uint8_t* ctr;      // CTR: counter block, advanced by nblocks on return
  const uint8_t* in;
  uint8_t* out;
  size_t nblocks;
  // GPU hand-off: the device derives its own schedule from the raw key.
  std::optional<gpu::Cipher> gpu_cipher;
  const uint8_t* key = nullptr;
  size_t keylen = 0;
};

// Which back end served a job (for logging and tests).
enum class Served { kCallingThread, kThreadPool, kGpu };

Served dispatch(const CipherJob& job, const EngineConfig& cfg);

// Runs whole blocks [first, first + n) of the job on the calling thread.
void run_blocks(const CipherJob& job, size_t first, size_t n);

}  // namespace gpucrypto
