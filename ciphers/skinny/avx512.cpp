// SKINNY-128 on AVX-512F/BW: the bit-sliced 128-block batch (avx512_body.inc)
// and, below small::kSmallBlocks blocks, the SSE byte-sliced path
// (small_blocks.h), for AVX-512 CPUs without GFNI (Skylake-SP .. Cascade Lake).
#define GPUCRYPTO_SKINNY_SMALL_PATH "ciphers/skinny/small_blocks.h"
#include "ciphers/skinny/avx512_body.inc"

namespace gpucrypto::skinny_impl {

constinit const CipherHw kAvx512Hw = {"avx512", compiled_features(), kScheduleBytes, kBatch,
                                setkey, ecb<encrypt_batch>, ecb<decrypt_batch>, ctr};

}  // namespace gpucrypto::skinny_impl
