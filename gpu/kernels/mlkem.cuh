// ML-KEM (FIPS 203) batch kernel bodies: keygen, encaps and decaps for
// K = 2, 3, 4, in the emulator's phase style (gpu/emulator.h): the CUDA
// kernel (gpu/mlkem_kernels.cu) puts __syncthreads() between phases, the host
// grid emulator runs every thread of a block through phase p before p + 1.
//
// Design: a group of 128 threads ("lanes") per instance, several instances
// per block (kInstances, from the shared-memory budget). The per-instance
// state (matrix, vectors, hash outputs) lives in shared memory.
//   * NTT and inverse NTT: one layer per phase, lane b does butterfly b of
//     every polynomial being transformed (128 butterflies per layer).
//   * Base multiplication, additions, reductions, ByteEncode12 and
//     Compress/ByteEncode_d: elementwise, lane b owns coefficient pair b (or a
//     group of 8 coefficients for the compressed ciphertext).
//   * Keccak (G, SampleNTT of the K x K matrix entries, the CBD noise): one
//     hash or one polynomial per lane, all in parallel. Each kind of task sits
//     in its own warp of the group (warp 0: SampleNTT, warp 1: the other
//     sampler, warps 2-3: decoding), so different tasks do not serialise as
//     divergent branches of one warp.
//   * The two long hashes, H(ek) (keygen, encaps: 6-12 permutations) and
//     J(z || c) (decaps), are one sponge each that no lane group can share:
//     inside the group they would keep one lane busy while 31 of its warp
//     idle. A second kernel (MlkemHashPass, one instance per thread, 256
//     threads per block) does them for 32 instances per warp: before the main
//     kernel for encaps and decaps (H(ek) / J(z || c) into the ss slot of the
//     output, which the main kernel reads and then overwrites), after it for
//     keygen (H of the ek the main kernel stored, into dk). Both kernels run
//     on the same stream per chunk, so the runtime sees one launch.
//   * A last phase zeroes each instance's shared slot (the secrets).
// The arithmetic is kem/core/mlkem_poly.h's and kem/core/mlkem_keccak.h's, operation
// for operation (the same fqmul, barrett_reduce, compress, samplers and
// sponges, in the same order per coefficient), so the outputs are the CPU's
// byte for byte. Constant time as the CPU code: the only secret-dependent
// choice, implicit rejection, is a mask select over a ciphertext difference
// ORed over all bytes; the zeta table is indexed by position only; SampleNTT
// branches on the public matrix only.
//
// Buffer layout of one launch of n instances (one array per field, arrays
// one after the other; sizes from kem/core/mlkem_params.h):
//   keygen  in: seed[n][64] (d || z)        out: ek[n][EK] | dk[n][DK]
//   encaps  in: ek[n][EK] | m[n][32]        out: ct[n][CT] | ss[n][32] | ok[n]
//   decaps  in: dk[n][DK] | ct[n][CT]       out: ss[n][32]
// ok[i] is 1 when ek i passed the modulus check, else 0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpu/gpu_mlkem.h"
#include "gpu/kernels/batch.cuh"
// kem/core/mlkem_keccak.h carries "#pragma GCC unroll" hints for g++, which the
// CUDA front end reports as unknown (#1675) under -Werror=all-warnings.
#if defined(__CUDACC__)
#pragma nv_diag_suppress 1675
#endif
#include "kem/core/mlkem_core.h"
#if defined(__CUDACC__)
#pragma nv_diag_default 1675
#endif

namespace gpucrypto::gpu::kern {

namespace mk = kem::mlkem;

using MlkemParams = BatchParams;

inline constexpr uint32_t kMlkemLanes = 128;            // threads per instance
inline constexpr uint32_t kMlkemMaxInstances = 4;       // 512-thread blocks at most
inline constexpr size_t kMlkemSharedBudget = 48 * 1024;  // static shared memory per block

// Bytes per instance of a launch's input and output buffers.
template <int K>
GPUCRYPTO_HD constexpr uint32_t mlkem_in_bytes(MlkemOp op) {
  using P = mk::Params<K>;
  return op == MlkemOp::kKeygen   ? 64u
         : op == MlkemOp::kEncaps ? uint32_t(P::kEkBytes + 32)
         : op == MlkemOp::kDecaps ? uint32_t(P::kDkBytes + P::kCtBytes)
                                  : 0u;
}
template <int K>
GPUCRYPTO_HD constexpr uint32_t mlkem_out_bytes(MlkemOp op) {
  using P = mk::Params<K>;
  return op == MlkemOp::kKeygen   ? uint32_t(P::kEkBytes + P::kDkBytes)
         : op == MlkemOp::kEncaps ? uint32_t(P::kCtBytes + 32 + 1)
         : op == MlkemOp::kDecaps ? 32u
                                  : 0u;
}

// --- the zeta table -----------------------------------------------------------
// kem/core/mlkem_poly.h's kZetas is a host constexpr object, which device code may
// not index at run time; the device reads a __constant__ copy built by the
// same constexpr constructor. Phase 0 copies it to shared memory (in the
// NTT's small layers the 32 lanes of a warp need up to 16 different zetas,
// which constant memory would serialise).
#if defined(__CUDACC__)
static __constant__ mk::ZetaTable kMlkemZetasDevice = mk::ZetaTable();
#endif
GPUCRYPTO_HD inline int16_t mlkem_zeta(int i) {
#if defined(__CUDA_ARCH__)
  return kMlkemZetasDevice.z[i];
#else
  return mk::kZetas.z[i];
#endif
}

// --- one lane's share of the polynomial arithmetic ---------------------------

// Butterfly b (0..127) of forward NTT layer `layer` (0..6, len = 128 >> layer)
// on r, as mk::ntt: the butterflies of one layer are independent, so running
// them in any order gives the reference's values. The last layer also
// reduces its two outputs (RefBackend::ntt reduces the whole polynomial).
GPUCRYPTO_HD inline void mlkem_ntt_butterfly(int16_t* r, int layer, int b, const int16_t* zeta) {
  const int len = 128 >> layer;
  const int group = b >> (7 - layer);
  const int j = group * 2 * len + (b & (len - 1));
  const int16_t t = mk::fqmul(zeta[(1 << layer) + group], r[j + len]);
  r[j + len] = int16_t(r[j] - t);
  r[j] = int16_t(r[j] + t);
  if (layer == 6) {
    r[j] = mk::barrett_reduce(r[j]);
    r[j + len] = mk::barrett_reduce(r[j + len]);
  }
}

// Butterfly b of inverse NTT layer `layer` (0..6, len = 2 << layer), as
// mk::invntt_tomont; the last layer (len 128: j = b, b + 128, so every
// coefficient once) also applies the final scaling by 1441.
GPUCRYPTO_HD inline void mlkem_invntt_butterfly(int16_t* r, int layer, int b, const int16_t* zeta) {
  constexpr int16_t f = 1441;  // 2^32 / 128 mod q, as mk::invntt_tomont
  const int len = 2 << layer;
  const int group = b >> (layer + 1);
  const int j = group * 2 * len + (b & (len - 1));
  const int16_t t = r[j];
  r[j] = mk::barrett_reduce(int16_t(t + r[j + len]));
  r[j + len] = mk::fqmul(zeta[(128 >> layer) - 1 - group], int16_t(r[j + len] - t));
  if (layer == 6) {
    r[j] = mk::fqmul(r[j], f);
    r[j + len] = mk::fqmul(r[j + len], f);
  }
}

// Coefficients o = 2b, 2b + 1 of sum_j a[j] * b[j] in the NTT domain, then
// reduced: mk::basemul_acc (int16 accumulation in the same order) followed by
// poly_reduce, for pair b of K products.
template <int K>
GPUCRYPTO_HD inline void mlkem_basemul_pair(int16_t& c0, int16_t& c1, const mk::Poly* const* a,
                                            const mk::Poly* const* b, int pair,
                                            const int16_t* zeta) {
  const int o = 2 * pair;
  const int16_t zp = zeta[64 + pair / 2];
  const int16_t z = (pair & 1) == 0 ? zp : int16_t(-zp);
  int16_t r0 = 0, r1 = 0;
  for (int k = 0; k < K; ++k) {
    const int16_t* x = a[k]->c;
    const int16_t* y = b[k]->c;
    int16_t t0 = mk::fqmul(mk::fqmul(x[o + 1], y[o + 1]), z);
    t0 = int16_t(t0 + mk::fqmul(x[o], y[o]));
    int16_t t1 = mk::fqmul(x[o], y[o + 1]);
    t1 = int16_t(t1 + mk::fqmul(x[o + 1], y[o]));
    r0 = k == 0 ? t0 : int16_t(r0 + t0);
    r1 = k == 0 ? t1 : int16_t(r1 + t1);
  }
  c0 = mk::barrett_reduce(r0);
  c1 = mk::barrett_reduce(r1);
}

// ByteEncode12 of coefficient pair (c0, c1): 3 bytes, as mk::poly_to_bytes.
GPUCRYPTO_HD inline void mlkem_encode_pair(uint8_t* r, int16_t c0, int16_t c1) {
  const uint16_t t0 = mk::to_canonical(c0), t1 = mk::to_canonical(c1);
  r[0] = uint8_t(t0);
  r[1] = uint8_t((t0 >> 8) | (t1 << 4));
  r[2] = uint8_t(t1 >> 4);
}

// ByteEncode_D(Compress_D(c[0..8))): D bytes, as mk::poly_compress does for
// coefficients 8g..8g+7 (whose bits start at byte D g).
template <int D>
GPUCRYPTO_HD inline void mlkem_compress8(uint8_t* out, const int16_t (&c)[8]) {
  uint64_t acc = 0;
  int bits = 0, o = 0;
  for (int j = 0; j < 8; ++j) {
    acc |= uint64_t(mk::compress<D>(mk::to_canonical(c[j]))) << bits;
    bits += D;
    while (bits >= 8) {
      out[o++] = uint8_t(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
}

// --- shared state per instance ---------------------------------------------------

template <int K>
struct alignas(16) MlkemKeygenSlot {
  mk::Poly a[K][K];   // A_hat
  mk::Poly se[2 * K];  // s (0..K-1), e (K..2K-1); NTT domain after the NTT phases
  uint8_t g[64];      // G(d || K) = rho || sigma
};

// Encaps, and decaps's re-encryption: K-PKE.Encrypt's state.
template <int K>
struct alignas(16) MlkemEncSlot {
  mk::Poly a[K][K];    // A_hat^T; a[i][0] then holds u_i (in place, see the basemul)
  mk::Poly t[K];       // t_hat; t[0] then holds v
  mk::Poly x[2 * K + 1];  // r, e1, e2; in decaps first s_hat, u (NTT of), v
  uint8_t kr[64];      // G(m || H(ek)) = K || r
  uint8_t m[32];       // decaps: m'
  uint32_t flag[kMlkemLanes];  // encaps: ek modulus check per t_i; decaps: ct diff per lane
};

template <int K, MlkemOp kOp>
using MlkemSlot = std::conditional_t<kOp == MlkemOp::kKeygen, MlkemKeygenSlot<K>, MlkemEncSlot<K>>;

// Instances per block: as many 128-lane groups as fit in 48 KiB of static
// shared memory next to the zeta table, at most 4 (512 threads).
template <int K, MlkemOp kOp>
inline constexpr uint32_t kMlkemInstances = [] {
  const size_t fit = (kMlkemSharedBudget - 128 * sizeof(int16_t)) / sizeof(MlkemSlot<K, kOp>);
  return uint32_t(fit < kMlkemMaxInstances ? fit : kMlkemMaxInstances);
}();

// --- the kernel body -----------------------------------------------------------

template <int K, MlkemOp kOp>
struct MlkemHashPass;

template <int K, MlkemOp kOp>
struct MlkemKernel {
  using P = mk::Params<K>;
  using Slot = MlkemSlot<K, kOp>;
  using HashPass = MlkemHashPass<K, kOp>;  // the launch's other kernel
  static constexpr uint32_t kInstancesPerBlock = kMlkemInstances<K, kOp>;
  static_assert(kInstancesPerBlock >= 1, "one instance must fit in shared memory");
  static constexpr uint32_t kThreads = kInstancesPerBlock * kMlkemLanes;
  struct Shared {
    int16_t zeta[128];
    Slot slot[kInstancesPerBlock];
  };
  static_assert(sizeof(Shared) <= kMlkemSharedBudget, "48 KiB static shared memory per block");

  // Phase plans (a phase ends at a block barrier).
  //   keygen: 0 G | 1 SampleNTT A, CBD s, e | 2-8 NTT s, e | 9 t = A s + e, encode
  //           ek, dk (H(ek) follows in MlkemHashPass)
  //   encaps: 0 SampleNTT A^T, decode t | 1 G(m || h), h from MlkemHashPass | 2 CBD
  //           r, e1, e2 | 3-9 NTT r | 10 A^T r, t^T r | 11-17 NTT^-1 | 18 add,
  //           compress, store
  //   decaps: 0 SampleNTT A^T, decode t, s, decompress u, v | 1-7 NTT u | 8 s^T u
  //           | 9-15 NTT^-1 | 16 m' | 17 G | then encaps's phases 2-18 as 18-34
  //           (comparing instead of storing) | 35 select K' or J(z || c), the
  //           latter from MlkemHashPass
  // and then one more phase that zeroes the instance's shared slot (secrets:
  // s, e, r, m', G's output), as the CPU code wipes its locals.
  static constexpr int kWorkPhases = kOp == MlkemOp::kKeygen ? 10 : kOp == MlkemOp::kEncaps ? 19 : 36;
  static constexpr int kPhases = kWorkPhases + 1;

  MlkemParams p;

  GPUCRYPTO_HD void phase(int ph, const ThreadCtx& t, Shared& sh) const {
    // The zeta table first: slot 0 of a launched block always holds an
    // instance, so its lanes always get here.
    if (ph == 0 && t.thread < 128) sh.zeta[t.thread] = mlkem_zeta(int(t.thread));
    const uint32_t lane = t.thread % kMlkemLanes;
    const uint32_t local = t.thread / kMlkemLanes;
    const uint64_t i = uint64_t(t.block) * kInstancesPerBlock + local;
    // Threads past the last instance still reach every barrier (the CUDA
    // wrapper runs all phases); they just do no work.
    if (local >= kInstancesPerBlock || i >= p.n) return;
    Slot& s = sh.slot[local];
    if (ph == kWorkPhases) return wipe(int(lane), s);
    if constexpr (kOp == MlkemOp::kKeygen) {
      keygen(ph, int(lane), i, s, sh.zeta);
    } else if constexpr (kOp == MlkemOp::kEncaps) {
      encaps(ph, int(lane), i, s, sh.zeta);
    } else {
      decaps(ph, int(lane), i, s, sh.zeta);
    }
  }

 private:
  static constexpr int kWarp = 32;

  // Lane b zeroes words b, b + 128, ... of the slot; volatile so the stores
  // at the end of the kernel are not dropped as dead.
  GPUCRYPTO_HD static void wipe(int lane, Slot& s) {
    static_assert(sizeof(Slot) % 4 == 0);
    volatile uint32_t* w = reinterpret_cast<volatile uint32_t*>(&s);
    for (size_t x = size_t(lane); x < sizeof(Slot) / 4; x += kMlkemLanes) w[x] = 0;
  }

  // --- keygen ---------------------------------------------------------------
  GPUCRYPTO_HD void keygen(int ph, int lane, uint64_t i, MlkemKeygenSlot<K>& s,
                           const int16_t* zeta) const {
    const uint8_t* seed = p.in + i * 64;  // d || z
    uint8_t* ek = p.out + i * P::kEkBytes;
    uint8_t* dk = p.out + p.n * P::kEkBytes + i * P::kDkBytes;
    const uint8_t* rho = s.g;
    const uint8_t* sigma = s.g + 32;
    if (ph == 0) {
      if (lane == 0) {
        const uint8_t kbyte = uint8_t(K);
        mk::sha3_512(s.g, seed, 32, &kbyte, 1);
      }
    } else if (ph == 1) {
      if (lane < K * K) {
        // A_hat[r][c] = SampleNTT(rho || c || r) (Algorithm 13 line 6).
        const int r = lane / K, c = lane % K;
        mk::poly_sample_ntt(s.a[r][c], rho, uint8_t(c), uint8_t(r));
      } else if (lane >= kWarp && lane < kWarp + 2 * K) {
        const int j = lane - kWarp;  // s_j (nonce j), e_j (nonce K + j)
        mk::poly_getnoise<P::eta1>(s.se[j], sigma, uint8_t(j));
      }
    } else if (ph <= 8) {
      for (int j = 0; j < 2 * K; ++j) mlkem_ntt_butterfly(s.se[j].c, ph - 2, lane, zeta);
    } else if (ph == 9) {
      // t_hat = A_hat s_hat (+ tomont) + e_hat; ek = ByteEncode12(t_hat) || rho,
      // dk = ByteEncode12(s_hat) || ek || H(ek) || z. Lane b: coefficients 2b, 2b+1.
      constexpr int16_t kToMont = int16_t((1ull << 32) % mk::kQ);  // as mk::poly_tomont
      uint8_t* dk_ek = dk + P::kDkPkeBytes;
      const mk::Poly* sv[K];
      for (int j = 0; j < K; ++j) sv[j] = &s.se[j];
      for (int r = 0; r < K; ++r) {
        const mk::Poly* row[K];
        for (int j = 0; j < K; ++j) row[j] = &s.a[r][j];
        int16_t c0, c1;
        mlkem_basemul_pair<K>(c0, c1, row, sv, lane, zeta);
        c0 = mk::fqmul(c0, kToMont);
        c1 = mk::fqmul(c1, kToMont);
        c0 = mk::barrett_reduce(int16_t(c0 + s.se[K + r].c[2 * lane]));
        c1 = mk::barrett_reduce(int16_t(c1 + s.se[K + r].c[2 * lane + 1]));
        uint8_t b[3];
        mlkem_encode_pair(b, c0, c1);
        uint8_t* at = ek + r * P::kPolyBytes + 3 * lane;
        uint8_t* at2 = dk_ek + r * P::kPolyBytes + 3 * lane;
        for (int x = 0; x < 3; ++x) at[x] = b[x], at2[x] = b[x];
        mlkem_encode_pair(dk + r * P::kPolyBytes + 3 * lane, s.se[r].c[2 * lane],
                          s.se[r].c[2 * lane + 1]);
      }
      if (lane < 32) {
        ek[P::kDkPkeBytes + lane] = rho[lane];
        dk_ek[P::kDkPkeBytes + lane] = rho[lane];
        dk_ek[P::kEkBytes + 32 + lane] = seed[32 + lane];  // z
      }
    }
  }

  // --- encaps ---------------------------------------------------------------
  GPUCRYPTO_HD void encaps(int ph, int lane, uint64_t i, MlkemEncSlot<K>& s,
                           const int16_t* zeta) const {
    const uint8_t* ek = p.in + i * P::kEkBytes;
    const uint8_t* m = p.in + p.n * P::kEkBytes + i * 32;
    uint8_t* ct = p.out + i * P::kCtBytes;
    uint8_t* ss = p.out + p.n * P::kCtBytes + i * 32;
    uint8_t* ok = p.out + p.n * (P::kCtBytes + 32) + i;
    if (ph == 0) {
      load_ek(lane, ek, s);
    } else if (ph == 1) {
      if (lane == 0) {
        // ss holds H(ek) from MlkemHashPass until K replaces it.
        mk::sha3_512(s.kr, m, 32, ss, 32);
        for (int x = 0; x < 32; ++x) ss[x] = s.kr[x];
      }
    } else {
      encrypt(ph - 2, lane, m, s, zeta, [&](int off, const uint8_t* bytes, int len) {
        for (int x = 0; x < len; ++x) ct[off + x] = bytes[x];
      });
      if (ph == 18 && lane == 0) {
        uint32_t all = ~0u;
        for (int j = 0; j < K; ++j) all &= s.flag[j];
        *ok = uint8_t(all & 1u);
      }
    }
  }

  // Phase 0 work shared by encaps and decaps: A_hat^T from rho (warp 0) and
  // t_hat = ByteDecode12 with the modulus check (warp 2).
  GPUCRYPTO_HD static void load_ek(int lane, const uint8_t* ek, MlkemEncSlot<K>& s) {
    if (lane < K * K) {
      // The transposed matrix: a[r][c] = SampleNTT(rho || r || c).
      const int r = lane / K, c = lane % K;
      mk::poly_sample_ntt(s.a[r][c], ek + P::kDkPkeBytes, uint8_t(r), uint8_t(c));
    } else if (lane >= 2 * kWarp && lane < 2 * kWarp + K) {
      const int j = lane - 2 * kWarp;
      s.flag[j] = mk::poly_from_bytes(s.t[j], ek + j * P::kPolyBytes);
    }
  }

  // K-PKE.Encrypt after G: phases e = 0..16 (encaps 2..18, decaps 18..34).
  // m is the 32-byte message (global or shared); `sink(off, bytes, len)`
  // receives the ciphertext bytes [off, off + len).
  template <class Sink>
  GPUCRYPTO_HD static void encrypt(int e, int lane, const uint8_t* m, MlkemEncSlot<K>& s,
                                   const int16_t* zeta, const Sink& sink) {
    mk::Poly* r = s.x;
    mk::Poly* e1 = s.x + K;
    mk::Poly& e2 = s.x[2 * K];
    const uint8_t* coins = s.kr + 32;
    if (e == 0) {
      // r_j = CBD_eta1(PRF(coins, j)) on warp 0; e1_j, e2 = CBD_eta2(PRF(coins,
      // K + j)) on warp 1 (different code when eta1 != eta2).
      if (lane < K) {
        mk::poly_getnoise<P::eta1>(r[lane], coins, uint8_t(lane));
      } else if (lane >= kWarp && lane <= kWarp + K) {
        const int j = lane - kWarp;
        mk::poly_getnoise<P::eta2>(e1[j], coins, uint8_t(K + j));
      }
    } else if (e <= 7) {
      for (int j = 0; j < K; ++j) mlkem_ntt_butterfly(r[j].c, e - 1, lane, zeta);
    } else if (e == 8) {
      // u_i = A^T[i] . r into a[i][0] and v = t . r into t[0], in place: lane
      // b reads only pair b of its operands before writing pair b.
      const mk::Poly* rv[K];
      for (int j = 0; j < K; ++j) rv[j] = &r[j];
      for (int row = 0; row < K; ++row) {
        const mk::Poly* a[K];
        for (int j = 0; j < K; ++j) a[j] = &s.a[row][j];
        int16_t c0, c1;
        mlkem_basemul_pair<K>(c0, c1, a, rv, lane, zeta);
        s.a[row][0].c[2 * lane] = c0;
        s.a[row][0].c[2 * lane + 1] = c1;
      }
      const mk::Poly* tv[K];
      for (int j = 0; j < K; ++j) tv[j] = &s.t[j];
      int16_t c0, c1;
      mlkem_basemul_pair<K>(c0, c1, tv, rv, lane, zeta);
      s.t[0].c[2 * lane] = c0;
      s.t[0].c[2 * lane + 1] = c1;
    } else if (e <= 15) {
      for (int row = 0; row < K; ++row) mlkem_invntt_butterfly(s.a[row][0].c, e - 9, lane, zeta);
      mlkem_invntt_butterfly(s.t[0].c, e - 9, lane, zeta);
    } else if (e == 16) {
      // u_i + e1_i and v + e2 + Decompress_1(m), reduced and compressed, in
      // groups of 8 coefficients: 32 groups per polynomial, K + 1 polynomials.
      for (int g = lane; g < 32 * (K + 1); g += int(kMlkemLanes)) {
        const int pi = g / 32, c = 8 * (g % 32);
        int16_t v[8];
        if (pi < K) {
          for (int j = 0; j < 8; ++j)
            v[j] = mk::barrett_reduce(int16_t(s.a[pi][0].c[c + j] + e1[pi].c[c + j]));
          uint8_t b[P::du];
          mlkem_compress8<P::du>(b, v);
          sink(pi * 32 * P::du + (g % 32) * P::du, b, P::du);
        } else {
          const uint8_t mb = m[c / 8];
          for (int j = 0; j < 8; ++j) {
            const int16_t bit = int16_t((mb >> j) & 1);
            const int16_t mp = int16_t(-bit & ((mk::kQ + 1) / 2));  // as mk::poly_from_msg
            v[j] = mk::barrett_reduce(int16_t(int16_t(s.t[0].c[c + j] + e2.c[c + j]) + mp));
          }
          uint8_t b[P::dv];
          mlkem_compress8<P::dv>(b, v);
          sink(int(P::kCtUBytes) + (g % 32) * P::dv, b, P::dv);
        }
      }
    }
  }

  // --- decaps ---------------------------------------------------------------
  GPUCRYPTO_HD void decaps(int ph, int lane, uint64_t i, MlkemEncSlot<K>& s,
                           const int16_t* zeta) const {
    const uint8_t* dk = p.in + i * P::kDkBytes;
    const uint8_t* ct = p.in + p.n * P::kDkBytes + i * P::kCtBytes;
    const uint8_t* ek = dk + P::kDkPkeBytes;
    const uint8_t* h = ek + P::kEkBytes;
    mk::Poly* sv = s.x;       // s_hat
    mk::Poly* u = s.x + K;    // u, NTT(u); u[0] then holds w
    mk::Poly& v = s.x[2 * K];
    if (ph == 0) {
      load_ek(lane, ek, s);  // the modulus check result is ignored, as on the CPU
      if (lane >= kWarp && lane < kWarp + K) {
        const int j = lane - kWarp;
        (void)mk::poly_from_bytes(sv[j], dk + j * P::kPolyBytes);
      } else if (lane >= 3 * kWarp && lane < 3 * kWarp + K) {
        const int j = lane - 3 * kWarp;
        mk::poly_decompress<P::du>(u[j], ct + j * 32 * P::du);
      } else if (lane == 3 * kWarp + K) {
        mk::poly_decompress<P::dv>(v, ct + P::kCtUBytes);
      }
    } else if (ph <= 7) {
      for (int j = 0; j < K; ++j) mlkem_ntt_butterfly(u[j].c, ph - 1, lane, zeta);
    } else if (ph == 8) {
      const mk::Poly* a[K];
      const mk::Poly* b[K];
      for (int j = 0; j < K; ++j) a[j] = &sv[j], b[j] = &u[j];
      int16_t c0, c1;
      mlkem_basemul_pair<K>(c0, c1, a, b, lane, zeta);
      u[0].c[2 * lane] = c0;
      u[0].c[2 * lane + 1] = c1;
    } else if (ph <= 15) {
      mlkem_invntt_butterfly(u[0].c, ph - 9, lane, zeta);
    } else if (ph == 16) {
      // m' = ByteEncode1(Compress1(v - w)): lane b < 32 makes byte b.
      if (lane < 32) {
        uint32_t byte = 0;
        for (int j = 0; j < 8; ++j) {
          const int c = 8 * lane + j;
          const int16_t w = mk::barrett_reduce(int16_t(v.c[c] - u[0].c[c]));
          byte |= mk::compress<1>(mk::to_canonical(w)) << j;
        }
        s.m[lane] = uint8_t(byte);
      }
    } else if (ph == 17) {
      if (lane == 0) mk::sha3_512(s.kr, s.m, 32, h, 32);
    } else if (ph <= 34) {
      // Re-encrypt under G's coins; every lane ORs the differences of the
      // bytes it made with the received ciphertext.
      uint8_t diff = 0;
      encrypt(ph - 18, lane, s.m, s, zeta, [&](int off, const uint8_t* bytes, int len) {
        for (int x = 0; x < len; ++x) diff = uint8_t(diff | (bytes[x] ^ ct[off + x]));
      });
      if (ph == 34) s.flag[lane] = diff;
    } else if (lane == 0) {
      uint32_t diff = 0;
      for (uint32_t l = 0; l < kMlkemLanes; ++l) diff |= s.flag[l];
      // keep = 0xff when the re-encryption matched, else 0x00 (as Kem::decaps).
      const uint8_t keep = mk::opt_barrier(uint8_t((diff - 1u) >> 8));
      // ss holds K_bar = J(z || c) from MlkemHashPass.
      uint8_t* ss = p.out + i * 32;
      for (int x = 0; x < 32; ++x)
        ss[x] = uint8_t((s.kr[x] & keep) | (ss[x] & uint8_t(~keep)));
    }
  }
};

// --- the long hashes, one instance per thread -------------------------------------

inline constexpr uint32_t kMlkemHashThreads = 256;

// H(ek) (keygen: after the main kernel, into dk; encaps: before it, into the
// ss slot) or J(z || c) (decaps: before it, into the ss slot).
template <int K, MlkemOp kOp>
struct MlkemHashPass {
  using P = mk::Params<K>;
  using Shared = NoShared;
  static constexpr int kPhases = 1;
  static constexpr uint32_t kThreads = kMlkemHashThreads;
  static constexpr uint32_t kInstancesPerBlock = kThreads;
  // Runs before the main kernel (encaps, decaps) or after it (keygen).
  static constexpr bool kBeforeMain = kOp != MlkemOp::kKeygen;
  MlkemParams p;

  GPUCRYPTO_HD void phase(int, const ThreadCtx& t, Shared&) const {
    const uint64_t i = t.global();
    if (i >= p.n) return;
    if constexpr (kOp == MlkemOp::kKeygen) {
      const uint8_t* ek = p.out + i * P::kEkBytes;
      uint8_t* dk = p.out + p.n * P::kEkBytes + i * P::kDkBytes;
      mk::sha3_256(dk + P::kDkPkeBytes + P::kEkBytes, ek, P::kEkBytes);
    } else if constexpr (kOp == MlkemOp::kEncaps) {
      mk::sha3_256(p.out + p.n * P::kCtBytes + i * 32, p.in + i * P::kEkBytes, P::kEkBytes);
    } else {
      const uint8_t* dk = p.in + i * P::kDkBytes;
      const uint8_t* ct = p.in + p.n * P::kDkBytes + i * P::kCtBytes;
      mk::shake256(p.out + i * 32, 32, dk + P::kDkBytes - 32, 32, ct, P::kCtBytes);
    }
  }
};

// Maps (op, K) to the main kernel's type and calls f.template
// operator()<Kernel>() (common.cuh, visit_value).
template <class F>
auto visit_mlkem(MlkemOp op, int k, F&& f) {
  return visit_value<MlkemOp::kEncaps, MlkemOp::kDecaps, MlkemOp::kKeygen>(op, [&]<MlkemOp kOp>() {
    return visit_value<3, 4, 2>(k, [&]<int kK>() { return f.template operator()<MlkemKernel<kK, kOp>>(); });
  });
}

// Calls f.template operator()<X>() for the two kernels of main kernel Kn's
// launch, in stream order (the hash pass before or after it), the second
// only when the first returned 0; returns the last result.
template <class Kn, class F>
int each_mlkem_pass(F&& f) {
  using H = typename Kn::HashPass;
  using First = std::conditional_t<H::kBeforeMain, H, Kn>;
  using Second = std::conditional_t<H::kBeforeMain, Kn, H>;
  const int rc = f.template operator()<First>();
  return rc != 0 ? rc : f.template operator()<Second>();
}

}  // namespace gpucrypto::gpu::kern
