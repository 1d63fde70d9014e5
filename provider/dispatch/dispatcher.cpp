#include "provider/dispatch/dispatcher.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "provider/dispatch/thread_pool.h"

namespace gpucrypto {
namespace {

// Below this a chunk is not worth a hand-off to another thread.
constexpr size_t kMinChunkBytes = 64 * 1024;

const char* served_name(Served s) {
  switch (s) {
    case Served::kThreadPool: return "thread-pool";
    case Served::kGpu: return "gpu";
    case Served::kCallingThread: break;
  }
  return "calling-thread";
}

// Rate-limited (1 line per 100 ms per process) stderr log of large calls.
void log_served(const CipherJob& job, Served s, size_t threads) {
  static std::atomic<int64_t> last{0};
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  int64_t prev = last.load(std::memory_order_relaxed);
  if (now - prev < 100 || !last.compare_exchange_strong(prev, now)) return;
  std::fprintf(stderr, "gpucrypto: %zu bytes %s %s via %s (%s, %zu threads)\n",
               job.nblocks * job.block_bytes, job.ctr_mode ? "CTR" : "ECB",
               job.ctr_mode || job.encrypt ? "encrypt" : "decrypt", served_name(s), job.hw->name,
               threads);
}

bool try_gpu(const CipherJob& job) {
  if (!job.gpu_cipher || !gpu::usable()) return false;
  gpu::Job g{*job.gpu_cipher, job.key, job.keylen, job.ctr_mode, job.encrypt,
             job.ctr,         job.in,  job.out,    job.nblocks};
  if (!gpu::run(g)) return false;  // out untouched: the caller redoes it on the CPU
  if (job.ctr_mode) ctr_add(job.ctr, job.block_bytes, job.nblocks);
  return true;
}

}  // namespace

void run_blocks(const CipherJob& job, size_t first, size_t n) {
  const size_t off = first * job.block_bytes;
  if (!job.ctr_mode) {
    (job.encrypt ? job.hw->encrypt : job.hw->decrypt)(job.ks, job.in + off, job.out + off, n);
    return;
  }
  // Each chunk's counter is IV + first, with full carry.
  uint8_t ctr[kMaxBlockBytes];
  std::memcpy(ctr, job.ctr, job.block_bytes);
  ctr_add(ctr, job.block_bytes, first);
  job.hw->ctr(job.ks, ctr, job.in + off, job.out + off, n);
}

Served dispatch(const CipherJob& job, const EngineConfig& cfg) {
  const size_t bytes = job.nblocks * job.block_bytes;
  if (bytes == 0) return Served::kCallingThread;

  // The GPU is only consulted for large calls: without an explicit
  // gpu_min_bytes, a call below mt_min_bytes never pays for a device hand-off
  // (and small calls never touch the GPU runtime at all).
  const bool gpu_allowed = cfg.backend == Backend::kCUDA || cfg.backend == Backend::kAuto;
  const bool gpu_candidate =
      gpu_allowed && job.gpu_cipher &&
      (cfg.gpu_min_bytes ? bytes >= *cfg.gpu_min_bytes : bytes >= cfg.mt_min_bytes);
  if (gpu_candidate) {
    const size_t gpu_min = cfg.gpu_min_bytes ? *cfg.gpu_min_bytes : gpu::min_bytes();
    if (bytes >= gpu_min && try_gpu(job)) {
      if (cfg.log) log_served(job, Served::kGpu, 0);
      return Served::kGpu;
    }
  }

  if (bytes >= cfg.mt_min_bytes && cfg.threads != 1) {
    ThreadPool& pool = ThreadPool::instance();
    const size_t parts = cfg.threads != 0 ? cfg.threads : pool.threads();
    if (parts > 1) {
      const size_t grain = (kMinChunkBytes + job.block_bytes - 1) / job.block_bytes;
      pool.parallel_for(job.nblocks, grain,
                        [&job](size_t b, size_t e) { run_blocks(job, b, e - b); }, parts);
      if (job.ctr_mode) ctr_add(job.ctr, job.block_bytes, job.nblocks);
      if (cfg.log) log_served(job, Served::kThreadPool, parts);
      return Served::kThreadPool;
    }
  }

  if (job.ctr_mode) {
    job.hw->ctr(job.ks, job.ctr, job.in, job.out, job.nblocks);  // advances job.ctr
  } else {
    run_blocks(job, 0, job.nblocks);
  }
  if (cfg.log && bytes >= cfg.mt_min_bytes) log_served(job, Served::kCallingThread, 1);
  return Served::kCallingThread;
}

}  // namespace gpucrypto
