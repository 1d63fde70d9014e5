// AES-128/192/256 with AES-NI (legacy SSE encoding, runs on any x86-64 with
// AES-NI and SSSE3). AESENC has a latency of several cycles but issues every
// cycle, so eight independent blocks go through each round together.
// Compiled with -maes -mssse3 -msse4.1; reached only after a CPU check.
#include <immintrin.h>
#include <openssl/crypto.h>

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

// Nr rounds of N independent blocks; decryption with the equivalent inverse
// cipher's keys (KeySched::dec).
template <int Nr, int N, bool kDecrypt>
GPUCRYPTO_ALWAYS_INLINE void crypt_regs(const __m128i* k, __m128i* x) {
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = _mm_xor_si128(x[i], k[0]);
#pragma GCC unroll 16
  for (int r = 1; r < Nr; ++r) {
#pragma GCC unroll 8
    for (int i = 0; i < N; ++i) x[i] = kDecrypt ? _mm_aesdec_si128(x[i], k[r]) : _mm_aesenc_si128(x[i], k[r]);
  }
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = kDecrypt ? _mm_aesdeclast_si128(x[i], k[Nr]) : _mm_aesenclast_si128(x[i], k[Nr]);
}

// N blocks through the cipher together (in -> out, in == out allowed).
template <int Nr, bool Decrypt, int N>
GPUCRYPTO_ALWAYS_INLINE void ecb_group(const __m128i* k, const uint8_t* in, uint8_t* out) {
  __m128i x[N];
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * i));
  crypt_regs<Nr, N, Decrypt>(k, x);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i), x[i]);
}

// Whole batches of kBatch blocks, then the rest. Out of line for the same
// reason as chained_dec_batches below: the spills of an 8-block batch stay
// off the few-block path.
template <int Nr, bool Decrypt>
[[gnu::noinline]] void ecb_batches(const KeySched* ks, const uint8_t* in, uint8_t* out, size_t n) {
  __m128i k[Nr + 1];
  load_keys<Nr>(Decrypt ? ks->dec : ks->enc, k);
  for (; n >= kBatch; n -= kBatch, in += 16 * kBatch, out += 16 * kBatch)
    ecb_group<Nr, Decrypt, int(kBatch)>(k, in, out);
  for (; n > 0; --n, in += 16, out += 16) ecb_group<Nr, Decrypt, 1>(k, in, out);
}

// Fewer than kBatch blocks: pairs, then the last block, keys in registers.
template <int /*Nb*/, int Nr, bool Decrypt>
void ecb(const KeySched* ks, const uint8_t* in, uint8_t* out, size_t n) {
  if (n >= kBatch) return ecb_batches<Nr, Decrypt>(ks, in, out, n);
  __m128i k[Nr + 1];
  load_keys<Nr>(Decrypt ? ks->dec : ks->enc, k);
  for (; n >= 2; n -= 2, in += 32, out += 32) ecb_group<Nr, Decrypt, 2>(k, in, out);
  if (n != 0) ecb_group<Nr, Decrypt, 1>(k, in, out);
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
    // A short tail goes through the rounds as one group too (the blocks'
    // latencies overlap; one block after another cost m chains of Nr
    // AESENCs), in the smallest group of 1, 2, 4 or 8 that holds it.
    const auto group = [&]<int N>() GPUCRYPTO_INLINE_LAMBDA {
      crypt_regs<Nr, N, false>(k, x);
#pragma GCC unroll 8
      for (size_t i = 0; i < size_t(N); ++i) {
        if (i == m) break;
        const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * i));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i), _mm_xor_si128(p, x[i]));
      }
    };
    if (m > 4) {
      group.template operator()<int(kBatch)>();
    } else if (m > 2) {
      group.template operator()<4>();
    } else if (m == 2) {
      group.template operator()<2>();
    } else {
      group.template operator()<1>();
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

// --- CBC / CFB decryption (the hooks: simd_hooks.inc) --------------------------

// CBC and CFB decryption on a group of N blocks: CBC decrypts c[i] and XORs
// c[i-1], CFB encrypts c[i-1] and XORs c[i] (c[-1] = prev, the chaining
// block). Every ciphertext block of the group is loaded before any output is
// stored, so in == out needs no copy. Returns the group's last ciphertext
// block: the next group's chaining block.
template <int Nr, bool kCfb, int N>
GPUCRYPTO_ALWAYS_INLINE __m128i chained_group(const __m128i* k, __m128i prev, const uint8_t* in,
                                              uint8_t* out) {
  __m128i c[N], x[N];
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) c[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * i));
  const auto before = [&](int i) GPUCRYPTO_INLINE_LAMBDA { return i == 0 ? prev : c[i - 1]; };
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) x[i] = kCfb ? before(i) : c[i];
  crypt_regs<Nr, N, !kCfb>(k, x);
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i),
                     _mm_xor_si128(x[i], kCfb ? c[i] : before(i)));
  }
  return c[N - 1];
}

// kBatch blocks per group, then the tail one block per group (the blocks
// are independent, so out-of-order execution overlaps them). Out of line:
// an 8-block group needs more than the 16 xmm registers, and its spills of
// round keys would otherwise sit on the few-block path below too.
template <int Nr, bool kCfb>
[[gnu::noinline]] void chained_dec_batches(const KeySched* ks, uint8_t* reg, const uint8_t* in,
                                           uint8_t* out, size_t n) {
  __m128i k[Nr + 1];
  load_keys<Nr>(kCfb ? ks->enc : ks->dec, k);
  __m128i prev = _mm_loadu_si128(reinterpret_cast<const __m128i*>(reg));
  for (; n >= kBatch; n -= kBatch, in += 16 * kBatch, out += 16 * kBatch) {
    prev = chained_group<Nr, kCfb, int(kBatch)>(k, prev, in, out);
  }
  for (; n > 0; --n, in += 16, out += 16) prev = chained_group<Nr, kCfb, 1>(k, prev, in, out);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(reg), prev);
}

// A call of fewer than kBatch blocks (a 16- or 64-byte update): pairs, then
// the last block, with every AES-128 round key in a register.
template <int /*Nb*/, int Nr, bool kCfb>
void chained_dec(const KeySched* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  if (n >= kBatch) return chained_dec_batches<Nr, kCfb>(ks, reg, in, out, n);
  __m128i k[Nr + 1];
  load_keys<Nr>(kCfb ? ks->enc : ks->dec, k);
  __m128i prev = _mm_loadu_si128(reinterpret_cast<const __m128i*>(reg));
  for (; n >= 2; n -= 2, in += 32, out += 32) prev = chained_group<Nr, kCfb, 2>(k, prev, in, out);
  if (n != 0) prev = chained_group<Nr, kCfb, 1>(k, prev, in, out);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(reg), prev);
}

using KernelShapes = Shapes<410, 412, 414>;

#include "ciphers/rijndael/simd_hooks.inc"

// --- chained modes -------------------------------------------------------------

enum class Chain { kCbcEncrypt, kCfbEncrypt, kOfb };

// One block after the other with the chaining value in a register: the AES
// latency per block and nothing else. The XORs that feed the next block
// (plaintext, round key 0) ride in the last-round key of the previous block,
// a second AESENCLAST in parallel with the one that makes the output, so the
// chain is exactly Nr AES rounds per block.
template <int Nr, Chain C>
void chain(const KeySched* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  if (n == 0) return;
  __m128i k[Nr + 1];
  load_keys<Nr>(ks->enc, k);
  const __m128i k0 = k[0], kl = k[Nr];
  auto load = [](const uint8_t* q) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)); };
  __m128i p = load(in);
  __m128i x = _mm_xor_si128(load(reg), C == Chain::kCbcEncrypt ? _mm_xor_si128(p, k0) : k0);
  for (;;) {
#pragma GCC unroll 16
    for (int r = 1; r < Nr; ++r) x = _mm_aesenc_si128(x, k[r]);
    // This block's output and what the register holds after it.
    const __m128i y = _mm_aesenclast_si128(x, C == Chain::kCfbEncrypt ? _mm_xor_si128(kl, p) : kl);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                     C == Chain::kOfb ? _mm_aesenclast_si128(x, _mm_xor_si128(kl, p)) : y);
    if (--n == 0) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(reg), y);
      return;
    }
    in += 16;
    out += 16;
    const __m128i next = load(in);
    // Round 1's input for the next block: reg ^ k0 (^ next plaintext for CBC).
    __m128i fold = _mm_xor_si128(kl, k0);
    if constexpr (C == Chain::kCbcEncrypt) fold = _mm_xor_si128(fold, next);
    if constexpr (C == Chain::kCfbEncrypt) fold = _mm_xor_si128(fold, p);
    x = _mm_aesenclast_si128(x, fold);
    p = next;
  }
}

// Schedules without a kernel (test-only key sizes): the mode's definition
// over the reference, block by block.
template <Chain C>
void chain_ref(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  for (; n > 0; --n, in += 16, out += 16) {
    uint8_t p[16];
    std::memcpy(p, in, 16);
    if constexpr (C == Chain::kCbcEncrypt) xor_bytes(reg, reg, p, 16);
    ref_encrypt(ks, reg, reg, 1);
    if constexpr (C == Chain::kCfbEncrypt) xor_bytes(reg, reg, p, 16);
    if constexpr (C == Chain::kOfb) {
      xor_bytes(out, p, reg, 16);
    } else {
      std::memcpy(out, reg, 16);
    }
  }
}

// CFB1: one encryption per bit. The shift register lives in an xmm as a
// little-endian 128-bit integer (bit 127 = bit 7 of reg[0], the next to
// leave), so shifting a bit in is PSLLQ/PSRLQ/PSLLDQ and one PSHUFB turns it
// into the block to encrypt. Encryption shifts in the output bit, so every
// encryption waits for the one before (the AES latency per bit); decryption
// shifts in the input bit, so its encryptions are independent and overlap
// (which is why the direction is a template parameter, not a select the
// register would depend on). A byte of output is stored once, at its last
// bit, keeping the bits past nbits. Data bits move through shifts and masks
// only; the direction and the bit positions are public. `E` encrypts one
// block in a register (the kernel's rounds or, for schedules without a
// kernel, the reference).
template <bool kEncrypt, class E>
GPUCRYPTO_ALWAYS_INLINE void cfb1_bits(E&& e, uint8_t* reg, const uint8_t* in, uint8_t* out,
                                       size_t nbits) {
  const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  __m128i r = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(reg)), bswap);
  unsigned acc = 0;  // the output bits of the current byte so far
  for (size_t n = 0; n < nbits; ++n) {
    const unsigned key_bit = (unsigned(_mm_cvtsi128_si32(e(_mm_shuffle_epi8(r, bswap)))) >> 7) & 1u;
    const unsigned shift = 7 - unsigned(n % 8);
    const unsigned x = (unsigned(in[n / 8]) >> shift) & 1u, y = x ^ key_bit;
    acc |= y << shift;
    if (shift == 0 || n + 1 == nbits) {
      out[n / 8] = uint8_t((unsigned(out[n / 8]) & ((1u << shift) - 1)) | acc);
      acc = 0;
    }
    // r = r << 1 | the ciphertext bit, over all 128 bits.
    const __m128i carry = _mm_slli_si128(_mm_srli_epi64(r, 63), 8);
    r = _mm_or_si128(_mm_or_si128(_mm_slli_epi64(r, 1), carry), _mm_cvtsi32_si128(int(kEncrypt ? y : x)));
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(reg), _mm_shuffle_epi8(r, bswap));
}

template <class E>
GPUCRYPTO_ALWAYS_INLINE void cfb1_dir(E&& e, uint8_t* reg, const uint8_t* in, uint8_t* out,
                                      size_t nbits, bool encrypt) {
  if (encrypt) {
    cfb1_bits<true>(e, reg, in, out, nbits);
  } else {
    cfb1_bits<false>(e, reg, in, out, nbits);
  }
}

template <int Nr>
void cfb1(const KeySched* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t nbits,
          bool encrypt) {
  __m128i k[Nr + 1];
  load_keys<Nr>(ks->enc, k);
  const auto e = [&](__m128i x) GPUCRYPTO_INLINE_LAMBDA {
    crypt_regs<Nr, 1, false>(k, &x);
    return x;
  };
  cfb1_dir(e, reg, in, out, nbits, encrypt);
}

void cfb1_ref(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t nbits,
              bool encrypt) {
  alignas(16) uint8_t b[16];
  const auto e = [&](__m128i x) {
    _mm_store_si128(reinterpret_cast<__m128i*>(b), x);
    ref_encrypt(ks, b, b, 1);
    return _mm_load_si128(reinterpret_cast<const __m128i*>(b));
  };
  cfb1_dir(e, reg, in, out, nbits, encrypt);
  OPENSSL_cleanse(b, sizeof b);  // keystream
}

template <Chain C>
void chain_hook(const void* vks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  const KeySched* ks = static_cast<const KeySched*>(vks);
  on_shape(
      ks, KernelShapes{},
      [&]<int Nb, int Nr>() GPUCRYPTO_INLINE_LAMBDA { chain<Nr, C>(ks, reg, in, out, n); },
      [&]() GPUCRYPTO_INLINE_LAMBDA { chain_ref<C>(vks, reg, in, out, n); });
}

}  // namespace

void aesni_cbc_encrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  chain_hook<Chain::kCbcEncrypt>(ks, reg, in, out, n);
}
void aesni_cfb_encrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  chain_hook<Chain::kCfbEncrypt>(ks, reg, in, out, n);
}
void aesni_ofb(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  chain_hook<Chain::kOfb>(ks, reg, in, out, n);
}
void aesni_cbc_decrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  chained_dec_hook<false>(ks, reg, in, out, n);
}
void aesni_cfb_decrypt(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  chained_dec_hook<true>(ks, reg, in, out, n);
}

void aesni_cfb1(const void* vks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t nbits,
                bool encrypt) {
  const KeySched* ks = static_cast<const KeySched*>(vks);
  on_shape(
      ks, KernelShapes{},
      [&]<int Nb, int Nr>() GPUCRYPTO_INLINE_LAMBDA { cfb1<Nr>(ks, reg, in, out, nbits, encrypt); },
      [&]() GPUCRYPTO_INLINE_LAMBDA { cfb1_ref(vks, reg, in, out, nbits, encrypt); });
}

void aesni_encrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t n) {
  ecb_hook<false>(ks, in, out, n);
}
void aesni_decrypt(const void* ks, const uint8_t* in, uint8_t* out, size_t n) {
  ecb_hook<true>(ks, in, out, n);
}
void aesni_ctr(const void* ks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  ctr_hook(ks, ctr_block, in, out, n);
}

// --- key setup ------------------------------------------------------------------
// AES key expansion (FIPS 197 §5.2) with the AES-NI S-box (AESKEYGENASSIST
// for AES-128, AESENCLAST for AES-192/256: aes_key_steps.inc), and
// the equivalent inverse cipher's keys with AESIMC: the same KeySched rows as
// expand_key (whose constant-time S-box arithmetic costs microseconds per key,
// 20x the default provider's key setup: every EVP_CipherInit with a key pays
// it -- a TLS connection, a DRBG re-keying on each generate). Words are the
// little-endian dwords of the key bytes, so RotWord is a right rotation by 8.
namespace {

#include "ciphers/rijndael/aes_key_steps.inc"

void expand128(__m128i* r, const uint8_t* key) {
  r[0] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
  r[1] = step128<0x01>(r[0]);
  r[2] = step128<0x02>(r[1]);
  r[3] = step128<0x04>(r[2]);
  r[4] = step128<0x08>(r[3]);
  r[5] = step128<0x10>(r[4]);
  r[6] = step128<0x20>(r[5]);
  r[7] = step128<0x40>(r[6]);
  r[8] = step128<0x80>(r[7]);
  r[9] = step128<0x1b>(r[8]);
  r[10] = step128<0x36>(r[9]);
}

void expand256(__m128i* r, const uint8_t* key) {
  __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key));
  __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(key + 16));
  r[0] = a, r[1] = b;
  step256<0x01>(a, b), r[2] = a, r[3] = b;
  step256<0x02>(a, b), r[4] = a, r[5] = b;
  step256<0x04>(a, b), r[6] = a, r[7] = b;
  step256<0x08>(a, b), r[8] = a, r[9] = b;
  step256<0x10>(a, b), r[10] = a, r[11] = b;
  step256<0x20>(a, b), r[12] = a, r[13] = b;
  r[14] = step256a<0x40>(a, b);
}

}  // namespace

void setkey_aesni(void* vks, const uint8_t* key, size_t keylen, bool with_decrypt) {
  if (keylen != 16 && keylen != 24 && keylen != 32) return setkey_nb4(vks, key, keylen, with_decrypt);
  auto* ks = static_cast<KeySched*>(vks);
  const unsigned nk = unsigned(keylen / 4), nr = nk + 6;
  __m128i r[kMaxRounds + 1];
  if (nk == 4) expand128(r, key);
  else if (nk == 8) expand256(r, key);
  else expand_rows192(key, [&r](unsigned i, __m128i v) { r[i] = v; });
  // Every row whole (the 16 bytes past each AES round key stay zero), so
  // nothing of a previous schedule remains.
  const __m128i zero = _mm_setzero_si128();
  const auto put = [](uint8_t* row, __m128i v, __m128i z) {
    _mm_store_si128(reinterpret_cast<__m128i*>(row), v);
    _mm_store_si128(reinterpret_cast<__m128i*>(row + 16), z);
  };
  for (unsigned j = 0; j <= kMaxRounds; ++j) {
    put(ks->enc[j], j <= nr ? r[j] : zero, zero);
    // dec[0] = enc[nr], dec[j] = InvMixColumns(enc[nr - j]), dec[nr] = enc[0].
    const __m128i d = j == 0 || j == nr ? r[nr - j] : j < nr ? _mm_aesimc_si128(r[nr - j]) : zero;
    put(ks->dec[j], d, zero);
  }
  ks->nb = 4;
  ks->nr = nr;
  OPENSSL_cleanse(r, sizeof r);  // the round keys' copy on the stack
}

// The hooks above, so that vaes512.cpp's small calls reach them directly.
constinit const CipherHw kAesAesniHw = {"aesni",           compiled_features(), sizeof(KeySched),
                                        kBatch,            setkey_aesni,        aesni_encrypt,
                                        aesni_decrypt,     aesni_ctr,           aesni_cbc_encrypt,
                                        aesni_cfb_encrypt, aesni_ofb,           aesni_cbc_decrypt,
                                        aesni_cfb_decrypt, aesni_cfb1,          &kAesAesniGcm};

}  // namespace gpucrypto::rijndael_impl
