// SM4 with AVX-512 + GFNI: 64 blocks per iteration as four interleaved sets
// of 16. Each set is four zmm registers; after a 4x4 dword transpose inside
// every 128-bit lane, register j holds word j of all 16 blocks, so a round is
// a handful of whole-register operations:
//  * S-box: gf2p8affineqb then gf2p8affineinvqb, with SM4's affine maps and
//    the field isomorphism to AES's polynomial folded into the matrices
//    (sbox_consts.h).
//  * L: vprold by 2, 10, 18, 24 and vpternlogd.
// A partial batch runs only the sets it needs, with masked loads/stores; CTR
// builds the transposed counter words directly in registers with an exact
// 128-bit carry chain. Four sets in flight measured best on Zen 5 (two: 3.4,
// three: 4.7, four: 6.0 GB/s; six and eight spill).

// GCC 12's AVX-512 headers self-initialise an "undefined" vector
// (_mm512_undefined_epi32: __Y = __Y), which -Wmaybe-uninitialized reports
// once inlined; the value is never used. Must precede the include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "ciphers/sm4/ref.h"
#include "ciphers/sm4/gfni_domain.h"
#include "ciphers/sm4/sbox_consts.h"
#include "platform/isa.h"

namespace gpucrypto::sm4_impl {
namespace {

GPUCRYPTO_ALWAYS_INLINE __m512i sbox(__m512i x) {
  const __m512i pre = _mm512_set1_epi64(int64_t(kGfniPreMatrix));
  const __m512i post = _mm512_set1_epi64(int64_t(kGfniPostMatrix));
  x = _mm512_gf2p8affine_epi64_epi8(x, pre, kGfniPreConst);
  return _mm512_gf2p8affineinv_epi64_epi8(x, post, kGfniPostConst);
}

constexpr int kXor3 = 0x96;  // vpternlogd truth table of a ^ b ^ c

GPUCRYPTO_ALWAYS_INLINE __m512i xor3(__m512i a, __m512i b, __m512i c) {
  return _mm512_ternarylogic_epi32(a, b, c, kXor3);
}

// q ^ L(s): the rotations in parallel, then two ternlog levels.
GPUCRYPTO_ALWAYS_INLINE __m512i lx(__m512i s, __m512i q) {
  const __m512i u = xor3(q, s, _mm512_rol_epi32(s, 2));
  const __m512i v = xor3(_mm512_rol_epi32(s, 10), _mm512_rol_epi32(s, 18),
                         _mm512_rol_epi32(s, 24));
  return _mm512_xor_si512(u, v);
}

// x ^ L(S(a ^ b ^ c ^ rk)); c is the word written by the previous round, so
// a ^ b ^ rk is off the critical path.
GPUCRYPTO_ALWAYS_INLINE __m512i round(__m512i x, __m512i a, __m512i b, __m512i c, __m512i rk) {
  return lx(sbox(_mm512_xor_si512(xor3(a, b, rk), c)), x);
}

using V = __m512i;
GPUCRYPTO_ALWAYS_INLINE V vxor(V a, V b) { return _mm512_xor_si512(a, b); }
GPUCRYPTO_ALWAYS_INLINE V bcast32(uint32_t w) { return _mm512_set1_epi32(int(w)); }

struct Set {
  __m512i x0, x1, x2, x3;
};

// 4x4 dword transpose inside each 128-bit lane (its own inverse).
GPUCRYPTO_ALWAYS_INLINE void transpose(__m512i& a, __m512i& b, __m512i& c, __m512i& d) {
  const __m512i t0 = _mm512_unpacklo_epi32(a, b), t1 = _mm512_unpackhi_epi32(a, b);
  const __m512i t2 = _mm512_unpacklo_epi32(c, d), t3 = _mm512_unpackhi_epi32(c, d);
  a = _mm512_unpacklo_epi64(t0, t2);
  b = _mm512_unpackhi_epi64(t0, t2);
  c = _mm512_unpacklo_epi64(t1, t3);
  d = _mm512_unpackhi_epi64(t1, t3);
}

GPUCRYPTO_ALWAYS_INLINE __m512i bswap32(__m512i x) {
  const __m512i m = _mm512_broadcast_i32x4(
      _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
  return _mm512_shuffle_epi8(x, m);
}

// Masks for a 16-block set holding `n` (1..16) blocks: register j covers
// blocks 4j..4j+3, four dwords each. n is public (a length).
GPUCRYPTO_ALWAYS_INLINE __mmask16 reg_mask(size_t n, int j) {
  const size_t have = n > size_t(4 * j) ? n - size_t(4 * j) : 0;
  return have >= 4 ? __mmask16(0xffff) : __mmask16((1u << (4 * have)) - 1);
}

// Register j of a set's first n blocks as they are in memory. kBack: the
// blocks one back (CBC/CFB decryption's chaining operand): block k of the
// register is in[4j+k-1]; block -1 is `prev` in the set that starts a batch
// (`first`: the block before may already be overwritten, or not ours), else
// the memory before the set. Only blocks < n count (the rest is masked).
template <bool kBack>
GPUCRYPTO_ALWAYS_INLINE __m512i load_raw(const uint8_t* in, size_t n, int j, bool first, __m128i prev) {
  const __mmask16 m = reg_mask(n, j);
  if (!kBack) return _mm512_maskz_loadu_epi32(m, in + 64 * j);
  if (j == 0 && first) {  // (prev, in[0], in[1], in[2])
    return _mm512_alignr_epi32(_mm512_maskz_loadu_epi32(m, in), _mm512_broadcast_i32x4(prev), 12);
  }
  return _mm512_maskz_loadu_epi32(m, in + (64 * j - 16));
}

template <bool kBack = false>
GPUCRYPTO_ALWAYS_INLINE Set load_set(const uint8_t* in, size_t n, bool first = false,
                                     __m128i prev = __m128i{}) {
  Set s;
  s.x0 = bswap32(load_raw<kBack>(in, n, 0, first, prev));
  s.x1 = bswap32(load_raw<kBack>(in, n, 1, first, prev));
  s.x2 = bswap32(load_raw<kBack>(in, n, 2, first, prev));
  s.x3 = bswap32(load_raw<kBack>(in, n, 3, first, prev));
  transpose(s.x0, s.x1, s.x2, s.x3);
  return s;
}

// The output block is (X35, X34, X33, X32): words in reverse order. Stores
// the first n blocks, XORed with `in` when it is not null (CTR, CFB) or,
// kBack, with the blocks one back (CBC; as load_raw). The last register
// first: with in == out, register j's operand reaches into register j-1's
// blocks, which must still hold the ciphertext.
template <bool kBack = false>
GPUCRYPTO_ALWAYS_INLINE void store_set(Set s, const uint8_t* in, uint8_t* out, size_t n,
                                       bool first = false, __m128i prev = __m128i{}) {
  transpose(s.x3, s.x2, s.x1, s.x0);
  __m512i v[4] = {bswap32(s.x3), bswap32(s.x2), bswap32(s.x1), bswap32(s.x0)};
  for (int j = 3; j >= 0; --j) {
    if (in != nullptr) v[j] = _mm512_xor_si512(v[j], load_raw<kBack>(in, n, j, first, prev));
    _mm512_mask_storeu_epi32(out + 64 * j, reg_mask(n, j), v[j]);
  }
}

// Counter blocks base + k for the 16 blocks of a set, already transposed:
// dword 4l+m of register j is word j of block 4m+l (see transpose). The carry
// runs through all four words, so any base is exact (mod 2^128).
GPUCRYPTO_ALWAYS_INLINE Set counter_set(u128 base) {
  const __m512i idx = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512();
  Set s;
  s.x3 = _mm512_add_epi32(_mm512_set1_epi32(int(uint32_t(base))), idx);
  __mmask16 c = _mm512_cmplt_epu32_mask(s.x3, idx);
  s.x2 = _mm512_set1_epi32(int(uint32_t(base >> 32)));
  s.x2 = _mm512_mask_add_epi32(s.x2, c, s.x2, one);
  c = _mm512_mask_cmpeq_epi32_mask(c, s.x2, zero);
  s.x1 = _mm512_set1_epi32(int(uint32_t(base >> 64)));
  s.x1 = _mm512_mask_add_epi32(s.x1, c, s.x1, one);
  c = _mm512_mask_cmpeq_epi32_mask(c, s.x1, zero);
  s.x0 = _mm512_set1_epi32(int(uint32_t(base >> 96)));
  s.x0 = _mm512_mask_add_epi32(s.x0, c, s.x0, one);
  return s;
}

constexpr size_t kSetBlocks = 16;
constexpr int kSets = 4;  // sets in flight (see the top of the file)

#include "ciphers/sm4/sets_driver.inc"

// --- one block at a time: the sequential chained modes --------------------------
// CBC/CFB encryption and OFB cannot batch blocks. One block lives as its four
// words in lane 0 of four xmm registers (no transposes), the rounds carry
// the next S-box input as rounds_one_set does, and the chaining value stays
// in registers from block to block.

using X = __m128i;

GPUCRYPTO_ALWAYS_INLINE X rk1(uint32_t k) { return _mm_cvtsi32_si128(int(k)); }

// 32 rounds on the words w[0..3] = X0..X3; leaves the output words in block
// order (X35, X34, X33, X32). The state runs in the S-box's input domain
// (ciphers/sm4/gfni_domain.h): a round's critical path is one
// gf2p8affineinvqb, one byte rotation and two ternary-logic levels, instead of
// gf2p8affineqb, gf2p8affineinvqb and L's rotate-and-XOR tree, and a round
// issues three rotations. The round keys enter the domain off the path (their
// affine maps do not wait for the state).
namespace gd = gfni_domain;

GPUCRYPTO_ALWAYS_INLINE X to_domain(X v) {
  return _mm_gf2p8affine_epi64_epi8(v, _mm_set1_epi64x(int64_t(gd::kA)), 0);
}
GPUCRYPTO_ALWAYS_INLINE X from_domain(X v) {
  return _mm_gf2p8affine_epi64_epi8(v, _mm_set1_epi64x(int64_t(gd::kAInv)), 0);
}
GPUCRYPTO_ALWAYS_INLINE X rk_domain(uint32_t k) {  // A rk ^ c
  return _mm_gf2p8affine_epi64_epi8(rk1(k), _mm_set1_epi64x(int64_t(gd::kA)), kGfniPreConst);
}

GPUCRYPTO_ALWAYS_INLINE void rounds1(const uint32_t* rk, X (&w)[4]) {
  X x[4] = {to_domain(w[0]), to_domain(w[1]), to_domain(w[2]), to_domain(w[3])};  // x[i % 4] = X'[i]
  X y = _mm_ternarylogic_epi32(x[1], x[2], _mm_xor_si128(x[3], rk_domain(rk[0])), kXor3);
#pragma GCC unroll 32
  for (int i = 0; i < 32; ++i) {
    // A L(s) = f ^ rol8(g) ^ rol16(g) ^ rol24(h) for s = S(t_i), from y = A t_i ^ c:
    // three S-box images with the rotations' byte terms grouped (gfni_domain.h).
    const X f = _mm_gf2p8affineinv_epi64_epi8(y, _mm_set1_epi64x(int64_t(gd::kF)), gd::kFConst);
    const X g = _mm_gf2p8affineinv_epi64_epi8(y, _mm_set1_epi64x(int64_t(gd::kG)), gd::kGConst);
    const X h = _mm_gf2p8affineinv_epi64_epi8(y, _mm_set1_epi64x(int64_t(gd::kH)), gd::kHConst);
    const X t = _mm_ternarylogic_epi32(_mm_rol_epi32(g, 8), _mm_rol_epi32(g, 16), _mm_rol_epi32(h, 24), kXor3);
    if (i < 31) {
      // R = X'[i+2] ^ X'[i+3] ^ rk'[i+1], known early; the next S-box input is
      // y' = X'[i] ^ R ^ A L(s), and X'[i+4] = y' ^ R.
      const X r = _mm_ternarylogic_epi32(x[(i + 2) % 4], x[(i + 3) % 4], rk_domain(rk[i + 1]), kXor3);
      y = _mm_ternarylogic_epi32(f, t, _mm_xor_si128(x[i % 4], r), kXor3);
      x[i % 4] = _mm_xor_si128(y, r);
    } else {
      x[3] = _mm_ternarylogic_epi32(f, t, x[3], kXor3);
    }
  }
  w[0] = from_domain(x[3]);
  w[1] = from_domain(x[2]);
  w[2] = from_domain(x[1]);
  w[3] = from_domain(x[0]);
}

GPUCRYPTO_ALWAYS_INLINE X bswap32x(X v) {
  return _mm_shuffle_epi8(v, _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
}
GPUCRYPTO_ALWAYS_INLINE X load_block(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const X*>(p)); }
GPUCRYPTO_ALWAYS_INLINE void store_block(uint8_t* p, X v) { _mm_storeu_si128(reinterpret_cast<X*>(p), v); }
// A block (as in memory) as its words in lane 0 of w[0..3], and back.
GPUCRYPTO_ALWAYS_INLINE void to_words(X block, X (&w)[4]) {
  const X v = bswap32x(block);
  w[0] = v;
  w[1] = _mm_shuffle_epi32(v, 1);
  w[2] = _mm_shuffle_epi32(v, 2);
  w[3] = _mm_shuffle_epi32(v, 3);
}
GPUCRYPTO_ALWAYS_INLINE X from_words(const X (&w)[4]) {
  return bswap32x(_mm_unpacklo_epi64(_mm_unpacklo_epi32(w[0], w[1]), _mm_unpacklo_epi32(w[2], w[3])));
}
GPUCRYPTO_ALWAYS_INLINE void to_words(const uint8_t* p, X (&w)[4]) { to_words(load_block(p), w); }
GPUCRYPTO_ALWAYS_INLINE void store_words(uint8_t* p, const X (&w)[4]) { store_block(p, from_words(w)); }

enum class Chain { kCbcEncrypt, kCfbEncrypt, kOfb };

template <Chain C>
void chain(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  const uint32_t* rk = static_cast<const Schedule*>(ks)->enc;
  X r[4];
  to_words(reg, r);
  for (; n > 0; --n, in += 16, out += 16) {
    X p[4], w[4];
    to_words(in, p);
    for (int j = 0; j < 4; ++j) w[j] = C == Chain::kCbcEncrypt ? _mm_xor_si128(r[j], p[j]) : r[j];
    rounds1(rk, w);
    for (int j = 0; j < 4; ++j) r[j] = C == Chain::kCfbEncrypt ? _mm_xor_si128(w[j], p[j]) : w[j];
    if constexpr (C == Chain::kOfb) {
      for (int j = 0; j < 4; ++j) w[j] = _mm_xor_si128(w[j], p[j]);
      store_words(out, w);
    } else {
      store_words(out, r);
    }
  }
  store_words(reg, r);
}

// ECB on one block alone (a 16-byte update): its words in lane 0 as above,
// without a 16-block set's transposes.
template <bool kDecrypt>
void ecb_hook(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) {
  if (nblocks != 1) return kDecrypt ? decrypt(ks, in, out, nblocks) : encrypt(ks, in, out, nblocks);
  const Schedule* sk = static_cast<const Schedule*>(ks);
  X w[4];
  to_words(in, w);
  rounds1(kDecrypt ? sk->dec : sk->enc, w);
  store_words(out, w);
}

// CBC (kCfb = false) or CFB decryption. One block alone (a 16-byte update)
// takes the single-block rounds: CBC decrypts c and XORs reg, CFB encrypts
// reg and XORs c; c is read before out (which may be in) is stored. More
// take the sets with the XOR fused (sets_driver.inc, chained_dec).
template <bool kCfb>
void chained_dec_hook(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t nblocks) {
  if (nblocks != 1) return chained_dec<kCfb>(ks, reg, in, out, nblocks);
  const Schedule* sk = static_cast<const Schedule*>(ks);
  const X c = load_block(in), r = load_block(reg);
  X w[4];
  to_words(kCfb ? r : c, w);
  rounds1(kCfb ? sk->enc : sk->dec, w);
  store_block(out, _mm_xor_si128(from_words(w), kCfb ? c : r));
  store_block(reg, c);
}

}  // namespace

constinit const CipherHw avx512_gfni::kHw = {
    "avx512-gfni",           compiled_features(),      kScheduleBytes,           kBatch,
    gfni_setkey,             ecb_hook<false>,          ecb_hook<true>,           ctr,
    chain<Chain::kCbcEncrypt>, chain<Chain::kCfbEncrypt>, chain<Chain::kOfb>,      chained_dec_hook<false>,
    chained_dec_hook<true>};

void avx512_gfni::sbox_layer(const uint8_t* in, uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    const size_t k = n - i < 64 ? n - i : 64;
    const __mmask64 m = k == 64 ? ~__mmask64(0) : (__mmask64(1) << k) - 1;
    _mm512_mask_storeu_epi8(out + i, m, sbox(_mm512_maskz_loadu_epi8(m, in + i)));
  }
}

}  // namespace gpucrypto::sm4_impl
