// Rijndael with 128/192/256-bit blocks and keys. The 128-bit-block members are
// AES (FIPS 197); the wider blocks follow the Rijndael specification
// (Daemen & Rijmen, AES proposal v2, 1999). See README.md for byte order.
#pragma once
#include <span>

#include "ciphers/block_cipher.h"

namespace gpucrypto {

// block_bits, key_bits ∈ {128, 192, 256}; throws std::invalid_argument
// otherwise. Names: "AES-128"/"AES-192"/"AES-256" for 128-bit blocks,
// "RIJNDAEL-<B>-<K>" for the others.
const CipherAlgo& rijndael(unsigned block_bits, unsigned key_bits);

inline const CipherAlgo& aes128() { return rijndael(128, 128); }
inline const CipherAlgo& aes192() { return rijndael(128, 192); }
inline const CipherAlgo& aes256() { return rijndael(128, 256); }

// AES's fused GCM kernels (the GcmHw::fused of its implementations), best
// first, for tests and measurements; the GCM mode reaches them through the
// CipherHw it chose. No portable entry: without one the CTR hook and GHASH
// are stitched per 4 KiB (ciphers/gcm/gcm_mode.h).
using AesGcmHw = GcmFusedHw;
std::span<const AesGcmHw* const> aes_gcm_impls();
const AesGcmHw* select_aes_gcm(uint32_t features);  // nullptr: none runs here

}  // namespace gpucrypto
