// The one place that decides, per call, which back end runs a bulk cipher
// job (docs/ARCHITECTURE.md, "Dispatch rules"):
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
#include "engine/config.h"

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

// Large jobs: GPU, thread pool or calling thread (dispatcher.cpp).
Served dispatch_large(const CipherJob& job, const EngineConfig& cfg);

// Small calls stay inline on the calling thread: no pool, no GPU runtime,
// nothing but the cipher itself (16-byte updates cost what the cipher costs).
// Calls moving fewer bytes than this are small: below mt_min_bytes and below
// an explicit gpu_min_bytes. Callers that dispatch many calls under one
// configuration (a cipher context) may compute it once.
inline size_t small_call_limit(const EngineConfig& cfg) {
  return cfg.gpu_min_bytes && *cfg.gpu_min_bytes < cfg.mt_min_bytes ? *cfg.gpu_min_bytes
                                                                     : cfg.mt_min_bytes;
}

inline Served dispatch(const CipherJob& job, const EngineConfig& cfg) {
  const size_t bytes = job.nblocks * job.block_bytes;
  if (bytes < small_call_limit(cfg)) {
    if (job.ctr_mode) {
      job.hw->ctr(job.ks, job.ctr, job.in, job.out, job.nblocks);
    } else {
      (job.encrypt ? job.hw->encrypt : job.hw->decrypt)(job.ks, job.in, job.out, job.nblocks);
    }
    return Served::kCallingThread;
  }
  return dispatch_large(job, cfg);
}

// Runs whole blocks [first, first + n) of the job on the calling thread.
void run_blocks(const CipherJob& job, size_t first, size_t n);

}  // namespace gpucrypto
