// The generic per-thread body of every cipher kernel: thread i of the grid
// handles blocks [L*i, L*i + L) of the launch, L = the body's
// kBlocksPerThread (1 for the table kernels, 2 or 8 for the bit-sliced ones):
// ECB, the keystream blocks for counter base + index (CTR, full carry) XORed
// into the input, or the keystream alone (kKeystream). Two phases separated by
// a block barrier:
//   phase 0: the block's threads copy the cipher's tables to shared memory;
//   phase 1: each thread processes its blocks.
// The CUDA kernel runs both with __syncthreads() between them; the host grid
// emulator runs phase 0 for every thread of a block, then phase 1. Blocks past
// the end of a ragged last thread are computed on zeros and never stored.
#pragma once
#include <cstdint>

#include "gpu/kernels/aes.cuh"
#include "gpu/kernels/aes_ct.cuh"
#include "gpu/kernels/params.cuh"
#include "gpu/kernels/rectangle.cuh"
#include "gpu/kernels/skinny.cuh"
#include "gpu/kernels/skinny_ct.cuh"
#include "gpu/kernels/sm4.cuh"
#include "gpu/kernels/sm4_ct.cuh"

namespace gpucrypto::gpu::kern {

// Blocks per thread of a body: its kBlocksPerThread, else 1.
template <class C>
constexpr int blocks_per_thread() {
  if constexpr (requires { C::kBlocksPerThread; }) {
    return C::kBlocksPerThread;
  } else {
    return 1;
  }
}

template <class C, Op kOp>
struct CipherKernel {
  using Shared = typename C::Shared;
  static constexpr int kPhases = 2;
  static constexpr int kWords = C::kBlockBytes / 4;
  static constexpr int kLanes = blocks_per_thread<C>();
  Params p;

  GPUCRYPTO_HD void phase(int ph, const ThreadCtx& t, Shared& sh) const {
    if (ph == 0) {
      C::load_shared(sh, *p.tables, t.thread, t.block_dim, kOp == Op::kDecrypt);
      return;
    }
    const uint64_t first = t.global() * kLanes;
    if (first >= p.nblocks) return;
    const uint64_t live = p.nblocks - first;  // > 0; blocks of this thread that exist
    uint32_t w[kLanes * kWords];
    GPUCRYPTO_PRAGMA(unroll)
    for (int l = 0; l < kLanes; ++l) {
      uint32_t b[kWords] = {};
      if constexpr (kOp == Op::kCtr || kOp == Op::kKeystream) {
        counter_block<kWords>(p.ctr_be, first + l, b);
      } else if (uint64_t(l) < live) {
        load_block<kWords>(p.in + (first + l) * C::kBlockBytes, b);
      }
      GPUCRYPTO_PRAGMA(unroll)
      for (int j = 0; j < kWords; ++j) w[l * kWords + j] = b[j];
    }
    if constexpr (kOp == Op::kDecrypt) {
      C::decrypt(p.ks, sh, w);
    } else {
      C::encrypt(p.ks, sh, w);
    }
    GPUCRYPTO_PRAGMA(unroll)
    for (int l = 0; l < kLanes; ++l) {
      if (uint64_t(l) >= live) break;
      uint32_t b[kWords];
      GPUCRYPTO_PRAGMA(unroll)
      for (int j = 0; j < kWords; ++j) b[j] = w[l * kWords + j];
      const uint64_t off = (first + l) * C::kBlockBytes;
      if constexpr (kOp == Op::kCtr) {
        uint32_t d[kWords];
        load_block<kWords>(p.in + off, d);
        GPUCRYPTO_PRAGMA(unroll)
        for (int j = 0; j < kWords; ++j) b[j] ^= d[j];
      }
      store_block<kWords>(p.out + off, b);
    }
  }
};

}  // namespace gpucrypto::gpu::kern
