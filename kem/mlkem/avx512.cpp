// ML-KEM 4/8-way Keccak, polynomial kernels and rejection sampling compiled
// for AVX-512F/VL/BW (see mlkem_simd.inc, mlkem_poly_simd.inc), exported as
// mlkem::avx512. Reached only after the runtime CPU check of the kernel sets
// (mlkem_kem.cpp).
//
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_* as the merge operand of
// unmasked forms (vpermd, vpsrlvd, vpmovdw, vprolq...) and then warn
// -W(maybe-)uninitialized inside avx512fintrin.h; the pragmas must precede
// the header to cover it. The code shared with the AVX2 file is compiled
// there with the warnings on.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#define GPUCRYPTO_ISA avx512
#include "kem/mlkem/mlkem_simd.inc"
#include "kem/mlkem/mlkem_poly_simd.inc"
