// SKINNY-128 for a few blocks on AVX-512 + GFNI (the small-call path of
// avx512_gfni.cpp): four blocks per zmm register, one per 128-bit lane, each
// lane laid out as the block's bytes (row i = dword i, column k = byte k), so
// blocks load and store as they are.
//
// S-box: the published circuit is four NOR-XOR layers with bit permutations
// between them. The permutations are never executed: the code tracks which
// physical bit holds each logical bit and builds, at compile time, the
// gf2p8affineqb bit matrices that gather each layer's two NOR inputs into
// the positions they flip (the other positions get 0 and 1, so the NOR is 0
// there); one vpternlog then applies the layer (s ^ ~(a | b)). The last
// layer also gathers every bit back to its logical place. Per layer: two
// (last: three) independent affines and one ternlog, ~4 cycles of latency,
// against ~10 for the shift-and-mask circuit of small_blocks.h.
//
// Linear layer: ShiftRows and MixColumns' row moves are three byte shuffles
// of the same input (zeroing where MixColumns adds nothing) and one XOR3.
//
// Table-free, no data-dependent branch or index: gf2p8affineqb, vpternlog and
// vpshufb (with constant indices) take the same time for every value. Up to
// kGroupRegs registers run interleaved so their dependency chains overlap.
// ISA files only (platform/isa.h: anonymous namespace, one copy per file).
#pragma once
#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ciphers/skinny/ref.h"
#include "platform/isa.h"

namespace gpucrypto::skinny_impl {
namespace {
namespace small {

using V = __m512i;

// --- compile-time construction of the S-box layers ---------------------------

// A bit map per output bit: the input bit it copies, or -1 for none.
using BitMap = std::array<int, 8>;

// gf2p8affineqb's matrix: output bit i is the parity of (matrix byte 7-i &
// input byte), so copying input bit src[i] sets bit src[i] of byte 7-i.
consteval uint64_t affine_matrix(const BitMap& src) {
  uint64_t m = 0;
  for (int i = 0; i < 8; ++i)
    if (src[i] >= 0) m |= uint64_t{1} << (8 * (7 - i) + src[i]);
  return m;
}

// One NOR-XOR layer in physical coordinates: s' = u ^ ~(a | b) where
// u = U·s (identity for all but the last layer), a = A·s, b = B·s ^ b_const.
struct Layer {
  uint64_t u;  // 0: u is s itself
  uint64_t a, b;
  uint8_t b_const;
};

// The S-box as a sequence of steps: a bit permutation (new logical bit i =
// old logical bit p[i]) or a NOR-XOR layer (logical x4 ^= ~(x7|x6),
// x0 ^= ~(x3|x2)), exactly as ref.cpp evaluates it.
struct Step {
  bool nor_xor;
  BitMap p;
};
constexpr BitMap kPerm = {5, 3, 0, 4, 6, 7, 1, 2};
consteval BitMap inverse(const BitMap& p) {
  BitMap q{};
  for (int i = 0; i < 8; ++i) q[p[i]] = i;
  return q;
}
constexpr BitMap kPermInv = inverse(kPerm);
constexpr BitMap kSwap12 = {0, 2, 1, 3, 4, 5, 6, 7};
constexpr Step kNX = {true, {}};

constexpr std::array<Step, 8> kSboxSteps = {kNX, Step{false, kPerm}, kNX, Step{false, kPerm},
                                            kNX, Step{false, kPerm}, kNX, Step{false, kSwap12}};
constexpr std::array<Step, 8> kSboxInvSteps = {Step{false, kSwap12}, kNX, Step{false, kPermInv},
                                               kNX, Step{false, kPermInv}, kNX,
                                               Step{false, kPermInv}, kNX};

consteval std::array<Layer, 4> build_layers(const std::array<Step, 8>& steps) {
  std::array<Layer, 4> out{};
  BitMap m = {0, 1, 2, 3, 4, 5, 6, 7};  // m[j]: physical bit holding logical bit j
  BitMap a{}, b{};
  uint8_t b_const = 0;
  int n = 0;
  for (const Step& st : steps) {
    if (!st.nor_xor) {
      BitMap next{};
      for (int i = 0; i < 8; ++i) next[i] = m[st.p[i]];
      m = next;
      continue;
    }
    a.fill(-1);
    b.fill(-1);
    a[m[4]] = m[6];
    a[m[0]] = m[2];
    b[m[4]] = m[7];
    b[m[0]] = m[3];
    b_const = uint8_t(~((1u << m[4]) | (1u << m[0])));
    out[n++] = Layer{0, affine_matrix(a), affine_matrix(b), b_const};
  }
  // Fold the final gather into the last layer: z_i = s'[m[i]] with
  // s' = s ^ ~(a | b), i.e. z = U·s ^ ~(U·a | U·b).
  BitMap u{}, ua{}, ub{};
  uint8_t ub_const = 0;
  for (int i = 0; i < 8; ++i) {
    u[i] = m[i];
    ua[i] = a[m[i]];
    ub[i] = b[m[i]];
    if ((b_const >> m[i]) & 1) ub_const |= uint8_t(1u << i);
  }
  out[3] = Layer{affine_matrix(u), affine_matrix(ua), affine_matrix(ub), ub_const};
  return out;
}
constexpr std::array<Layer, 4> kSboxLayers = build_layers(kSboxSteps);
constexpr std::array<Layer, 4> kSboxInvLayers = build_layers(kSboxInvSteps);

constexpr int kNorXorImm = 0xe1;  // vpternlog: a ^ ~(b | c)
constexpr int kXor3Imm = 0x96;    // a ^ b ^ c

// x -> M·x ^ C in every byte. The matrix and the constant are template
// parameters because gf2p8affineqb's constant is an instruction immediate:
// at -O0 GCC's intrinsic is a macro around the builtin, which accepts only an
// integer constant expression as written at the call (a member of a local
// constexpr object is not folded there), so the value must arrive as one.
template <uint64_t M, uint8_t C>
GPUCRYPTO_ALWAYS_INLINE V affine(V s) {
  return _mm512_gf2p8affine_epi64_epi8(s, _mm512_set1_epi64(int64_t(M)), C);
}

template <std::array<Layer, 4> L, int I>
GPUCRYPTO_ALWAYS_INLINE V layer(V s) {
  constexpr Layer l = L[I];
  const V a = affine<l.a, 0>(s);
  const V b = affine<l.b, l.b_const>(s);
  if constexpr (l.u != 0) s = affine<l.u, 0>(s);
  return _mm512_ternarylogic_epi64(s, a, b, kNorXorImm);
}
template <std::array<Layer, 4> L>
GPUCRYPTO_ALWAYS_INLINE V sbox_layers(V s) {
  return layer<L, 3>(layer<L, 2>(layer<L, 1>(layer<L, 0>(s))));
}

// --- linear layer: byte shuffles built from the row moves --------------------

using Shuffle = std::array<int, 16>;                           // dst byte -> src byte
constexpr Shuffle kShiftRows = {0, 1, 2, 3, 7, 4, 5, 6, 10, 11, 8, 9, 13, 14, 15, 12};
constexpr Shuffle kShiftRowsInv = {0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14};
constexpr Shuffle kIdentity = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

// A vpshufb control (per 128-bit lane, 0x80 = zero) for
//   after(rows[sel]) of before(x):  dst row D = before(x) row sel[D] (-1: zero),
// then the byte shuffle `after` on the result.
consteval Shuffle row_move(const Shuffle& before, const std::array<int, 4>& sel,
                           const Shuffle& after) {
  Shuffle moved{};
  for (int j = 0; j < 16; ++j) {
    const int src_row = sel[j / 4];
    moved[j] = src_row < 0 ? -1 : before[4 * src_row + j % 4];
  }
  Shuffle out{};
  for (int j = 0; j < 16; ++j) out[j] = moved[after[j]];
  return out;
}
struct alignas(16) ShuffleBytes {
  int8_t b[16];
};
constexpr ShuffleBytes pshufb_control(const Shuffle& s) {
  ShuffleBytes c{};
  for (int j = 0; j < 16; ++j) c.b[j] = int8_t(s[j] < 0 ? -128 : s[j]);
  return c;
}
// A namespace-scope constant (clang 14 rejects the same as a function-local
// static constexpr).
template <Shuffle S>
inline constexpr ShuffleBytes kControl = pshufb_control(S);
template <Shuffle S>
GPUCRYPTO_ALWAYS_INLINE V shuffle(V x) {
  return _mm512_shuffle_epi8(
      x, _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(kControl<S>.b))));
}

// Encryption: rows (a, b, c, d) after ShiftRows -> (a^c^d, a, b^c, a^c).
constexpr Shuffle kEncP = row_move(kShiftRows, {0, 0, 1, 0}, kIdentity);
constexpr Shuffle kEncQ = row_move(kShiftRows, {2, -1, 2, 2}, kIdentity);
constexpr Shuffle kEncW = row_move(kShiftRows, {3, -1, -1, -1}, kIdentity);
// Decryption: rows (r0..r3) -> (r1, r1^r2^r3, r1^r3, r0^r3), then ShiftRows⁻¹.
constexpr Shuffle kDecP = row_move(kIdentity, {1, 2, 3, 0}, kShiftRowsInv);
constexpr Shuffle kDecQ = row_move(kIdentity, {-1, 3, 1, 3}, kShiftRowsInv);
constexpr Shuffle kDecW = row_move(kIdentity, {-1, 1, -1, -1}, kShiftRowsInv);

template <Shuffle P, Shuffle Q, Shuffle W>
GPUCRYPTO_ALWAYS_INLINE V linear(V x) {
  return _mm512_ternarylogic_epi64(shuffle<P>(x), shuffle<Q>(x), shuffle<W>(x), kXor3Imm);
}

// Round r's tweakey on rows 0 and 1 (the schedule's byte form) and the
// constant c2 = 0x02 on cell 8, in every lane: one merge-masked broadcast.
GPUCRYPTO_ALWAYS_INLINE V round_key(const Schedule& ks, uint32_t r) {
  const V c2 = _mm512_set_epi64(2, 0, 2, 0, 2, 0, 2, 0);
  uint64_t rows01;
  std::memcpy(&rows01, ks.rtk[r], 8);
  return _mm512_mask_set1_epi64(c2, 0x55, int64_t(rows01));
}

template <int K>
GPUCRYPTO_ALWAYS_INLINE void encrypt_k(const Schedule& ks, V (&x)[K]) {
  for (uint32_t r = 0; r < ks.rounds; ++r) {
    const V rk = round_key(ks, r);
#pragma GCC unroll 8
    for (int j = 0; j < K; ++j)
      x[j] = linear<kEncP, kEncQ, kEncW>(_mm512_xor_si512(sbox_layers<kSboxLayers>(x[j]), rk));
  }
}
template <int K>
GPUCRYPTO_ALWAYS_INLINE void decrypt_k(const Schedule& ks, V (&x)[K]) {
  for (uint32_t r = ks.rounds; r-- > 0;) {
    const V rk = round_key(ks, r);
#pragma GCC unroll 8
    for (int j = 0; j < K; ++j)
      x[j] = sbox_layers<kSboxInvLayers>(_mm512_xor_si512(linear<kDecP, kDecQ, kDecW>(x[j]), rk));
  }
}

// --- drivers -------------------------------------------------------------------

constexpr size_t kLaneBlocks = 4;  // blocks per zmm
constexpr int kGroupRegs = 4;      // registers interleaved per group
constexpr size_t kGroupBlocks = kLaneBlocks * kGroupRegs;

// Below this many blocks the hooks take this path (gpucrypto-block-sweep on
// a Zen 4: one register costs ~420 ns, four ~740 ns, a 64-block AVX2 batch
// ~860 ns; from 17 blocks on a second group would cost more than the batch).
constexpr size_t kSmallBlocks = kGroupBlocks + 1;

// Byte mask of register j's blocks among the first n of a group.
GPUCRYPTO_ALWAYS_INLINE __mmask64 reg_mask(size_t n, int j) {
  const size_t first = kLaneBlocks * size_t(j);
  if (n >= first + kLaneBlocks) return ~__mmask64{0};
  return n <= first ? 0 : (__mmask64{1} << (16 * (n - first))) - 1;
}

// n (1..kGroupBlocks) blocks in K = ceil(n / 4) registers. `ctr_in`: CTR,
// `src` holds the counter blocks and `in` the data to XOR.
template <int K, bool kEncrypt, bool kCtr>
GPUCRYPTO_ALWAYS_INLINE void group(const Schedule& ks, const uint8_t* src, const uint8_t* in,
                                   uint8_t* out, size_t n) {
  V x[K];
  for (int j = 0; j < K; ++j) x[j] = _mm512_maskz_loadu_epi8(reg_mask(n, j), src + 64 * j);
  if constexpr (kEncrypt) {
    encrypt_k<K>(ks, x);
  } else {
    decrypt_k<K>(ks, x);
  }
  for (int j = 0; j < K; ++j) {
    const __mmask64 m = reg_mask(n, j);
    if constexpr (kCtr) x[j] = _mm512_xor_si512(x[j], _mm512_maskz_loadu_epi8(m, in + 64 * j));
    _mm512_mask_storeu_epi8(out + 64 * j, m, x[j]);
  }
}

template <bool kEncrypt, bool kCtr>
GPUCRYPTO_ALWAYS_INLINE void run_group(const Schedule& ks, const uint8_t* src, const uint8_t* in,
                                       uint8_t* out, size_t n) {
  switch ((n + kLaneBlocks - 1) / kLaneBlocks) {
    case 1: return group<1, kEncrypt, kCtr>(ks, src, in, out, n);
    case 2: return group<2, kEncrypt, kCtr>(ks, src, in, out, n);
    case 3: return group<3, kEncrypt, kCtr>(ks, src, in, out, n);
    default: return group<4, kEncrypt, kCtr>(ks, src, in, out, n);
  }
}

template <bool kEncrypt>
GPUCRYPTO_ALWAYS_INLINE void ecb(const Schedule& ks, const uint8_t* in, uint8_t* out,
                                 size_t nblocks) {
  for (; nblocks > 0;) {
    const size_t n = nblocks < kGroupBlocks ? nblocks : kGroupBlocks;
    run_group<kEncrypt, false>(ks, in, nullptr, out, n);
    in += 16 * n;
    out += 16 * n;
    nblocks -= n;
  }
}

// CTR: the counter blocks (public) are written to a stack buffer and
// encrypted in registers; the keystream is XORed in registers, never stored.
GPUCRYPTO_ALWAYS_INLINE void ctr(const Schedule& ks, uint8_t* ctr, const uint8_t* in,
                                 uint8_t* out, size_t nblocks) {
  alignas(64) uint8_t counters[16 * kGroupBlocks];
  for (; nblocks > 0;) {
    const size_t n = nblocks < kGroupBlocks ? nblocks : kGroupBlocks;
    const u128 first = load_be128(ctr);
    for (size_t i = 0; i < n; ++i) store_be128(counters + 16 * i, first + i);  // mod 2^128
    store_be128(ctr, first + n);
    run_group<true, true>(ks, counters, in, out, n);
    in += 16 * n;
    out += 16 * n;
    nblocks -= n;
  }
}

}  // namespace small
}  // namespace
}  // namespace gpucrypto::skinny_impl
