// SM4 internals shared by the implementations in this folder and by the
// tests: the key-schedule layout (common to every impl, so a schedule made by
// one can be used by another), the reference functions, and the exported
// implementations of the per-instruction-set files.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"

namespace gpucrypto::sm4_impl {

// Round keys as native integers (the big-endian words of the standard).
// `dec` is `enc` reversed: SM4 decryption is encryption with reversed keys.
struct Schedule {
  uint32_t enc[32];
  uint32_t dec[32];
};
inline constexpr size_t kScheduleBytes = sizeof(Schedule);

// Portable constant-time reference (ref.cpp).
void ref_setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
void ref_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);
// The same schedule with the GFNI S-box (keys_gfni.cpp; needs
// kGfniSetkeyRequired): the GFNI implementations' setkey.
void gfni_setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
extern const uint32_t kGfniSetkeyRequired;
// One S-box evaluation through the reference circuit (for tests).
uint8_t ref_sbox(uint8_t x);

// The SIMD implementations, defined by their instruction-set files with the
// requirements of their compiler flags: AVX-512 + GFNI (avx512_gfni.cpp, 64
// blocks per iteration), AVX2 + GFNI (avx2_gfni.cpp, 32 blocks) and AVX2 +
// AES-NI (avx2_aesni.cpp, 32 blocks).
// Each exports, in its namespace <isa> (platform/isa_select.h), its
// descriptor kHw and sbox_layer, its path's S-box layer on n bytes (for
// tests).
namespace avx512_gfni {
extern const CipherHw kHw;
void sbox_layer(const uint8_t* in, uint8_t* out, size_t n);
}  // namespace avx512_gfni
namespace avx2_gfni {
extern const CipherHw kHw;
void sbox_layer(const uint8_t* in, uint8_t* out, size_t n);
}  // namespace avx2_gfni
namespace avx2_aesni {
extern const CipherHw kHw;
void sbox_layer(const uint8_t* in, uint8_t* out, size_t n);
}  // namespace avx2_aesni

}  // namespace gpucrypto::sm4_impl
