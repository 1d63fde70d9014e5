// SKINNY-128 on AVX-512 with GFNI: the bit-sliced 128-block batch
// (avx512_body.inc) and, below small::kSmallBlocks blocks, the GFNI path with
// four blocks per zmm (small_gfni.h).
#define GPUCRYPTO_SKINNY_SMALL_PATH "ciphers/skinny/small_gfni.h"
#include "ciphers/skinny/avx512_body.inc"

namespace gpucrypto::skinny_impl {

constinit const CipherHw kAvx512GfniHw = {"avx512-gfni", compiled_features(), kScheduleBytes, kBatch,
                                setkey, ecb<encrypt_batch>, ecb<decrypt_batch>, ctr};

}  // namespace gpucrypto::skinny_impl
