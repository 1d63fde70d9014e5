// AVX-512 vector-sliced RECTANGLE: a zmm register holds one state row of 32
// blocks in its 16-bit lanes, so SubColumn is a 7-gate vpternlog circuit over
// four registers and ShiftRow is a pair of 16-bit shifts per row, whose OR is
// merged with the next AddRoundKey into one more vpternlog. vpermt2b
// (AVX512-VBMI) converts between the big-endian byte blocks and host-order
// rows. Four 32-block groups are interleaved to hide the latency of the
// round's dependency chain (4 operations of ~2 cycles each on Zen 5). Calls
// (and the rest after whole batches) of fewer than 128 blocks take the
// masked paths of small:: below instead.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ciphers/rectangle/simd.h"
#include "ciphers/rectangle/small_avx512.h"
#include "platform/isa.h"

namespace gpucrypto::rectangle {
namespace {

constexpr size_t kGroupBlocks = 32;  // blocks per row register
constexpr int kGroups = 4;           // groups interleaved in the main loop
constexpr bool kFoldComplements = false;  // see simd_modes.inc
using V = __m512i;

// The round kernels run on zmm rows of 32 blocks (the batches) and on ymm
// rows of 16 (ymm_groups.inc: the calls of 9 … 48 blocks).
template <class W>
GPUCRYPTO_ALWAYS_INLINE W bcast(uint32_t k) {
  if constexpr (sizeof(W) == 64) {
    return _mm512_set1_epi32(int(k));
  } else {
    return _mm256_set1_epi32(int(k));
  }
}
GPUCRYPTO_ALWAYS_INLINE __m512i vxor(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
GPUCRYPTO_ALWAYS_INLINE __m256i vxor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
template <int kImm>
GPUCRYPTO_ALWAYS_INLINE __m512i tern(__m512i a, __m512i b, __m512i c) {
  return _mm512_ternarylogic_epi32(a, b, c, kImm);
}
template <int kImm>
GPUCRYPTO_ALWAYS_INLINE __m256i tern(__m256i a, __m256i b, __m256i c) {
  return _mm256_ternarylogic_epi32(a, b, c, kImm);
}

// (x <<< K) ^ k on 16-bit lanes: the OR of the two shifts and the XOR with
// the key are one vpternlog ((a | b) ^ c = 0x56).
template <int K>
GPUCRYPTO_ALWAYS_INLINE __m512i rotl_xor(__m512i x, __m512i k) {
  return tern<0x56>(_mm512_slli_epi16(x, K), _mm512_srli_epi16(x, 16 - K), k);
}
template <int K>
GPUCRYPTO_ALWAYS_INLINE __m256i rotl_xor(__m256i x, __m256i k) {
  return tern<0x56>(_mm256_slli_epi16(x, K), _mm256_srli_epi16(x, 16 - K), k);
}

#define TERN(a, b, c, imm) tern<imm>(a, b, c)

// S = 6 5 C A 1 E 7 9 B 0 3 D 8 F 4 2 on every column (a0 = row 0 = least
// significant nibble bit). On Zen 5 a vector logic op has ~2 cycles of
// latency, so depth matters more than gate count: this is a depth-2 circuit
// of 7 gates (exhaustive search: depth 2 needs 7; the 6-gate circuits found
// have depth 4 and measured slower). vpternlog
// overwrites its first operand, so each gate lists first an input that dies
// there where one does, sparing register copies.
template <class W>
GPUCRYPTO_ALWAYS_INLINE void sbox(W (&a)[4]) {
  const W g0 = TERN(a[0], a[1], a[2], 0x2c);
  const W g1 = TERN(a[0], a[2], a[3], 0x69);
  const W g2 = TERN(a[1], a[2], a[3], 0x1a);
  const W b2 = TERN(a[2], g0, g2, 0xc9);
  const W b3 = TERN(g2, a[0], g1, 0x78);
  const W b0 = TERN(a[0], a[1], g1, 0x95);
  const W b1 = TERN(a[1], a[3], g1, 0x56);
  a[0] = b0;
  a[1] = b1;
  a[2] = b2;
  a[3] = b3;
}

// S^-1 = 9 4 F A E 1 0 6 C 7 3 8 2 B 5 D, also depth 2 with 7 gates.
template <class W>
GPUCRYPTO_ALWAYS_INLINE void inv_sbox(W (&a)[4]) {
  const W g0 = TERN(a[0], a[1], a[2], 0x3c);
  const W g1 = TERN(a[0], a[2], a[3], 0x36);
  const W g2 = TERN(a[3], a[0], a[2], 0x2e);
  const W b0 = TERN(g0, g1, g2, 0x71);
  const W b3 = TERN(g0, g1, g2, 0x1d);
  const W b1 = TERN(g2, a[0], a[1], 0x96);
  const W b2 = TERN(a[0], a[1], g1, 0x66);
  a[0] = b0;
  a[1] = b1;
  a[2] = b2;
  a[3] = b3;
}

#undef TERN

template <int G, class W>
GPUCRYPTO_ALWAYS_INLINE void encrypt_rows(const SimdRoundKeys* ks, W (&s)[G][4]) {
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) s[g][i] = vxor(s[g][i], bcast<W>(ks->enc[0][i]));
  }
  for (int r = 1; r <= kRounds; ++r) {
    const W k0 = bcast<W>(ks->enc[r][0]), k1 = bcast<W>(ks->enc[r][1]);
    const W k2 = bcast<W>(ks->enc[r][2]), k3 = bcast<W>(ks->enc[r][3]);
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      sbox(s[g]);
      s[g][0] = vxor(s[g][0], k0);
      s[g][1] = rotl_xor<1>(s[g][1], k1);
      s[g][2] = rotl_xor<12>(s[g][2], k2);
      s[g][3] = rotl_xor<13>(s[g][3], k3);
    }
  }
}

template <int G, class W>
GPUCRYPTO_ALWAYS_INLINE void decrypt_rows(const SimdRoundKeys* ks, W (&s)[G][4]) {
  // Inverse ShiftRow rotates right by 1, 12, 13, i.e. left by 15, 4, 3.
  for (int r = kRounds; r >= 1; --r) {
    const W k0 = bcast<W>(ks->dec[r][0]), k1 = bcast<W>(ks->dec[r][1]);
    const W k2 = bcast<W>(ks->dec[r][2]), k3 = bcast<W>(ks->dec[r][3]);
#pragma GCC unroll 4
    for (int g = 0; g < G; ++g) {
      s[g][0] = vxor(s[g][0], k0);
      s[g][1] = rotl_xor<15>(s[g][1], k1);
      s[g][2] = rotl_xor<4>(s[g][2], k2);
      s[g][3] = rotl_xor<3>(s[g][3], k3);
      inv_sbox(s[g]);
    }
  }
#pragma GCC unroll 4
  for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) s[g][i] = vxor(s[g][i], bcast<W>(ks->dec[0][i]));
  }
}

// --- layout conversion -------------------------------------------------------
// Four zmm of 8 blocks each <-> four row registers whose lane w is block w.
// vpermt2b gathers row pairs of 16 blocks with the bytes of each row swapped
// to host order; 128-bit lane shuffles then finish the 4x4 transpose.

struct alignas(64) ByteIdx {
  uint8_t b[64];
};

// Word w of the result: row (row_base + w / 16) of block w % 16 of the
// 128-byte table (two zmm of 8 blocks).
constexpr ByteIdx make_load_idx(int row_base) {
  ByteIdx x{};
  for (int w = 0; w < 32; ++w) {
    const int row = row_base + w / 16, blk = w % 16;
    x.b[2 * w] = uint8_t(blk * 8 + 2 * row + 1);
    x.b[2 * w + 1] = uint8_t(blk * 8 + 2 * row);
  }
  return x;
}

// Inverse: 8 blocks (half h of 16) from P = rows 0,1 and Q = rows 2,3.
constexpr ByteIdx make_store_idx(int half) {
  ByteIdx x{};
  for (int blk = 0; blk < 8; ++blk) {
    for (int t = 0; t < 8; ++t) {
      const int row = t / 2, w = (row % 2) * 16 + 8 * half + blk;
      const int byte = t % 2 == 0 ? 2 * w + 1 : 2 * w;
      x.b[8 * blk + t] = uint8_t((row < 2 ? 0 : 64) + byte);
    }
  }
  return x;
}

// Counter blocks: a little-endian uint64 holds rows R3, R2, R1, R0 as host
// words, so the same gather without the byte swap builds rows from counters.
constexpr ByteIdx kLoadP = make_load_idx(0);
constexpr ByteIdx kLoadQ = make_load_idx(2);
constexpr ByteIdx kStore0 = make_store_idx(0);
constexpr ByteIdx kStore1 = make_store_idx(1);

GPUCRYPTO_ALWAYS_INLINE __m512i idx(const ByteIdx& x) { return _mm512_load_si512(x.b); }

// vshufi64x2. The unmasked intrinsic's "undefined" source trips GCC 12's
// -Wmaybe-uninitialized; an all-ones zero-mask is the same instruction.
template <int kImm>
GPUCRYPTO_ALWAYS_INLINE __m512i shuf128(__m512i a, __m512i b) {
  return _mm512_maskz_shuffle_i64x2(__mmask8(0xff), a, b, kImm);
}

// Four zmm of 8 byte blocks each -> rows.
GPUCRYPTO_ALWAYS_INLINE void blocks_to_rows(const __m512i (&x)[4], __m512i (&r)[4]) {
  const __m512i ip = idx(kLoadP), iq = idx(kLoadQ);
  const __m512i p01 = _mm512_permutex2var_epi8(x[0], ip, x[1]);
  const __m512i q01 = _mm512_permutex2var_epi8(x[0], iq, x[1]);
  const __m512i p23 = _mm512_permutex2var_epi8(x[2], ip, x[3]);
  const __m512i q23 = _mm512_permutex2var_epi8(x[2], iq, x[3]);
  r[0] = shuf128<0x44>(p01, p23);
  r[1] = shuf128<0xee>(p01, p23);
  r[2] = shuf128<0x44>(q01, q23);
  r[3] = shuf128<0xee>(q01, q23);
}

GPUCRYPTO_ALWAYS_INLINE void bytes_to_rows(const uint8_t* in, __m512i (&r)[4]) {
  const __m512i x[4] = {_mm512_loadu_si512(in), _mm512_loadu_si512(in + 64),
                        _mm512_loadu_si512(in + 128), _mm512_loadu_si512(in + 192)};
  blocks_to_rows(x, r);
}

// Rows back to 4 zmm of byte blocks.
GPUCRYPTO_ALWAYS_INLINE void rows_to_blocks(const __m512i (&r)[4], __m512i (&x)[4]) {
  const __m512i p01 = shuf128<0x44>(r[0], r[1]);
  const __m512i p23 = shuf128<0xee>(r[0], r[1]);
  const __m512i q01 = shuf128<0x44>(r[2], r[3]);
  const __m512i q23 = shuf128<0xee>(r[2], r[3]);
  const __m512i i0 = idx(kStore0), i1 = idx(kStore1);
  x[0] = _mm512_permutex2var_epi8(p01, i0, q01);
  x[1] = _mm512_permutex2var_epi8(p01, i1, q01);
  x[2] = _mm512_permutex2var_epi8(p23, i0, q23);
  x[3] = _mm512_permutex2var_epi8(p23, i1, q23);
}

GPUCRYPTO_ALWAYS_INLINE void rows_to_bytes(const __m512i (&r)[4], uint8_t* out) {
  __m512i x[4];
  rows_to_blocks(r, x);
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) _mm512_storeu_si512(out + 64 * i, x[i]);
}

GPUCRYPTO_ALWAYS_INLINE void rows_to_bytes_xor(const __m512i (&r)[4], const uint8_t* in, uint8_t* out) {
  __m512i x[4];
  rows_to_blocks(r, x);
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    _mm512_storeu_si512(out + 64 * i, _mm512_xor_si512(x[i], _mm512_loadu_si512(in + 64 * i)));
  }
}

// --- 49 … 127 blocks: 2, 3 or 4 zmm groups, the buffers byte-masked -------
namespace zmm {

// The bytes of the 8 blocks from `first` on that are among the first n.
GPUCRYPTO_ALWAYS_INLINE __mmask64 bytes_mask(size_t n, size_t first) {
  const size_t k = n <= first ? 0 : n - first;
  return k >= 8 ? ~__mmask64(0) : (__mmask64(1) << (8 * k)) - 1;
}

template <int G, bool kEncrypt>
GPUCRYPTO_ALWAYS_INLINE void ecb_groups(const SimdRoundKeys* ks, const uint8_t* in, uint8_t* out,
                                        size_t n) {
  __mmask64 m[G][4];
  __m512i s[G][4];
  for (int g = 0; g < G; ++g) {
    __m512i x[4];
    for (int i = 0; i < 4; ++i) {
      m[g][i] = bytes_mask(n, kGroupBlocks * g + 8 * i);
      x[i] = _mm512_maskz_loadu_epi8(m[g][i], in + 8 * (kGroupBlocks * g + 8 * i));
    }
    blocks_to_rows(x, s[g]);
  }
  if (kEncrypt) {
    encrypt_rows<G>(ks, s);
  } else {
    decrypt_rows<G>(ks, s);
  }
  for (int g = 0; g < G; ++g) {
    __m512i x[4];
    rows_to_blocks(s[g], x);
    for (int i = 0; i < 4; ++i) {
      _mm512_mask_storeu_epi8(out + 8 * (kGroupBlocks * g + 8 * i), m[g][i], x[i]);
    }
  }
}

// Counter blocks c + j (mod 2^64, full carries), byte swapped to big-endian
// blocks and converted like data.
template <int G>
GPUCRYPTO_ALWAYS_INLINE void ctr_groups(const SimdRoundKeys* ks, uint64_t c, const uint8_t* in,
                                        uint8_t* out, size_t n) {
  const __m512i bswap = _mm512_set_epi64(0x08090a0b0c0d0e0f, 0x0001020304050607, 0x08090a0b0c0d0e0f,
                                         0x0001020304050607, 0x08090a0b0c0d0e0f, 0x0001020304050607,
                                         0x08090a0b0c0d0e0f, 0x0001020304050607);
  const __m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  __m512i s[G][4];
  for (int g = 0; g < G; ++g) {
    __m512i x[4];
    for (int i = 0; i < 4; ++i) {
      const uint64_t first = c + kGroupBlocks * g + 8 * i;
      const __m512i ci = _mm512_add_epi64(_mm512_set1_epi64(int64_t(first)), iota);
      x[i] = _mm512_shuffle_epi8(ci, bswap);
    }
    blocks_to_rows(x, s[g]);
  }
  encrypt_rows<G>(ks, s);
  for (int g = 0; g < G; ++g) {
    __m512i x[4];
    rows_to_blocks(s[g], x);
    for (int i = 0; i < 4; ++i) {
      const size_t off = 8 * (kGroupBlocks * g + 8 * i);
      const __mmask64 m = bytes_mask(n, kGroupBlocks * g + 8 * i);
      const __m512i d = _mm512_maskz_loadu_epi8(m, in + off);
      _mm512_mask_storeu_epi8(out + off, m, _mm512_xor_si512(x[i], d));
    }
  }
}

}  // namespace zmm

#include "ciphers/rectangle/ymm_groups.inc"

// --- calls below a whole batch ---------------------------------------------
// 1 … 8 blocks: one ymm of duplicated rows (small_avx512.h); 9 … 48 blocks:
// up to three masked ymm groups of 16 (ymm_groups.inc); 49 … 127: masked
// zmm groups (above). Crossovers measured with gpucrypto-block-sweep on AMD
// Zen 4: for 1 … 8 blocks the duplicated rows take 59-60 ns, a ymm group
// 62-64; for 33 … 48 three ymm groups take ~145 ns, two zmm groups ~176 (a
// zmm operation costs two ymm ones there).
namespace small {

constexpr size_t kDupBlocks = dup::kGroup;
constexpr int kYmmGroups = 3;
constexpr size_t kYmmBlocks = kYmmGroups * ymm::kGroup;

template <bool kEncrypt>
GPUCRYPTO_ALWAYS_INLINE void ecb(const SimdRoundKeys& ks, const uint8_t* in, uint8_t* out,
                                 size_t nblocks) {
  if (nblocks <= kDupBlocks) return dup::ecb<kEncrypt>(ks, in, out, nblocks);
  if (nblocks <= kYmmBlocks) return ymm::ecb<kYmmGroups, kEncrypt>(ks, in, out, nblocks);
  const size_t groups = (nblocks + kGroupBlocks - 1) / kGroupBlocks;
  with_groups<kGroups>(groups, [&](auto g) GPUCRYPTO_INLINE_LAMBDA {
    zmm::ecb_groups<decltype(g)::value, kEncrypt>(&ks, in, out, nblocks);
  });
}

GPUCRYPTO_ALWAYS_INLINE void ctr(const SimdRoundKeys& ks, uint64_t c, const uint8_t* in,
                                 uint8_t* out, size_t nblocks) {
  if (nblocks <= kDupBlocks) return dup::ctr(ks, c, in, out, nblocks);
  if (nblocks <= kYmmBlocks) return ymm::ctr<kYmmGroups>(ks, c, in, out, nblocks);
  const size_t groups = (nblocks + kGroupBlocks - 1) / kGroupBlocks;
  with_groups<kGroups>(groups, [&](auto g) GPUCRYPTO_INLINE_LAMBDA {
    zmm::ctr_groups<decltype(g)::value>(&ks, c, in, out, nblocks);
  });
}

}  // namespace small

// --- CTR (the wrap check and its fallback: simd_modes.inc) -----------------

// The block index of each 16-bit lane after bytes_to_rows.
GPUCRYPTO_ALWAYS_INLINE V lane_blocks() {
  return _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                          13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
}
GPUCRYPTO_ALWAYS_INLINE V bcast16(uint64_t x) { return _mm512_set1_epi16(short(x)); }
GPUCRYPTO_ALWAYS_INLINE V add16(V a, V b) { return _mm512_add_epi16(a, b); }

#include "ciphers/rectangle/simd_modes.inc"

}  // namespace

constinit const CipherHw avx512::kHw = simd_hw("avx512");

}  // namespace gpucrypto::rectangle
