// babyKyber PKE batch kernels, AVX-512F: 16 instances per zmm (32-bit lanes),
// exported as babykyber::avx512. Compiled with -mavx512f; reached only after
// the runtime CPU check of the batch back ends (batch_dispatch.cpp).
// GCC 12 warns inside its own AVX-512 headers (_mm512_undefined_epi32 used as a
// pass-through; GCC PR 105593, fixed in GCC 13): not our code.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define GPUCRYPTO_VBITS 512
#define GPUCRYPTO_ISA avx512
#include "kem/babykyber/batch_simd.inc"
