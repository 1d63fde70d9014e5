// babyKyber PKE batch kernel bodies: the seed's three designs, built on the
// per-instance GPUCRYPTO_HD code of kem/core/babykyber_pke.h and kem/core/mlwe.h (the
// same samplers, encoders and decoders the CPU runs), in the emulator's
// phase style (gpu/emulator.h): the CUDA kernel puts __syncthreads() between
// phases, the host grid emulator runs every thread of a block through phase
// p before phase p + 1.
//
// Buffer layout of one launch of n instances: one array per field, the
// instances back to back, arrays one after the other ("planar"), so the
// host fills and drains them with one memcpy per field:
//   keygen   in: coins[n][35]                  out: ek[n][15] | dk[n][5]
//   encrypt  in: ek[n][15] | m[n] | coins[n][4] out: ct[n][8] | ok[n]
//   decrypt  in: dk[n][5] | ct[n][8]           out: m[n]
// ok[i] is 1 when ek i was canonical (every coefficient < q), else 0.
#pragma once
#include <cstdint>
#include <type_traits>

#include "gpu/gpu_kem.h"
#include "gpu/kernels/batch.cuh"
#include "kem/core/babykyber_pke.h"

namespace gpucrypto::gpu::kern {

namespace bkp = kem::babykyber;

using KemParams = BatchParams;

// Bytes per instance of a launch's input and output buffers.
GPUCRYPTO_HD constexpr uint32_t kem_in_bytes(KemOp op) {
  return op == KemOp::kKeygen    ? uint32_t(bkp::kKeygenCoinsBytes)
         : op == KemOp::kEncrypt ? uint32_t(bkp::kEkBytes + bkp::kMsgBytes + bkp::kEncryptCoinsBytes)
         : op == KemOp::kDecrypt ? uint32_t(bkp::kDkBytes + bkp::kCtBytes)
                                 : 0u;
}
GPUCRYPTO_HD constexpr uint32_t kem_out_bytes(KemOp op) {
  return op == KemOp::kKeygen    ? uint32_t(bkp::kEkBytes + bkp::kDkBytes)
         : op == KemOp::kEncrypt ? uint32_t(bkp::kCtBytes + 1)
         : op == KemOp::kDecrypt ? uint32_t(bkp::kMsgBytes)
                                 : 0u;
}

// Byte copies between global memory and a thread's local arrays. The
// per-instance code packs bits with read-modify-write on its output bytes;
// on local arrays with the loops unrolled those are registers, on global
// memory they would be dozens of memory round trips.
template <int N>
GPUCRYPTO_HD inline void kem_load(uint8_t (&dst)[N], const uint8_t* src) {
  for (int i = 0; i < N; ++i) dst[i] = src[i];
}
template <int N>
GPUCRYPTO_HD inline void kem_store(uint8_t* dst, const uint8_t (&src)[N]) {
  for (int i = 0; i < N; ++i) dst[i] = src[i];
}

// --- design 1: one instance per thread ----------------------------------------

inline constexpr uint32_t kKemThreadsPerBlock = 256;

template <KemOp kOp>
struct KemPerThread {
  using Shared = NoShared;
  static constexpr int kPhases = 1;
  static constexpr uint32_t kThreads = kKemThreadsPerBlock;
  static constexpr uint32_t kInstancesPerBlock = kThreads;
  KemParams p;

  GPUCRYPTO_HD void phase(int, const ThreadCtx& t, Shared&) const {
    const uint64_t i = t.global();
    if (i >= p.n) return;
    const uint64_t n = p.n;
    if constexpr (kOp == KemOp::kKeygen) {
      uint8_t coins[bkp::kKeygenCoinsBytes], ek[bkp::kEkBytes], dk[bkp::kDkBytes];
      kem_load(coins, p.in + i * bkp::kKeygenCoinsBytes);
      bkp::keygen(ek, dk, coins);
      kem_store(p.out + i * bkp::kEkBytes, ek);
      kem_store(p.out + n * bkp::kEkBytes + i * bkp::kDkBytes, dk);
    } else if constexpr (kOp == KemOp::kEncrypt) {
      uint8_t ek[bkp::kEkBytes], coins[bkp::kEncryptCoinsBytes], ct[bkp::kCtBytes];
      kem_load(ek, p.in + i * bkp::kEkBytes);
      const uint8_t m = p.in[n * bkp::kEkBytes + i];
      kem_load(coins, p.in + n * (bkp::kEkBytes + 1) + i * bkp::kEncryptCoinsBytes);
      const uint32_t ok = bkp::encrypt(ct, ek, m, coins);
      kem_store(p.out + i * bkp::kCtBytes, ct);
      p.out[n * bkp::kCtBytes + i] = uint8_t(ok & 1u);
    } else {
      uint8_t dk[bkp::kDkBytes], ct[bkp::kCtBytes];
      kem_load(dk, p.in + i * bkp::kDkBytes);
      kem_load(ct, p.in + n * bkp::kDkBytes + i * bkp::kCtBytes);
      p.out[i] = bkp::decrypt(dk, ct);
    }
  }
};

// --- designs 2 and 3: seven threads per instance -------------------------------
//
// A product of two degree-3 polynomials has 7 raw coefficients (degrees
// 0..6); reduction mod x^4 + 1 folds degree d + 4 into degree d with a sign
// flip. Lane j of an instance computes raw coefficient j of every product
// the operation needs (all matrix/vector entries at once), a barrier
// follows, then lanes 0..3 fold and add the error terms. The phases:
//   0: sample or decode the inputs into shared memory (one task per lane);
//   1: lane j: raw coefficient j of each product sum;
//   2: lanes 0..3: fold degree d + 4 into d, add the error, reduce mod q;
//   3: lane 0 encodes and stores the result.
// kPerBlock instances share a block: 1 (design 2, 7-thread blocks) or 146
// (design 3, 146 x 7 = 1022-thread blocks).

inline constexpr uint32_t kKemLanes = 2 * bkp::P::n - 1;  // 7
static_assert(kKemLanes == 7);
inline constexpr uint32_t kKemPacked = 146;               // 146 * 7 = 1022 threads

// Raw coefficient j (degree j, 0 <= j <= 2n - 2) of a * b in Z[x], before
// reduction mod x^n + 1.
GPUCRYPTO_HD inline uint32_t kem_raw_coeff(const bkp::Poly& a, const bkp::Poly& b, int j) {
  uint32_t acc = 0;
  for (int x = 0; x < bkp::P::n; ++x) {
    const int y = j - x;
    if (y >= 0 && y < bkp::P::n) acc += uint32_t(a.c[x]) * b.c[y];
  }
  return acc;
}

// Largest raw coefficient of a k-term product sum, and the multiple of q
// added before subtracting one, so every sum stays non-negative and inside
// reduce()'s 16-bit input range.
inline constexpr uint32_t kKemMaxRaw =
    uint32_t(bkp::P::k) * bkp::P::n * (bkp::P::q - 1) * (bkp::P::q - 1);
inline constexpr uint32_t kKemFold = (kKemMaxRaw + bkp::P::q - 1) / bkp::P::q * bkp::P::q;
static_assert(2 * bkp::P::q + kKemMaxRaw + kKemFold < (1u << 16));

// (lo - hi) mod q + add, as a canonical coefficient (add < 2q).
GPUCRYPTO_HD inline uint16_t kem_fold(uint32_t lo, uint32_t hi, uint32_t add) {
  return kem::reduce<bkp::P>(add + lo + kKemFold - hi);
}

template <KemOp kOp>
struct KemSlot;

template <>
struct KemSlot<KemOp::kKeygen> {
  bkp::PolyMat A;
  bkp::PolyVec s, e, t;
  uint16_t raw[bkp::P::k][kKemLanes];
};

template <>
struct KemSlot<KemOp::kEncrypt> {
  bkp::PolyMat A;
  bkp::PolyVec t, r, e1, u;
  bkp::Poly e2, ms, v;
  uint16_t raw_u[bkp::P::k][kKemLanes];
  uint16_t raw_v[kKemLanes];
  uint32_t ok;
};

template <>
struct KemSlot<KemOp::kDecrypt> {
  bkp::PolyVec s, u;
  bkp::Poly v, w;
  uint16_t raw[kKemLanes];
};

template <KemOp kOp, uint32_t kPerBlock>
struct KemSeven {
  struct Shared {
    KemSlot<kOp> slot[kPerBlock];
  };
  static constexpr int kPhases = 4;
  static constexpr uint32_t kThreads = kPerBlock * kKemLanes;
  static constexpr uint32_t kInstancesPerBlock = kPerBlock;
  KemParams p;

  GPUCRYPTO_HD void phase(int ph, const ThreadCtx& t, Shared& sh) const {
    const uint32_t lane = t.thread % kKemLanes;
    const uint32_t local = t.thread / kKemLanes;
    const uint64_t i = uint64_t(t.block) * kPerBlock + local;
    // Threads past the last instance still reach every barrier (the CUDA
    // wrapper runs all phases); they just do no work.
    if (local >= kPerBlock || i >= p.n) return;
    KemSlot<kOp>& s = sh.slot[local];
    if constexpr (kOp == KemOp::kKeygen) {
      keygen(ph, int(lane), i, s);
    } else if constexpr (kOp == KemOp::kEncrypt) {
      encrypt(ph, int(lane), i, s);
    } else {
      decrypt(ph, int(lane), i, s);
    }
  }

 private:
  using P = bkp::P;
  static constexpr int kK = P::k, kN = P::n;

  // Same coin offsets as bkp::keygen: A (k*k uniform polys), s (k CBD), e.
  GPUCRYPTO_HD void keygen(int ph, int lane, uint64_t i, KemSlot<KemOp::kKeygen>& s) const {
    const uint8_t* coins = p.in + i * bkp::kKeygenCoinsBytes;
    constexpr int kS = kK * kK * kem::kUniformWideBytes<P>;
    constexpr int kE = kS + kK * kem::kCbdBytes<P, P::eta1>;
    if (ph == 0) {
      if (lane < kK * kK) {
        kem::sample_uniform_wide<P>(s.A.a[lane / kK][lane % kK],
                                    coins + lane * kem::kUniformWideBytes<P>);
      } else if (lane < kK * kK + kK) {
        const int j = lane - kK * kK;
        kem::sample_cbd<P, P::eta1>(s.s.p[j], coins + kS + j * kem::kCbdBytes<P, P::eta1>);
      } else {
        kem::sample_sparse_ternary<P>(s.e, coins[kE]);
      }
    } else if (ph == 1) {
      for (int r = 0; r < kK; ++r) {
        uint32_t acc = 0;
        for (int c = 0; c < kK; ++c) acc += kem_raw_coeff(s.A.a[r][c], s.s.p[c], lane);
        s.raw[r][lane] = uint16_t(acc);
      }
    } else if (ph == 2) {
      if (lane < kN) {
        const int d = lane;
        for (int r = 0; r < kK; ++r)
          s.t.p[r].c[d] = kem_fold(s.raw[r][d], d + kN < int(kKemLanes) ? s.raw[r][d + kN] : 0,
                                   s.e.p[r].c[d]);
      } else if (lane == kN) {
        // dk depends on s alone: store it while lane 0 waits for t.
        uint8_t dk[bkp::kDkBytes];
        bkp::encode_dk(dk, s.s);
        kem_store(p.out + p.n * bkp::kEkBytes + i * bkp::kDkBytes, dk);
      }
    } else if (lane == 0) {
      uint8_t ek[bkp::kEkBytes];
      bkp::encode_ek(ek, s.A, s.t);
      kem_store(p.out + i * bkp::kEkBytes, ek);
    }
  }

  // Same coin offsets as bkp::encrypt: r (k CBD_eta1), e1 (sparse), e2 (CBD_eta2).
  GPUCRYPTO_HD void encrypt(int ph, int lane, uint64_t i, KemSlot<KemOp::kEncrypt>& s) const {
    const uint64_t n = p.n;
    const uint8_t* coins = p.in + n * (bkp::kEkBytes + 1) + i * bkp::kEncryptCoinsBytes;
    constexpr int kE1 = kK * kem::kCbdBytes<P, P::eta1>;
    if (ph == 0) {
      if (lane == 0) {
        uint8_t ek[bkp::kEkBytes];
        kem_load(ek, p.in + i * bkp::kEkBytes);
        s.ok = bkp::decode_ek(s.A, s.t, ek);
      } else if (lane <= kK) {
        const int j = lane - 1;
        kem::sample_cbd<P, P::eta1>(s.r.p[j], coins + j * kem::kCbdBytes<P, P::eta1>);
      } else if (lane == kK + 1) {
        kem::sample_sparse_ternary<P>(s.e1, coins[kE1]);
      } else if (lane == kK + 2) {
        kem::sample_cbd<P, P::eta2>(s.e2, coins + kE1 + bkp::kSparseBytes);
      } else if (lane == kK + 3) {
        const uint8_t m = uint8_t(p.in[n * bkp::kEkBytes + i] & ((1u << kN) - 1));
        kem::poly_from_msg<P>(s.ms, &m);
      }
    } else if (ph == 1) {
      // u = A^T r: column c of A; v's product part = t^T r.
      for (int c = 0; c < kK; ++c) {
        uint32_t acc = 0;
        for (int r = 0; r < kK; ++r) acc += kem_raw_coeff(s.A.a[r][c], s.r.p[r], lane);
        s.raw_u[c][lane] = uint16_t(acc);
      }
      uint32_t acc = 0;
      for (int r = 0; r < kK; ++r) acc += kem_raw_coeff(s.t.p[r], s.r.p[r], lane);
      s.raw_v[lane] = uint16_t(acc);
    } else if (ph == 2) {
      if (lane < kN) {
        const int d = lane;
        const bool wraps = d + kN < int(kKemLanes);
        for (int c = 0; c < kK; ++c)
          s.u.p[c].c[d] = kem_fold(s.raw_u[c][d], wraps ? s.raw_u[c][d + kN] : 0, s.e1.p[c].c[d]);
        const uint16_t tr = kem_fold(s.raw_v[d], wraps ? s.raw_v[d + kN] : 0, s.e2.c[d]);
        s.v.c[d] = kem::reduce<P>(uint32_t(tr) + P::q - s.ms.c[d]);  // as poly_sub
      }
    } else if (lane == 0) {
      uint8_t ct[bkp::kCtBytes];
      bkp::encode_ct(ct, s.u, s.v);
      kem_store(p.out + i * bkp::kCtBytes, ct);
      p.out[n * bkp::kCtBytes + i] = uint8_t(s.ok & 1u);
    }
  }

  GPUCRYPTO_HD void decrypt(int ph, int lane, uint64_t i, KemSlot<KemOp::kDecrypt>& s) const {
    if (ph == 0) {
      if (lane == 0) {
        uint8_t dk[bkp::kDkBytes];
        kem_load(dk, p.in + i * bkp::kDkBytes);
        (void)bkp::decode_dk(s.s, dk);
      } else if (lane == 1) {
        uint8_t ct[bkp::kCtBytes];
        kem_load(ct, p.in + p.n * bkp::kDkBytes + i * bkp::kCtBytes);
        bkp::decode_ct(s.u, s.v, ct);
      }
    } else if (ph == 1) {
      uint32_t acc = 0;
      for (int r = 0; r < kK; ++r) acc += kem_raw_coeff(s.s.p[r], s.u.p[r], lane);
      s.raw[lane] = uint16_t(acc);
    } else if (ph == 2) {
      if (lane < kN) {
        // w = v - s^T u: the folded product enters with the opposite sign.
        const int d = lane;
        s.w.c[d] = kem_fold(d + kN < int(kKemLanes) ? s.raw[d + kN] : 0, s.raw[d], s.v.c[d]);
      }
    } else if (lane == 0) {
      uint8_t m;
      kem::poly_to_msg<P>(&m, s.w);
      p.out[i] = m;
    }
  }
};

// The kernel type of each design.
template <KemOp kOp, KemDesign kDesign>
using KemKernel = std::conditional_t<kDesign == KemDesign::kThreadPerInstance, KemPerThread<kOp>,
                                     KemSeven<kOp, kDesign == KemDesign::kSevenThreads ? 1 : kKemPacked>>;

// Maps (op, design) to the kernel type and calls f.template operator()<K>()
// (common.cuh, visit_value).
template <class F>
auto visit_kem(KemOp op, KemDesign d, F&& f) {
  return visit_value<KemOp::kEncrypt, KemOp::kDecrypt, KemOp::kKeygen>(op, [&]<KemOp kOp>() {
    return visit_value<KemDesign::kSevenThreads, KemDesign::kPacked146,
                       KemDesign::kThreadPerInstance>(d, [&]<KemDesign kD>() {
      return f.template operator()<KemKernel<kOp, kD>>();
    });
  });
}

}  // namespace gpucrypto::gpu::kern
