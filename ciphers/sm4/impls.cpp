// The SM4 algorithm descriptor and its implementations, best first.
#include "platform/cpu_features.h"
#include "ciphers/sm4/ref.h"
#include "ciphers/sm4/sm4.h"

namespace gpucrypto {
namespace {

using namespace sm4_impl;

// Every impl shares the reference's key schedule (plain round keys, 256 bytes):
// the SIMD paths broadcast one round key per round straight from it.
constexpr CipherHw kAvx512Gfni = {
    "avx512-gfni", kAVX512F | kAVX512BW | kAVX512VL | kGFNI, kScheduleBytes, 64, ref_setkey,
    avx512_gfni_encrypt, avx512_gfni_decrypt, avx512_gfni_ctr};

// VEX-encoded GFNI on ymm: needs no AVX-512 bit, so it also serves AVX2-capped runs.
constexpr CipherHw kAvx2Gfni = {"avx2-gfni",         kAVX2 | kGFNI,     kScheduleBytes, 32,
                                ref_setkey,          avx2_gfni_encrypt, avx2_gfni_decrypt,
                                avx2_gfni_ctr};

// For AVX2 CPUs without GFNI (Haswell..Skylake, Zen 1-3).
constexpr CipherHw kAvx2Aesni = {"avx2-aesni",         kAVX2 | kAESNI,     kScheduleBytes, 32,
                                 ref_setkey,           avx2_aesni_encrypt, avx2_aesni_decrypt,
                                 avx2_aesni_ctr};

constexpr CipherHw kRef = {"ref",       0,           kScheduleBytes, 2, ref_setkey,
                           ref_encrypt, ref_decrypt, ref_ctr};

constexpr const CipherHw* kImpls[] = {&kAvx512Gfni, &kAvx2Gfni, &kAvx2Aesni, &kRef};

constexpr CipherAlgo kSm4 = {"SM4", 16, 16, kImpls};

}  // namespace

const CipherAlgo& sm4() { return kSm4; }

}  // namespace gpucrypto
