// The SKINNY-128 algorithm descriptors and their implementations, best
// first. Both variants share the hooks: the schedule records its round count.
// The SIMD implementations are defined by their instruction-set files.
#include "ciphers/skinny/ref.h"
#include "ciphers/skinny/skinny.h"

namespace gpucrypto {
namespace {

using namespace skinny_impl;

constexpr CipherHw kRef = {"ref", 0, kScheduleBytes, 1, setkey, ref_encrypt, ref_decrypt, ref_ctr};

constexpr const CipherHw* kImpls[] = {&avx512_gfni::kHw, &avx512::kHw, &avx2::kHw, &kRef};

constexpr CipherAlgo kSkinny256 = {"SKINNY-128-256", 16, 32, kImpls};
constexpr CipherAlgo kSkinny384 = {"SKINNY-128-384", 16, 48, kImpls};

}  // namespace

const CipherAlgo& skinny128_256() { return kSkinny256; }
const CipherAlgo& skinny128_384() { return kSkinny384; }

}  // namespace gpucrypto
