// Host-side constant tables: the S-boxes (computed from their definition,
// or taken from the CPU reference) and the derived tables the kernels copy to
// shared memory. Host code only; the device gets a copy of Tables through
// host_tables() at initialisation.
#pragma once
#include <array>
#include <cstdint>

#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu::kern {

// The SM4 S-box (GB/T 32907-2016 section 6.2), read once from the CPU
// reference circuit (ciphers/sm4/ref.h), which test/sm4_test.cpp checks
// against the standard's table.
const std::array<uint8_t, 256>& sm4_sbox();

// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (AES), branch-free
// (the host key schedules call it on key material: masks, not branches).
constexpr uint8_t gf_mul(uint8_t a, uint8_t b) {
  uint8_t r = 0;
  for (int i = 0; i < 8; ++i) {
    r ^= uint8_t(a & -(b & 1));
    a = uint8_t((a << 1) ^ (0x1b & -(a >> 7)));
    b >>= 1;
  }
  return r;
}

// The AES S-box from its definition (FIPS 197 section 5.1.1): inverse in
// GF(2^8) followed by the affine map.
constexpr std::array<uint8_t, 256> make_aes_sbox() {
  std::array<uint8_t, 256> s{};
  for (int x = 0; x < 256; ++x) {
    // x^-1 = x^254 (and 0 -> 0): square and multiply, 13 products per
    // element (a search over all y costs 255 and exceeds GCC's constexpr
    // operation limit under the sanitizer builds).
    uint8_t inv = 1, sq = uint8_t(x);
    for (int e = 254; e != 0; e >>= 1) {
      if (e & 1) inv = gf_mul(inv, sq);
      sq = gf_mul(sq, sq);
    }
    uint8_t b = inv, r = 0x63;
    for (int i = 0; i < 5; ++i) r ^= uint8_t((b << i) | (b >> (8 - i)));
    s[x] = r;
  }
  return s;
}
inline constexpr std::array<uint8_t, 256> kAesSbox = make_aes_sbox();
static_assert(kAesSbox[0x00] == 0x63 && kAesSbox[0x53] == 0xed && kAesSbox[0xff] == 0x16,
              "FIPS 197 Figure 7");

// The tables, built once on first use.
const Tables& host_tables();

}  // namespace gpucrypto::gpu::kern
