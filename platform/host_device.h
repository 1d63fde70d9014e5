// GPUCRYPTO_HD marks functions compiled for both the CPU and CUDA devices
// (kernel bodies shared with host code and with the host grid emulator).
#pragma once
#if defined(__CUDACC__)
#define GPUCRYPTO_HD __host__ __device__
#else
#define GPUCRYPTO_HD
#endif
