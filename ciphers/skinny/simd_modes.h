// What the SKINNY SIMD paths (avx2.cpp, avx512.cpp) share: the register
// renaming of the bit-sliced state and the CTR driver. ISA files only
// (platform/isa.h: anonymous namespace, one copy per file).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"
#include "platform/isa.h"

namespace gpucrypto::skinny_impl {
namespace {

// --- register renaming ----------------------------------------------------
// After one S-box, output bit i sits in the register that held input bit
// kSigma[i] (the circuit updates bits in place and only relabels them).
constexpr int kSigma[8] = {2, 7, 6, 1, 3, 0, 4, 5};
// Register slot of logical bit i after k rounds (kSigma has order 8).
constexpr int bit_slot(int k, int i) { return k == 0 ? i : bit_slot(k - 1, kSigma[i]); }
// Register slot of logical row r after k rounds: MixColumns leaves the new
// rows (0,1,2,3) in the registers of the old rows (3,0,1,2).
constexpr int row_slot(int k, int r) { return (r - k % 4 + 4) % 4; }
static_assert(bit_slot(8, 0) == 0 && bit_slot(8, 5) == 5 && row_slot(8, 3) == 3);

// The S-box circuit: four NOR-XOR layers, NorXor(b0, b2, b3, b4, b6, b7)
// being x4 ^= ~(x7 | x6), x0 ^= ~(x3 | x2) on logical bits in the file's
// representation, with the labels after 0..3 bit permutations (new bit i =
// old bit {5,3,0,4,6,7,1,2}[i]); output bit i ends in x[kSigma[i]].
template <auto NorXor, class V>
GPUCRYPTO_ALWAYS_INLINE void sbox_layers(V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6, V& x7) {
  NorXor(x0, x2, x3, x4, x6, x7);  // labels x0 x1 x2 x3 x4 x5 x6 x7
  NorXor(x5, x0, x4, x6, x1, x2);  // labels x5 x3 x0 x4 x6 x7 x1 x2
  NorXor(x7, x5, x6, x1, x3, x0);  // labels x7 x4 x5 x6 x1 x2 x3 x0
  NorXor(x2, x7, x1, x3, x4, x5);  // labels x2 x6 x7 x1 x3 x0 x4 x5
}
// Each layer is an involution; undo them in reverse order.
template <auto NorXor, class V>
GPUCRYPTO_ALWAYS_INLINE void sbox_inv_layers(V& x0, V& x1, V& x2, V& x3, V& x4, V& x5, V& x6,
                                             V& x7) {
  NorXor(x2, x7, x1, x3, x4, x5);
  NorXor(x7, x5, x6, x1, x3, x0);
  NorXor(x5, x0, x4, x6, x1, x2);
  NorXor(x0, x2, x3, x4, x6, x7);
}

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
