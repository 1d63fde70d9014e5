// SKINNY-128 on AVX-512F/BW: the bit-sliced 128-block batch (avx512_body.inc)
// and, below small::kSmallBlocks blocks, the SSE byte-sliced path
// (small_blocks.h), for AVX-512 CPUs without GFNI (Skylake-SP .. Cascade Lake).
#define GPUCRYPTO_SKINNY_SMALL_PATH "ciphers/skinny/small_blocks.h"
#define GPUCRYPTO_ISA avx512
#define GPUCRYPTO_ISA_NAME "avx512"
#include "ciphers/skinny/avx512_body.inc"
