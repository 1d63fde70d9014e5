// AES-GCM fused with the pipelined VAES-512 AES-CTR (GcmHw::fused of the
// VAES implementation, block_cipher.h): each 32-block batch runs its AES
// rounds on eight zmm counters while the carry-less multiplies of the
// previous batch's ciphertext (encrypt) or of this batch's input (decrypt)
// fill the same loop body, so the out-of-order core keeps the AES and the
// multiply units busy together. The GHASH pieces are ciphers/ghash's
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

constinit const GcmFusedHw kAesGcmVaes512 = {"vaes512-vpclmul", compiled_features(), 8,
                                             aes_gcm_hook<false>, aes_gcm_hook<true>, aesni_ctr};

}  // namespace gpucrypto::rijndael_impl
