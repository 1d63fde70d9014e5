// The ML-KEM batch kernels: every (op, K) of gpu/kernels/mlkem.cuh,
// instantiated by the visitor the host grid emulator uses, run by the shared
// batch kernel (batch_kernel.cuh). One launch of the runtime is the main
// kernel and its hash pass, in stream order.
#include "gpu/batch_kernel.cuh"
#include "gpu/cuda_launch.h"
#include "gpu/kernels/mlkem.cuh"

namespace gpucrypto::gpu {

int launch_mlkem_cuda(const MlkemLaunch& l, const LaunchIo& io, void* stream) {
  const kern::MlkemParams p{io.in, io.out, io.n};
  return kern::visit_mlkem(l.op, l.k, [&]<class Kn>() {
    return kern::each_mlkem_pass<Kn>([&]<class X>() {
      return launch_batch<PhaseLoop::kRolled>(X{p}, static_cast<cudaStream_t>(stream));
    });
  });
}

}  // namespace gpucrypto::gpu
