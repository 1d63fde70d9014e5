// GHASH (NIST SP 800-38D §6.4), the hash of the GCM mode (ciphers/gcm) and
// of the block ciphers' fused GCM kernels (GcmHw, ciphers/block_cipher.h).
// One GhashHw per instruction set, all on one key layout (GhashKey), chosen
// like the block ciphers' hooks by the CPU features capped by `backend`
// (docs/ARCHITECTURE.md, "The cipher hook contract"). Every hook is constant
// time: no branch or memory index depends on H, the data or the tag.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace gpucrypto {

// Aggregation width of the fastest path: H^1 .. H^kGhashPowers are kept per
// key, so 32 blocks need a single reduction.
inline constexpr size_t kGhashPowers = 32;

// The GHASH key of one cipher key, plain data (copied with memcpy by
// EVP_CIPHER_CTX_copy, wiped with OPENSSL_cleanse). Values are 128-bit field
// elements stored as the 16 spec bytes byte-reversed, i.e. the little-endian
// image of the big-endian integer: what PCLMULQDQ multiplies after one
// byte swap of the data.
struct alignas(64) GhashKey {
  // pow[i] = H^(kGhashPowers - i): a run of n <= 32 blocks multiplies block j
  // by pow[kGhashPowers - n + j]. Three zero blocks follow, so a masked tail
  // may load whole 64-byte rows past the last power. The carry-less-multiply
  // hooks keep each power twisted, times x^-1 (the 128-bit value shifted left
  // by one, 0xC2..01 XORed in when its top bit falls out; ghash_clmul.inc),
  // ref keeps it as is: a key is used with the GhashHw that set it (GcmKey).
  uint8_t pow[kGhashPowers + 3][16];
  // kara[i]: both 64-bit halves of pow[i] XORed, in each half: the middle
  // factor of a Karatsuba product (the carry-less-multiply hooks; ref leaves
  // it zero). Same layout and padding as pow.
  uint8_t kara[kGhashPowers + 3][16];
  // Powers present, H^1 .. H^npowers: 1 after init (all a one-block message
  // needs: key setup stays cheap where keys are set often, libssl once per
  // connection, `openssl speed` once per message), then 4, 8, 16 or 32 as
  // extend adds them for longer runs (ghash_power_level). Public.
  uint32_t npowers;
};

// The power counts a key goes through: the least of 1, 4, 8, 16 and
// kGhashPowers that is at least `want` (a public length in blocks).
constexpr uint32_t ghash_power_level(size_t want) {
  uint32_t level = 1;
  while (level < want && level < kGhashPowers) level = level == 1 ? 4 : 2 * level;
  return level;
}

// One GHASH implementation. `xi` is the 16-byte running value in spec byte
// order (it is what the tag is made of). `key` is one this implementation's
// init set.
struct GhashHw {
  const char* name;   // "ref", "pclmul", "vpclmul512"
  uint32_t required;  // CpuFeature bits
  // Fills `key` with H^1 from H = E_K(0^128) (spec bytes): npowers = 1.
  void (*init)(GhashKey* key, const uint8_t h[16]);
  // Adds powers up to H^ghash_power_level(want) (want <= kGhashPowers; none
  // when npowers is already that high). Each level is a few independent
  // products of the last (latency paid per key where keys are set per
  // message). ghash works with any npowers, aggregating over those present.
  void (*extend)(GhashKey* key, uint32_t want);
  // xi = (...((xi ^ in_0) * H ^ in_1) * H ...) * H over nblocks >= 0 whole blocks.
  void (*ghash)(const GhashKey* key, uint8_t xi[16], const uint8_t* in, size_t nblocks);
  // r = a * b in GF(2^128), spec byte order (combining partial GHASH values).
  void (*mul)(uint8_t r[16], const uint8_t a[16], const uint8_t b[16]);
};

// GHASH implementations, best first, the portable reference last.
std::span<const GhashHw* const> ghash_impls();
const GhashHw& select_ghash(uint32_t features);
const GhashHw* find_ghash(const char* name);

// r = h^e (e >= 0) with hw.mul: square and multiply, constant time in h (e
// is a public length).
void gf128_pow(const GhashHw& hw, uint8_t r[16], const uint8_t h[16], uint64_t e);

}  // namespace gpucrypto
