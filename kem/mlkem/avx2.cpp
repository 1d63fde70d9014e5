// ML-KEM 4-way Keccak and polynomial kernels compiled for AVX2 (see mlkem_simd.inc), exported
// as mlkem::avx2. Reached only after the runtime CPU check of the kernel sets (mlkem_kem.cpp).
#define GPUCRYPTO_ISA avx2
#include "kem/mlkem/mlkem_simd.inc"
#include "kem/mlkem/mlkem_poly_simd.inc"
