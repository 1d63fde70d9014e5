// Rijndael with 192- and 256-bit blocks (Nb = 6, 8) on VAES + AVX512-VBMI.
//
// How a wide Rijndael round maps onto AESENC
// ------------------------------------------
// AESENC(x, k) on one 128-bit lane computes MixColumns(SubBytes(ShiftRows_aes(x))) ^ k,
// where ShiftRows_aes rotates row r of the lane's 4 columns left by r.
// SubBytes is byte-local and MixColumns and AddRoundKey are column-local, so
// they act the same whether the columns belong to an AES block or to a wider
// Rijndael block laid out column by column over several lanes. Only ShiftRows
// differs: Rijndael's rotates row r across all Nb columns by C_r (1,2,3 for
// Nb = 6; 1,3,4 for Nb = 8). Byte permutations commute with SubBytes, so
//
//   Rijndael round(x, k) = AESENC(P(x), k),  P = ShiftRows_aes^-1 ∘ ShiftRows_rijndael,
//
// i.e. P moves each byte to where ShiftRows_aes will pick it up and put it in
// the place Rijndael's ShiftRows wants. The last round uses AESENCLAST with
// the same P. Decryption is the equivalent inverse cipher with AESDEC /
// AESDECLAST, the InvMixColumns'd keys of KeySched::dec and
// Q = InvShiftRows_aes^-1 ∘ InvShiftRows_rijndael.
//
// Layout: one block per 256-bit half of a zmm (two blocks per register).
// Nb = 8 fills the half; Nb = 6 uses 6 of its 8 columns. The two spare
// columns carry bytes P parks there for ShiftRows_aes to bring back into
// columns 4-5; what they hold after a round is never read. P is one VPERMB
// per register and round (the permutation crosses 128-bit lanes), with a
// constant index built at compile time below. For Nb = 6 the dense 48-byte
// input of two blocks is spread to this layout by the first round's
// permutation (the initial AddRoundKey uses a dense copy of round key 0), and
// the output is packed back with one more VPERMB. kRegs registers (2*kRegs
// blocks) go through each round together to keep the AES units busy.
//
// Compiled with -mavx512f -mavx512bw -mavx512vl -mavx512vbmi -mvaes -maes;
// reached only after a CPU check.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ciphers/rijndael/internal.h"
#include "ciphers/rijndael/simd_modes.h"

namespace gpucrypto::rijndael_impl {
namespace {

constexpr int kRegs = 12;  // measured: 8 is latency bound, 16 no better
constexpr size_t kBatch = 2 * size_t(kRegs);  // blocks per iteration

// VPERMB indices (out[j] = in[idx[j]]) for one block size.
struct PermTables {
  alignas(64) uint8_t enc[64];        // P, sparse -> sparse
  alignas(64) uint8_t dec[64];        // Q, sparse -> sparse
  alignas(64) uint8_t enc_first[64];  // P reading dense input (two blocks at 0 and 4*Nb)
  alignas(64) uint8_t dec_first[64];  // Q reading dense input
  alignas(64) uint8_t pack[64];       // sparse -> dense (bytes past 8*Nb unused)
};

template <int Nb>
constexpr PermTables make_tables() {
  PermTables t{};
  const unsigned bs = 4 * Nb;
  for (unsigned h = 0; h < 2; ++h) {
    for (unsigned q = 0; q < 32; ++q) {
      const unsigned e = perm_source(Nb, false, q), d = perm_source(Nb, true, q);
      t.enc[32 * h + q] = uint8_t(32 * h + e);
      t.dec[32 * h + q] = uint8_t(32 * h + d);
      // Source positions >= bs only occur for spare columns; any byte will do.
      t.enc_first[32 * h + q] = uint8_t(e < bs ? bs * h + e : 0);
      t.dec_first[32 * h + q] = uint8_t(d < bs ? bs * h + d : 0);
    }
  }
  for (unsigned j = 0; j < 64; ++j) t.pack[j] = uint8_t(j < 2 * bs ? 32 * (j / bs) + j % bs : 0);
  return t;
}

constexpr PermTables kTables6 = make_tables<6>();
constexpr PermTables kTables8 = make_tables<8>();

template <int Nb>
constexpr const PermTables& tables() {
  return Nb == 6 ? kTables6 : kTables8;
}

__m512i load_table(const uint8_t* t) { return _mm512_load_si512(t); }

using RoundKeys = const uint8_t (*)[kRoundKeyStride];

// GCC 12's unmasked VPERMB and VBROADCASTI64X4 intrinsics trip
// -Wmaybe-uninitialized (their undefined pass-through operand); the all-ones
// zero-masked forms are the same instructions without the warning.
GPUCRYPTO_ALWAYS_INLINE __m512i permb(__m512i idx, __m512i x) {
  return _mm512_maskz_permutexvar_epi8(~__mmask64(0), idx, x);
}

template <int Nr>
GPUCRYPTO_ALWAYS_INLINE void load_keys(RoundKeys src, __m512i* k) {
#pragma GCC unroll 16
  for (int r = 0; r <= Nr; ++r) {
    k[r] = _mm512_maskz_broadcast_i64x4(
        __mmask8(0xff), _mm256_load_si256(reinterpret_cast<const __m256i*>(src[r])));
  }
}

// Rounds 1..Nr on registers already XORed with round key 0 and, for the
// first round, already permuted (`x` holds P(state ^ k0)).
template <int Nr, bool Decrypt>
GPUCRYPTO_ALWAYS_INLINE void rounds_after_first_perm(const __m512i* k, __m512i perm,
                                                                   __m512i* x) {
#pragma GCC unroll 16
  for (int r = 1; r < Nr; ++r) {
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) {
      x[i] = Decrypt ? _mm512_aesdec_epi128(x[i], k[r]) : _mm512_aesenc_epi128(x[i], k[r]);
      x[i] = permb(perm, x[i]);
    }
  }
#pragma GCC unroll 16
  for (int i = 0; i < kRegs; ++i) {
    x[i] = Decrypt ? _mm512_aesdeclast_epi128(x[i], k[Nr]) : _mm512_aesenclast_epi128(x[i], k[Nr]);
  }
}

// Qword mask of the first `blocks` dense blocks of a register (Nb/2 qwords each).
template <int Nb>
__mmask8 dense_mask(size_t blocks) {
  return __mmask8((1u << (blocks * (Nb / 2))) - 1);
}

template <int Nb>
__mmask8 tail_mask(size_t n, int i) {
  const size_t first = 2 * size_t(i);
  if (n <= first) return 0;
  return dense_mask<Nb>(n - first >= 2 ? 2 : n - first);
}

// The cipher of one direction on kRegs registers of dense blocks: its round
// keys and permutation tables, loaded once per call (ECB and the fused
// CBC/CFB decryption share it).
template <int Nb, int Nr, bool Decrypt>
struct DenseCipher {
  __m512i k[Nr + 1];
  __m512i perm, first, pack, k0;
  GPUCRYPTO_ALWAYS_INLINE explicit DenseCipher(const KeySched* ks) {
    const PermTables& t = tables<Nb>();
    load_keys<Nr>(Decrypt ? ks->dec : ks->enc, k);
    perm = load_table(Decrypt ? t.dec : t.enc);
    first = load_table(Decrypt ? t.dec_first : t.enc_first);
    pack = load_table(t.pack);
    k0 = permb(pack, k[0]);  // round key 0, dense
  }
  // x: dense blocks in, dense blocks out.
  GPUCRYPTO_ALWAYS_INLINE void crypt(__m512i* x) const {
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) x[i] = permb(first, _mm512_xor_si512(x[i], k0));  // = perm for Nb = 8
    rounds_after_first_perm<Nr, Decrypt>(k, perm, x);
    if constexpr (Nb == 6) {
#pragma GCC unroll 16
      for (int i = 0; i < kRegs; ++i) x[i] = permb(pack, x[i]);
    }
  }
};

template <int Nb, int Nr, bool Decrypt>
void ecb(const KeySched* ks, const uint8_t* in, uint8_t* out, size_t n) {
  constexpr size_t kRegBytes = 8 * Nb;  // two dense blocks
  const DenseCipher<Nb, Nr, Decrypt> cipher(ks);
  const __mmask8 full = dense_mask<Nb>(2);
  while (n > 0) {
    const bool whole = n >= kBatch;
    __m512i x[kRegs];
    __mmask8 m[kRegs];
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) {
      m[i] = whole ? full : tail_mask<Nb>(n, i);
      x[i] = _mm512_maskz_loadu_epi64(m[i], in + kRegBytes * i);
    }
    cipher.crypt(x);
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) _mm512_mask_storeu_epi64(out + kRegBytes * i, m[i], x[i]);
    const size_t done = whole ? kBatch : n;
    in += done * 4 * Nb;
    out += done * 4 * Nb;
    n -= done;
  }
}

// CTR. The counter block is a 4*Nb-byte big-endian integer whose low 64 bits
// are its last 8 bytes, qword Nb/2-1 of each half. Counter blocks are built
// in the sparse layout directly: a register holding the block in both halves
// with that qword replaced by the little-endian low word (VPADDQ adds the
// per-block offsets), then one VPSHUFB byte-swaps just that qword. When the
// low word would wrap inside a batch (the counter is the public IV, so the
// branch leaks nothing) ctr_exact takes that batch.
__m512i load_counter(const uint8_t* c) {
  return _mm512_maskz_broadcast_i64x4(__mmask8(0xff),
                                      _mm256_load_si256(reinterpret_cast<const __m256i*>(c)));
}

// The rare batch in which the low 64 bits of the counter wrap: counter blocks
// one by one with full carry, through the ECB kernel. Advances `c`.
template <int Nb, int Nr>
__attribute__((noinline)) void ctr_exact(const KeySched* ks, uint8_t* c, const uint8_t* in,
                                         uint8_t* out, size_t n) {
  constexpr size_t kBs = 4 * Nb;
  alignas(64) uint8_t buf[kBatch * kBs];
  for (size_t j = 0; j < n; ++j) {
    std::memcpy(buf + kBs * j, c, kBs);
    ctr_add(c, kBs, 1);
  }
  ecb<Nb, Nr, false>(ks, buf, buf, n);
  xor_bytes(out, in, buf, n * kBs);
  OPENSSL_cleanse(buf, sizeof buf);  // keystream: do not leave it on the stack
}

template <int Nb, int Nr>
void ctr(const KeySched* ks, uint8_t* ctr_block, const uint8_t* in, uint8_t* out, size_t n) {
  constexpr size_t kBs = 4 * Nb, kRegBytes = 2 * kBs;
  constexpr int kLowQ = Nb / 2 - 1;  // qword of the low 64 bits within a half
  const PermTables& t = tables<Nb>();
  __m512i k[Nr + 1];
  load_keys<Nr>(ks->enc, k);
  const __m512i perm = load_table(t.enc);
  const __m512i pack = load_table(t.pack);
  const __mmask8 low_q = __mmask8((1u << kLowQ) | (1u << (kLowQ + 4)));
  // Identity within each lane except a byte reversal of the low-word qword.
  alignas(64) uint8_t swap_idx[64];
  for (unsigned j = 0; j < 64; ++j) {
    const bool in_low = j / 8 == unsigned(kLowQ) || j / 8 == unsigned(kLowQ) + 4;
    swap_idx[j] = uint8_t(in_low ? (j & ~7u) + 7 - (j & 7u) : j) & 15;
  }
  const __m512i bswap = _mm512_load_si512(swap_idx);
  const __m512i half1 = _mm512_maskz_set1_epi64(__mmask8(1u << (kLowQ + 4)), 1);
  const __m512i step = _mm512_maskz_set1_epi64(low_q, 2);
  alignas(64) uint8_t c[32] = {};
  std::memcpy(c, ctr_block, kBs);
  // The counter block in both halves; only its low word changes between
  // batches (it is inserted from a scalar), the rest only on a carry.
  __m512i blk = load_counter(c);
  while (n > 0) {
    const bool whole = n >= kBatch;
    __m512i x[kRegs];
    __mmask8 m[kRegs];
    const uint64_t lo = load_be64(c + kBs - 8);
    if (lo > UINT64_MAX - (kBatch - 1)) {
      const size_t done = whole ? kBatch : n;
      ctr_exact<Nb, Nr>(ks, c, in, out, done);
      blk = load_counter(c);
      in += done * kBs;
      out += done * kBs;
      n -= done;
      continue;
    }
    {
      __m512i v = _mm512_add_epi64(_mm512_mask_set1_epi64(blk, low_q, int64_t(lo)), half1);
#pragma GCC unroll 16
      for (int i = 0; i < kRegs; ++i) {
        x[i] = _mm512_shuffle_epi8(v, bswap);
        v = _mm512_add_epi64(v, step);
      }
    }
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) x[i] = permb(perm, _mm512_xor_si512(x[i], k[0]));
    rounds_after_first_perm<Nr, false>(k, perm, x);
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) {
      m[i] = whole ? dense_mask<Nb>(2) : tail_mask<Nb>(n, i);
      if constexpr (Nb == 6) x[i] = permb(pack, x[i]);
      const __m512i p = _mm512_maskz_loadu_epi64(m[i], in + kRegBytes * i);
      _mm512_mask_storeu_epi64(out + kRegBytes * i, m[i], _mm512_xor_si512(p, x[i]));
    }
    const size_t done = whole ? kBatch : n;
    const uint64_t next = lo + done;
    if (next < lo) {
      ctr_add(c, kBs, done);  // carry out of the low word
      blk = load_counter(c);
    } else {
      store_be64(c + kBs - 8, next);
    }
    in += done * kBs;
    out += done * kBs;
    n -= done;
  }
  std::memcpy(ctr_block, c, kBs);
}

// CBC and CFB decryption fused with their XOR. Both need the ciphertext one
// block back: in the dense layout register i holds blocks 2i and 2i+1, so
// the shifted register (blocks 2i-1, 2i) is the top block of register i-1
// and the bottom block of register i, one VPERMT2Q (register 0 takes the top
// block of `prev`: the previous batch's last register, or the chaining
// block). CBC decrypts c[i] and XORs the shifted register; CFB encrypts the
// shifted register and XORs c[i]; the transform is ECB's (dense round key 0,
// the first permutation from the dense layout, the rounds, the pack). Every
// block of a batch is loaded before any is stored, so in == out needs no copy.
template <int Nb>
__m512i shift_index() {
  constexpr int kHalf = Nb / 2;  // qwords per block
  alignas(64) int64_t idx[8] = {};
  for (int j = 0; j < 2 * kHalf; ++j) idx[j] = j < kHalf ? kHalf + j : 8 + j - kHalf;
  return _mm512_load_si512(idx);
}

template <int Nb, int Nr, bool kCfb>
void chained_dec(const KeySched* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t n) {
  constexpr bool kDecrypt = !kCfb;  // CFB decryption runs the cipher forwards
  constexpr size_t kBs = 4 * Nb, kRegBytes = 2 * kBs;
  if (n == 0) return;
  const DenseCipher<Nb, Nr, kDecrypt> cipher(ks);
  const __m512i shift = shift_index<Nb>();
  const __mmask8 one = dense_mask<Nb>(1), full = dense_mask<Nb>(2);
  // The chaining block in the top block's qwords.
  __m512i prev = _mm512_maskz_expand_epi64(full & ~one, _mm512_maskz_loadu_epi64(one, reg));
  // What reg becomes: the last ciphertext block, read before in == out
  // overwrites it (its position is public).
  const __m512i last = _mm512_maskz_loadu_epi64(one, in + kBs * (n - 1));
  while (n > 0) {
    const bool whole = n >= kBatch;
    __m512i c[kRegs], x[kRegs];
    __mmask8 m[kRegs];
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) {
      m[i] = whole ? full : tail_mask<Nb>(n, i);
      c[i] = _mm512_maskz_loadu_epi64(m[i], in + kRegBytes * i);
    }
    const auto shifted = [&](int i) GPUCRYPTO_INLINE_LAMBDA {
      return _mm512_maskz_permutex2var_epi64(__mmask8(0xff), i == 0 ? prev : c[i - 1], shift, c[i]);
    };
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) x[i] = kCfb ? shifted(i) : c[i];
    cipher.crypt(x);
#pragma GCC unroll 16
    for (int i = 0; i < kRegs; ++i) {
      _mm512_mask_storeu_epi64(out + kRegBytes * i, m[i],
                               _mm512_xor_si512(x[i], kCfb ? c[i] : shifted(i)));
    }
    prev = c[kRegs - 1];
    const size_t done = whole ? kBatch : n;
    in += done * kBs;
    out += done * kBs;
    n -= done;
  }
  _mm512_mask_storeu_epi64(reg, one, last);
}

using KernelShapes = Shapes<612, 613, 614, 814>;

#include "ciphers/rijndael/simd_hooks.inc"

}  // namespace

// One implementation per block size (its setkey); the hooks serve both.
constinit const CipherHw kNb6Vaes512Hw = simd_hw("vaes512", kBatch, setkey_nb6);
constinit const CipherHw kNb8Vaes512Hw = simd_hw("vaes512", kBatch, setkey_nb8);

}  // namespace gpucrypto::rijndael_impl
