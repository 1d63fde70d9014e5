// The host grid emulator: runs a kernel body over a whole (gridDim,
// blockDim) on the CPU, one thread after another. A kernel type K provides
//   using Shared = ...;             // the block's __shared__ state
//   static constexpr int kPhases;   // steps separated by __syncthreads()
//   void phase(int, const kern::ThreadCtx&, Shared&) const;
// Every thread of a block runs phase p before any thread runs phase p+1,
// which is what __syncthreads() guarantees on the device. Shared memory
// starts filled with a junk pattern per block so that a body reading shared
// memory it did not write shows up as a wrong result instead of passing by
// luck. Test aid: results from here are never reported as GPU results.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>

#include "gpu/kernels/common.cuh"

namespace gpucrypto::gpu {

template <class K>
void emulate_grid(const K& k, uint32_t grid_dim, uint32_t block_dim) {
  auto shared = std::make_unique<typename K::Shared>();
  for (uint32_t b = 0; b < grid_dim; ++b) {
    std::memset(static_cast<void*>(shared.get()), 0xa5, sizeof(typename K::Shared));
    for (int ph = 0; ph < K::kPhases; ++ph)
      for (uint32_t t = 0; t < block_dim; ++t)
        k.phase(ph, kern::ThreadCtx{t, b, block_dim, grid_dim}, *shared);
  }
}

}  // namespace gpucrypto::gpu
