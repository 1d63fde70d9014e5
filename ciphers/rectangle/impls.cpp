// The RECTANGLE algorithm descriptors; implementations best first, ref last.
// One implementation serves both key sizes: setkey receives the key length.
#include "ciphers/cpu_features.h"
#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rectangle/ref.h"
#include "ciphers/rectangle/simd.h"

namespace gpucrypto {
namespace {

using namespace rectangle;

// vpermt2b is AVX512-VBMI; the 16-bit shifts are AVX512-BW.
const CipherHw kAvx512 = {
    "avx512",           kAVX512F | kAVX512BW | kAVX512VBMI,
    kSimdScheduleBytes, kAvx512BatchBlocks,
    avx512_setkey,      avx512_encrypt,
    avx512_decrypt,     avx512_ctr,
};

const CipherHw kAvx2 = {
    "avx2",      kAVX2,        kSimdScheduleBytes, kAvx2BatchBlocks,
    avx2_setkey, avx2_encrypt, avx2_decrypt,       avx2_ctr,
};

const CipherHw kRef = {
    "ref", 0, sizeof(RoundKeys), 4, ref_setkey, ref_encrypt, ref_decrypt, ref_ctr,
};

const CipherHw* const kImpls[] = {&kAvx512, &kAvx2, &kRef};

const CipherAlgo kRectangle80 = {"RECTANGLE-80", 8, 10, kImpls};
const CipherAlgo kRectangle128 = {"RECTANGLE-128", 8, 16, kImpls};

}  // namespace

const CipherAlgo& rectangle80() { return kRectangle80; }
const CipherAlgo& rectangle128() { return kRectangle128; }

}  // namespace gpucrypto
