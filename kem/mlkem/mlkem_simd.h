// The vector back ends of the ML-KEM core (see mlkem_core.h):
//   * sample(): the matrix expansion (SHAKE128, rejection sampling) and the
//     noise (SHAKE256, CBD) of one K-PKE call as one queue of sponges on
//     the W lanes of the multi-lane Keccak (W = 4 on AVX2, 8 on AVX-512),
//     a lane taking the next sponge as soon as its own is done: ML-KEM-768
//     encapsulation (9 + 7 sponges) takes 6 8-lane permutations, ML-KEM-512
//     (4 + 5) 3;
//   * NTT, inverse NTT, base multiplication: the int16 vector kernels of
//     mlkem_poly_simd.inc (bit-identical to the reference); compression and
//     the 12-bit encoding: the packing code of the same file, compiled for
//     the ISA;
//   * H, G, J: on AVX-512 one sponge in lane 0 of the 4-lane permutation
//     (vprolq, vpternlogq: ~0.8k cycles a permutation against ~1.25k for the
//     scalar reference, which GCC cannot keep in registers — with AVX-512BW
//     it even spills lanes to mask registers); on AVX2 RefBackend's.
// Rejection sampling is vectorised (AVX-512: vpcompressd; AVX2: a pshufb
// table), so it does not mispredict on fresh keys; so is CBD_2.
// Non-ISA code: only the exported ISA functions are called from here.
#pragma once
#include <cstring>

#include "kem/core/mlkem_core.h"
#include "kem/mlkem/mlkem_simd_api.h"

namespace gpucrypto::kem::mlkem {

// The per-ISA polynomial kernels (bit-identical to RefBackend's).
struct PolyKernels {
  void (*ntt)(int16_t*);
  void (*invntt)(int16_t*);
  void (*basemul_acc)(int16_t*, const int16_t*, const int16_t*, int);
  int (*rej_uniform)(int16_t*, int, const uint8_t*, size_t);
  void (*compress)(uint8_t*, const int16_t*, int);
  void (*decompress)(int16_t*, const uint8_t*, int);
  void (*to_bytes)(uint8_t*, const int16_t*);
  uint32_t (*from_bytes)(int16_t*, const uint8_t*);
  void (*from_msg)(int16_t*, const uint8_t*);
  void (*to_msg)(uint8_t*, const int16_t*);
  void (*cbd)(int16_t*, const uint8_t*, int);
};

// The per-ISA Keccak: a W-lane sponge state St, and optionally a faster
// single sponge for H, G, J (null: RefBackend's).
template <int W, class St>
struct KeccakKernels {
  void (*absorb)(St*, const uint8_t* const*);
  void (*set_lane)(St*, int, const uint8_t*);
  void (*squeeze)(St*, const size_t*, size_t, uint8_t* const*);
  void (*sponge)(uint8_t*, size_t, size_t, uint8_t, const uint8_t*, size_t, const uint8_t*, size_t);
};

template <int W, class St, const KeccakKernels<W, St>& KK, const PolyKernels& PK>
struct SimdBackend : RefBackend {
  static void ntt(Poly& p) { PK.ntt(p.c); }
  static void invntt(Poly& p) { PK.invntt(p.c); }
  template <int K>
  static void basemul_acc(Poly& r, const PolyVec<K>& a, const PolyVec<K>& b) {
    PK.basemul_acc(r.c, a.p[0].c, b.p[0].c, K);
  }
  // A plain `if`: under -fsanitize=address GCC does not treat a function
  // address compared with nullptr as a constant expression.
  static void hash_h(uint8_t out[32], const uint8_t* in, size_t len) {
    if (KK.sponge != nullptr) KK.sponge(out, 32, kSha3_256Rate, 0x06, in, len, nullptr, 0);
    else RefBackend::hash_h(out, in, len);
  }
  static void hash_g(uint8_t out[64], const uint8_t* a, size_t alen, const uint8_t* b, size_t blen) {
    if (KK.sponge != nullptr) KK.sponge(out, 64, kSha3_512Rate, 0x06, a, alen, b, blen);
    else RefBackend::hash_g(out, a, alen, b, blen);
  }
  static void hash_j(uint8_t out[32], const uint8_t z[32], const uint8_t* c, size_t clen) {
    if (KK.sponge != nullptr) KK.sponge(out, 32, kShake256Rate, 0x1f, z, 32, c, clen);
    else RefBackend::hash_j(out, z, c, clen);
  }
  template <int D>
  static void compress(uint8_t* r, const Poly& a) {
    PK.compress(r, a.c, D);
  }
  template <int D>
  static void decompress(Poly& r, const uint8_t* a) {
    PK.decompress(r.c, a, D);
  }
  static void to_bytes(uint8_t r[384], const Poly& a) { PK.to_bytes(r, a.c); }
  static uint32_t from_bytes(Poly& r, const uint8_t a[384]) { return PK.from_bytes(r.c, a); }
  static void from_msg(Poly& r, const uint8_t m[32]) { PK.from_msg(r.c, m); }
  static void to_msg(uint8_t m[32], const Poly& a) { PK.to_msg(m, a.c); }

  // The sponges of one K-PKE call — K^2 matrix entries (SHAKE128, rejection
  // sampling, usually 3 blocks), then the noise polynomials (SHAKE256, CBD,
  // 1 or 2 blocks) — run on the W lanes of one multi-lane state in one of two
  // ways, whichever takes fewer permutations (counted on the public sponge
  // lengths, a matrix entry taken as 3 blocks; ties go to the batches, whose
  // bookkeeping is lighter, measured):
  //   * batches: W sponges at a time, squeezed together for the longest;
  //   * queue: a lane whose sponge is done takes the next one (set_lane
  //     overwrites its 25 state words with the new padded block), so short noise
  //     sponges fill the gaps — ML-KEM-512 encryption (4 + 5 sponges on 8
  //     lanes) takes 3 permutations instead of 4.
  // Every branch depends on public data only: the sponge lengths and the
  // matrix's rejection counts. (The names contain gen_matrix: the ctgrind
  // harness lets the matrix loop's branches on rho through by that name,
  // test/ct/ct.supp, since rho is secret-derived during key generation.)
  template <int K, int Eta1, int Eta2>
  static void sample(PolyVec<K>* a, const uint8_t rho[32], bool transposed, Poly* const* r, int n1,
                     int n2, const uint8_t seed[32]) {
    constexpr int kMat = K * K;
    const int total = kMat + n1 + n2;
    auto len = [&](int job) {
      if (job < kMat) return 3;
      return int((64 * size_t(job - kMat < n1 ? Eta1 : Eta2) + kShake256Rate - 1) / kShake256Rate);
    };
    int batch_rounds = 0;
    for (int base = 0; base < total; base += W) {
      int m = 0;
      for (int l = 0; l < W && base + l < total; ++l) m = len(base + l) > m ? len(base + l) : m;
      batch_rounds += m;
    }
    int queue_rounds = 0, next = 0, left[W] = {};
    for (;;) {
      int nb = 0;
      for (int l = 0; l < W; ++l) {
        if (left[l] == 0 && next < total) left[l] = len(next++);
        if (left[l] > 0 && (nb == 0 || left[l] < nb)) nb = left[l];
      }
      if (nb == 0) break;
      queue_rounds += nb;
      for (int l = 0; l < W; ++l) left[l] = left[l] > nb ? left[l] - nb : 0;
    }
    if (queue_rounds < batch_rounds) gen_matrix_noise_queue<K, Eta1, Eta2>(a, rho, transposed, r, n1, n2, seed);
    else gen_matrix_noise_batches<K, Eta1, Eta2>(a, rho, transposed, r, n1, n2, seed);
  }

  template <int K, int Eta1, int Eta2>
  static void gen_matrix_noise_batches(PolyVec<K>* a, const uint8_t rho[32], bool transposed, Poly* const* r,
                             int n1, int n2, const uint8_t seed[32]) {
    constexpr int kMat = K * K;
    const int total = kMat + n1 + n2;
    // Three SHAKE128 blocks (504 bytes, 336 candidates) almost always give
    // the 256 coefficients; CBD_eta needs 64 eta bytes (one or two SHAKE256
    // blocks).
    constexpr size_t kMatBlocks = 3;
    alignas(64) uint8_t buf[W][kMatBlocks * kShake128Rate];
    alignas(64) uint8_t blk[W][200];
    for (int base = 0; base < total; base += W) {
      const uint8_t* blkp[W];
      uint8_t* outp[W];
      size_t rate[W];
      int ctr[W];
      Poly* dst[W];
      bool any_matrix = false;
      size_t nblocks = 1;
      for (int l = 0; l < W; ++l) {
        const int idx = base + l;
        std::memset(blk[l], 0, sizeof blk[l]);
        blkp[l] = blk[l];
        outp[l] = buf[l];
        ctr[l] = kN;  // lanes that are not matrix entries count as done
        dst[l] = nullptr;
        if (idx < kMat) {
          const int i = idx / K, j = idx % K;
          std::memcpy(blk[l], rho, 32);
          // A_hat[i][j] = SampleNTT(rho || j || i) (FIPS 203 Algorithm 13).
          blk[l][32] = uint8_t(transposed ? i : j);
          blk[l][33] = uint8_t(transposed ? j : i);
          blk[l][34] = 0x1f;
          blk[l][kShake128Rate - 1] |= 0x80;
          rate[l] = kShake128Rate;
          dst[l] = &a[i].p[j];
          ctr[l] = 0;
          any_matrix = true;
        } else {
          // Noise lanes (and idle lanes past the end, which hash a nonce
          // nobody reads): PRF(seed, nonce) = SHAKE256(seed || nonce).
          const int n = idx - kMat;
          std::memcpy(blk[l], seed, 32);
          blk[l][32] = uint8_t(n);
          blk[l][33] = 0x1f;
          blk[l][kShake256Rate - 1] |= 0x80;
          rate[l] = kShake256Rate;
          if (n < n1 + n2) {
            const size_t need = (64 * size_t(n < n1 ? Eta1 : Eta2) + kShake256Rate - 1) / kShake256Rate;
            nblocks = need > nblocks ? need : nblocks;
          }
        }
      }
      if (any_matrix) nblocks = kMatBlocks;
      St st;
      KK.absorb(&st, blkp);
      KK.squeeze(&st, rate, nblocks, outp);
      bool more = false;
      for (int l = 0; l < W; ++l) {
        if (dst[l] != nullptr) {
          ctr[l] = PK.rej_uniform(dst[l]->c, 0, buf[l], kMatBlocks * kShake128Rate);
          more |= ctr[l] < kN;
        } else {
          const int n = base + l - kMat;
          if (n < n1) PK.cbd(r[n]->c, buf[l], Eta1);
          else if (n < n1 + n2) PK.cbd(r[n]->c, buf[l], Eta2);
        }
      }
      while (more) {  // public data: only matrix lanes decide, and the matrix is public
        KK.squeeze(&st, rate, 1, outp);
        more = false;
        for (int l = 0; l < W; ++l) {
          if (dst[l] == nullptr) continue;
          ctr[l] = PK.rej_uniform(dst[l]->c, ctr[l], buf[l], kShake128Rate);
          more |= ctr[l] < kN;
        }
      }
      Kem<2, RefBackend>::wipe(&st, sizeof st);
    }
    Kem<2, RefBackend>::wipe(buf, sizeof buf);
    Kem<2, RefBackend>::wipe(blk, sizeof blk);
  }

  template <int K, int Eta1, int Eta2>
  static void gen_matrix_noise_queue(PolyVec<K>* a, const uint8_t rho[32], bool transposed, Poly* const* r,
                           int n1, int n2, const uint8_t seed[32]) {
    constexpr int kMat = K * K;
    const int total = kMat + n1 + n2;
    // Per lane: the SHAKE128 blocks of one squeeze, or a whole CBD input.
    alignas(64) uint8_t buf[W][3 * kShake128Rate];
    alignas(64) uint8_t blk[200];
    St st;
    size_t rate[W];
    int job[W], done[W], ctr[W];
    int next = 0, active = 0;
    auto assign = [&](int l) {
      std::memset(blk, 0, sizeof blk);
      job[l] = next < total ? next++ : -1;
      done[l] = 0;
      ctr[l] = 0;
      if (job[l] < 0) {
        rate[l] = kShake128Rate;  // idle: permuted along, output ignored
      } else if (job[l] < kMat) {
        const int i = job[l] / K, j = job[l] % K;
        std::memcpy(blk, rho, 32);
        // A_hat[i][j] = SampleNTT(rho || j || i) (FIPS 203 Algorithm 13).
        blk[32] = uint8_t(transposed ? i : j);
        blk[33] = uint8_t(transposed ? j : i);
        blk[34] = 0x1f;
        blk[kShake128Rate - 1] |= 0x80;
        rate[l] = kShake128Rate;
        ++active;
      } else {
        // PRF(seed, nonce) = SHAKE256(seed || nonce), nonce = index in r.
        std::memcpy(blk, seed, 32);
        blk[32] = uint8_t(job[l] - kMat);
        blk[33] = 0x1f;
        blk[kShake256Rate - 1] |= 0x80;
        rate[l] = kShake256Rate;
        ++active;
      }
      KK.set_lane(&st, l, blk);
    };
    auto noise_blocks = [&](int n) {
      return int((64 * size_t(n < n1 ? Eta1 : Eta2) + kShake256Rate - 1) / kShake256Rate);
    };
    for (int l = 0; l < W; ++l) assign(l);
    while (active > 0) {
      // As many blocks as no active lane can finish before: a matrix entry
      // takes at least 3 (then one at a time), a noise sponge its 1 or 2.
      int nb = 3;
      uint8_t* outp[W];
      for (int l = 0; l < W; ++l) {
        if (job[l] >= kMat) {
          const int left = noise_blocks(job[l] - kMat) - done[l];
          nb = left < nb ? left : nb;
          outp[l] = buf[l] + size_t(done[l]) * kShake256Rate;
        } else {
          if (job[l] >= 0) nb = done[l] >= 3 ? 1 : (3 - done[l] < nb ? 3 - done[l] : nb);
          outp[l] = buf[l];
        }
      }
      KK.squeeze(&st, rate, size_t(nb), outp);
      for (int l = 0; l < W; ++l) {
        if (job[l] < 0) continue;
        done[l] += nb;
        bool finished;
        if (job[l] < kMat) {
          ctr[l] = PK.rej_uniform(a[job[l] / K].p[job[l] % K].c, ctr[l], buf[l], size_t(nb) * kShake128Rate);
          finished = ctr[l] == kN;
        } else {
          const int n = job[l] - kMat;
          finished = done[l] == noise_blocks(n);
          if (finished) PK.cbd(r[n]->c, buf[l], n < n1 ? Eta1 : Eta2);
        }
        if (finished) {
          --active;
          assign(l);
        }
      }
    }
    Kem<2, RefBackend>::wipe(&st, sizeof st);
    Kem<2, RefBackend>::wipe(buf, sizeof buf);
    Kem<2, RefBackend>::wipe(blk, sizeof blk);
  }
};

// One table per ISA namespace (mlkem_simd_api.h).
inline constexpr PolyKernels kPolyAvx2{
    avx2::ntt,      avx2::invntt,    avx2::basemul_acc, avx2::rej_uniform,
    avx2::compress, avx2::decompress, avx2::tobytes,    avx2::frombytes,
    avx2::frommsg,  avx2::tomsg,     avx2::cbd};
inline constexpr PolyKernels kPolyAvx512{
    avx512::ntt,      avx512::invntt,    avx512::basemul_acc, avx512::rej_uniform,
    avx512::compress, avx512::decompress, avx512::tobytes,    avx512::frombytes,
    avx512::frommsg,  avx512::tomsg,     avx512::cbd};
// AVX2: the lane-0 sponge measured slower than the scalar reference (rotations
// are two shifts and an or), so H, G, J stay RefBackend's.
inline constexpr KeccakKernels<4, KeccakX4> kKeccakAvx2{
    avx2::keccakx4_absorb, avx2::keccakx4_set_lane, avx2::keccakx4_squeeze, nullptr};
inline constexpr KeccakKernels<8, KeccakX8> kKeccakAvx512{
    avx512::keccakx8_absorb, avx512::keccakx8_set_lane, avx512::keccakx8_squeeze,
    avx512::keccak1_sponge};

using Avx2Backend = SimdBackend<4, KeccakX4, kKeccakAvx2, kPolyAvx2>;
using Avx512Backend = SimdBackend<8, KeccakX8, kKeccakAvx512, kPolyAvx512>;

}  // namespace gpucrypto::kem::mlkem
