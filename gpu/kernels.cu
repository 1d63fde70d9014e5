// The CUDA kernels: one __global__ template that runs a kernel body's phases
// with a block barrier between them, instantiated for every (cipher, op,
// design) by the same visitor the host grid emulator uses.
#include <cuda_runtime.h>

#include "gpu/cuda_launch.h"
#include "gpu/kernels/dispatch.cuh"

namespace gpucrypto::gpu {
namespace {

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

}  // namespace

int launch_cipher_cuda(const CipherLaunch& l, const LaunchIo& io, void* stream) {
  const kern::Params p = cipher_params(l, io);
  return kern::visit_kernel(l, [&]<class K>() {
    const uint32_t grid = grid_blocks(io.n, l.threads, K::kLanes);
    static_assert(K::kPhases == 2, "cipher_kernel runs two phases");
    cipher_kernel<K><<<grid, l.threads, 0, static_cast<cudaStream_t>(stream)>>>(K{p});
    return int(cudaGetLastError());
  });
}

}  // namespace gpucrypto::gpu
