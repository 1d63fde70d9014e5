// Arithmetic modulo the P-384 prime p = 2^384 - 2^128 - 2^96 + 2^32 - 1, in
// Montgomery form (R = 2^384), six little-endian 64-bit limbs.
//
// Every function runs the same instructions whatever the values: carries and
// borrows become masks, never branches; no memory index depends on a value.
// Inputs and outputs are fully reduced (< p). Used only by p384.cpp.
#pragma once
#include <cstddef>
#include <cstdint>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace gpucrypto::p384 {

using u128 = unsigned __int128;

struct Fe {
  uint64_t v[6];
};

inline constexpr Fe kP = {{0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull,
                           0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull}};
inline constexpr uint64_t kPInv = 0x100000001ull;  // -p^-1 mod 2^64
inline constexpr Fe kR2 = {{0xfffffffe00000001ull, 0x0000000200000000ull, 0xfffffffe00000000ull,
                            0x0000000200000000ull, 0x0000000000000001ull, 0x0000000000000000ull}};
inline constexpr Fe kOne = {{0xffffffff00000001ull, 0x00000000ffffffffull, 0x0000000000000001ull, 0,
                             0, 0}};  // R mod p: 1 in Montgomery form
inline constexpr Fe kZero = {{0, 0, 0, 0, 0, 0}};

// Add and subtract with carry: the x86 intrinsics make GCC and Clang emit one
// ADC/SBB chain (2.3-2.5x faster than carries through unsigned __int128,
// measured); elsewhere the u128 form.
inline uint64_t addc(uint64_t a, uint64_t b, uint64_t& carry) {
#if defined(__x86_64__)
  unsigned long long r;
  carry = _addcarry_u64(static_cast<unsigned char>(carry), a, b, &r);
  return r;
#else
  const u128 s = u128(a) + b + carry;
  carry = uint64_t(s >> 64);
  return uint64_t(s);
#endif
}
inline uint64_t subb(uint64_t a, uint64_t b, uint64_t& borrow) {
#if defined(__x86_64__)
  unsigned long long r;
  borrow = _subborrow_u64(static_cast<unsigned char>(borrow), a, b, &r);
  return r;
#else
  const u128 d = u128(a) - b - borrow;
  borrow = uint64_t(d >> 64) & 1;
  return uint64_t(d);
#endif
}

// r = (t6:t) - p if that does not borrow, else t. (t6:t) < 2p.
inline void fe_reduce_once(Fe& r, const uint64_t t[6], uint64_t t6) {
  uint64_t s[6];
  uint64_t borrow = 0;
  for (int i = 0; i < 6; ++i) s[i] = subb(t[i], kP.v[i], borrow);
  subb(t6, 0, borrow);
  const uint64_t keep = 0 - borrow;  // all ones when (t6:t) < p
  for (int i = 0; i < 6; ++i) r.v[i] = (t[i] & keep) | (s[i] & ~keep);
}

inline void fe_add(Fe& r, const Fe& a, const Fe& b) {
  uint64_t t[6];
  uint64_t carry = 0;
  for (int i = 0; i < 6; ++i) t[i] = addc(a.v[i], b.v[i], carry);
  fe_reduce_once(r, t, carry);
}

inline void fe_sub(Fe& r, const Fe& a, const Fe& b) {
  uint64_t t[6];
  uint64_t borrow = 0;
  for (int i = 0; i < 6; ++i) t[i] = subb(a.v[i], b.v[i], borrow);
  const uint64_t m = 0 - borrow;  // add p back when a < b
  uint64_t carry = 0;
  for (int i = 0; i < 6; ++i) r.v[i] = addc(t[i], kP.v[i] & m, carry);
}

// r = a * b / R mod p (CIOS Montgomery multiplication), portable. r may
// alias a or b.
inline void fe_mul_portable(Fe& r, const Fe& a, const Fe& b) {
  uint64_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 6; ++i) {
    u128 c = 0;
    for (int j = 0; j < 6; ++j) {
      c += u128(a.v[j]) * b.v[i] + t[j];
      t[j] = uint64_t(c);
      c >>= 64;
    }
    c += t[6];
    t[6] = uint64_t(c);
    t[7] = uint64_t(c >> 64);
    const uint64_t m = t[0] * kPInv;
    c = (u128(m) * kP.v[0] + t[0]) >> 64;
    for (int j = 1; j < 6; ++j) {
      c += u128(m) * kP.v[j] + t[j];
      t[j - 1] = uint64_t(c);
      c >>= 64;
    }
    c += t[6];
    t[5] = uint64_t(c);
    t[6] = t[7] + uint64_t(c >> 64);
  }
  fe_reduce_once(r, t, t[6]);
}


// The same CIOS multiplication with MULX/ADCX/ADOX (BMI2 + ADX; the caller
// checks), in p384_mul_adx.cpp: 1.4-1.8x the portable one (GCC and Clang keep
// the u128 carries in one serial chain). x86-64 ELF only.
#if defined(__x86_64__) && defined(__ELF__)
#define GPUCRYPTO_P384_ADX_ASM 1
extern "C" void gpucrypto_p384_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
inline void fe_mul_adx(Fe& r, const Fe& a, const Fe& b) { gpucrypto_p384_mul_adx(r.v, a.v, b.v); }
#else
#define GPUCRYPTO_P384_ADX_ASM 0
#endif

// The multiplication of one implementation (kAdx: fe_mul_adx).
template <bool kAdx>
inline void fe_mul(Fe& r, const Fe& a, const Fe& b) {
#if GPUCRYPTO_P384_ADX_ASM
  if constexpr (kAdx) return fe_mul_adx(r, a, b);
#endif
  fe_mul_portable(r, a, b);
}

template <bool kAdx>
inline void fe_sqr(Fe& r, const Fe& a) { fe_mul<kAdx>(r, a, a); }

template <bool kAdx>
inline void fe_sqr_n(Fe& r, const Fe& a, int n) {
  r = a;
  for (int i = 0; i < n; ++i) fe_sqr<kAdx>(r, r);
}

// r = a^(p-2) = a^-1 (0 for a = 0). p - 2 in binary, from the top: 255 ones,
// a zero, 32 ones, 64 zeros, 30 ones, a zero, a one.
template <bool kAdx>
inline void fe_inv(Fe& r, const Fe& a) {
  Fe x2, x3, x6, x12, x24, x30, x31, x32, x64, x128, x192, x224, t;
  fe_sqr<kAdx>(x2, a), fe_mul<kAdx>(x2, x2, a);
  fe_sqr<kAdx>(x3, x2), fe_mul<kAdx>(x3, x3, a);
  fe_sqr_n<kAdx>(x6, x3, 3), fe_mul<kAdx>(x6, x6, x3);
  fe_sqr_n<kAdx>(x12, x6, 6), fe_mul<kAdx>(x12, x12, x6);
  fe_sqr_n<kAdx>(x24, x12, 12), fe_mul<kAdx>(x24, x24, x12);
  fe_sqr_n<kAdx>(x30, x24, 6), fe_mul<kAdx>(x30, x30, x6);
  fe_sqr<kAdx>(x31, x30), fe_mul<kAdx>(x31, x31, a);
  fe_sqr<kAdx>(x32, x31), fe_mul<kAdx>(x32, x32, a);
  fe_sqr_n<kAdx>(x64, x32, 32), fe_mul<kAdx>(x64, x64, x32);
  fe_sqr_n<kAdx>(x128, x64, 64), fe_mul<kAdx>(x128, x128, x64);
  fe_sqr_n<kAdx>(x192, x128, 64), fe_mul<kAdx>(x192, x192, x64);
  fe_sqr_n<kAdx>(x224, x192, 32), fe_mul<kAdx>(x224, x224, x32);
  fe_sqr_n<kAdx>(t, x224, 31), fe_mul<kAdx>(t, t, x31);  // 255 ones
  fe_sqr_n<kAdx>(t, t, 33), fe_mul<kAdx>(t, t, x32);     // 0, then 32 ones
  fe_sqr_n<kAdx>(t, t, 94), fe_mul<kAdx>(t, t, x30);     // 64 zeros, then 30 ones
  fe_sqr_n<kAdx>(t, t, 2), fe_mul<kAdx>(r, t, a);        // 0, 1
}

template <bool kAdx>
inline void fe_to_mont(Fe& r, const Fe& a) { fe_mul<kAdx>(r, a, kR2); }
template <bool kAdx>
inline void fe_from_mont(Fe& r, const Fe& a) { fe_mul<kAdx>(r, a, Fe{{1, 0, 0, 0, 0, 0}}); }

// All ones when a == 0, else 0.
inline uint64_t fe_is_zero(const Fe& a) {
  uint64_t x = 0;
  for (uint64_t w : a.v) x |= w;
  return 0 - (((x | (0 - x)) >> 63) ^ 1);
}

// r = mask ? b : r (mask all ones or zero).
inline void fe_cmov(Fe& r, const Fe& b, uint64_t mask) {
  for (int i = 0; i < 6; ++i) r.v[i] ^= mask & (r.v[i] ^ b.v[i]);
}

// Big-endian 48 bytes <-> plain (not Montgomery) limbs.
inline void fe_from_be(Fe& r, const uint8_t in[48]) {
  for (int i = 0; i < 6; ++i) {
    uint64_t w = 0;
    for (int j = 0; j < 8; ++j) w = (w << 8) | in[(5 - i) * 8 + j];
    r.v[i] = w;
  }
}
inline void fe_to_be(uint8_t out[48], const Fe& a) {
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j) out[(5 - i) * 8 + j] = uint8_t(a.v[i] >> (56 - 8 * j));
}

// All ones when a < m (plain limbs), in constant time.
inline uint64_t lt_mask(const Fe& a, const Fe& m) {
  uint64_t borrow = 0;
  for (int i = 0; i < 6; ++i) borrow = uint64_t((u128(a.v[i]) - m.v[i] - borrow) >> 64) & 1;
  return 0 - borrow;
}

}  // namespace gpucrypto::p384
