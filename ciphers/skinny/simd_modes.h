// The CTR driver of the SKINNY SIMD paths (avx2.cpp, avx512.cpp). ISA files
// only (platform/isa.h: anonymous namespace, one copy per file).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"
#include "platform/isa.h"

namespace gpucrypto::skinny_impl {
namespace {

// CTR in batches of kBatch blocks: `batch(hi, lo, in, out, n)` writes
// out = in ^ E(hi:lo + i) for i < n <= kBatch, counting in the low 64 bits
// only. When those carry inside a batch (the counter is public, and this is
// rare) the batch takes the exact generic path through `encrypt`.
template <size_t kBatch, class Batch>
GPUCRYPTO_ALWAYS_INLINE void ctr_batches(void (*encrypt)(const void*, const uint8_t*, uint8_t*, size_t),
                                         const void* ks, uint8_t* ctr, const uint8_t* in,
                                         uint8_t* out, size_t nblocks, Batch&& batch) {
  while (nblocks > 0) {
    const size_t n = nblocks < kBatch ? nblocks : kBatch;
    const uint64_t hi = load_be64(ctr), lo = load_be64(ctr + 8);
    if (lo <= ~uint64_t(0) - (kBatch - 1)) {
      batch(hi, lo, in, out, n);
      ctr_add(ctr, 16, n);
    } else {
      ctr_via_encrypt(encrypt, ks, 16, ctr, in, out, n);
    }
    in += 16 * n;
    out += 16 * n;
    nblocks -= n;
  }
}

}  // namespace
}  // namespace gpucrypto::skinny_impl
