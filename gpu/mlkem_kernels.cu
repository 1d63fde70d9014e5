// The ML-KEM batch kernels: one __global__ template that runs a body's
// phases with a block barrier after each, instantiated for every (op, K) by
// the visitor the host grid emulator uses (gpu/kernels/mlkem.cuh).
#include <cuda_runtime.h>

#include "gpu/cuda_launch.h"
#include "gpu/kernels/mlkem.cuh"

namespace gpucrypto::gpu {
namespace {

// kThreads is the exact block size (main kernels: 128 lanes per instance, 3
// or 4 instances; hash passes: 256 instances of one thread). The phase loop is not unrolled: each phase's code (several of
// them inline a Keccak sponge) then exists once.
template <class Kn>
__global__ void __launch_bounds__(Kn::kThreads) mlkem_kernel(const Kn k) {
  __shared__ typename Kn::Shared shared;
  const kern::ThreadCtx t{threadIdx.x, blockIdx.x, blockDim.x, gridDim.x};
#pragma unroll 1
  for (int ph = 0; ph < Kn::kPhases; ++ph) {
    k.phase(ph, t, shared);
    __syncthreads();
  }
}

}  // namespace

int launch_mlkem_cuda(const LaunchSpec& spec, void* stream) {
  const kern::MlkemParams p{spec.params.in, spec.params.out, spec.params.nblocks};
  const cudaStream_t st = static_cast<cudaStream_t>(stream);
  return kern::visit_mlkem(spec.mlkem_op, int(spec.mlkem_k), [&]<class Kn>() {
    // The main kernel and its hash pass (kernels/mlkem.cuh), in stream order.
    using H = typename Kn::HashPass;
    auto launch = [&]<class X>() {
      mlkem_kernel<X><<<kern::mlkem_grid<X>(p.n), X::kThreads, 0, st>>>(X{p});
      return cudaGetLastError();
    };
    cudaError_t rc = cudaSuccess;
    if constexpr (H::kBeforeMain) rc = launch.template operator()<H>();
    if (rc == cudaSuccess) rc = launch.template operator()<Kn>();
    if constexpr (!H::kBeforeMain) {
      if (rc == cudaSuccess) rc = launch.template operator()<H>();
    }
    return int(rc);
  });
}

}  // namespace gpucrypto::gpu
