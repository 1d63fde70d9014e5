// AES-128/192/256 with AES-NI (legacy SSE encoding, runs on any x86-64 with
// AES-NI and SSSE3). AESENC has a latency of several cycles but issues every
// cycle, so eight independent blocks go through each round together.
// Compiled with -maes -mssse3 -msse4.1; reached only after a CPU check.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ciphers/rijndael/internal.h"
#include "ciphers/rijndael/simd_modes.h"

namespace gpucrypto::rijndael_impl {
namespace {

constexpr size_t kBatch = 8;

using RoundKeys = const uint8_t (*)[kRoundKeyStride];

template <int Nr>
GPUCRYPTO_ALWAYS_INLINE void load_keys(RoundKeys src, __m128i* k) {
#pragma GCC unroll 16
  for (int r = 0; r <= Nr; ++r) k[r] = _mm_load_si128(reinterpret_cast<const __m128i*>(src[r]));
}

template <int Nr, int N>
GPUCRYPTO_ALWAYS_INLINE void encrypt_regs(const __m128i* k, __m128i* x) {
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = _mm_xor_si128(x[i], k[0]);
#pragma GCC unroll 16
  for (int r = 1; r < Nr; ++r) {
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) x[i] = _mm_aesenc_si128(x[i], k[r]);
  }
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = _mm_aesenclast_si128(x[i], k[Nr]);
}

template <int Nr, int N>
GPUCRYPTO_ALWAYS_INLINE void decrypt_regs(const __m128i* k, __m128i* x) {
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = _mm_xor_si128(x[i], k[0]);
#pragma GCC unroll 16
  for (int r = 1; r < Nr; ++r) {
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) x[i] = _mm_aesdec_si128(x[i], k[r]);
  }
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = _mm_aesdeclast_si128(x[i], k[Nr]);
}

template <int /*Nb*/, int Nr, bool Decrypt>
void ecb(const KeySched* ks, const uint8_t* in, uint8_t* out, size_t n) {
  __m128i k[Nr + 1];
  load_keys<Nr>(Decrypt ? ks->dec : ks->enc, k);
  while (n >= kBatch) {
    __m128i x[kBatch];
#pragma GCC unroll 8
    for (size_t i = 0; i < kBatch; ++i) {
      x[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * i));
    }
    if (Decrypt) {
      decrypt_regs<Nr, kBatch>(k, x);
    } else {
      encrypt_regs<Nr, kBatch>(k, x);
    }
#pragma GCC unroll 8
    for (size_t i = 0; i < kBatch; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i), x[i]);
    in += 16 * kBatch;
    out += 16 * kBatch;
    n -= kBatch;
  }
  for (; n > 0; --n, in += 16, out += 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
    if (Decrypt) {
      decrypt_regs<Nr, 1>(k, &x);
    } else {
      encrypt_regs<Nr, 1>(k, &x);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), x);
  }
}

// Counter blocks are kept as 128-bit little-endian integers (low 64 bits in
// the low qword) so PADDQ advances them; PSHUFB reverses the 16 bytes into the
// big-endian block. The counter is public (it is the IV), so choosing the
// path by whether the low 64 bits wrap inside a batch leaks nothing secret.
template <int /*Nb*/, int Nr>
void ctr(const KeySched* ks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  __m128i k[Nr + 1];
  load_keys<Nr>(ks->enc, k);
  const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  uint64_t hi = load_be64(ctr_block), lo = load_be64(ctr_block + 8);
  while (n > 0) {
    const size_t m = n < kBatch ? n : kBatch;
    __m128i x[kBatch];
    if (lo <= UINT64_MAX - (kBatch - 1)) {
      const __m128i base = _mm_set_epi64x(int64_t(hi), int64_t(lo));
#pragma GCC unroll 8
      for (size_t i = 0; i < kBatch; ++i) {
        x[i] = _mm_shuffle_epi8(_mm_add_epi64(base, _mm_set_epi64x(0, int64_t(i))), bswap);
      }
    } else {  // the low word wraps inside this batch: carry into the high word exactly
      for (size_t i = 0; i < kBatch; ++i) {
        const uint64_t l = lo + i, h = hi + (l < lo ? 1 : 0);
        x[i] = _mm_shuffle_epi8(_mm_set_epi64x(int64_t(h), int64_t(l)), bswap);
      }
    }
    if (m == kBatch) {
      encrypt_regs<Nr, kBatch>(k, x);
#pragma GCC unroll 8
      for (size_t i = 0; i < kBatch; ++i) {
        const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * i));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i), _mm_xor_si128(p, x[i]));
      }
    } else {
      for (size_t i = 0; i < m; ++i) {
        encrypt_regs<Nr, 1>(k, &x[i]);
        const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * i));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i), _mm_xor_si128(p, x[i]));
      }
    }
    const uint64_t next = lo + m;
    hi += next < lo ? 1 : 0;
    lo = next;
    in += 16 * m;
    out += 16 * m;
    n -= m;
  }
  store_be64(ctr_block, hi);
  store_be64(ctr_block + 8, lo);
}

using KernelShapes = Shapes<410, 412, 414>;

#include "ciphers/rijndael/simd_hooks.inc"

}  // namespace

void aesni_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t n) {
  ecb_hook<false>(ks, in, out, n);
}
void aesni_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t n) {
  ecb_hook<true>(ks, in, out, n);
}
void aesni_ctr(const void* ks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  ctr_hook(ks, ctr_block, in, out, n);
}

// The hooks above, so that vaes512.cpp's small calls reach them directly.
constinit const CipherHw kAesAesniHw = {"aesni",    compiled_features(), sizeof(KeySched), kBatch,
                                        setkey_nb4, aesni_encrypt,       aesni_decrypt,    aesni_ctr};

}  // namespace gpucrypto::rijndael_impl
