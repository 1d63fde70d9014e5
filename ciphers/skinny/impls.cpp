// The SKINNY-128 algorithm descriptors and their implementations, best
// first. Both variants share the hooks: the schedule records its round count.
#include "platform/cpu_features.h"
#include "ciphers/skinny/ref.h"
#include "ciphers/skinny/skinny.h"

namespace gpucrypto {
namespace {

using namespace skinny_impl;

constexpr CipherHw kRef = {"ref", 0, kScheduleBytes, 1, setkey, ref_encrypt, ref_decrypt, ref_ctr};

constexpr CipherHw kAvx2 = {"avx2", kAVX2,        kScheduleBytes, 64,
                            setkey, avx2_encrypt, avx2_decrypt,   avx2_ctr};

constexpr CipherHw kAvx512 = {"avx512", kAVX512F | kAVX512BW, kScheduleBytes, 128,
                              setkey,   avx512_encrypt,       avx512_decrypt, avx512_ctr};

constexpr const CipherHw* kImpls[] = {&kAvx512, &kAvx2, &kRef};

constexpr CipherAlgo kSkinny256 = {"SKINNY-128-256", 16, 32, kImpls};
constexpr CipherAlgo kSkinny384 = {"SKINNY-128-384", 16, 48, kImpls};

}  // namespace

const CipherAlgo& skinny128_256() { return kSkinny256; }
const CipherAlgo& skinny128_384() { return kSkinny384; }

}  // namespace gpucrypto
