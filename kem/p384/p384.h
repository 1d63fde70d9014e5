// ECDH on NIST P-384 (SEC 1, FIPS 186-5 curve): the classical half of the
// SecP384r1MLKEM1024 hybrid. OpenSSL's P-384 (3.5's ecp_nistp384, 3.0's
// generic code) costs about 95 % of that hybrid's time, so we carry our own;
// P-256 and X25519 stay OpenSSL's (its P-256 is hand-written assembly).
//
// Scalars are 48 bytes big-endian, points uncompressed (0x04 || x || y, 97
// bytes), shared secrets the x-coordinate (48 bytes), as SEC 1 and OpenSSL.
// Constant time in every secret (scalar, intermediate points, result):
// Jacobian formulas with the identity handled by masks (equal addends cannot
// occur for a scalar < n: p384.cpp), fixed 4-bit windows, table entries picked
// by scanning every entry with masks.
// Public inputs (a peer's point) are checked with ordinary branches.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::p384 {

inline constexpr size_t kScalarBytes = 48;
inline constexpr size_t kPointBytes = 97;
inline constexpr size_t kSecretBytes = 48;

// `features` (platform/cpu_features.h, after the backend cap) picks the field
// multiplication: MULX/ADCX/ADOX with kBMI2 | kADX, else portable 64-bit code.
// Results are identical.
bool adx_usable(uint32_t features);

// True when 0 < d < n (the group order). Constant time in d; the answer is
// meant to be public (a key is valid or refused).
bool scalar_valid(const uint8_t d[kScalarBytes]);

// True when p is 0x04 || x || y with x, y < p and y^2 = x^3 - 3x + b (the
// curve has prime order, so every such point generates it).
bool point_valid(const uint8_t pt[kPointBytes], uint32_t features);

// pub = d*G. False (pub zeroed) when d is not valid.
bool public_key(uint8_t pub[kPointBytes], const uint8_t d[kScalarBytes], uint32_t features);

// ss = x(d*peer). False (ss zeroed) when d or the peer's point is not valid.
bool ecdh(uint8_t ss[kSecretBytes], const uint8_t d[kScalarBytes], const uint8_t peer[kPointBytes],
          uint32_t features);

}  // namespace gpucrypto::p384
