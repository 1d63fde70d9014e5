// SKINNY-128 on AVX-512F/BW: the bit-sliced 128-block batch (avx512_body.inc)
// and, below small::kSmallBlocks blocks, the SSE byte-sliced path
// (small_blocks.h), for AVX-512 CPUs without GFNI (Skylake-SP .. Cascade Lake).

// GCC 12 flags its own _mm512_undefined_*() self-initialisation once the
// intrinsics are inlined (GCC bug 105593); the pragma covers the header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC-only warning
#endif
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cstddef>
#include <cstdint>

#include "ciphers/skinny/ref.h"
#include "ciphers/skinny/simd_modes.h"
#include "ciphers/skinny/small_blocks.h"

namespace gpucrypto::skinny_impl {
namespace {

#include "ciphers/skinny/avx512_body.inc"

}  // namespace

constinit const CipherHw kAvx512Hw = {"avx512", compiled_features(), kScheduleBytes,
                                      kBatch, setkey, ecb<encrypt_batch>, ecb<decrypt_batch>, ctr};

}  // namespace gpucrypto::skinny_impl
