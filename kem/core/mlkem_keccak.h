// Keccak-f[1600] and the FIPS 202 functions ML-KEM uses (SHA3-256 = H,
// SHA3-512 = G, SHAKE128 = XOF, SHAKE256 = PRF and J), one instance at a
// time, as plain GPUCRYPTO_HD functions: the CPU reference, a CUDA kernel and
// the host grid emulator run this exact code. No tables indexed by data, no
// data-dependent branches (the permutation is a fixed sequence of xor, and,
// not and rotations), so it is constant time.
//
// Why our own Keccak and not EVP: an EVP digest call costs ~300 ns of
// context set-up, and one ML-KEM-768 operation makes ~20 hash calls. The
// vectorised 4/8-lane permutations of the SIMD back ends are in
// mlkem_simd.inc; test/mlkem_kernels_test.cpp checks them against this one.
#pragma once
#include <cstddef>
#include <cstdint>

#include "platform/host_device.h"

namespace gpucrypto::kem::mlkem {

inline constexpr size_t kShake128Rate = 168;
inline constexpr size_t kShake256Rate = 136;
inline constexpr size_t kSha3_256Rate = 136;
inline constexpr size_t kSha3_512Rate = 72;

GPUCRYPTO_HD inline uint64_t rol64(uint64_t x, int s) {
  return s == 0 ? x : (x << s) | (x >> (64 - s));
}

GPUCRYPTO_HD inline void keccak_f1600(uint64_t a[25]) {
  constexpr uint64_t kRc[24] = {
      0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull,
      0x8000000080008000ull, 0x000000000000808bull, 0x0000000080000001ull,
      0x8000000080008081ull, 0x8000000000008009ull, 0x000000000000008aull,
      0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
      0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull,
      0x8000000000008003ull, 0x8000000000008002ull, 0x8000000000000080ull,
      0x000000000000800aull, 0x800000008000000aull, 0x8000000080008081ull,
      0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull};
  // rho offsets by lane index x + 5y, and pi: lane (x, y) moves to (y, 2x + 3y).
  constexpr int kRho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                            25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};
  for (int round = 0; round < 24; ++round) {
    uint64_t c[5], b[25];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
#pragma GCC unroll 5
    for (int x = 0; x < 5; ++x) {
      const uint64_t d = c[(x + 4) % 5] ^ rol64(c[(x + 1) % 5], 1);
#pragma GCC unroll 5
      for (int y = 0; y < 25; y += 5) a[y + x] ^= d;
    }
#pragma GCC unroll 25
    for (int i = 0; i < 25; ++i) {
      const int x = i % 5, y = i / 5;
      b[y + 5 * ((2 * x + 3 * y) % 5)] = rol64(a[i], kRho[i]);
    }
#pragma GCC unroll 5
    for (int y = 0; y < 25; y += 5) {
#pragma GCC unroll 5
      for (int x = 0; x < 5; ++x) a[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]);
    }
    a[0] ^= kRc[round];
  }
}

GPUCRYPTO_HD inline uint64_t load64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

GPUCRYPTO_HD inline void store64_le(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
}

// A sponge over one message given as up to three pieces (ML-KEM never hashes
// more: e.g. J(z || c), G(m || H(ek)), XOF(rho || j || i)), padded with the
// domain byte `ds` (0x06 SHA-3, 0x1f SHAKE), then squeezed block by block.
struct Sponge {
  uint64_t s[25];
  size_t rate;
};

GPUCRYPTO_HD inline void sponge_absorb(Sponge& sp, size_t rate, uint8_t ds, const uint8_t* a,
                                       size_t alen, const uint8_t* b = nullptr, size_t blen = 0,
                                       const uint8_t* c = nullptr, size_t clen = 0) {
  for (int i = 0; i < 25; ++i) sp.s[i] = 0;
  sp.rate = rate;
  uint8_t block[200];
  size_t fill = 0;
  const uint8_t* parts[3] = {a, b, c};
  const size_t lens[3] = {alen, blen, clen};
  for (int p = 0; p < 3; ++p) {
    const uint8_t* in = parts[p];
    size_t len = lens[p];
    while (len > 0) {
      size_t take = rate - fill;
      if (take > len) take = len;
      for (size_t i = 0; i < take; ++i) block[fill + i] = in[i];
      fill += take;
      in += take;
      len -= take;
      if (fill == rate) {
        for (size_t i = 0; i < rate / 8; ++i) sp.s[i] ^= load64_le(block + 8 * i);
        keccak_f1600(sp.s);
        fill = 0;
      }
    }
  }
  for (size_t i = fill; i < rate; ++i) block[i] = 0;
  block[fill] = ds;
  block[rate - 1] |= 0x80;
  for (size_t i = 0; i < rate / 8; ++i) sp.s[i] ^= load64_le(block + 8 * i);
}

// Permutes, then writes one rate-sized block of output.
GPUCRYPTO_HD inline void sponge_squeeze_block(Sponge& sp, uint8_t* out) {
  keccak_f1600(sp.s);
  for (size_t i = 0; i < sp.rate / 8; ++i) store64_le(out + 8 * i, sp.s[i]);
}

// Any output length (the last block is cut).
GPUCRYPTO_HD inline void sponge_squeeze(Sponge& sp, uint8_t* out, size_t len) {
  while (len > 0) {
    keccak_f1600(sp.s);
    const size_t take = len < sp.rate ? len : sp.rate;
    for (size_t i = 0; i < take; ++i) out[i] = uint8_t(sp.s[i / 8] >> (8 * (i % 8)));
    out += take;
    len -= take;
  }
}

GPUCRYPTO_HD inline void sha3_256(uint8_t out[32], const uint8_t* a, size_t alen) {
  Sponge sp;
  sponge_absorb(sp, kSha3_256Rate, 0x06, a, alen);
  sponge_squeeze(sp, out, 32);
}

GPUCRYPTO_HD inline void sha3_512(uint8_t out[64], const uint8_t* a, size_t alen,
                                  const uint8_t* b = nullptr, size_t blen = 0) {
  Sponge sp;
  sponge_absorb(sp, kSha3_512Rate, 0x06, a, alen, b, blen);
  sponge_squeeze(sp, out, 64);
}

GPUCRYPTO_HD inline void shake256(uint8_t* out, size_t outlen, const uint8_t* a, size_t alen,
                                  const uint8_t* b = nullptr, size_t blen = 0) {
  Sponge sp;
  sponge_absorb(sp, kShake256Rate, 0x1f, a, alen, b, blen);
  sponge_squeeze(sp, out, outlen);
}

}  // namespace gpucrypto::kem::mlkem
