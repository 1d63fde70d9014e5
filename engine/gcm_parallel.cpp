#include "engine/gcm_parallel.h"

#include <openssl/crypto.h>

#include <cstring>
#include <vector>

#include "engine/thread_pool.h"

namespace gpucrypto {
namespace {

constexpr size_t kChunkBlocks = 64 * 1024 / 16;  // as the dispatcher's chunks

}  // namespace

GcmBulk gcm_bulk_for(const EngineConfig& cfg) {
  return {cfg.threads == 1 ? SIZE_MAX : cfg.mt_min_bytes, &gcm_parallel_blocks, &cfg};
}

void gcm_parallel_blocks(const void* vcfg, const GcmKey& k, uint8_t ctr[16], uint8_t xi[16],
                         const uint8_t* in, uint8_t* out, size_t nblocks, bool enc) {
  const auto& cfg = *static_cast<const EngineConfig*>(vcfg);
  ThreadPool& pool = ThreadPool::instance();
  const size_t threads = cfg.threads != 0 ? cfg.threads : pool.threads();
  if (threads < 2 || nblocks <= kChunkBlocks) {
    gcm_blocks(k, ctr, xi, in, out, nblocks, enc);
    return;
  }
  const size_t chunks = (nblocks + kChunkBlocks - 1) / kChunkBlocks;
  // partial[c] = chunk c's GHASH from zero times H^(blocks after the chunk):
  // GHASH is linear, so xi * H^n ^ XOR of the partials is the whole GHASH.
  std::vector<uint8_t> partial(16 * chunks);
  pool.parallel_for(
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
}

}  // namespace gpucrypto
