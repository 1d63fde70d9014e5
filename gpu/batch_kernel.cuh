// The __global__ template of the KEM batch kernels and its launch, shared by
// kem_kernels.cu (babyKyber) and mlkem_kernels.cu (ML-KEM): one block runs a
// body's phases in order with a block barrier between them, which is what
// the host grid emulator (gpu/emulator.h) models. CUDA only (nvcc).
#pragma once
#include <cuda_runtime.h>

#include "gpu/kernels/batch.cuh"

namespace gpucrypto::gpu {

// How the phase loop is compiled: a choice per kernel family, for speed.
enum class PhaseLoop {
  // Every phase inline, a barrier between consecutive phases only
  // (babyKyber: small phases, the barriers placed at compile time).
  kUnrolled,
  // The loop kept, a barrier after every phase: each phase's code (several
  // of ML-KEM's inline a Keccak sponge) then exists once.
  kRolled,
};

// K::kThreads is the exact block size of each kernel, so ptxas may use up
// to 65536 / kThreads registers per thread (255 for babyKyber's 7-thread
// design, 64 for a 1022-thread block).
template <class K, PhaseLoop kLoop>
__global__ void __launch_bounds__(K::kThreads) batch_kernel(const K k) {
  __shared__ typename K::Shared shared;
  const kern::ThreadCtx t{threadIdx.x, blockIdx.x, blockDim.x, gridDim.x};
  if constexpr (kLoop == PhaseLoop::kUnrolled) {
#pragma unroll
    for (int ph = 0; ph < K::kPhases; ++ph) {
      k.phase(ph, t, shared);
      if (ph + 1 < K::kPhases) __syncthreads();
    }
  } else {
#pragma unroll 1
    for (int ph = 0; ph < K::kPhases; ++ph) {
      k.phase(ph, t, shared);
      __syncthreads();
    }
  }
}

// Launches kernel body k over its k.p.n instances on `stream`.
template <PhaseLoop kLoop, class K>
int launch_batch(const K& k, cudaStream_t stream) {
  batch_kernel<K, kLoop><<<kern::batch_grid<K>(k.p.n), K::kThreads, 0, stream>>>(k);
  return int(cudaGetLastError());
}

}  // namespace gpucrypto::gpu
