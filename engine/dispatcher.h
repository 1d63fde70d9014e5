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
#include "engine/block_modes.h"
#include "gpu/gpu_backend.h"
#include "engine/config.h"

namespace gpucrypto {

struct GcmKey;  // ciphers/gcm/gcm_mode.h

// What a job computes over its whole blocks. ECB and CTR are independent per
// block; CBC and CFB decryption depend only on ciphertext, which is all in
// the input, so they split like the others (engine/block_modes.h).
enum class JobKind : uint8_t { kEcbEncrypt, kEcbDecrypt, kCtr, kCbcDecrypt, kCfbDecrypt };

struct CipherJob {
  const CipherHw* hw;
  const void* ks;
  size_t block_bytes;
  JobKind kind;
  // CTR: the counter block, advanced by nblocks on return. CBC/CFB
  // decryption: the ciphertext block before in[0] (the IV first), left as
  // the last ciphertext block of the job on return.
  uint8_t* ctr;
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

// Pool jobs are cut into chunks of about this many bytes (whole blocks),
// claimed one at a time: small enough that a helper which loses its core
// holds back little, large enough that claiming one (an atomic add and an
// indirect call) costs ~1% of running it. A job of one chunk never touches
// the pool.
inline constexpr size_t kChunkBytes = 64 * 1024;

// Calls moving fewer bytes than this never reach the pool: below
// mt_min_bytes, or one chunk at most.
inline size_t pool_call_limit(const EngineConfig& cfg) {
  return cfg.mt_min_bytes > kChunkBytes ? cfg.mt_min_bytes : kChunkBytes + 1;
}

// Small calls stay inline on the calling thread: no pool, no GPU runtime,
// nothing but the cipher itself (16-byte updates cost what the cipher costs).
// Calls moving fewer bytes than this are small: the pool would not split
// them (below mt_min_bytes, or one chunk at most), and the GPU would not take
// them (below an explicit gpu_min_bytes, else below mt_min_bytes; or no
// usable GPU). Only when a GPU limit is below the pool's is the GPU asked
// whether it is usable (which initialises its runtime once): the default
// settings never do that for small calls. Callers that dispatch many calls
// under one configuration (a cipher context) may compute it once.
inline size_t small_call_limit(const EngineConfig& cfg) {
  const size_t pool = pool_call_limit(cfg);
  const size_t gpu = cfg.gpu_min_bytes ? *cfg.gpu_min_bytes : cfg.mt_min_bytes;
  return gpu < pool && gpu::usable() ? gpu : pool;
}

// The whole job on the calling thread, through the hooks: what a small call
// costs is the cipher itself (CBC/CFB decryption stage through a stack buffer
// of the hook's batches, engine/block_modes.h).
inline void run_inline(const CipherJob& job) {
  switch (job.kind) {
    case JobKind::kEcbEncrypt: job.hw->encrypt(job.ks, job.in, job.out, job.nblocks); break;
    case JobKind::kEcbDecrypt: job.hw->decrypt(job.ks, job.in, job.out, job.nblocks); break;
    case JobKind::kCtr: job.hw->ctr(job.ks, job.ctr, job.in, job.out, job.nblocks); break;
    case JobKind::kCbcDecrypt:
      cbc_decrypt(*job.hw, job.ks, job.block_bytes, job.ctr, job.in, job.out, job.nblocks);
      break;
    case JobKind::kCfbDecrypt:
      cfb_decrypt(*job.hw, job.ks, job.block_bytes, job.ctr, job.in, job.out, job.nblocks);
      break;
  }
}

// Every job of the provider goes through here: below `small_limit` bytes
// (small_call_limit(cfg), which a cipher context computes once) inline on
// the calling thread, else dispatch_large. Inline, so a small call's job is
// never built in memory: its fields go straight to the hook.
inline Served dispatch(const CipherJob& job, const EngineConfig& cfg, size_t small_limit) {
  if (job.nblocks * job.block_bytes < small_limit) [[likely]] {
    run_inline(job);
    return Served::kCallingThread;
  }
  return dispatch_large(job, cfg);
}

inline Served dispatch(const CipherJob& job, const EngineConfig& cfg) {
  return dispatch(job, cfg, small_call_limit(cfg));
}

// GCM's whole blocks, as gcm_blocks (ciphers/gcm/gcm_mode.h: CTR with inc32
// from `ctr`, GHASH of the ciphertext into `xi`, both advanced), under the
// pool rule of the jobs above: at least mt_min_bytes and more than one
// chunk go to the pool, in the same chunks, each running CTR from its own
// counter and a GHASH from zero; the partial values are combined with powers
// of H into exactly the value one thread computes, so the tag is
// byte-identical. There is no GPU path. The key needs all its powers
// (gcm_crypt_begin gives them) when another thread may read it. Callers skip
// it for calls below pool_call_limit(cfg): those stay on the calling thread.
Served dispatch_gcm(const GcmKey& k, uint8_t ctr[16], uint8_t xi[16], const uint8_t* in,
                    uint8_t* out, size_t nblocks, bool enc, const EngineConfig& cfg);

// Runs whole blocks [first, first + n) of the job on the calling thread
// (job.ctr is not advanced). CBC/CFB decryption chain block `first` to the
// input block before it, so with in == out the blocks before `first` must
// not have been processed yet.
void run_blocks(const CipherJob& job, size_t first, size_t n);

namespace testing {
// CBC/CFB decryption on the GPU runs in slices of at most this many bytes
// (default 64 MiB; 0 restores it): small values exercise the slice hand-over.
void set_gpu_slice_bytes(size_t bytes);
}  // namespace testing

}  // namespace gpucrypto
