// Internal to ciphers/gcm: the implementations impls.cpp lists (defined by
// their instruction-set files). Declarations only: included by ISA files.
#pragma once
#include "ciphers/gcm/ghash.h"

namespace gpucrypto::gcm_impl {

extern const GhashHw kGhashRef;         // ghash_ref.cpp: portable, bitwise, no tables
extern const GhashHw kGhashPclmul;      // ghash_pclmul.cpp: PCLMULQDQ, 4 blocks per reduction
extern const GhashHw kGhashVpclmul512;  // ghash_vpclmul512.cpp: VPCLMULQDQ zmm, 32 blocks
extern const AesGcmHw kAesGcmVaes512;   // ghash_vpclmul512.cpp: VAES-512 CTR + GHASH fused

// aes_keys_aesni.cpp: the encryption half of ciphers/rijndael's KeySched for
// AES (keylen 16, 24, 32) with AESKEYGENASSIST, and h = E_K(0^128) (GCM's
// hash key) computed alongside, and j_out = E_K(j_in) too when j_in is not
// null (a J0 known at key setup); needs kAesKeysAesniRequired.
void aes_setkey_aesni(void* ks, const uint8_t* key, size_t keylen, uint8_t h[16],
                      const uint8_t* j_in = nullptr, uint8_t* j_out = nullptr);
// One block with the enc rows of that schedule (GCM's E_K(J0) per message).
void aes_encrypt_block_aesni(const void* ks, const uint8_t in[16], uint8_t out[16]);
extern const uint32_t kAesKeysAesniRequired;

}  // namespace gpucrypto::gcm_impl
