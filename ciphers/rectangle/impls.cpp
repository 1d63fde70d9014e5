// The RECTANGLE algorithm descriptors; implementations best first, ref last.
// One implementation serves both key sizes: setkey receives the key length.
#include "platform/cpu_features.h"
#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rectangle/ref.h"
#include "ciphers/rectangle/simd.h"

namespace gpucrypto {
namespace {

using namespace rectangle;

// A SIMD path pays for a whole batch even for one block; below kSmallCall
// blocks the bitsliced reference (4 blocks per 64-bit word) is faster, so each
// SIMD schedule carries the reference round keys too.
constexpr size_t kSmallCall = 4;

struct Schedule {
  alignas(64) uint8_t simd[kSimdScheduleBytes];
  RoundKeys ref;
};

const RoundKeys* ref_keys(const void* ks) { return &static_cast<const Schedule*>(ks)->ref; }

template <void (*Setkey)(void*, const uint8_t*, size_t, bool)>
void setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt) {
  Setkey(ks, key, keylen, with_decrypt);
  ref_setkey(&static_cast<Schedule*>(ks)->ref, key, keylen, with_decrypt);
}

template <void (*Fn)(const void*, const uint8_t*, uint8_t*, size_t),
          void (*Ref)(const void*, const uint8_t*, uint8_t*, size_t)>
void ecb(const void* ks, const uint8_t* in, uint8_t* out, size_t n) {
  if (n < kSmallCall) return Ref(ref_keys(ks), in, out, n);
  Fn(ks, in, out, n);
}

template <void (*Fn)(const void*, uint8_t*, const uint8_t*, uint8_t*, size_t)>
void ctr(const void* ks, uint8_t* c, const uint8_t* in, uint8_t* out, size_t n) {
  if (n < kSmallCall) return ref_ctr(ref_keys(ks), c, in, out, n);
  Fn(ks, c, in, out, n);
}

// vpermt2b is AVX512-VBMI; the 16-bit shifts are AVX512-BW.
const CipherHw kAvx512 = {
    "avx512",
    kAVX512F | kAVX512BW | kAVX512VBMI,
    sizeof(Schedule),
    kAvx512BatchBlocks,
    setkey<avx512_setkey>,
    ecb<avx512_encrypt, ref_encrypt>,
    ecb<avx512_decrypt, ref_decrypt>,
    ctr<avx512_ctr>,
};

const CipherHw kAvx2 = {
    "avx2",
    kAVX2,
    sizeof(Schedule),
    kAvx2BatchBlocks,
    setkey<avx2_setkey>,
    ecb<avx2_encrypt, ref_encrypt>,
    ecb<avx2_decrypt, ref_decrypt>,
    ctr<avx2_ctr>,
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
