// The CUDA launchers of the three launch kinds (gpu/launch.h), kept free of
// CUDA headers for their callers. Each launches on `stream` (a cudaStream_t)
// and returns the cudaError_t of the launch as an int (0 = cudaSuccess).
#pragma once
#include "gpu/launch.h"

namespace gpucrypto::gpu {

int launch_cipher_cuda(const CipherLaunch& l, const LaunchIo& io, void* stream);     // kernels.cu
int launch_cipher_ct_cuda(const CipherLaunch& l, const LaunchIo& io, void* stream);  // kernels_ct.cu
int launch_babykyber_cuda(const BabyKyberLaunch& l, const LaunchIo& io, void* stream);  // kem_kernels.cu
int launch_mlkem_cuda(const MlkemLaunch& l, const LaunchIo& io, void* stream);       // mlkem_kernels.cu

}  // namespace gpucrypto::gpu
