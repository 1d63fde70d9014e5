// The ciphers' CUDA launcher and the table family's kernels (gpu_kernels =
// tables); the constant-time family is in kernels_ct.cu. Both instantiate
// their half through the visitor the host grid emulator uses.
#include "gpu/cipher_kernel.cuh"
#include "gpu/cuda_launch.h"

namespace gpucrypto::gpu {

int launch_cipher_cuda(const CipherLaunch& l, const LaunchIo& io, void* stream) {
  if (kern::ct_half(l)) return launch_cipher_ct_cuda(l, io, stream);
  return launch_family<KernelFamily::kTables>(l, io, stream);
}

}  // namespace gpucrypto::gpu
