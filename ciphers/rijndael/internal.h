// Internal to ciphers/rijndael: the key schedule layout every implementation
// shares, and the implementations (for impls.cpp, the SIMD files' tails and
// the tests). Included by instruction-set files, so it
// holds only plain data and declarations: no inline functions.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"

namespace gpucrypto::rijndael_impl {

inline constexpr unsigned kMaxRounds = 14;       // Nr = max(Nb, Nk) + 6 <= 14
inline constexpr size_t kRoundKeyStride = 32;    // one round key of the widest block

// One layout for every implementation and every (block, key) size, so a
// context keeps working whichever implementation the dispatcher picks.
// Plain data, 64-byte aligned by the caller, about 1 KiB.
struct KeySched {
  // enc[r]: round key r in state byte order (byte r + 4c = row r, column c),
  // 4*Nb bytes; the rest of the row stays zero (the wide SIMD paths rely on it).
  alignas(64) uint8_t enc[kMaxRounds + 1][kRoundKeyStride];
  // Keys of the equivalent inverse cipher (FIPS 197 §5.3.5), the order AESDEC
  // consumes them: dec[0] = enc[Nr], dec[r] = InvMixColumns(enc[Nr-r]),
  // dec[Nr] = enc[0].
  alignas(64) uint8_t dec[kMaxRounds + 1][kRoundKeyStride];
  uint32_t nb;  // block length in 32-bit columns: 4, 6 or 8
  uint32_t nr;  // number of rounds
};

// Generic key expansion (FIPS 197 §5.2, generalised to any Nb): key of
// keylen = 4*Nk bytes, 4 <= Nk <= 8 (Nk = 5 and 7 are accepted for the
// published test vectors; the algorithms expose 16/24/32 only).
void expand_key(KeySched* ks, unsigned nb, const uint8_t* key, size_t keylen);

// CipherHw::setkey for each block size (all implementations share them).
void setkey_nb4(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
void setkey_nb6(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
void setkey_nb8(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);

// AES (Nb = 4, 16/24/32-byte keys; others go to setkey_nb4) with the AES-NI
// S-box and AESIMC (aesni.cpp): the AES-NI and VAES
// implementations' setkey, the same schedule.
void setkey_aesni(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);

// Portable constant-time reference, every block size (ref.cpp).
void ref_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);

// The SIMD implementations, defined by their instruction-set files with the
// requirements of their compiler flags: AES with AES-NI, 8 blocks in flight
// (aesni.cpp) and with VAES on zmm (vaes512.cpp); Rijndael-192/256 blocks
// (Nb = 6, 8) with AES-NI + SSSE3 (wide_aesni.cpp) and with VAES +
// AVX512-VBMI (wide_vaes512.cpp).
extern const CipherHw kAesAesniHw;
extern const CipherHw kAesVaes512Hw;
extern const CipherHw kNb6AesniHw;
extern const CipherHw kNb8AesniHw;
extern const CipherHw kNb6Vaes512Hw;
extern const CipherHw kNb8Vaes512Hw;
// aesni.cpp's hooks, also vaes512.cpp's path for a few blocks.
void aesni_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void aesni_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void aesni_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);
// vaes512.cpp's CTR hook: AES-NI for up to four blocks, else VAES on the zmm
// registers the blocks fill (also the fused GCM kernel's CTR for short runs).
void vaes512_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);
// The chained-mode kernels of aesni.cpp (CipherHw's optional hooks; vaes512.cpp
// uses the sequential ones too: one block at a time is xmm work).
void aesni_cbc_encrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n);
void aesni_cfb_encrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n);
void aesni_ofb(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n);
void aesni_cbc_decrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n);
void aesni_cfb_decrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n);
void aesni_cfb1(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t nbits,
                bool encrypt);

// AES's GCM hooks (CipherHw::gcm): the AES-NI key setup with H and E_K(J0)
// for the AES-NI and the VAES implementation (gcm_aesni.cpp), the latter with
// the fused VAES-512 CTR + VPCLMULQDQ GHASH kernel (gcm_vaes512.cpp).
extern const GcmHw kAesAesniGcm;
extern const GcmHw kAesVaes512Gcm;
extern const GcmFusedHw kAesGcmVaes512;

}  // namespace gpucrypto::rijndael_impl
