// The babyKyber PKE batch kernels: one __global__ template that runs a body's
// phases with a block barrier after each, instantiated for every (op, design)
// by the visitor the host grid emulator uses (gpu/kernels/babykyber.cuh).
#include <cuda_runtime.h>

#include "gpu/cuda_launch.h"
#include "gpu/kernels/babykyber.cuh"

namespace gpucrypto::gpu {
namespace {

// kThreads is the exact block size of each design (256, 7 or 1022), so
// ptxas may use up to 255 registers for the 7-thread design and at most 64
// for the 1022-thread one (65536 / 1024).
template <class K>
__global__ void __launch_bounds__(K::kThreads) kem_kernel(const K k) {
  __shared__ typename K::Shared shared;
  const kern::ThreadCtx t{threadIdx.x, blockIdx.x, blockDim.x, gridDim.x};
#pragma unroll
  for (int ph = 0; ph < K::kPhases; ++ph) {
    k.phase(ph, t, shared);
    if (ph + 1 < K::kPhases) __syncthreads();
  }
}

}  // namespace

int launch_kem_cuda(const LaunchSpec& spec, void* stream) {
  const kern::KemParams p{spec.params.in, spec.params.out, spec.params.nblocks};
  return kern::visit_kem(spec.kem_op, spec.kem_design, [&]<class K>() {
    const uint32_t grid = kern::kem_grid<K>(p.n);
    kem_kernel<K><<<grid, K::kThreads, 0, static_cast<cudaStream_t>(stream)>>>(K{p});
    return int(cudaGetLastError());
  });
}

}  // namespace gpucrypto::gpu
