// AES-128/192/256 with VAES on zmm registers: the "pipelined Rijndael round".
// One VAESENC zmm runs a round on four blocks; kRegs independent zmm go
// through each round back to back, so the AES units (several cycles of
// latency, more than one instruction per cycle) never wait on a result.
// All round keys stay in registers (broadcast to the four lanes) for the whole
// call: kRegs data + Nr+1 keys + a few constants fit the 32 zmm registers.
// Compiled with -mavx512f -mavx512bw -mavx512vl -mvaes -maes; reached only
// after a CPU check.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ciphers/rijndael/internal.h"
#include "ciphers/rijndael/simd_modes.h"

namespace gpucrypto::rijndael_impl {
namespace {

constexpr int kRegs = 8;                      // zmm registers in flight
constexpr size_t kBatch = 4 * size_t(kRegs);  // blocks per iteration
constexpr size_t kSmallCall = 4;              // up to this many blocks, AES-NI on xmm

using RoundKeys = const uint8_t (*)[kRoundKeyStride];

// _mm512_broadcast_i32x4 trips GCC 12's -Wmaybe-uninitialized (its
// undefined pass-through operand); the all-ones zero-masked form is the same
// instruction without the warning.
GPUCRYPTO_ALWAYS_INLINE __m512i bcast128(__m128i v) {
  return _mm512_maskz_broadcast_i32x4(__mmask16(0xffff), v);
}

template <int Nr>
GPUCRYPTO_ALWAYS_INLINE void load_keys(RoundKeys src, __m512i* k) {
#pragma GCC unroll 16
  for (int r = 0; r <= Nr; ++r) {
    k[r] = bcast128(_mm_load_si128(reinterpret_cast<const __m128i*>(src[r])));
  }
}

// Every round but the last; the caller does the last one (it may fold the
// CTR input into the last round key).
template <int Nr, bool Decrypt, int R = kRegs>
GPUCRYPTO_ALWAYS_INLINE void rounds(const __m512i* k, __m512i* x) {
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) x[i] = _mm512_xor_si512(x[i], k[0]);
#pragma GCC unroll 16
  for (int r = 1; r < Nr; ++r) {
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
      x[i] = Decrypt ? _mm512_aesdec_epi128(x[i], k[r]) : _mm512_aesenc_epi128(x[i], k[r]);
    }
  }
}

template <bool Decrypt>
GPUCRYPTO_ALWAYS_INLINE __m512i last_round(__m512i x, __m512i k) {
  return Decrypt ? _mm512_aesdeclast_epi128(x, k) : _mm512_aesenclast_epi128(x, k);
}

// Load mask for register i of a partial batch of n blocks (two qwords each).
__mmask8 tail_mask(size_t n, int i) {
  const size_t first = 4 * size_t(i);
  if (n <= first) return 0;
  const size_t blocks = n - first >= 4 ? 4 : n - first;
  return __mmask8((1u << (2 * blocks)) - 1);
}

// Calls f.template operator()<R>() with R = the registers a partial batch of
// 0 < n < kBatch blocks needs (ceil(n / 4)): a 64-byte call runs one
// register's rounds, not kRegs' (the unit's throughput, not the chain's
// latency, bounds eight registers on one block's worth of work).
template <int R = kRegs, class F>
GPUCRYPTO_ALWAYS_INLINE void with_regs_for(size_t n, const F& f) {
  if constexpr (R > 1) {
    if (n <= 4 * size_t(R - 1)) return with_regs_for<R - 1>(n, f);
  }
  f.template operator()<R>();
}

template <int /*Nb*/, int Nr, bool Decrypt>
void ecb(const KeySched* ks, const uint8_t* in, uint8_t* out, size_t n) {
  __m512i k[Nr + 1];
  load_keys<Nr>(Decrypt ? ks->dec : ks->enc, k);
  while (n >= kBatch) {
    __m512i x[kRegs];
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) x[i] = _mm512_loadu_si512(in + 64 * i);
    rounds<Nr, Decrypt>(k, x);
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) _mm512_storeu_si512(out + 64 * i, last_round<Decrypt>(x[i], k[Nr]));
    in += 16 * kBatch;
    out += 16 * kBatch;
    n -= kBatch;
  }
  if (n == 0) return;
  // Partial batch: the same pipeline with masked loads and stores, on just
  // the registers the blocks fill.
  with_regs_for(n, [&]<int R>() GPUCRYPTO_INLINE_LAMBDA {
    __m512i x[R];
    __mmask8 m[R];
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
      m[i] = tail_mask(n, i);
      x[i] = _mm512_maskz_loadu_epi64(m[i], in + 64 * i);
    }
    rounds<Nr, Decrypt, R>(k, x);
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
      _mm512_mask_storeu_epi64(out + 64 * i, m[i], last_round<Decrypt>(x[i], k[Nr]));
    }
  });
}

// Counter blocks hi:lo, hi:lo+1, ... for one batch. Each 128-bit lane holds
// its counter as a little-endian integer (lo in the low qword), so one VPADDQ
// per register advances four counters and one VPSHUFB per register turns them
// into big-endian blocks. When lo would wrap inside the batch (once in 2^64
// blocks; the counter is the public IV, so branching on it is fine) the
// blocks are built one by one with an exact carry into hi.
template <int R = kRegs>
GPUCRYPTO_ALWAYS_INLINE void make_counters(uint64_t hi, uint64_t lo, __m512i* x) {
  const __m512i bswap = bcast128(
      _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  if (lo <= UINT64_MAX - (kBatch - 1)) {
    const __m512i step = _mm512_set_epi64(0, 4, 0, 4, 0, 4, 0, 4);
    __m512i c = _mm512_add_epi64(bcast128(_mm_set_epi64x(int64_t(hi), int64_t(lo))),
                                 _mm512_set_epi64(0, 3, 0, 2, 0, 1, 0, 0));
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
      x[i] = _mm512_shuffle_epi8(c, bswap);
      c = _mm512_add_epi64(c, step);
    }
    return;
  }
  alignas(64) uint64_t le[2 * kBatch];
  for (size_t j = 0; j < kBatch; ++j) {
    const uint64_t l = lo + j;
    le[2 * j] = l;
    le[2 * j + 1] = hi + (l < lo ? 1 : 0);
  }
  for (int i = 0; i < R; ++i) x[i] = _mm512_shuffle_epi8(_mm512_load_si512(le + 8 * i), bswap);
}

template <int /*Nb*/, int Nr>
void ctr(const KeySched* ks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  __m512i k[Nr + 1];
  load_keys<Nr>(ks->enc, k);
  uint64_t hi = load_be64(ctr_block), lo = load_be64(ctr_block + 8);
  while (n >= kBatch) {
    __m512i x[kRegs];
    make_counters(hi, lo, x);
    rounds<Nr, false>(k, x);
    // The input is folded into the last round key: AESENCLAST ends with the
    // key XOR, so out = AESENCLAST(x, k[Nr] ^ in) = E(ctr) ^ in.
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) {
      const __m512i kin = _mm512_xor_si512(k[Nr], _mm512_loadu_si512(in + 64 * i));
      _mm512_storeu_si512(out + 64 * i, _mm512_aesenclast_epi128(x[i], kin));
    }
    const uint64_t next = lo + kBatch;
    hi += next < lo ? 1 : 0;
    lo = next;
    in += 16 * kBatch;
    out += 16 * kBatch;
    n -= kBatch;
  }
  if (n != 0) {
    // Partial batch: the registers the blocks fill (as ecb), masked.
    with_regs_for(n, [&]<int R>() GPUCRYPTO_INLINE_LAMBDA {
      __m512i x[R];
      make_counters<R>(hi, lo, x);
      rounds<Nr, false, R>(k, x);
#pragma GCC unroll 16
      for (int i = 0; i < R; ++i) {
        const __mmask8 m = tail_mask(n, i);
        const __m512i kin = _mm512_xor_si512(k[Nr], _mm512_maskz_loadu_epi64(m, in + 64 * i));
        _mm512_mask_storeu_epi64(out + 64 * i, m, _mm512_aesenclast_epi128(x[i], kin));
      }
    });
    const uint64_t next = lo + n;
    hi += next < lo ? 1 : 0;
    lo = next;
  }
  store_be64(ctr_block, hi);
  store_be64(ctr_block + 8, lo);
}

// CBC and CFB decryption fused with their XOR, one batch of kRegs registers
// (masked: the first n blocks; kWhole: all, unmasked). Both need the
// ciphertext one block back: register i's blocks shifted by one, built from
// the registers already loaded (valignq over the previous register, whose top
// block is the one before; register 0 takes it from `prev`). CBC decrypts
// c[i] and XORs the shifted blocks, CFB encrypts the shifted blocks and XORs
// c[i]. Every block of the batch is loaded before any is stored, so in == out
// needs no copy. Returns the last register: the next batch's `prev`.
template <int Nr, bool kCfb, bool kWhole, int R = kRegs>
GPUCRYPTO_ALWAYS_INLINE __m512i chained_batch(const __m512i* k, __m512i prev, const uint8_t* in,
                                              uint8_t* out, size_t n) {
  __m512i c[R], x[R];
  __mmask8 m[R];
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) {
    m[i] = kWhole ? __mmask8(0xff) : tail_mask(n, i);
    c[i] = kWhole ? _mm512_loadu_si512(in + 64 * i) : _mm512_maskz_loadu_epi64(m[i], in + 64 * i);
  }
  const auto shifted = [&](int i) GPUCRYPTO_INLINE_LAMBDA {
    return _mm512_maskz_alignr_epi64(__mmask8(0xff), c[i], i == 0 ? prev : c[i - 1], 6);
  };
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) x[i] = kCfb ? shifted(i) : c[i];
  rounds<Nr, !kCfb, R>(k, x);
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) {
    const __m512i y = _mm512_xor_si512(last_round<!kCfb>(x[i], k[Nr]), kCfb ? c[i] : shifted(i));
    if (kWhole) {
      _mm512_storeu_si512(out + 64 * i, y);
    } else {
      _mm512_mask_storeu_epi64(out + 64 * i, m[i], y);
    }
  }
  return c[R - 1];
}

template <int /*Nb*/, int Nr, bool kCfb>
void chained_dec(const KeySched* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  if (n == 0) return;
  __m512i k[Nr + 1];
  load_keys<Nr>(kCfb ? ks->enc : ks->dec, k);
  // Top block: the chaining block (IV or the last ciphertext block so far).
  __m512i prev = bcast128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(reg)));
  // What reg becomes: the last ciphertext block, read before in == out
  // overwrites it (its position is public).
  const __m128i last = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * (n - 1)));
  for (; n >= kBatch; n -= kBatch, in += 16 * kBatch, out += 16 * kBatch) {
    prev = chained_batch<Nr, kCfb, true>(k, prev, in, out, kBatch);
  }
  if (n != 0) {
    with_regs_for(n, [&]<int R>() GPUCRYPTO_INLINE_LAMBDA {
      chained_batch<Nr, kCfb, false, R>(k, prev, in, out, n);
    });
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(reg), last);
}

using KernelShapes = Shapes<410, 412, 414>;

#include "ciphers/rijndael/simd_hooks.inc"

// A few blocks: the 128-bit AES-NI path avoids broadcasting every round key
// to zmm (per-call cost that dominates 16-byte updates). The same for the
// parallel chained modes, which have ECB's shape.
template <bool kDecrypt>
void small_first_ecb(const void* ks, const uint8_t* in, uint8_t* out, size_t n) {
  if (n <= kSmallCall) return kDecrypt ? aesni_decrypt(ks, in, out, n) : aesni_encrypt(ks, in, out, n);
  ecb_hook<kDecrypt>(ks, in, out, n);
}

template <bool kCfb>
void small_first_chained(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  if (n <= kSmallCall) {
    return kCfb ? aesni_cfb_decrypt(ks, reg, in, out, n) : aesni_cbc_decrypt(ks, reg, in, out, n);
  }
  chained_dec_hook<kCfb>(ks, reg, in, out, n);
}

}  // namespace

void vaes512_ctr(const void* ks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  if (n <= kSmallCall) return aesni_ctr(ks, ctr_block, in, out, n);
  ctr_hook(ks, ctr_block, in, out, n);
}

// The sequential modes (and CFB1) are one block at a time: AES-NI on xmm (aesni.cpp).
constinit const CipherHw kAesVaes512Hw = {
    "vaes512",         compiled_features(),   sizeof(KeySched), kBatch,
    setkey_aesni,      small_first_ecb<false>, small_first_ecb<true>, vaes512_ctr,
    aesni_cbc_encrypt, aesni_cfb_encrypt,     aesni_ofb,        small_first_chained<false>,
    small_first_chained<true>, aesni_cfb1,           &kAesVaes512Gcm};

}  // namespace gpucrypto::rijndael_impl
