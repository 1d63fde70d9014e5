// Internal to ciphers/rectangle and its tests: the reference key schedule and
// round function with explicit round counts. Out-of-line functions only (safe
// from ISA files).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"

namespace gpucrypto::rectangle {

inline constexpr int kRounds = 25;
inline constexpr int kRoundKeys = kRounds + 1;

// Round keys K_0..K_25 as rows R0..R3 (bit j = column j), the spec's values.
struct RoundKeys {
  uint16_t k[kRoundKeys][4];
};

// Expands a 10-byte (RECTANGLE-80) or 16-byte (RECTANGLE-128) key.
void expand_key(const uint8_t* key, size_t keylen, RoundKeys* rk);

// `rounds` rounds of (AddRoundKey K_r, SubColumn, ShiftRow), then AddRoundKey
// K_rounds, on nblocks 8-byte blocks; rk must hold rounds + 1 keys.
void encrypt_rounds(const uint16_t (*rk)[4], int rounds, const uint8_t* in, uint8_t* out,
                    size_t nblocks);
// The inverse of encrypt_rounds with the same keys.
void decrypt_rounds(const uint16_t (*rk)[4], int rounds, const uint8_t* in, uint8_t* out,
                    size_t nblocks);

// The reference's CipherHw hooks (schedule: RoundKeys).
void ref_setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
void ref_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
void ref_ctr(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);

}  // namespace gpucrypto::rectangle
