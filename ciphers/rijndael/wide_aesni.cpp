// Rijndael with 192- and 256-bit blocks (Nb = 6, 8) on AES-NI + SSSE3, for
// CPUs (or backend caps) without AVX-512.
//
// Same mapping as wide_vaes512.cpp (see the comment block there and
// README.md): a Rijndael round is AESENC(P(x), k) on each 128-bit half, with
// P = ShiftRows_aes^-1 ∘ ShiftRows_Nb (decryption: AESDEC, the equivalent
// inverse cipher's keys and Q = InvShiftRows_aes^-1 ∘ InvShiftRows_Nb). A
// block lives in two xmm registers: columns 0-3 and columns 4-7 (for Nb = 6,
// columns 6-7 are spare: they hold bytes P parks there for ShiftRows_aes and
// are never output). Without a cross-register byte permute, P for Nb = 6 is
// four PSHUFB (each output register gathers from both inputs, zeroing the
// other bytes) and two POR. For Nb = 8, P and Q have a structure that allows
// two PBLENDVB and two PSHUFB instead (the trick of Intel's AES-NI white
// paper for Rijndael-256): output byte j of the low and the high register
// come from the same byte position i of opposite input registers, so
// swapping bytes i between the registers where the low output wants the high
// input, then one shared PSHUFB per register, does it (checked at compile
// time below). kBlocks blocks go through each round together.
//
// Compiled with -maes -mssse3 -msse4.1; reached only after a CPU check.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ciphers/rijndael/internal.h"
#include "ciphers/rijndael/simd_modes.h"

namespace gpucrypto::rijndael_impl {
namespace {

constexpr int kBlocks = 4;

// PSHUFB masks: part[out][in] moves the bytes output register `out` (0: columns
// 0-3, 1: columns 4-7) takes from input register `in`, 0x80 elsewhere.
struct ShuffleTables {
  alignas(16) uint8_t enc[2][2][16];
  alignas(16) uint8_t dec[2][2][16];
};

// Nb = 8: blend[i] has its top bit set where the low output takes byte i of
// the high input (and the high output byte i of the low input); shuf is the
// PSHUFB applied to both blended registers.
struct BlendTables {
  alignas(16) uint8_t enc_blend[16], enc_shuf[16];
  alignas(16) uint8_t dec_blend[16], dec_shuf[16];
  bool valid;
};

constexpr BlendTables make_blend_tables() {
  BlendTables t{};
  t.valid = true;
  bool used_e[16] = {}, used_d[16] = {};
  for (unsigned j = 0; j < 16; ++j) {
    for (int dec = 0; dec < 2; ++dec) {
      const unsigned a = perm_source(8, dec, j), b = perm_source(8, dec, 16 + j);
      if (a % 16 != b % 16 || a / 16 == b / 16) t.valid = false;
      bool* used = dec ? used_d : used_e;
      if (used[a % 16]) t.valid = false;
      used[a % 16] = true;
      (dec ? t.dec_shuf : t.enc_shuf)[j] = uint8_t(a % 16);
      (dec ? t.dec_blend : t.enc_blend)[a % 16] = uint8_t(a >= 16 ? 0x80 : 0);
    }
  }
  return t;
}

constexpr BlendTables kBlend8 = make_blend_tables();
static_assert(kBlend8.valid, "Rijndael-256 ShiftRows is not a blend+shuffle");

template <int Nb>
constexpr ShuffleTables make_tables() {
  ShuffleTables t{};
  for (unsigned out = 0; out < 2; ++out) {
    for (unsigned j = 0; j < 16; ++j) {
      const unsigned e = perm_source(Nb, false, 16 * out + j);
      const unsigned d = perm_source(Nb, true, 16 * out + j);
      for (unsigned in = 0; in < 2; ++in) {
        t.enc[out][in][j] = uint8_t(e / 16 == in ? e % 16 : 0x80);
        t.dec[out][in][j] = uint8_t(d / 16 == in ? d % 16 : 0x80);
      }
    }
  }
  return t;
}

constexpr ShuffleTables kTables6 = make_tables<6>();

__m128i ld(const uint8_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }

// Nb = 6: four masks; Nb = 8: m00 = blend mask, m01 = shuffle.
struct Perm {
  __m128i m00, m01, m10, m11;
};

template <int Nb>
Perm load_perm(bool dec) {
  if (Nb == 8) {
    return dec ? Perm{ld(kBlend8.dec_blend), ld(kBlend8.dec_shuf), {}, {}}
               : Perm{ld(kBlend8.enc_blend), ld(kBlend8.enc_shuf), {}, {}};
  }
  const uint8_t (*t)[2][16] = dec ? kTables6.dec : kTables6.enc;
  return {ld(t[0][0]), ld(t[0][1]), ld(t[1][0]), ld(t[1][1])};
}

template <int Nb>
GPUCRYPTO_ALWAYS_INLINE void permute(const Perm& p, __m128i& lo, __m128i& hi) {
  if (Nb == 8) {
    const __m128i a = _mm_blendv_epi8(lo, hi, p.m00), b = _mm_blendv_epi8(hi, lo, p.m00);
    lo = _mm_shuffle_epi8(a, p.m01);
    hi = _mm_shuffle_epi8(b, p.m01);
  } else {
    const __m128i nlo = _mm_or_si128(_mm_shuffle_epi8(lo, p.m00), _mm_shuffle_epi8(hi, p.m01));
    hi = _mm_or_si128(_mm_shuffle_epi8(lo, p.m10), _mm_shuffle_epi8(hi, p.m11));
    lo = nlo;
  }
}

GPUCRYPTO_ALWAYS_INLINE __m128i key_half(const uint8_t* rk, int h) {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(rk + 16 * h));
}

// x[2i], x[2i+1]: the two halves of block i. Full cipher, keys from memory
// (AESENC takes them as memory operands; SSE has too few registers to hold them).
template <int Nb, int Nr, bool Decrypt, int N>
GPUCRYPTO_ALWAYS_INLINE void crypt_regs(const uint8_t (*rk)[kRoundKeyStride],
                                                      const Perm& p, __m128i* x) {
#pragma GCC unroll 16
  for (int i = 0; i < 2 * N; ++i) x[i] = _mm_xor_si128(x[i], key_half(rk[0], i & 1));
#pragma GCC unroll 16
  for (int r = 1; r <= Nr; ++r) {
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) {
      permute<Nb>(p, x[2 * i], x[2 * i + 1]);
      for (int h = 0; h < 2; ++h) {
        const __m128i k = key_half(rk[r], h);
        __m128i& v = x[2 * i + h];
        if (r < Nr) {
          v = Decrypt ? _mm_aesdec_si128(v, k) : _mm_aesenc_si128(v, k);
        } else {
          v = Decrypt ? _mm_aesdeclast_si128(v, k) : _mm_aesenclast_si128(v, k);
        }
      }
    }
  }
}

template <int Nb>
GPUCRYPTO_ALWAYS_INLINE void load_block(const uint8_t* p, __m128i* x) {
  x[0] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  x[1] = Nb == 8 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16))
                 : _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + 16));
}

template <int Nb>
GPUCRYPTO_ALWAYS_INLINE void store_block(uint8_t* p, const __m128i* x) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), x[0]);
  if (Nb == 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 16), x[1]);
  } else {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p + 16), x[1]);
  }
}

template <int Nb, int Nr, bool Decrypt>
void ecb(const KeySched* ks, const uint8_t* in, uint8_t* out, size_t n) {
  constexpr size_t kBs = 4 * Nb;
  const Perm p = load_perm<Nb>(Decrypt);
  const auto rk = Decrypt ? ks->dec : ks->enc;
  for (; n >= kBlocks; n -= kBlocks, in += kBlocks * kBs, out += kBlocks * kBs) {
    __m128i x[2 * kBlocks];
#pragma GCC unroll 8
    for (int i = 0; i < kBlocks; ++i) load_block<Nb>(in + kBs * i, x + 2 * i);
    crypt_regs<Nb, Nr, Decrypt, kBlocks>(rk, p, x);
#pragma GCC unroll 8
    for (int i = 0; i < kBlocks; ++i) store_block<Nb>(out + kBs * i, x + 2 * i);
  }
  for (; n > 0; --n, in += kBs, out += kBs) {
    __m128i x[2];
    load_block<Nb>(in, x);
    crypt_regs<Nb, Nr, Decrypt, 1>(rk, p, x);
    store_block<Nb>(out, x);
  }
}

// CTR: counter blocks are written to a small buffer (only the low word
// changes within a batch unless it wraps; then ctr_add carries exactly) and
// run through the same round code. The counter is public, so the wrap test
// leaks nothing.
template <int Nb, int Nr>
void ctr(const KeySched* ks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  constexpr size_t kBs = 4 * Nb;
  const Perm p = load_perm<Nb>(false);
  alignas(16) uint8_t buf[kBlocks * 32] = {};
  while (n > 0) {
    const size_t m = n < size_t(kBlocks) ? n : size_t(kBlocks);
    const uint64_t lo = load_be64(ctr_block + kBs - 8);
    for (size_t j = 0; j < size_t(kBlocks); ++j) {
      std::memcpy(buf + 32 * j, ctr_block, kBs);
      if (lo <= UINT64_MAX - (kBlocks - 1)) {
        store_be64(buf + 32 * j + kBs - 8, lo + j);
      } else {
        ctr_add(buf + 32 * j, kBs, j);
      }
    }
    __m128i x[2 * kBlocks];
#pragma GCC unroll 8
    for (int i = 0; i < kBlocks; ++i) load_block<Nb>(buf + 32 * i, x + 2 * i);
    if (m == size_t(kBlocks)) {
      crypt_regs<Nb, Nr, false, kBlocks>(ks->enc, p, x);
#pragma GCC unroll 8
      for (int i = 0; i < kBlocks; ++i) {
        __m128i d[2];
        load_block<Nb>(in + kBs * i, d);
        d[0] = _mm_xor_si128(d[0], x[2 * i]);
        d[1] = _mm_xor_si128(d[1], x[2 * i + 1]);
        store_block<Nb>(out + kBs * i, d);
      }
    } else {
      for (size_t i = 0; i < m; ++i) {
        crypt_regs<Nb, Nr, false, 1>(ks->enc, p, x + 2 * i);
        __m128i d[2];
        load_block<Nb>(in + kBs * i, d);
        d[0] = _mm_xor_si128(d[0], x[2 * i]);
        d[1] = _mm_xor_si128(d[1], x[2 * i + 1]);
        store_block<Nb>(out + kBs * i, d);
      }
    }
    ctr_add(ctr_block, kBs, m);
    in += m * kBs;
    out += m * kBs;
    n -= m;
  }
}

// CBC and CFB decryption on a group of N blocks (two xmm each): CBC
// decrypts c[i] and XORs c[i-1], CFB encrypts c[i-1] and XORs c[i]
// (c[-1] = prev, the chaining block). Every ciphertext block of the group is
// loaded before any output is stored, so in == out needs no copy; prev
// becomes the group's last ciphertext block.
template <int Nb, int Nr, bool kCfb, int N>
GPUCRYPTO_ALWAYS_INLINE void chained_group(const KeySched* ks, const Perm& p, __m128i* prev,
                                           const uint8_t* in, uint8_t* out) {
  constexpr size_t kBs = 4 * Nb;
  __m128i c[2 * N], x[2 * N];
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) load_block<Nb>(in + kBs * i, c + 2 * i);
  // Half h of the block before block i.
  const auto before = [&](int i, int h) GPUCRYPTO_INLINE_LAMBDA {
    return i == 0 ? prev[h] : c[2 * i - 2 + h];
  };
#pragma GCC unroll 16
  for (int j = 0; j < 2 * N; ++j) x[j] = kCfb ? before(j / 2, j % 2) : c[j];
  crypt_regs<Nb, Nr, !kCfb, N>(kCfb ? ks->enc : ks->dec, p, x);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) {
    __m128i d[2];
    for (int h = 0; h < 2; ++h) d[h] = _mm_xor_si128(x[2 * i + h], kCfb ? c[2 * i + h] : before(i, h));
    store_block<Nb>(out + kBs * i, d);
  }
  prev[0] = c[2 * N - 2];
  prev[1] = c[2 * N - 1];
}

template <int Nb, int Nr, bool kCfb>
void chained_dec(const KeySched* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  constexpr size_t kBs = 4 * Nb;
  const Perm p = load_perm<Nb>(!kCfb);
  __m128i prev[2];
  load_block<Nb>(reg, prev);
  for (; n >= kBlocks; n -= kBlocks, in += kBlocks * kBs, out += kBlocks * kBs) {
    chained_group<Nb, Nr, kCfb, kBlocks>(ks, p, prev, in, out);
  }
  for (; n > 0; --n, in += kBs, out += kBs) chained_group<Nb, Nr, kCfb, 1>(ks, p, prev, in, out);
  store_block<Nb>(reg, prev);
}

using KernelShapes = Shapes<612, 614, 814>;

#include "ciphers/rijndael/simd_hooks.inc"

}  // namespace

// One implementation per block size (its setkey); the hooks serve both.
constinit const CipherHw kNb6AesniHw = simd_hw("aesni", kBlocks, setkey_nb6);
constinit const CipherHw kNb8AesniHw = simd_hw("aesni", kBlocks, setkey_nb8);

}  // namespace gpucrypto::rijndael_impl
