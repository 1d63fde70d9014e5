// The SM4 algorithm descriptor and its implementations, best first.
#include "ciphers/sm4/ref.h"
#include "ciphers/sm4/sm4.h"

namespace gpucrypto {
namespace {

using namespace sm4_impl;

// Every impl shares the reference's key schedule (plain round keys, 256 bytes):
// the SIMD paths broadcast one round key per round straight from it.
// avx2-gfni (VEX-encoded GFNI on ymm) needs no AVX-512 bit, so it also serves
// AVX2-capped runs; avx2-aesni is for AVX2 CPUs without GFNI (Haswell..
// Skylake, Zen 1-3).
constexpr CipherHw kRef = {"ref",       0,           kScheduleBytes, 2, ref_setkey,
                           ref_encrypt, ref_decrypt, ref_ctr};

constexpr const CipherHw* kImpls[] = {&avx512_gfni::kHw, &avx2_gfni::kHw, &avx2_aesni::kHw,
                                        &kRef};

constexpr CipherAlgo kSm4 = {"SM4", 16, 16, kImpls};

}  // namespace

const CipherAlgo& sm4() { return kSm4; }

}  // namespace gpucrypto
