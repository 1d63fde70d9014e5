// The whole-block work of the chained modes (CBC, CFB, OFB, CFB8, CFB1),
// written once over one implementation's hooks (docs/ARCHITECTURE.md, "a
// mode"). The provider's generic layer keeps the mode state (padding, `num`,
// the IV register) and calls these; the dispatcher runs the parallel ones
// (CBC and CFB decryption) in chunks across the pool and on the GPU.
//
// Every function takes the chaining register `reg` (block_bytes bytes) and
// leaves it where the mode definition says the next call starts from:
//   CBC (both directions), CFB decryption: the last ciphertext block;
//   CFB encryption: the last ciphertext block;
//   OFB: the last keystream block;
//   CFB8 / CFB1: the shift register after the last segment.
// All accept in == out (never partial overlap), any alignment, n == 0, and
// allocate nothing. Per-call stack staging of decrypted or keystream bytes is
// wiped with OPENSSL_cleanse before returning.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"

namespace gpucrypto {

// The composition over the single-block and batch hooks, for
// implementations without the mode's fused hook (block_modes.cpp; the inline
// functions below pick).
namespace composed {
void cbc_encrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks);
void cfb_encrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks);
void ofb_crypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
               uint8_t* out, size_t nblocks);
void cbc_decrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks);
void cfb_decrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks);
}  // namespace composed

// Each mode goes to the implementation's fused hook when it has one
// (CipherHw::cbc_encrypt, ...: the same bytes in one pass) and to the
// composition otherwise. Inline, so a small call reaches the hook without
// another call in between.
template <CipherHw::ChainFn CipherHw::*kHook, auto kComposed>
inline void fused_or_composed(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg,
                              const uint8_t* in, uint8_t* out, size_t nblocks) {
  if (nblocks != 0 && hw.*kHook != nullptr) return (hw.*kHook)(ks, reg, in, out, nblocks);
  kComposed(hw, ks, bs, reg, in, out, nblocks);
}

// The sequential modes: one single-block hook call per block (the hook's
// lowest-latency path), nothing else per block but a register XOR.
inline constexpr auto cbc_encrypt = fused_or_composed<&CipherHw::cbc_encrypt, composed::cbc_encrypt>;
inline constexpr auto cfb_encrypt = fused_or_composed<&CipherHw::cfb_encrypt, composed::cfb_encrypt>;
inline constexpr auto ofb_crypt = fused_or_composed<&CipherHw::ofb, composed::ofb_crypt>;

// The parallel modes: block i depends only on ciphertext blocks i-1 and i,
// so whole runs go through the batch hook (CBC: decrypt the run, then XOR
// with the previous ciphertext blocks; CFB: encrypt the previous ciphertext
// blocks, then XOR), or through the implementation's fused kernel when it
// has one (CipherHw::cbc_decrypt / cfb_decrypt: the same bytes in one pass).
// `reg` is the ciphertext block before in[0] (the IV for the first call);
// any split of a run into calls gives the same bytes.
inline constexpr auto cbc_decrypt = fused_or_composed<&CipherHw::cbc_decrypt, composed::cbc_decrypt>;
inline constexpr auto cfb_decrypt = fused_or_composed<&CipherHw::cfb_decrypt, composed::cfb_decrypt>;

// CFB with 8-bit segments over n bytes, and with 1-bit segments over `nbits`
// bits (bit 7 of in[0] first; output bits past nbits keep their value), as
// SP 800-38A section 6.3 and OpenSSL's CRYPTO_cfb128_8/1_encrypt define them.
void cfb8_crypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                uint8_t* out, size_t n, bool encrypt);
void cfb1_crypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                uint8_t* out, size_t nbits, bool encrypt);

}  // namespace gpucrypto
