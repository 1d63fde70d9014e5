// The __global__ template of the cipher kernels and the launch of one kernel
// family, shared by kernels.cu (the table family) and kernels_ct.cu (the
// constant-time family): each translation unit instantiates its half through
// kern::visit_family, so nvcc compiles the two halves in parallel. CUDA only.
#pragma once
#include <cuda_runtime.h>

#include "gpu/kernels/dispatch.cuh"

namespace gpucrypto::gpu {

// 512 threads and at least two resident blocks per SM caps the table kernels
// at 64 registers per thread (65536 / 1024); ptxas spills rather than exceed
// it. The bit-sliced kernels (several blocks per thread) hold 8 planes, the
// circuit's temporaries and up to 8 blocks of state: they get one resident
// block per SM, up to 128 registers (16 warps, enough for ALU-bound code).
template <class K>
__global__ void __launch_bounds__(kThreadsPerBlock, K::kLanes > 1 ? 1 : 2)
    cipher_kernel(const K k) {
  __shared__ typename K::Shared shared;
  const kern::ThreadCtx t{threadIdx.x, blockIdx.x, blockDim.x, gridDim.x};
  k.phase(0, t, shared);
  __syncthreads();
  k.phase(1, t, shared);
}

template <KernelFamily kFam>
int launch_family(const CipherLaunch& l, const LaunchIo& io, void* stream) {
  const kern::Params p = cipher_params(l, io);
  return kern::visit_family<kFam>(l, [&]<class K>() {
    const uint32_t grid = grid_blocks(io.n, l.threads, K::kLanes);
    static_assert(K::kPhases == 2, "cipher_kernel runs two phases");
    cipher_kernel<K><<<grid, l.threads, 0, static_cast<cudaStream_t>(stream)>>>(K{p});
    return int(cudaGetLastError());
  });
}

}  // namespace gpucrypto::gpu
