// What the Rijndael SIMD files (aesni.cpp, vaes512.cpp, wide_aesni.cpp,
// wide_vaes512.cpp) share: the dispatch of a key schedule's shape to the
// kernel compiled for it, and the wide-block ShiftRows mapping. ISA files
// only (platform/isa.h: anonymous namespace, one copy per file).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"
#include "ciphers/rijndael/internal.h"
#include "platform/isa.h"

namespace gpucrypto::rijndael_impl {
namespace {

// A schedule's shape, 100 * Nb + Nr (AES-128: 410, Rijndael-256-256: 814).
template <unsigned... kShapes>
struct Shapes {};

// A kernel K provides `using Shapes = Shapes<...>` (the shapes it is compiled
// for) and
//   template <int Nb, int Nr, bool kDecrypt> static void ecb(ks, in, out, n);
//   template <int Nb, int Nr> static void ctr(ks, ctr, in, out, n);
// Other schedules (Nk = 5, 7: test-only) run on the reference. The shape is
// public (it follows from the algorithm).
template <class K, class Run, class Other, unsigned... kShapes>
GPUCRYPTO_ALWAYS_INLINE void on_shape(const KeySched* ks, Shapes<kShapes...>, Run&& run,
                                      Other&& other) {
  // AES kernels (one Nb) only need to look at Nr.
  constexpr unsigned kFirst[] = {kShapes...};
  constexpr bool kOneNb = ((kShapes / 100 == kFirst[0] / 100) && ...);
  const unsigned key = kOneNb ? ks->nr : 100 * ks->nb + ks->nr;
  const bool found = ((key == (kOneNb ? kShapes % 100 : kShapes) &&
                       (run.template operator()<kShapes / 100, kShapes % 100>(), true)) ||
                      ...);
  if (!found) other();
}

template <class K, bool kDecrypt>
void simd_ecb(const void* vks, const uint8_t* in, uint8_t* out, size_t n) {
  const KeySched* ks = static_cast<const KeySched*>(vks);
  on_shape<K>(
      ks, typename K::Shapes{},
      [&]<int Nb, int Nr>() GPUCRYPTO_INLINE_LAMBDA { K::template ecb<Nb, Nr, kDecrypt>(ks, in, out, n); },
      [&]() GPUCRYPTO_INLINE_LAMBDA {
        kDecrypt ? ref_decrypt(vks, in, out, n) : ref_encrypt(vks, in, out, n);
      });
}

template <class K>
void simd_ctr(const void* vks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  const KeySched* ks = static_cast<const KeySched*>(vks);
  on_shape<K>(
      ks, typename K::Shapes{},
      [&]<int Nb, int Nr>() GPUCRYPTO_INLINE_LAMBDA { K::template ctr<Nb, Nr>(ks, ctr_block, in, out, n); },
      [&]() GPUCRYPTO_INLINE_LAMBDA { ref_ctr(vks, ctr_block, in, out, n); });
}

// --- wide blocks (Nb = 6, 8): ShiftRows on AESENC -------------------------
// See wide_vaes512.cpp for the mapping: a Rijndael round is AESENC(P(x), k)
// on each 128-bit half of the state, P = ShiftRows_aes^-1 ∘ ShiftRows_Nb
// (decryption: Q = InvShiftRows_aes^-1 ∘ InvShiftRows_Nb).

// Rijndael's row offsets C_r: 1, 2, 3 for Nb = 6; 1, 3, 4 for Nb = 8.
constexpr unsigned row_offset(int nb, unsigned r) {
  return r == 0 ? 0 : nb == 8 ? (r == 1 ? 1 : r + 1) : r;
}

// Position q (0..31) of a half: row r = q % 4, column q / 4 in lane L with
// lane column c'. The AES (Inv)ShiftRows reads Y[q] from lane column
// (c' + r) mod 4 (enc) or (c' - r) mod 4 (dec), so Y[q] must hold the byte the
// Rijndael (Inv)ShiftRows wants at the position inverse to that read.
constexpr unsigned perm_source(int nb, bool dec, unsigned q) {
  const unsigned r = q % 4, col = q / 4, lane = col / 4, cl = col % 4;
  const unsigned target = 4 * lane + (dec ? (cl + r) % 4 : (cl + 4 - r) % 4);
  if (target >= unsigned(nb)) return q;  // spare column of Nb = 6: unused
  const unsigned n = unsigned(nb), c = row_offset(nb, r);
  const unsigned src = dec ? (target + n - c) % n : (target + c) % n;
  return r + 4 * src;
}

}  // namespace
}  // namespace gpucrypto::rijndael_impl
