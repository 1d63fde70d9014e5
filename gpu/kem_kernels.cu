// The babyKyber PKE batch kernels: every (op, design) of
// gpu/kernels/babykyber.cuh, instantiated by the visitor the host grid
// emulator uses, run by the shared batch kernel (batch_kernel.cuh).
#include "gpu/batch_kernel.cuh"
#include "gpu/cuda_launch.h"
#include "gpu/kernels/babykyber.cuh"

namespace gpucrypto::gpu {

int launch_babykyber_cuda(const BabyKyberLaunch& l, const LaunchIo& io, void* stream) {
  const kern::KemParams p{io.in, io.out, io.n};
  return kern::visit_kem(l.op, l.design, [&]<class K>() {
    return launch_batch<PhaseLoop::kUnrolled>(K{p}, static_cast<cudaStream_t>(stream));
  });
}

}  // namespace gpucrypto::gpu
