// Bit-sliced building blocks of the constant-time kernels (gpu/README.md,
// "Constant-time kernels"). 32 bytes are held as eight 32-bit bit planes:
// plane b holds bit b of every byte, so an S-box is a Boolean circuit
// evaluated once for all 32 bytes, with no memory access and no branch that
// depends on data or key. Plain C++ when __CUDACC__ is undefined (common.cuh),
// so the same bodies run in the host grid emulator and under ctgrind.
#pragma once
#include <cstdint>

#include "gpu/kernels/common.cuh"

namespace gpucrypto::gpu::kern {

// Exchanges bit `s` of the word index with bit `s` of the bit position
// between words a (index bit clear) and b (index bit set): t holds the bits
// that change sides.
GPUCRYPTO_HD inline void bs_swapmove(uint32_t& a, uint32_t& b, uint32_t mask, unsigned shift) {
  const uint32_t t = ((a >> shift) ^ b) & mask;
  b ^= t;
  a ^= t << shift;
}

// Eight words <-> eight bit planes. Word j, byte r, bit b moves to plane b,
// bit 8r + j: the three low bits of the word index and of the bit position
// trade places, so the map is its own inverse (the same call packs and
// unpacks). 12 swapmoves.
GPUCRYPTO_HD inline void bs_transpose(uint32_t (&q)[8]) {
  constexpr uint32_t kMask[3] = {0x55555555u, 0x33333333u, 0x0f0f0f0fu};
  GPUCRYPTO_PRAGMA(unroll)
  for (int k = 0; k < 3; ++k)
    GPUCRYPTO_PRAGMA(unroll)
    for (int i = 0; i < 8; ++i)
      if ((i & (1 << k)) == 0) bs_swapmove(q[i], q[i | (1 << k)], kMask[k], 1u << k);
}

// The AES S-box on 32 bytes in planes: the depth-16 circuit of J. Boyar and
// R. Peralta, "A depth-16 circuit for the AES S-box" (IFIP SEC 2012, ePrint
// 2011/332): 128 gates (34 AND, the rest XOR/XNOR), U0 = most significant
// input bit, S0 = most significant output bit. The grid-emulator tests check
// it against FIPS 197 for all 256 inputs.
GPUCRYPTO_HD inline void bs_aes_sbox(uint32_t (&q)[8]) {
  const uint32_t U0 = q[7], U1 = q[6], U2 = q[5], U3 = q[4], U4 = q[3], U5 = q[2], U6 = q[1],
                 U7 = q[0];
  const uint32_t T1 = U0 ^ U3; const uint32_t T2 = U0 ^ U5; const uint32_t T3 = U0 ^ U6;
  const uint32_t T4 = U3 ^ U5; const uint32_t T5 = U4 ^ U6; const uint32_t T6 = T1 ^ T5;
  const uint32_t T7 = U1 ^ U2; const uint32_t T8 = U7 ^ T6; const uint32_t T9 = U7 ^ T7;
  const uint32_t T10 = T6 ^ T7; const uint32_t T11 = U1 ^ U5; const uint32_t T12 = U2 ^ U5;
  const uint32_t T13 = T3 ^ T4; const uint32_t T14 = T6 ^ T11; const uint32_t T15 = T5 ^ T11;
  const uint32_t T16 = T5 ^ T12; const uint32_t T17 = T9 ^ T16; const uint32_t T18 = U3 ^ U7;
  const uint32_t T19 = T7 ^ T18; const uint32_t T20 = T1 ^ T19; const uint32_t T21 = U6 ^ U7;
  const uint32_t T22 = T7 ^ T21; const uint32_t T23 = T2 ^ T22; const uint32_t T24 = T2 ^ T10;
  const uint32_t T25 = T20 ^ T17; const uint32_t T26 = T3 ^ T16; const uint32_t T27 = T1 ^ T12;
  const uint32_t M1 = T13 & T6; const uint32_t M2 = T23 & T8; const uint32_t M3 = T14 ^ M1;
  const uint32_t M4 = T19 & U7; const uint32_t M5 = M4 ^ M1; const uint32_t M6 = T3 & T16;
  const uint32_t M7 = T22 & T9; const uint32_t M8 = T26 ^ M6; const uint32_t M9 = T20 & T17;
  const uint32_t M10 = M9 ^ M6; const uint32_t M11 = T1 & T15; const uint32_t M12 = T4 & T27;
  const uint32_t M13 = M12 ^ M11; const uint32_t M14 = T2 & T10; const uint32_t M15 = M14 ^ M11;
  const uint32_t M16 = M3 ^ M2; const uint32_t M17 = M5 ^ T24; const uint32_t M18 = M8 ^ M7;
  const uint32_t M19 = M10 ^ M15; const uint32_t M20 = M16 ^ M13; const uint32_t M21 = M17 ^ M15;
  const uint32_t M22 = M18 ^ M13; const uint32_t M23 = M19 ^ T25; const uint32_t M24 = M22 ^ M23;
  const uint32_t M25 = M22 & M20; const uint32_t M26 = M21 ^ M25; const uint32_t M27 = M20 ^ M21;
  const uint32_t M28 = M23 ^ M25; const uint32_t M29 = M28 & M27; const uint32_t M30 = M26 & M24;
  const uint32_t M31 = M20 & M23; const uint32_t M32 = M27 & M31; const uint32_t M33 = M27 ^ M25;
  const uint32_t M34 = M21 & M22; const uint32_t M35 = M24 & M34; const uint32_t M36 = M24 ^ M25;
  const uint32_t M37 = M21 ^ M29; const uint32_t M38 = M32 ^ M33; const uint32_t M39 = M23 ^ M30;
  const uint32_t M40 = M35 ^ M36; const uint32_t M41 = M38 ^ M40; const uint32_t M42 = M37 ^ M39;
  const uint32_t M43 = M37 ^ M38; const uint32_t M44 = M39 ^ M40; const uint32_t M45 = M42 ^ M41;
  const uint32_t M46 = M44 & T6; const uint32_t M47 = M40 & T8; const uint32_t M48 = M39 & U7;
  const uint32_t M49 = M43 & T16; const uint32_t M50 = M38 & T9; const uint32_t M51 = M37 & T17;
  const uint32_t M52 = M42 & T15; const uint32_t M53 = M45 & T27; const uint32_t M54 = M41 & T10;
  const uint32_t M55 = M44 & T13; const uint32_t M56 = M40 & T23; const uint32_t M57 = M39 & T19;
  const uint32_t M58 = M43 & T3; const uint32_t M59 = M38 & T22; const uint32_t M60 = M37 & T20;
  const uint32_t M61 = M42 & T1; const uint32_t M62 = M45 & T4; const uint32_t M63 = M41 & T2;
  const uint32_t L0 = M61 ^ M62; const uint32_t L1 = M50 ^ M56; const uint32_t L2 = M46 ^ M48;
  const uint32_t L3 = M47 ^ M55; const uint32_t L4 = M54 ^ M58; const uint32_t L5 = M49 ^ M61;
  const uint32_t L6 = M62 ^ L5; const uint32_t L7 = M46 ^ L3; const uint32_t L8 = M51 ^ M59;
  const uint32_t L9 = M52 ^ M53; const uint32_t L10 = M53 ^ L4; const uint32_t L11 = M60 ^ L2;
  const uint32_t L12 = M48 ^ M51; const uint32_t L13 = M50 ^ L0; const uint32_t L14 = M52 ^ M61;
  const uint32_t L15 = M55 ^ L1; const uint32_t L16 = M56 ^ L0; const uint32_t L17 = M57 ^ L1;
  const uint32_t L18 = M58 ^ L8; const uint32_t L19 = M63 ^ L4; const uint32_t L20 = L0 ^ L1;
  const uint32_t L21 = L1 ^ L7; const uint32_t L22 = L3 ^ L12; const uint32_t L23 = L18 ^ L2;
  const uint32_t L24 = L15 ^ L9; const uint32_t L25 = L6 ^ L10; const uint32_t L26 = L7 ^ L9;
  const uint32_t L27 = L8 ^ L10; const uint32_t L28 = L11 ^ L14; const uint32_t L29 = L11 ^ L17;
  const uint32_t S0 = L6 ^ L24; const uint32_t S1 = ~(L16 ^ L26);
  const uint32_t S2 = ~(L19 ^ L28); const uint32_t S3 = L6 ^ L21; const uint32_t S4 = L20 ^ L22;
  const uint32_t S5 = L25 ^ L29; const uint32_t S6 = ~(L13 ^ L27);
  const uint32_t S7 = ~(L6 ^ L23);
  q[7] = S0, q[6] = S1, q[5] = S2, q[4] = S3, q[3] = S4, q[2] = S5, q[1] = S6, q[0] = S7;
}

// x -> A^-1(x ^ 0x63), A the linear part of the AES affine map. Since the S-box
// is S(x) = A(inv(x)) ^ 0x63 and inversion is an involution,
// S^-1 = B o S o B with B this map (derived from FIPS 197 section 5.1.1;
// tested over all 256 inputs).
GPUCRYPTO_HD inline void bs_aes_unaffine(uint32_t (&q)[8]) {
  const uint32_t x[8] = {q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]};
  q[0] = ~(x[2] ^ x[5] ^ x[7]);
  q[1] = x[0] ^ x[3] ^ x[6];
  q[2] = ~(x[1] ^ x[4] ^ x[7]);
  q[3] = x[0] ^ x[2] ^ x[5];
  q[4] = x[1] ^ x[3] ^ x[6];
  q[5] = x[2] ^ x[4] ^ x[7];
  q[6] = x[0] ^ x[3] ^ x[5];
  q[7] = x[1] ^ x[4] ^ x[6];
}

GPUCRYPTO_HD inline void bs_aes_inv_sbox(uint32_t (&q)[8]) {
  bs_aes_unaffine(q);
  bs_aes_sbox(q);
  bs_aes_unaffine(q);
}

// The SM4 S-box as S(x) = post(S_AES(pre(x))): SM4's S-box is affine
// equivalent to AES's (both are field inversions between affine maps), and
// pre/post are the affine maps ciphers/sm4/sbox_consts.h derives (the field
// isomorphism GF(2^8)/0x1f5 -> GF(2^8)/0x11b folded in), written out as XORs
// of bit planes (complemented outputs carry the constants). Tested against
// GB/T 32907 for all 256 inputs.
GPUCRYPTO_HD inline void bs_sm4_pre(uint32_t (&q)[8]) {
  const uint32_t x[8] = {q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]};
  q[0] = x[2] ^ x[3] ^ x[6];
  q[1] = ~(x[3] ^ x[5]);
  q[2] = ~(x[0] ^ x[2] ^ x[3] ^ x[4] ^ x[5] ^ x[6]);
  q[3] = ~(x[0] ^ x[3] ^ x[4] ^ x[5] ^ x[7]);
  q[4] = ~(x[1] ^ x[3] ^ x[4]);
  q[5] = ~(x[1] ^ x[5]);
  q[6] = x[4] ^ x[6];
  q[7] = x[0] ^ x[2] ^ x[3] ^ x[4] ^ x[6];
}

GPUCRYPTO_HD inline void bs_sm4_post(uint32_t (&q)[8]) {
  const uint32_t x[8] = {q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]};
  q[0] = x[3] ^ x[6];
  q[1] = x[1] ^ x[2] ^ x[3];
  q[2] = ~(x[2] ^ x[3] ^ x[6]);
  q[3] = ~(x[0] ^ x[1] ^ x[2] ^ x[6]);
  q[4] = x[0] ^ x[2] ^ x[5] ^ x[6];
  q[5] = ~(x[0] ^ x[2] ^ x[3] ^ x[4]);
  q[6] = ~(x[1] ^ x[3] ^ x[4] ^ x[5] ^ x[7]);
  q[7] = x[0] ^ x[1] ^ x[4] ^ x[6] ^ x[7];
}

GPUCRYPTO_HD inline void bs_sm4_sbox(uint32_t (&q)[8]) {
  bs_sm4_pre(q);
  bs_aes_sbox(q);
  bs_sm4_post(q);
}

// __byte_perm(x, 0, sel) on the host too: output byte i is byte (sel >> 4i) & 7
// of the pair (x, 0), so selectors 4..7 give a zero byte.
GPUCRYPTO_HD inline uint32_t bs_perm(uint32_t x, uint32_t sel) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, 0, sel);
#else
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t s = (sel >> (4 * i)) & 7;
    r |= (s < 4 ? (x >> (8 * s)) & 0xff : 0u) << (8 * i);
  }
  return r;
#endif
}

// Rotation of the 32-bit plane right by 8n bits (byte r takes byte r + n).
GPUCRYPTO_HD inline uint32_t bs_rotr8(uint32_t x, unsigned n) { return rotl32(x, 32 - 8 * n); }

// Round key (already in planes) addition.
GPUCRYPTO_HD inline void bs_add_key(uint32_t (&q)[8], const uint32_t* k) {
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) q[b] ^= k[b];
}

// In the plane layout of the AES and SKINNY kernels, byte r of a plane is
// state row r and bit 4k + c of that byte is column c of block k. Rotating
// row r's columns by r is a rotation inside each nibble of byte r:
//   left  (column c takes column c + r): AES ShiftRows, SKINNY's inverse;
//   right (column c takes column c - r): AES InvShiftRows, SKINNY ShiftRows.
GPUCRYPTO_HD inline uint32_t bs_rows_left(uint32_t x) {
  return (x & 0x000000ffu) | ((x >> 1) & 0x00007700u) | ((x << 3) & 0x00008800u) |
         ((x >> 2) & 0x00330000u) | ((x << 2) & 0x00cc0000u) | ((x >> 3) & 0x11000000u) |
         ((x << 1) & 0xee000000u);
}
GPUCRYPTO_HD inline uint32_t bs_rows_right(uint32_t x) {
  return (x & 0x000000ffu) | ((x << 1) & 0x0000ee00u) | ((x >> 3) & 0x00001100u) |
         ((x >> 2) & 0x00330000u) | ((x << 2) & 0x00cc0000u) | ((x << 3) & 0x88000000u) |
         ((x >> 1) & 0x77000000u);
}

// The two rotations on all eight planes.
GPUCRYPTO_HD inline void bs_rows_left(uint32_t (&q)[8]) {
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) q[b] = bs_rows_left(q[b]);
}
GPUCRYPTO_HD inline void bs_rows_right(uint32_t (&q)[8]) {
  GPUCRYPTO_PRAGMA(unroll)
  for (int b = 0; b < 8; ++b) q[b] = bs_rows_right(q[b]);
}

}  // namespace gpucrypto::gpu::kern
