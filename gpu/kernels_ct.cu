// The constant-time family's CUDA kernels (the default: bit-sliced AES, SM4
// and SKINNY, and RECTANGLE), in their own translation unit so that nvcc
// builds them in parallel with the table family (kernels.cu).
#include "gpu/cipher_kernel.cuh"
#include "gpu/cuda_launch.h"

namespace gpucrypto::gpu {

int launch_cipher_ct_cuda(const CipherLaunch& l, const LaunchIo& io, void* stream) {
  return launch_family<KernelFamily::kConstantTime>(l, io, stream);
}

}  // namespace gpucrypto::gpu
