// What the Rijndael SIMD files (aesni.cpp, vaes512.cpp, wide_aesni.cpp,
// wide_vaes512.cpp) share: the dispatch of a key schedule's shape to the
// kernel compiled for it (the hooks themselves: simd_hooks.inc), and the
// wide-block ShiftRows mapping. ISA files
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

// Calls run.template operator()<Nb, Nr>() for the schedule's shape when it is
// one of kShapes, else other(). The shape is public (it follows from the
// algorithm).
template <class Run, class Other, unsigned... kShapes>
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
