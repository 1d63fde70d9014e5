// The generic per-thread body of every cipher kernel: thread i of the grid
// handles block i of the launch (ECB) or the keystream block for counter
// base + i (CTR, full carry). Two phases separated by a block barrier:
//   phase 0: the block's threads copy the cipher's tables to shared memory;
//   phase 1: each thread processes its block.
// The CUDA kernel runs both with __syncthreads() between them; the host grid
// emulator runs phase 0 for every thread of a block, then phase 1.
#pragma once
#include <cstdint>

#include "gpu/kernels/aes.cuh"
#include "gpu/kernels/params.cuh"
#include "gpu/kernels/rectangle.cuh"
#include "gpu/kernels/skinny.cuh"
#include "gpu/kernels/sm4.cuh"

namespace gpucrypto::gpu::kern {

template <class C, Op kOp>
struct CipherKernel {
  using Shared = typename C::Shared;
  static constexpr int kPhases = 2;
  static constexpr int kWords = C::kBlockBytes / 4;
  Params p;

  GPUCRYPTO_HD void phase(int ph, const ThreadCtx& t, Shared& sh) const {
    if (ph == 0) {
      C::load_shared(sh, *p.tables, t.thread, t.block_dim, kOp == Op::kDecrypt);
      return;
    }
    const uint64_t i = t.global();
    if (i >= p.nblocks) return;
    const uint64_t off = i * C::kBlockBytes;
    uint32_t w[kWords];
    if constexpr (kOp == Op::kCtr) {
      counter_block<kWords>(p.ctr_be, i, w);
      C::encrypt(p.ks, sh, w);
      uint32_t d[kWords];
      load_block<kWords>(p.in + off, d);
      for (int j = 0; j < kWords; ++j) w[j] ^= d[j];
    } else {
      load_block<kWords>(p.in + off, w);
      if constexpr (kOp == Op::kDecrypt) {
        C::decrypt(p.ks, sh, w);
      } else {
        C::encrypt(p.ks, sh, w);
      }
    }
    store_block<kWords>(p.out + off, w);
  }
};

}  // namespace gpucrypto::gpu::kern
