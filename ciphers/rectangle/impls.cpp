// The RECTANGLE algorithm descriptors; implementations best first, ref last.
// One implementation serves both key sizes: setkey receives the key length.
// Each SIMD file defines its own CipherHw (simd.h), its requirements derived
// from its compiler flags.
#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rectangle/ref.h"
#include "ciphers/rectangle/simd.h"

namespace gpucrypto {
namespace {

using namespace rectangle;

constexpr CipherHw kRef = {
    "ref", 0, sizeof(RoundKeys), 4, ref_setkey, ref_encrypt, ref_decrypt, ref_ctr,
};

constexpr const CipherHw* kImpls[] = {&avx512::kHw, &avx2::kHw, &kRef};

constexpr CipherAlgo kRectangle80 = {"RECTANGLE-80", 8, 10, kImpls};
constexpr CipherAlgo kRectangle128 = {"RECTANGLE-128", 8, 16, kImpls};

}  // namespace

const CipherAlgo& rectangle80() { return kRectangle80; }
const CipherAlgo& rectangle128() { return kRectangle128; }

}  // namespace gpucrypto
