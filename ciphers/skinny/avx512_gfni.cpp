// SKINNY-128 on AVX-512 with GFNI: the bit-sliced 128-block batch
// (avx512_body.inc) and, below small::kSmallBlocks blocks, the GFNI path with
// four blocks per zmm (small_gfni.h).
#define GPUCRYPTO_SKINNY_SMALL_PATH "ciphers/skinny/small_gfni.h"
#define GPUCRYPTO_ISA avx512_gfni
#define GPUCRYPTO_ISA_NAME "avx512-gfni"
#include "ciphers/skinny/avx512_body.inc"
