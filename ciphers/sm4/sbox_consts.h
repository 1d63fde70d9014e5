// Constants for the SIMD S-box paths, derived from
//   S(x) = C(inv'(C(x) ^ 0xd3)) ^ 0xd3          (see ref.cpp)
// where inv' is inversion modulo 0x1f5 and C the circulant map
// x ^ rotl(x,1) ^ rotl(x,3) ^ rotl(x,6) ^ rotl(x,7).
// The hardware inverts modulo AES's 0x11b, so a field isomorphism phi from
// GF(2^8)/0x1f5 to GF(2^8)/0x11b is folded in: phi maps the generator x to
// 0x23, a root of x^8+x^7+x^6+x^5+x^4+x^2+1 in the AES field, so
//   S(x) = (C phi^-1) inv_AES((phi C)(x) ^ phi(0xd3)) ^ 0xd3.
// test/sm4_test.cpp evaluates every constant here over all 256 inputs (in
// software and on the instructions) against the GB/T 32907 table.
// Plain constants only: this header is included by ISA-specific files.
#pragma once
#include <cstdint>

namespace gpucrypto::sm4_impl {

// gf2p8affineqb / gf2p8affineinvqb operands: the row giving output bit i is
// byte 7-i of the matrix.
inline constexpr uint64_t kGfniPreMatrix = 0x4c287db91a22505dull;   // phi * C
inline constexpr uint8_t kGfniPreConst = 0x3e;                      // phi(0xd3)
inline constexpr uint64_t kGfniPostMatrix = 0xf3ab34a974a6b589ull;  // C * phi^-1
inline constexpr uint8_t kGfniPostConst = 0xd3;

// AES-NI path: with the AES S-box Saes(y) = A inv_AES(y) ^ 0x63,
//   S(x) = N Saes(phi C x ^ phi(0xd3)) ^ (N 0x63 ^ 0xd3),  N = C phi^-1 A^-1.
// Both affine maps are split by nibble for vpshufb:
//   pre(x)  = kAesPreLo[x & 15] ^ kAesPreHi[x >> 4]
//   post(y) = kAesPostLo[y & 15] ^ kAesPostHi[y >> 4]   (constants in the Lo tables)
inline constexpr uint8_t kAesPreLo[16] = {0x3e, 0xb2, 0x0e, 0x82, 0xbb, 0x37, 0x8b, 0x07,
                                          0xa1, 0x2d, 0x91, 0x1d, 0x24, 0xa8, 0x14, 0x98};
inline constexpr uint8_t kAesPreHi[16] = {0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37,
                                          0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f};
inline constexpr uint8_t kAesPostLo[16] = {0x6c, 0xd4, 0xa6, 0x1e, 0x52, 0xea, 0x98, 0x20,
                                           0x0b, 0xb3, 0xc1, 0x79, 0x35, 0x8d, 0xff, 0x47};
inline constexpr uint8_t kAesPostHi[16] = {0x00, 0xe0, 0x50, 0xb0, 0x9d, 0x7d, 0xcd, 0x2d,
                                           0xc0, 0x20, 0x90, 0x70, 0x5d, 0xbd, 0x0d, 0xed};

}  // namespace gpucrypto::sm4_impl
