// babyKyber PKE batch kernels, AVX2: 8 instances per ymm (32-bit lanes),
// exported as babykyber::avx2. Compiled with -mavx2; reached only after the
// runtime CPU check of the batch back ends (batch_dispatch.cpp).
#define GPUCRYPTO_VBITS 256
#define GPUCRYPTO_ISA avx2
#include "kem/babykyber/batch_simd.inc"
