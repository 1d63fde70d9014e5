#include "engine/dispatcher.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "ciphers/gcm/gcm_mode.h"
#include "engine/diag_write.h"
#include "engine/offload.h"
#include "engine/thread_pool.h"

namespace gpucrypto {
namespace {

const char* served_name(Served s) {
  switch (s) {
    case Served::kThreadPool: return "thread-pool";
    case Served::kGpu: return "gpu";
    case Served::kCallingThread: break;
  }
  return "calling-thread";
}

const char* kind_name(JobKind k) {
  switch (k) {
    case JobKind::kEcbEncrypt: return "ECB encrypt";
    case JobKind::kEcbDecrypt: return "ECB decrypt";
    case JobKind::kCtr: return "CTR encrypt";
    case JobKind::kCbcDecrypt: return "CBC decrypt";
    case JobKind::kCfbDecrypt: return "CFB decrypt";
  }
  return "?";
}

bool chained(JobKind k) { return k == JobKind::kCbcDecrypt || k == JobKind::kCfbDecrypt; }

// Rate-limited (1 line per 100 ms per process) stderr log of large calls.
void log_served(const CipherJob& job, Served s, size_t threads) {
  static std::atomic<int64_t> last{0};
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  int64_t prev = last.load(std::memory_order_relaxed);
  if (now - prev < 100 || !last.compare_exchange_strong(prev, now)) return;
  char line[160];
  const int n = std::snprintf(line, sizeof line, "gpucrypto: %zu bytes %s via %s (%s, %zu threads)\n",
                              job.nblocks * job.block_bytes, kind_name(job.kind), served_name(s),
                              job.hw->name, threads);
  if (n > 0) diag_write(line, std::min(size_t(n), sizeof line - 1));
}

// Hands the job to the GPU; returns how many leading blocks it completed
// (all of them, or fewer after a CUDA error: the rest is untouched).
// The kernel family is the call's configuration's (gpu_kernels).
size_t try_gpu(const CipherJob& job, const EngineConfig& cfg) {
  const bool ctr = job.kind == JobKind::kCtr;
  const gpu::Job g{*job.gpu_cipher, job.key, job.keylen, ctr, job.kind == JobKind::kEcbEncrypt,
                   job.ctr,         job.in,  job.out,    job.nblocks, cfg.gpu_kernels};
  return gpu::run_blocks(g);
}

// The GPU's ECB transform of n blocks in -> out (a finished prefix, as above).
size_t gpu_ecb(const CipherJob& job, const EngineConfig& cfg, bool encrypt, const uint8_t* in,
               uint8_t* out, size_t n) {
  if (n == 0) return 0;
  const gpu::Job g{*job.gpu_cipher, job.key, job.keylen, false, encrypt, nullptr, in, out, n,
                   cfg.gpu_kernels};
  return gpu::run_blocks(g);
}

// CBC/CFB decryption on the GPU's ECB kernels, the XOR on the CPU, in slices
// of at most kGpuSliceBytes. Returns how many leading blocks of out are
// finished; `chain` (the ciphertext block before in[0]) becomes the
// ciphertext block before the first unfinished block. With in == out the
// device writes into a staging buffer, since the XOR still needs the
// ciphertext the output overwrites.
constexpr size_t kGpuSliceBytes = 64u << 20;
std::atomic<size_t> g_gpu_slice_bytes{kGpuSliceBytes};  // testing::set_gpu_slice_bytes

size_t gpu_chained(const CipherJob& job, const EngineConfig& cfg, uint8_t* chain) {
  const size_t bs = job.block_bytes, n = job.nblocks;
  const bool cfb = job.kind == JobKind::kCfbDecrypt;
  const size_t slice = std::max<size_t>(g_gpu_slice_bytes.load(std::memory_order_relaxed) / bs, 2);
  const bool in_place = job.in == job.out;
  std::unique_ptr<uint8_t[]> tmp;
  const size_t tmp_bytes = std::min(slice, n) * bs;
  if (in_place) {
    tmp.reset(new (std::nothrow) uint8_t[tmp_bytes]);
    if (!tmp) return 0;
  }
  size_t done = 0;
  while (done < n) {
    const size_t k = std::min(slice, n - done);
    const uint8_t* x = job.in + done * bs;
    uint8_t* y = job.out + done * bs;
    uint8_t* dst = in_place ? tmp.get() : y;
    // g blocks of dst hold T(x_i): CBC D(in[i]); CFB E(in[i-1]), block 0's
    // from `chain` on the CPU (it is not in the input).
    size_t g;
    if (cfb) {
      g = 1 + gpu_ecb(job, cfg, true, x, dst + bs, k - 1);
      job.hw->encrypt(job.ks, chain, dst, 1);
    } else {
      g = gpu_ecb(job, cfg, false, x, dst, k);
    }
    if (g == 0) break;
    uint8_t next[kMaxBlockBytes];
    std::memcpy(next, x + (g - 1) * bs, bs);  // before in == out overwrites it
    if (cfb) {
      xor_bytes(y, x, dst, g * bs);
    } else {
      xor_bytes(dst + bs, dst + bs, x, (g - 1) * bs);
      xor_bytes(dst, dst, chain, bs);
      if (dst != y) std::memcpy(y, dst, g * bs);
    }
    std::memcpy(chain, next, bs);
    done += g;
    if (g < k) break;  // a CUDA error: the CPU finishes from here
  }
  if (tmp) OPENSSL_cleanse(tmp.get(), tmp_bytes);
  return done;
}

// Pool chunks of a CBC/CFB decryption: chunk [b, e) chains to the input block
// before b. With in == out the chunk before may already have overwritten it,
// so those boundary blocks are saved before any chunk runs.
void chained_parallel(const CipherJob& job, size_t chunk, size_t threads) {
  const size_t bs = job.block_bytes;
  const size_t nchunks = (job.nblocks + chunk - 1) / chunk;
  std::vector<uint8_t> saved;
  if (job.in == job.out) {
    saved.resize((nchunks - 1) * bs);
    for (size_t c = 1; c < nchunks; ++c)
      std::memcpy(saved.data() + (c - 1) * bs, job.in + (c * chunk - 1) * bs, bs);
  }
  ThreadPool::instance().parallel_for(
      job.nblocks, chunk,
      [&](size_t b, size_t e) {
        uint8_t reg[kMaxBlockBytes];
        const uint8_t* chain = b == 0 ? job.ctr
                               : saved.empty() ? job.in + (b - 1) * bs
                                               : saved.data() + (b / chunk - 1) * bs;
        std::memcpy(reg, chain, bs);
        CipherJob part = job;
        part.ctr = reg;
        part.in += b * bs;
        part.out += b * bs;
        part.nblocks = e - b;
        run_inline(part);
      },
      threads);
}

// The pool's part of the dispatch rule, for every kind of job: `bytes` of at
// least mt_min_bytes in more than one chunk, and more than one thread
// configured (or online). The threads to use, 0 for the calling thread.
size_t pool_threads(size_t bytes, size_t nblocks, size_t chunk, const EngineConfig& cfg) {
  if (bytes < cfg.mt_min_bytes || cfg.threads == 1 || nblocks <= chunk) return 0;
  const size_t threads = cfg.threads != 0 ? cfg.threads : ThreadPool::instance().threads();
  return threads > 1 ? threads : 0;
}

// The part of `job` from block `first` on, as a job of its own.
CipherJob tail_of(const CipherJob& job, size_t first, uint8_t* ctr_buf) {
  CipherJob t = job;
  const size_t off = first * job.block_bytes;
  t.in += off;
  t.out += off;
  t.nblocks -= first;
  if (job.kind == JobKind::kCtr) {
    std::memcpy(ctr_buf, job.ctr, job.block_bytes);
    ctr_add(ctr_buf, job.block_bytes, first);
    t.ctr = ctr_buf;
  }
  return t;
}

}  // namespace

namespace testing {
void set_gpu_slice_bytes(size_t bytes) {
  g_gpu_slice_bytes.store(bytes != 0 ? bytes : kGpuSliceBytes, std::memory_order_relaxed);
}
}  // namespace testing

void run_blocks(const CipherJob& job, size_t first, size_t n) {
  const size_t bs = job.block_bytes, off = first * bs;
  CipherJob part = job;
  part.in += off;
  part.out += off;
  part.nblocks = n;
  // Each chunk's counter is IV + first, with full carry; a chained chunk's
  // register is the input block before it.
  uint8_t reg[kMaxBlockBytes];
  if (job.kind == JobKind::kCtr) {
    std::memcpy(reg, job.ctr, bs);
    ctr_add(reg, bs, first);
    part.ctr = reg;
  } else if (chained(job.kind)) {
    std::memcpy(reg, first == 0 ? job.ctr : job.in + off - bs, bs);
    part.ctr = reg;
  }
  run_inline(part);
}

Served dispatch_large(const CipherJob& whole, const EngineConfig& cfg) {
  const size_t bytes = whole.nblocks * whole.block_bytes;
  if (bytes == 0) return Served::kCallingThread;
  const size_t bs = whole.block_bytes;
  const bool chain = chained(whole.kind);
  // Chained jobs end with the register at the last ciphertext block, which
  // an in-place job overwrites: keep it now. chain_buf carries the register
  // from the GPU's finished prefix to the CPU's rest.
  uint8_t last[kMaxBlockBytes], chain_buf[kMaxBlockBytes];
  if (chain) {
    std::memcpy(last, whole.in + bytes - bs, bs);
    std::memcpy(chain_buf, whole.ctr, bs);
  }

  // The one offload rule (engine/offload.h); the GPU returns a finished prefix.
  size_t gpu_done = 0;
  if (whole.gpu_cipher && gpu_offload_worth(bytes, cfg)) {
    gpu_done = chain ? gpu_chained(whole, cfg, chain_buf) : try_gpu(whole, cfg);
    if (gpu_done == whole.nblocks) {
      if (whole.kind == JobKind::kCtr) ctr_add(whole.ctr, bs, whole.nblocks);
      if (chain) std::memcpy(whole.ctr, last, bs);
      if (cfg.log) log_served(whole, Served::kGpu, 0);
      return Served::kGpu;
    }
  }
  // Whatever the GPU did not finish (all of it, usually) runs on the CPU:
  // the pool for large remainders, else the calling thread. The CPU's
  // register is a copy (job.ctr may be ctr_buf); the caller's is set below.
  uint8_t ctr_buf[kMaxBlockBytes];
  CipherJob job = gpu_done == 0 ? whole : tail_of(whole, gpu_done, ctr_buf);
  if (chain) job.ctr = chain_buf;
  const size_t rest = job.nblocks * bs;
  Served served = Served::kCallingThread;

  const size_t chunk = (kChunkBytes + bs - 1) / bs;
  if (const size_t threads = pool_threads(rest, job.nblocks, chunk, cfg); threads != 0) {
    if (chain) {
      chained_parallel(job, chunk, threads);
    } else {
      ThreadPool::instance().parallel_for(
          job.nblocks, chunk, [&job](size_t b, size_t e) { run_blocks(job, b, e - b); }, threads);
    }
    served = Served::kThreadPool;
    if (cfg.log) log_served(job, served, threads);
  }
  if (served == Served::kCallingThread) {
    uint8_t c[kMaxBlockBytes];
    if (job.kind == JobKind::kCtr || chain) {
      std::memcpy(c, job.ctr, bs);
      job.ctr = c;
    }
    run_inline(job);
    if (cfg.log && bytes >= cfg.mt_min_bytes) log_served(job, served, 1);
  }
  if (whole.kind == JobKind::kCtr) ctr_add(whole.ctr, bs, whole.nblocks);
  if (chain) std::memcpy(whole.ctr, last, bs);
  return gpu_done != 0 ? Served::kGpu : served;
}

Served dispatch_gcm(const GcmKey& k, uint8_t ctr[16], uint8_t xi[16], const uint8_t* in,
                    uint8_t* out, size_t nblocks, bool enc, const EngineConfig& cfg) {
  constexpr size_t kChunkBlocks = kChunkBytes / 16;
  const size_t threads = pool_threads(16 * nblocks, nblocks, kChunkBlocks, cfg);
  if (threads == 0) {
    gcm_blocks(k, ctr, xi, in, out, nblocks, enc);
    return Served::kCallingThread;
  }
  const size_t chunks = (nblocks + kChunkBlocks - 1) / kChunkBlocks;
  // partial[c] = chunk c's GHASH from zero times H^(blocks after the chunk):
  // GHASH is linear, so xi * H^n ^ XOR of the partials is the whole GHASH.
  std::vector<uint8_t> partial(16 * chunks);
  ThreadPool::instance().parallel_for(
      nblocks, kChunkBlocks,
      [&](size_t b, size_t e) {
        uint8_t c[16], x[16] = {}, p[16];
        std::memcpy(c, ctr, 16);
        gcm_ctr32_add(c, b);
        gcm_blocks(k, c, x, in + 16 * b, out + 16 * b, e - b, enc);
        gf128_pow(*k.ghash, p, k.h, nblocks - e);
        k.ghash->mul(partial.data() + 16 * (b / kChunkBlocks), x, p);
        OPENSSL_cleanse(x, sizeof x);
      },
      threads);
  uint8_t p[16];
  gf128_pow(*k.ghash, p, k.h, nblocks);
  k.ghash->mul(xi, xi, p);
  for (size_t c = 0; c < chunks; ++c) {
    for (int i = 0; i < 16; ++i) xi[i] ^= partial[16 * c + i];
  }
  OPENSSL_cleanse(partial.data(), partial.size());
  gcm_ctr32_add(ctr, nblocks);
  return Served::kThreadPool;
}

}  // namespace gpucrypto
