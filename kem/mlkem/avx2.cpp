// ML-KEM 4-way Keccak and polynomial kernels compiled for AVX2 (see mlkem_simd.inc). Reached only
// after the runtime CPU check in mlkem_kem.cpp.
#define MLKEM_ISA_NAME(fn) fn##_avx2
#include "kem/mlkem/mlkem_simd.inc"
#include "kem/mlkem/mlkem_poly_simd.inc"
