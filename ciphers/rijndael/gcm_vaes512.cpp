// AES-GCM fused with the pipelined VAES-512 AES-CTR (GcmHw::fused of the
// VAES implementation, block_cipher.h): each 32-block batch runs its AES
// rounds on eight zmm counters while the carry-less multiplies of the
// previous batch's ciphertext (or, decrypting, of this batch's input: see
// aes_gcm) fill the same loop body, so the out-of-order core keeps the AES
// and the multiply units busy together. The GHASH pieces are ciphers/ghash's
// (ghash_clmul512.inc). Compiled with -mavx512f -mavx512bw -mavx512vl
// -mvpclmulqdq -mvaes -maes -mpclmul; reached only after a CPU check.

// GCC 12's AVX-512 headers self-initialise an "undefined" vector in
// _mm512_extracti64x4_epi64 (__Y = __Y), which -Wmaybe-uninitialized
// reports once inlined; the value is never used. Must precede the include.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cstring>

#include "ciphers/ghash/ghash.h"
#include "ciphers/rijndael/internal.h"
#include "platform/isa.h"

namespace gpucrypto::rijndael_impl {
namespace {

#include "ciphers/ghash/ghash_clmul.inc"
#include "ciphers/ghash/ghash_clmul512.inc"

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

// One batch: AES rounds on the counters c[] with the GHASH of n_gh blocks
// (0: none) in the same body, register j of them reg(x, j) (ghash_regs' source:
// run_reg or held_reg, x folded into register 0), then out = in ^ E(c) for n
// blocks (masked when n < 32), also left in c[] (the ciphertext, which
// encryption hashes in the next batch); the input as loaded goes to in_regs
// when that is not null (the ciphertext decryption hashes in the next batch:
// in place, the memory holds plaintext by then). Returns the new x. kFull:
// n == n_gh == 32, known at compile time (the steady state: no masks, no
// branches).
//
// GHASH registers are taken in the round that hashes them (when decryption's
// source is `in`, every load precedes the stores of the last round, so in
// place is safe): one per round, or a pair every second round in full
// batches, in the order ghash_regs uses: register 0, the one carrying the
// previous batch's x, after round 8, by which time the previous reduction
// has long finished.
template <int Nr, bool kFull, class Reg>
GPUCRYPTO_ALWAYS_INLINE __m128i batch(const GhashKey* key, const __m512i* k, __m512i* c, __m128i x,
                                      size_t n_gh, Reg reg, const uint8_t* in, uint8_t* out,
                                      size_t n, __m512i* in_regs) {
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
      if (r % 2 == 0 && j > 0) ghash_pair(key, a, reg(x, j), reg(x, j - 1), j);
    } else {
      const int j = kRegs - r;  // n_gh is public
      if (j >= 0 && 4 * size_t(j) < n_gh) ghash_reg(key, a, reg(x, j), n_gh, j);
    }
  }
  // The input folded into the last round key: AESENCLAST ends with the key XOR.
#pragma GCC unroll 8
  for (int i = 0; i < kRegs; ++i) {
    if (kFull || n == kBatch) {
      const __m512i d = _mm512_loadu_si512(in + 64 * i);
      if (in_regs != nullptr) in_regs[i] = d;
      c[i] = _mm512_aesenclast_epi128(c[i], _mm512_xor_si512(k[Nr], d));
      _mm512_storeu_si512(out + 64 * i, c[i]);
    } else {
      const __mmask8 m = tail_mask(n, i);
      const __m512i d = _mm512_maskz_loadu_epi64(m, in + 64 * i);
      if (in_regs != nullptr) in_regs[i] = d;
      c[i] = _mm512_aesenclast_epi128(c[i], _mm512_xor_si512(k[Nr], d));
      _mm512_mask_storeu_epi64(out + 64 * i, m, c[i]);
    }
  }
  return kFull || n_gh != 0 ? reduce512(a) : x;
}

// The batches of aes_gcm. kHeld: each batch hashes the previous batch's
// ciphertext, held in registers (encryption's output; decryption's input as
// its last round loaded it: in place, memory has the plaintext by then), and
// the last batch is hashed after the loop. Otherwise (decryption only) each
// batch hashes its own input from memory in its rounds. One loop per form:
// both in one loop behind a branch spilled registers (decryption 5-8 %
// slower at 256-1024 blocks).
template <int Nr, bool kDecrypt, bool kHeld>
GPUCRYPTO_ALWAYS_INLINE __m128i batches(const GhashKey* key, const __m512i* k, __m128i x, uint64_t hi,
                                        uint64_t lo, const uint8_t* in, uint8_t* out, size_t n) {
  __m512i prev[kRegs];
  size_t prev_n = 0;
  while (n != 0) {
    const size_t m = n < kBatch ? n : kBatch;
    __m512i c[kRegs];
    make_counters(hi, lo, c);
    if (!kHeld) {
      const auto reg = [in, m](__m128i y, int i) { return run_reg(y, in, m, i); };
      x = m == kBatch ? batch<Nr, true>(key, k, c, x, m, reg, in, out, m, nullptr)
                      : batch<Nr, false>(key, k, c, x, m, reg, in, out, m, nullptr);
    } else {
      const size_t pn = prev_n;
      const __m512i* p = prev;
      const auto reg = [p, pn](__m128i y, int i) { return held_reg(y, p, pn, i); };
      __m512i loaded[kRegs];
      __m512i* in_regs = kDecrypt ? loaded : nullptr;
      x = m == kBatch && pn == kBatch ? batch<Nr, true>(key, k, c, x, pn, reg, in, out, m, in_regs)
                                      : batch<Nr, false>(key, k, c, x, pn, reg, in, out, m, in_regs);
#pragma GCC unroll 8
      for (int i = 0; i < kRegs; ++i) prev[i] = kDecrypt ? loaded[i] : c[i];
      prev_n = m;
    }
    lo += m;
    in += 16 * m;
    out += 16 * m;
    n -= m;
  }
  if (kHeld && prev_n != 0) {
    const __m512i* p = prev;
    const size_t pn = prev_n;
    x = ghash_regs(key, x, pn, [p, pn](__m128i y, int i) { return held_reg(y, p, pn, i); });
  }
  return x;
}

// Decryptions of this many blocks or more hold their ciphertext for the next
// batch, as encryption does (aes_gcm); shorter ones hash it in its own batch.
constexpr size_t kDecryptHeldFrom = 8 * kBatch;

// Encryption hashes the previous batch's ciphertext, still in registers:
// no load of what was just stored (a 64-byte load of a masked or
// line-crossing store waits for it to commit instead of forwarding).
// Decryption has its ciphertext in memory before the rounds and hashes each
// batch in its own (no GHASH left alone after the loop), except from
// kDecryptHeldFrom blocks on, where it holds it as encryption does. Its first
// batch then runs no GHASH, which is when a key set for this message
// (`openssl speed` sets one per message) still has its powers of H in flight
// (ghash extend: five levels of dependent multiplies), and the trailing
// GHASH is amortised. Zen 5, AES-128, one key, held against own: 1024 blocks
// 1.6 cycles per batch faster, 256-512 equal, 128 3-4 slower, 33-64 13-56
// slower. Where a key is set per message, the chain key expansion -> H ->
// powers costs ~22 ns of a 16 KiB message (~680 ns; measured by skipping
// extend, powers invalid); running extend's steps inside this first batch's
// rounds instead measured equal (in-process A/B, 694 vs 696 ns, Zen 5): the
// second batch waits on the chain either way, so it was not kept. Nor were
// two batches of AES alone before a standalone GHASH of the first (its
// ciphertext spilled): AES-128, 16 KiB, 685 -> 719 ns per message (3.5.9
// speed -decrypt, Zen 5, medians of 9), the GHASH no longer overlapping any
// rounds costing more than the wait.
template <int Nr, bool kDecrypt>
void aes_gcm(const KeySched* ks, const GhashKey* key, uint8_t* xi, uint8_t* ctr,
             const uint8_t* in, uint8_t* out, size_t n) {
  __m512i k[Nr + 1];
  load_keys<Nr>(ks, k);
  const __m128i x0 = load_spec(xi);
  const uint64_t hi = load_be64(ctr), lo = load_be64(ctr + 8);
  const __m128i x = !kDecrypt || n >= kDecryptHeldFrom  // n is public
                        ? batches<Nr, kDecrypt, true>(key, k, x0, hi, lo, in, out, n)
                        : batches<Nr, kDecrypt, false>(key, k, x0, hi, lo, in, out, n);
  store_spec(xi, x);
  store_be64(ctr + 8, lo + n);
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

constinit const GcmFusedHw kAesGcmVaes512 = {"vaes512-vpclmul", compiled_features(), 8,
                                             aes_gcm_hook<false>, aes_gcm_hook<true>, vaes512_ctr};

}  // namespace gpucrypto::rijndael_impl
