#include "engine/dispatcher.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "engine/offload.h"
#include "engine/thread_pool.h"

namespace gpucrypto {
namespace {

// Pool jobs are cut into chunks of about this many bytes (whole blocks),
// claimed one at a time: small enough that a helper which loses its core
// holds back little, large enough that claiming one (an atomic add and an
// indirect call) costs ~1% of running it. A job of one chunk never touches
// the pool.
constexpr size_t kChunkBytes = 64 * 1024;

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

// Hands the job to the GPU; returns how many leading blocks it completed
// (all of them, or fewer after a CUDA error: the rest is untouched).
size_t try_gpu(const CipherJob& job) {
  gpu::Job g{*job.gpu_cipher, job.key, job.keylen, job.ctr_mode, job.encrypt,
             job.ctr,         job.in,  job.out,    job.nblocks};
  return gpu::run_blocks(g);
}

// The part of `job` from block `first` on, as a job of its own.
CipherJob tail_of(const CipherJob& job, size_t first, uint8_t* ctr_buf) {
  CipherJob t = job;
  const size_t off = first * job.block_bytes;
  t.in += off;
  t.out += off;
  t.nblocks -= first;
  if (job.ctr_mode) {
    std::memcpy(ctr_buf, job.ctr, job.block_bytes);
    ctr_add(ctr_buf, job.block_bytes, first);
    t.ctr = ctr_buf;
  }
  return t;
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

Served dispatch_large(const CipherJob& whole, const EngineConfig& cfg) {
  const size_t bytes = whole.nblocks * whole.block_bytes;
  if (bytes == 0) return Served::kCallingThread;

  // The one offload rule (engine/offload.h); the GPU returns a finished prefix.
  size_t gpu_done = 0;
  if (whole.gpu_cipher && gpu_offload_worth(bytes, cfg)) {
    gpu_done = try_gpu(whole);
    if (gpu_done == whole.nblocks) {
      if (whole.ctr_mode) ctr_add(whole.ctr, whole.block_bytes, whole.nblocks);
      if (cfg.log) log_served(whole, Served::kGpu, 0);
      return Served::kGpu;
    }
  }
  // Whatever the GPU did not finish (all of it, usually) runs on the CPU:
  // the pool for large remainders, else the calling thread.
  uint8_t ctr_buf[kMaxBlockBytes];
  const CipherJob job = gpu_done == 0 ? whole : tail_of(whole, gpu_done, ctr_buf);
  const size_t rest = job.nblocks * job.block_bytes;
  Served served = Served::kCallingThread;

  const size_t chunk = (kChunkBytes + job.block_bytes - 1) / job.block_bytes;
  if (rest >= cfg.mt_min_bytes && cfg.threads != 1 && job.nblocks > chunk) {
    ThreadPool& pool = ThreadPool::instance();
    const size_t threads = cfg.threads != 0 ? cfg.threads : pool.threads();
    if (threads > 1) {
      pool.parallel_for(job.nblocks, chunk,
                        [&job](size_t b, size_t e) { run_blocks(job, b, e - b); }, threads);
      served = Served::kThreadPool;
      if (cfg.log) log_served(job, served, threads);
    }
  }
  if (served == Served::kCallingThread) {
    if (job.ctr_mode) {
      uint8_t c[kMaxBlockBytes];  // job.ctr may be ctr_buf; the caller's is advanced below
      std::memcpy(c, job.ctr, job.block_bytes);
      job.hw->ctr(job.ks, c, job.in, job.out, job.nblocks);
    } else {
      run_blocks(job, 0, job.nblocks);
    }
    if (cfg.log && bytes >= cfg.mt_min_bytes) log_served(job, served, 1);
  }
  if (whole.ctr_mode) ctr_add(whole.ctr, whole.block_bytes, whole.nblocks);
  return gpu_done != 0 ? Served::kGpu : served;
}

}  // namespace gpucrypto
