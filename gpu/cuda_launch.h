// The CUDA launcher (kernels.cu), kept free of CUDA headers for its callers.
#pragma once
#include "gpu/launch.h"

namespace gpucrypto::gpu {

// Launches the kernel for `spec` on `stream` (a cudaStream_t); returns the
// cudaError_t of the launch as an int (0 = cudaSuccess).
int launch_cuda(const LaunchSpec& spec, void* stream);
// The same for a babyKyber launch (spec.kem_op != kNone; kem_kernels.cu).
int launch_kem_cuda(const LaunchSpec& spec, void* stream);
// The same for an ML-KEM launch (spec.mlkem_op != kNone; mlkem_kernels.cu).
int launch_mlkem_cuda(const LaunchSpec& spec, void* stream);

}  // namespace gpucrypto::gpu
