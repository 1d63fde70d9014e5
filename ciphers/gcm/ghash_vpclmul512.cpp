// GHASH with VPCLMULQDQ on zmm (four blocks per register, 32 blocks per
// reduction with H^32 .. H^1), and AES-GCM fused with the pipelined VAES-512
// AES-CTR: each 32-block batch runs its AES rounds on eight zmm counters
// while the carry-less multiplies of the previous batch's ciphertext
// (encrypt) or of this batch's input (decrypt) fill the same loop body, so
// the out-of-order core keeps the AES and the multiply units busy together.
// Compiled with -mavx512f -mavx512bw -mavx512vl -mvpclmulqdq -mvaes -maes
// -mpclmul; reached only after a CPU check.

// GCC 12's AVX-512 headers self-initialise an "undefined" vector in
// _mm512_extracti64x4_epi64 (__Y = __Y), which -Wmaybe-uninitialized
// reports once inlined; the value is never used. Must precede the include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "ciphers/gcm/internal.h"
#include "ciphers/rijndael/internal.h"
#include "platform/isa.h"

namespace gpucrypto::gcm_impl {
namespace {

#include "ciphers/gcm/ghash_clmul.inc"

constexpr int kRegs = 8;                      // zmm per batch
constexpr size_t kBatch = 4 * size_t(kRegs);  // 32 blocks = kGhashPowers
static_assert(kBatch == kGhashPowers);

// _mm512_broadcast_i32x4 trips GCC 12's -Wmaybe-uninitialized (undefined
// pass-through operand); the all-ones zero-masked form is the same instruction.
GPUCRYPTO_ALWAYS_INLINE __m512i bcast128(__m128i v) {
  return _mm512_maskz_broadcast_i32x4(__mmask16(0xffff), v);
}

// The byte-reversal mask as one 64-byte constant: a plain load, where a
// broadcast from an xmm register would take a shuffle slot (the pipes VAES
// uses) whenever the register allocator drops it.
alignas(64) constexpr uint8_t kBswap512[64] = {
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
GPUCRYPTO_ALWAYS_INLINE __m512i bswap_mask512() { return _mm512_load_si512(kBswap512); }

// Load mask of register i of a run of n blocks (two qwords per block).
GPUCRYPTO_ALWAYS_INLINE __mmask8 tail_mask(size_t n, int i) {
  const size_t first = 4 * size_t(i);
  if (n <= first) return 0;
  const size_t blocks = n - first >= 4 ? 4 : n - first;
  return __mmask8((1u << (2 * blocks)) - 1);
}

struct Acc512 {
  __m512i lo, mid, hi;
};

GPUCRYPTO_ALWAYS_INLINE Acc512 acc_zero() {
  return {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
}

GPUCRYPTO_ALWAYS_INLINE void clmul_acc512(Acc512& a, __m512i x, __m512i y) {
  a.lo = _mm512_xor_si512(a.lo, _mm512_clmulepi64_epi128(x, y, 0x00));
  a.hi = _mm512_xor_si512(a.hi, _mm512_clmulepi64_epi128(x, y, 0x11));
  a.mid = _mm512_ternarylogic_epi64(a.mid, _mm512_clmulepi64_epi128(x, y, 0x01),
                                    _mm512_clmulepi64_epi128(x, y, 0x10), 0x96);
}

GPUCRYPTO_ALWAYS_INLINE __m128i fold_lanes(__m512i v) {
  const __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
  return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

// Karatsuba sums: lo and hi as Acc512, but mid holds sum (d.lo ^ d.hi) *
// (p.lo ^ p.hi), which is the true middle term XOR lo XOR hi. Three
// multiplies per block instead of four: on Zen 4 the 512-bit carry-less
// multiply shares its pipe with VAES, so each one saved is AES time won back.
GPUCRYPTO_ALWAYS_INLINE void kara_acc512(Acc512& a, __m512i d, __m512i p, __m512i pk) {
  a.lo = _mm512_xor_si512(a.lo, _mm512_clmulepi64_epi128(d, p, 0x00));
  a.hi = _mm512_xor_si512(a.hi, _mm512_clmulepi64_epi128(d, p, 0x11));
  const __m512i dk = _mm512_xor_si512(d, _mm512_shuffle_epi32(d, _MM_PERM_BADC));
  a.mid = _mm512_xor_si512(a.mid, _mm512_clmulepi64_epi128(dk, pk, 0x00));
}

// The reduction of Karatsuba sums (kara_acc512).
GPUCRYPTO_ALWAYS_INLINE __m128i reduce512(const Acc512& a) {
  const __m128i lo = fold_lanes(a.lo), hi = fold_lanes(a.hi);
  return reduce3(lo, _mm_ternarylogic_epi64(fold_lanes(a.mid), lo, hi, 0x96), hi);
}

// Register i of a run of n <= 32 blocks (byte-swapped data, x folded into
// block 0) times its powers: block j takes H^(n-j), the row of the key's
// power tables starting at kGhashPowers - n (ghash.h).
GPUCRYPTO_ALWAYS_INLINE void ghash_reg(const GhashKey* key, Acc512& a, __m512i d, size_t n, int i) {
  const size_t row = kGhashPowers - n + 4 * size_t(i);
  kara_acc512(a, d, _mm512_loadu_si512(key->pow[row]), _mm512_loadu_si512(key->kara[row]));
}

// Registers i and i - 1 of a full run (n = 32: block j takes row j), each
// term of the two summed into `a` with one ternary XOR: fewer 512-bit
// operations, which Zen 4 issues as two 256-bit halves on the same pipes as
// VAES.
GPUCRYPTO_ALWAYS_INLINE void ghash_pair(const GhashKey* key, Acc512& a, __m512i d1, __m512i d0,
                                        int i) {
  const size_t r1 = 4 * size_t(i), r0 = r1 - 4;
  const __m512i p1 = _mm512_loadu_si512(key->pow[r1]), p0 = _mm512_loadu_si512(key->pow[r0]);
  a.lo = _mm512_ternarylogic_epi64(a.lo, _mm512_clmulepi64_epi128(d1, p1, 0x00),
                                   _mm512_clmulepi64_epi128(d0, p0, 0x00), 0x96);
  a.hi = _mm512_ternarylogic_epi64(a.hi, _mm512_clmulepi64_epi128(d1, p1, 0x11),
                                   _mm512_clmulepi64_epi128(d0, p0, 0x11), 0x96);
  const __m512i dk1 = _mm512_xor_si512(d1, _mm512_shuffle_epi32(d1, _MM_PERM_BADC));
  const __m512i dk0 = _mm512_xor_si512(d0, _mm512_shuffle_epi32(d0, _MM_PERM_BADC));
  a.mid = _mm512_ternarylogic_epi64(
      a.mid, _mm512_clmulepi64_epi128(dk1, _mm512_loadu_si512(key->kara[r1]), 0x00),
      _mm512_clmulepi64_epi128(dk0, _mm512_loadu_si512(key->kara[r0]), 0x00), 0x96);
}

// Register i of a run of n (1..32) blocks at `in`, byte-swapped, with x
// folded into block 0 when i == 0 (masked loads past n: n is public).
GPUCRYPTO_ALWAYS_INLINE __m512i run_reg(__m128i x, const uint8_t* in, size_t n, int i) {
  const __mmask8 m = n == kBatch ? __mmask8(0xff) : tail_mask(n, i);
  __m512i d = _mm512_shuffle_epi8(_mm512_maskz_loadu_epi64(m, in + 64 * i), bswap_mask512());
  if (i == 0) d = _mm512_xor_si512(d, _mm512_zextsi128_si512(x));
  return d;
}

// x folded into one run of n (1..32) blocks: the new x. Register 0, the only
// one that needs x (the previous run's reduction, a ~30-cycle chain), goes
// last, so the other products of this run do not queue behind that chain.
GPUCRYPTO_ALWAYS_INLINE __m128i ghash_run(const GhashKey* key, __m128i x, const uint8_t* in,
                                          size_t n) {
  Acc512 a = acc_zero();
  if (n == kBatch) {
#pragma GCC unroll 4
    for (int i = kRegs - 1; i > 0; i -= 2)
      ghash_pair(key, a, run_reg(x, in, n, i), run_reg(x, in, n, i - 1), i);
    return reduce512(a);
  }
#pragma GCC unroll 8
  for (int i = kRegs - 1; i >= 0; --i) {
    if (4 * size_t(i) < n) ghash_reg(key, a, run_reg(x, in, n, i), n, i);
  }
  return reduce512(a);
}

// reduce3 on each 128-bit lane (four independent products).
GPUCRYPTO_ALWAYS_INLINE __m512i reduce_lanes(const Acc512& a) {
  const __m512i poly = bcast128(gf_poly());
  const __m512i mid = _mm512_ternarylogic_epi64(a.mid, _mm512_shuffle_epi32(a.lo, _MM_PERM_BADC),
                                                _mm512_clmulepi64_epi128(a.lo, poly, 0x10), 0x96);
  return _mm512_ternarylogic_epi64(a.hi, _mm512_shuffle_epi32(mid, _MM_PERM_BADC),
                                   _mm512_clmulepi64_epi128(mid, poly, 0x10), 0x96);
}

// Four products at once, reduced per lane: r[l] = x[l] * y[l].
GPUCRYPTO_ALWAYS_INLINE __m512i mul_lanes(__m512i x, __m512i y) {
  Acc512 a = acc_zero();
  clmul_acc512(a, x, y);
  return reduce_lanes(a);
}

// Stores four consecutive powers (the highest in lane 0) from table row `row`.
GPUCRYPTO_ALWAYS_INLINE void store_powers4(GhashKey* key, size_t row, __m512i p) {
  _mm512_storeu_si512(key->pow[row], p);
  _mm512_storeu_si512(key->kara[row], _mm512_xor_si512(p, _mm512_shuffle_epi32(p, _MM_PERM_BADC)));
}

// H^1 .. H^8 in three dependent steps (H^2; H^3 and H^4; H^5 .. H^8 as one
// four-lane product), stored as 512-bit rows, which extend512 and the
// kernels load whole (a 512-bit load of rows written 16 bytes at a time
// cannot be forwarded from the store buffer). Per key: libssl sets one per
// connection, `openssl speed` one per message.
void init512(GhashKey* key, const uint8_t h[16]) {
  static_assert(kGhashFewPowers == 8);
  const __m128i h1 = twist(load_spec(h));
  const __m128i h2 = gf_mul(h1, h1);
  const __m128i h3 = gf_mul(h2, h1), h4 = gf_mul(h2, h2);
  // Lane 0 the highest power (store_powers4).
  const __m512i p4_1 = _mm512_inserti64x4(
      _mm512_castsi256_si512(_mm256_set_m128i(h3, h4)), _mm256_set_m128i(h1, h2), 1);
  store_powers4(key, kGhashPowers - 4, p4_1);
  store_powers4(key, kGhashPowers - 8, mul_lanes(p4_1, bcast128(h4)));
  std::memset(key->pow[kGhashPowers], 0, 3 * 16);  // the zero rows after H^1
  std::memset(key->kara[kGhashPowers], 0, 3 * 16);
  key->npowers = kGhashFewPowers;
}

// H^9 .. H^32 from H^1 .. H^8 in two dependent steps of independent
// products (libssl and `openssl speed` set a key per connection or message,
// so the latency of this chain is paid per key): times H^8, then times H^16.
void extend512(GhashKey* key) {
  static_assert(kGhashPowers == 32 && kGhashFewPowers == 8);
  const __m512i p8_5 = _mm512_loadu_si512(key->pow[kGhashPowers - 8]);  // H^8, H^7, H^6, H^5
  const __m512i p4_1 = _mm512_loadu_si512(key->pow[kGhashPowers - 4]);  // H^4 .. H^1
  const __m512i h8 = bcast128(power(key, 8));
  const __m512i p12_9 = mul_lanes(p4_1, h8), p16_13 = mul_lanes(p8_5, h8);
  const __m512i h16 = bcast128(_mm512_castsi512_si128(p16_13));
  store_powers4(key, kGhashPowers - 12, p12_9);
  store_powers4(key, kGhashPowers - 16, p16_13);
  store_powers4(key, kGhashPowers - 20, mul_lanes(p4_1, h16));
  store_powers4(key, kGhashPowers - 24, mul_lanes(p8_5, h16));
  store_powers4(key, kGhashPowers - 28, mul_lanes(p12_9, h16));
  store_powers4(key, kGhashPowers - 32, mul_lanes(p16_13, h16));
  key->npowers = kGhashPowers;
}

void ghash(const GhashKey* key, uint8_t xi[16], const uint8_t* in, size_t nblocks) {
  __m128i x = load_spec(xi);
  // A few blocks, or a key without the high powers: the xmm path.
  if (nblocks < 4 || key->npowers < kGhashPowers) {
    for (; nblocks >= 4; nblocks -= 4, in += 64) x = ghash_few(key, x, in, 4);
    if (nblocks != 0) x = ghash_few(key, x, in, nblocks);
    store_spec(xi, x);
    return;
  }
  for (; nblocks >= kBatch; nblocks -= kBatch, in += 16 * kBatch) x = ghash_run(key, x, in, kBatch);
  if (nblocks != 0) x = ghash_run(key, x, in, nblocks);
  store_spec(xi, x);
}

// --- AES-GCM ------------------------------------------------------------------

using rijndael_impl::KeySched;

template <int Nr>
GPUCRYPTO_ALWAYS_INLINE void load_keys(const KeySched* ks, __m512i* k) {
#pragma GCC unroll 16
  for (int r = 0; r <= Nr; ++r) {
    k[r] = bcast128(_mm_load_si128(reinterpret_cast<const __m128i*>(ks->enc[r])));
  }
}

// Counter blocks hi:lo+j of one batch, big-endian. The caller keeps the low
// 32 bits from wrapping inside a call, so the low qword never carries. When
// the last byte does not wrap within the batch either (7 batches in 8; the
// counter is public), the blocks are the big-endian base plus j in that byte:
// one byte swap per batch instead of one per register.
GPUCRYPTO_ALWAYS_INLINE void make_counters(uint64_t hi, uint64_t lo, __m512i* x) {
  if ((lo & 0xff) <= 0x100 - kBatch) {
    const __m512i step = _mm512_set_epi64(int64_t(4) << 56, 0, int64_t(4) << 56, 0, int64_t(4) << 56, 0,
                                          int64_t(4) << 56, 0);
    // The big-endian block from the byte-swapped words, broadcast by the load.
    alignas(16) uint64_t be[2] = {__builtin_bswap64(hi), __builtin_bswap64(lo)};
    __m512i c = _mm512_add_epi64(
        _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(be))),
        _mm512_set_epi64(int64_t(3) << 56, 0, int64_t(2) << 56, 0, int64_t(1) << 56, 0, 0, 0));
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) {
      x[i] = c;
      c = _mm512_add_epi64(c, step);
    }
    return;
  }
  const __m512i step = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
  __m512i c = _mm512_add_epi64(bcast128(_mm_set_epi64x(int64_t(hi), int64_t(lo))),
                               _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0));
#pragma GCC unroll 16
  for (int i = 0; i < kRegs; ++i) {
    x[i] = _mm512_shuffle_epi8(c, bswap_mask512());
    c = _mm512_add_epi64(c, step);
  }
}

// One batch: AES rounds on the counters c[] with the GHASH of `gin` (n_gh
// blocks, 0: none) in the same body, then out = in ^ E(c) for n blocks
// (masked when n < 32). Returns the new x. kFull: n == n_gh == 32, known at
// compile time (the steady state: no masks, no branches).
//
// GHASH registers are loaded in the round that hashes them (decryption's
// `gin` is `in`: every load precedes the stores of the last round, so in
// place is safe): one per round, or a pair every second round in full
// batches, in the order ghash_run uses: register 0, the one carrying the
// previous batch's x, after round 8, by which time the previous reduction
// has long finished.
template <int Nr, bool kFull>
GPUCRYPTO_ALWAYS_INLINE __m128i batch(const GhashKey* key, const __m512i* k, __m512i* c,
                                      __m128i x, const uint8_t* gin, size_t n_gh,
                                      const uint8_t* in, uint8_t* out, size_t n) {
  if (kFull) n = n_gh = kBatch;
  Acc512 a = acc_zero();
#pragma GCC unroll 8
  for (int i = 0; i < kRegs; ++i) c[i] = _mm512_xor_si512(c[i], k[0]);
#pragma GCC unroll 16
  for (int r = 1; r < Nr; ++r) {
#pragma GCC unroll 8
    for (int i = 0; i < kRegs; ++i) c[i] = _mm512_aesenc_epi128(c[i], k[r]);
    if (kFull) {  // a pair every second round: (7, 6) after round 2 ... (1, 0) after round 8
      const int j = kRegs + 1 - r;
      if (r % 2 == 0 && j > 0) ghash_pair(key, a, run_reg(x, gin, n_gh, j), run_reg(x, gin, n_gh, j - 1), j);
    } else {
      const int j = kRegs - r;  // n_gh is public
      if (j >= 0 && 4 * size_t(j) < n_gh) ghash_reg(key, a, run_reg(x, gin, n_gh, j), n_gh, j);
    }
  }
  // The input folded into the last round key: AESENCLAST ends with the key XOR.
#pragma GCC unroll 8
  for (int i = 0; i < kRegs; ++i) {
    const __mmask8 m = kFull || n == kBatch ? __mmask8(0xff) : tail_mask(n, i);
    const __m512i kin = _mm512_xor_si512(k[Nr], _mm512_maskz_loadu_epi64(m, in + 64 * i));
    _mm512_mask_storeu_epi64(out + 64 * i, m, _mm512_aesenclast_epi128(c[i], kin));
  }
  return kFull || n_gh != 0 ? reduce512(a) : x;
}

template <int Nr, bool kDecrypt>
void aes_gcm(const KeySched* ks, const GhashKey* key, uint8_t* xi, uint8_t* ctr,
             const uint8_t* in, uint8_t* out, size_t n) {
  __m512i k[Nr + 1];
  load_keys<Nr>(ks, k);
  __m128i x = load_spec(xi);
  const uint64_t hi = load_be64(ctr);
  uint64_t lo = load_be64(ctr + 8);
  // Encrypt: the ciphertext of the last two batches, not yet hashed. Each
  // batch hashes the older one, whose stores have long left the store queue
  // (a load of the batch just stored, 64 bytes across cache lines, waits for
  // the stores to commit instead of forwarding from them).
  const uint8_t* pending = nullptr;
  size_t pending_n = 0;
  const uint8_t* newer = nullptr;
  size_t newer_n = 0;
  while (n != 0) {
    const size_t m = n < kBatch ? n : kBatch;
    __m512i c[kRegs];
    make_counters(hi, lo, c);
    if (kDecrypt) {
      x = m == kBatch ? batch<Nr, true>(key, k, c, x, in, m, in, out, m)
                      : batch<Nr, false>(key, k, c, x, in, m, in, out, m);
    } else {
      x = m == kBatch && pending_n == kBatch
              ? batch<Nr, true>(key, k, c, x, pending, pending_n, in, out, m)
              : batch<Nr, false>(key, k, c, x, pending, pending_n, in, out, m);
      pending = newer;
      pending_n = newer_n;
      newer = out;
      newer_n = m;
    }
    lo += m;
    in += 16 * m;
    out += 16 * m;
    n -= m;
  }
  if (pending_n != 0) x = ghash_run(key, x, pending, pending_n);
  if (newer_n != 0) x = ghash_run(key, x, newer, newer_n);
  store_spec(xi, x);
  store_be64(ctr + 8, lo);
}

template <bool kDecrypt>
void aes_gcm_hook(const void* vks, const GhashKey* key, uint8_t* xi, uint8_t* ctr,
                  const uint8_t* in, uint8_t* out, size_t n) {
  const KeySched* ks = static_cast<const KeySched*>(vks);
  switch (ks->nr) {  // public: it follows from the key length
    case 10: return aes_gcm<10, kDecrypt>(ks, key, xi, ctr, in, out, n);
    case 12: return aes_gcm<12, kDecrypt>(ks, key, xi, ctr, in, out, n);
    default: return aes_gcm<14, kDecrypt>(ks, key, xi, ctr, in, out, n);
  }
}

}  // namespace

constinit const GhashHw kGhashVpclmul512 = {"vpclmul512", compiled_features(), init512,
                                            extend512,          ghash,               clmul_mul};
constinit const AesGcmHw kAesGcmVaes512 = {"vaes512-vpclmul", compiled_features(),
                                           aes_gcm_hook<false>, aes_gcm_hook<true>};

}  // namespace gpucrypto::gcm_impl
