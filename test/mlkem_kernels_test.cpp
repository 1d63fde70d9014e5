// ML-KEM SIMD kernels against the portable reference (kem/core/mlkem_poly.h,
// kem/core/mlkem_keccak.h), for every kernel set this CPU runs: NTT, inverse NTT
// and base multiplication (summed over k = 1..4) must equal the reference
// word for word — on random reduced inputs, on the extreme values the callers
// produce (+-(q-1), decompressed q-1, CBD +-3) and on arbitrary int16 words
// (the kernels repeat the reference's int16 operation sequence, so even
// out-of-range inputs agree). The multi-lane Keccak and the other vector
// helpers are checked against the single-instance sponge.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "platform/cpu_features.h"
#include "kem/mlkem/mlkem_impl.h"
#include "kem/core/mlkem_poly.h"
#include "kem/mlkem/mlkem_simd.h"
#include "kem/mlkem/mlkem_simd_api.h"

namespace gpucrypto::test {
namespace {

namespace mk = kem::mlkem;

struct KernelSet {
  const char* name;
  uint32_t required;
  const mk::PolyKernels* poly;
};

void ref_ntt(int16_t* p) {
  mk::ntt(p);
  for (int i = 0; i < mk::kN; ++i) p[i] = mk::barrett_reduce(p[i]);
}
void ref_invntt(int16_t* p) { mk::invntt_tomont(p); }
void ref_basemul_acc(int16_t* r, const int16_t* a, const int16_t* b, int k) {
  for (int j = 0; j < k; ++j) mk::basemul_acc(r, a + mk::kN * j, b + mk::kN * j, j != 0);
  for (int i = 0; i < mk::kN; ++i) r[i] = mk::barrett_reduce(r[i]);
}
void ref_compress(uint8_t* r, const int16_t* a, int d) {
  mk::Poly p;
  std::memcpy(p.c, a, sizeof p.c);
  switch (d) {
    case 4: mk::poly_compress<4>(r, p); break;
    case 5: mk::poly_compress<5>(r, p); break;
    case 10: mk::poly_compress<10>(r, p); break;
    default: mk::poly_compress<11>(r, p); break;
  }
}
void ref_decompress(int16_t* r, const uint8_t* a, int d) {
  mk::Poly p;
  switch (d) {
    case 4: mk::poly_decompress<4>(p, a); break;
    case 5: mk::poly_decompress<5>(p, a); break;
    case 10: mk::poly_decompress<10>(p, a); break;
    default: mk::poly_decompress<11>(p, a); break;
  }
  std::memcpy(r, p.c, sizeof p.c);
}
void ref_tobytes(uint8_t* r, const int16_t* a) {
  mk::Poly p;
  std::memcpy(p.c, a, sizeof p.c);
  mk::poly_to_bytes(r, p);
}
uint32_t ref_frombytes(int16_t* r, const uint8_t* a) {
  mk::Poly p;
  const uint32_t ok = mk::poly_from_bytes(p, a);
  std::memcpy(r, p.c, sizeof p.c);
  return ok;
}
void ref_frommsg(int16_t* r, const uint8_t* m) {
  mk::Poly p;
  mk::poly_from_msg(p, m);
  std::memcpy(r, p.c, sizeof p.c);
}
void ref_tomsg(uint8_t* m, const int16_t* a) {
  mk::Poly p;
  std::memcpy(p.c, a, sizeof p.c);
  mk::poly_to_msg(m, p);
}
void ref_cbd(int16_t* r, const uint8_t* buf, int eta) {
  mk::Poly p;
  if (eta == 2) mk::poly_cbd<2>(p, buf);
  else mk::poly_cbd<3>(p, buf);
  std::memcpy(r, p.c, sizeof p.c);
}
constexpr mk::PolyKernels kRefPoly{ref_ntt,      ref_invntt,     ref_basemul_acc, mk::rej_uniform,
                                   ref_compress, ref_decompress, ref_tobytes,     ref_frombytes,
                                   ref_frommsg,  ref_tomsg,      ref_cbd};

std::vector<KernelSet> runnable_sets() {
  const KernelSet all[] = {
      {"avx512", kAVX512F | kAVX512VL | kAVX512BW, &mk::kPolyAvx512},
      {"avx2", kAVX2, &mk::kPolyAvx2},
  };
  std::vector<KernelSet> v;
  for (const KernelSet& s : all)
    if ((s.required & cpu_features_detected()) == s.required) v.push_back(s);
  return v;
}

// The SIMD impls of the C API must be among the kernel sets tested here.
TEST(MlkemKernels, EveryRunnableImplHasItsKernelsTested) {
  const auto sets = runnable_sets();
  for (const mk::Impl* impl : mk::impls()) {
    if ((impl->required & cpu_features_detected()) != impl->required) continue;
    if (std::string(impl->name) == "ref") continue;
    bool found = false;
    for (const KernelSet& s : sets) found |= std::string(s.name) == impl->name;
    EXPECT_TRUE(found) << impl->name;
  }
  if (sets.empty()) GTEST_SKIP() << "no SIMD kernel set runs on this CPU";
}

using Gen = std::vector<int16_t> (*)(std::mt19937&, int n);

std::vector<int16_t> uniform_reduced(std::mt19937& g, int n) {
  std::uniform_int_distribution<int> d(-(mk::kQ - 1), mk::kQ - 1);
  std::vector<int16_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = int16_t(d(g));
  return v;
}
std::vector<int16_t> centred(std::mt19937& g, int n) {
  std::uniform_int_distribution<int> d(-(mk::kQ - 1) / 2, (mk::kQ - 1) / 2);
  std::vector<int16_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = int16_t(d(g));
  return v;
}
std::vector<int16_t> any_int16(std::mt19937& g, int n) {
  std::uniform_int_distribution<int> d(-32768, 32767);
  std::vector<int16_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = int16_t(d(g));
  return v;
}
std::vector<int16_t> extremes(std::mt19937& g, int n) {
  const int16_t vals[] = {int16_t(mk::kQ - 1), int16_t(-(mk::kQ - 1)), 0, 1, -1, 3, -3,
                          int16_t((mk::kQ - 1) / 2), int16_t(-(mk::kQ - 1) / 2)};
  std::uniform_int_distribution<int> d(0, 8);
  std::vector<int16_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = vals[d(g)];
  return v;
}
std::vector<int16_t> all_q_minus_1(std::mt19937&, int n) {
  return std::vector<int16_t>(static_cast<size_t>(n), int16_t(mk::kQ - 1));
}
std::vector<int16_t> all_minus_q_plus_1(std::mt19937&, int n) {
  return std::vector<int16_t>(static_cast<size_t>(n), int16_t(-(mk::kQ - 1)));
}
std::vector<int16_t> alternating(std::mt19937&, int n) {
  std::vector<int16_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = int16_t(i % 2 ? mk::kQ - 1 : -(mk::kQ - 1));
  return v;
}

const std::pair<const char*, Gen> kGens[] = {
    {"uniform(-q,q)", uniform_reduced}, {"centred", centred},       {"extremes", extremes},
    {"all q-1", all_q_minus_1},         {"all -(q-1)", all_minus_q_plus_1},
    {"alternating", alternating},       {"any int16", any_int16}};

TEST(MlkemKernels, NttAndInverseEqualReference) {
  std::mt19937 g(12345);
  for (const KernelSet& s : runnable_sets()) {
    for (const auto& [gname, gen] : kGens) {
      for (int iter = 0; iter < 200; ++iter) {
        const auto in = gen(g, mk::kN);
        std::vector<int16_t> a = in, b = in;
        kRefPoly.ntt(a.data());
        s.poly->ntt(b.data());
        ASSERT_EQ(a, b) << s.name << " ntt, " << gname << ", iteration " << iter;
        a = in;
        b = in;
        kRefPoly.invntt(a.data());
        s.poly->invntt(b.data());
        ASSERT_EQ(a, b) << s.name << " invntt, " << gname << ", iteration " << iter;
      }
    }
  }
}

TEST(MlkemKernels, BasemulAccEqualsReference) {
  std::mt19937 g(777);
  for (const KernelSet& s : runnable_sets()) {
    for (int k = 1; k <= 4; ++k) {
      for (const auto& [gname, gen] : kGens) {
        for (int iter = 0; iter < 100; ++iter) {
          const auto a = gen(g, mk::kN * k), b = gen(g, mk::kN * k);
          std::vector<int16_t> r1(mk::kN, 7), r2(mk::kN, -7);
          kRefPoly.basemul_acc(r1.data(), a.data(), b.data(), k);
          s.poly->basemul_acc(r2.data(), a.data(), b.data(), k);
          ASSERT_EQ(r1, r2) << s.name << " basemul k=" << k << ", " << gname << ", iteration " << iter;
        }
      }
    }
  }
}

// The round trip through the kernels is the identity up to the Montgomery
// factors: invntt(basemul(ntt(a), ntt(1 * 2^16 ...))) — here simply
// invntt(ntt(a)) = a * 2^16 mod q.
TEST(MlkemKernels, NttRoundTripIsScaling) {
  std::mt19937 g(99);
  for (const KernelSet& s : runnable_sets()) {
    for (int iter = 0; iter < 100; ++iter) {
      const auto in = uniform_reduced(g, mk::kN);
      std::vector<int16_t> a = in;
      s.poly->ntt(a.data());
      s.poly->invntt(a.data());
      for (int i = 0; i < mk::kN; ++i) {
        const int64_t want = (int64_t(in[size_t(i)]) * 65536) % mk::kQ;
        ASSERT_EQ(((int64_t(a[size_t(i)]) - want) % mk::kQ + mk::kQ) % mk::kQ, 0) << s.name << " " << i;
      }
    }
  }
}

// Compress/encode take reduced coefficients (|c| < q); decode takes any bytes.
TEST(MlkemKernels, PackingEqualsReference) {
  std::mt19937 g(31337);
  std::uniform_int_distribution<int> byte(0, 255);
  for (const KernelSet& s : runnable_sets()) {
    // compress at every d and to_msg of `in` against the reference.
    auto expect_compress_and_msg_match = [&](const int16_t* in, const std::string& what) {
      for (int d : {4, 5, 10, 11}) {
        uint8_t a[32 * 11] = {}, b[32 * 11] = {};
        kRefPoly.compress(a, in, d);
        s.poly->compress(b, in, d);
        ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " compress d=" << d << ", " << what;
      }
      uint8_t ma[32], mb[32];
      kRefPoly.to_msg(ma, in);
      s.poly->to_msg(mb, in);
      ASSERT_EQ(0, std::memcmp(ma, mb, 32)) << s.name << " to_msg, " << what;
    };
    for (const auto& [gname, gen] : kGens) {
      if (gen == any_int16) continue;
      for (int iter = 0; iter < 50; ++iter) {
        const auto in = gen(g, mk::kN);
        expect_compress_and_msg_match(in.data(), gname);
        if (HasFatalFailure()) return;
        uint8_t a[384], b[384];
        kRefPoly.to_bytes(a, in.data());
        s.poly->to_bytes(b, in.data());
        ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " to_bytes, " << gname;
      }
    }
    // Every canonical value through compress (as a whole polynomial).
    for (int base = 0; base < mk::kQ; base += mk::kN) {
      std::vector<int16_t> in(mk::kN);
      for (int i = 0; i < mk::kN; ++i) in[size_t(i)] = int16_t((base + i) % mk::kQ - (i % 2 ? mk::kQ : 0) * ((base + i) % mk::kQ != 0));
      expect_compress_and_msg_match(in.data(), "base " + std::to_string(base));
      if (HasFatalFailure()) return;
    }
    for (int iter = 0; iter < 300; ++iter) {
      uint8_t in[384];
      for (auto& x : in) x = uint8_t(byte(g));
      if (iter % 3 == 0)  // mostly canonical 12-bit values, so the modulus check passes sometimes
        for (int i = 0; i < 128; ++i) in[3 * i + 2] = uint8_t(in[3 * i + 2] & 0x7f), in[3 * i + 1] &= 0x7f;
      for (int d : {4, 5, 10, 11}) {
        // An exact-size heap copy, so a sanitizer build catches reads past the input.
        const std::vector<uint8_t> exact(in, in + 32 * d);
        int16_t a[mk::kN], b[mk::kN];
        kRefPoly.decompress(a, exact.data(), d);
        s.poly->decompress(b, exact.data(), d);
        ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " decompress d=" << d;
      }
      for (int eta : {2, 3}) {
        const std::vector<uint8_t> exact(in, in + 64 * eta);
        int16_t a[mk::kN], b[mk::kN];
        kRefPoly.cbd(a, exact.data(), eta);
        s.poly->cbd(b, exact.data(), eta);
        ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " cbd eta=" << eta;
      }
      {
        const std::vector<uint8_t> msg(in, in + 32);
        int16_t a[mk::kN], b[mk::kN];
        kRefPoly.from_msg(a, msg.data());
        s.poly->from_msg(b, msg.data());
        ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " from_msg";
      }
      int16_t a[mk::kN], b[mk::kN];
      const uint32_t oka = kRefPoly.from_bytes(a, in), okb = s.poly->from_bytes(b, in);
      ASSERT_EQ(oka, okb) << s.name << " from_bytes check, iteration " << iter;
      ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " from_bytes, iteration " << iter;
    }
  }
}

TEST(MlkemKernels, RejUniformEqualsReference) {
  std::mt19937 g(4242);
  std::uniform_int_distribution<int> byte(0, 255);
  for (const KernelSet& s : runnable_sets()) {
    for (int iter = 0; iter < 2000; ++iter) {
      // 504 bytes (the first squeeze) or one block (168), from any count;
      // every fourth buffer is biased to values >= q so rejections cluster.
      const size_t len = iter % 3 == 0 ? 168 : 504;
      std::vector<uint8_t> buf(len);
      for (auto& b : buf) b = uint8_t(iter % 4 == 0 ? (byte(g) | 0xd0) : byte(g));
      const int start = iter % 5 == 0 ? std::uniform_int_distribution<int>(0, 256)(g) : 0;
      int16_t a[mk::kN], b[mk::kN];
      for (int i = 0; i < mk::kN; ++i) a[i] = b[i] = int16_t(-1 - i);
      const int ca = mk::rej_uniform(a, start, buf.data(), len);
      const int cb = s.poly->rej_uniform(b, start, buf.data(), len);
      ASSERT_EQ(ca, cb) << s.name << " iteration " << iter;
      ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " iteration " << iter;
    }
    // Tails that are not a multiple of 24 bytes.
    for (size_t len = 3; len <= 120; len += 3) {
      std::vector<uint8_t> buf(len);
      for (auto& x : buf) x = uint8_t(byte(g));
      int16_t a[mk::kN] = {}, b[mk::kN] = {};
      ASSERT_EQ(mk::rej_uniform(a, 0, buf.data(), len), s.poly->rej_uniform(b, 0, buf.data(), len));
      ASSERT_EQ(0, std::memcmp(a, b, sizeof a)) << s.name << " len " << len;
    }
  }
}

// The multi-lane Keccak against the single-instance sponge: SHAKE128 and
// SHAKE256 lanes mixed in one state, several squeezes.
template <int W, class St>
void check_lanes(void (*absorb)(St*, const uint8_t* const*), void (*set_lane)(St*, int, const uint8_t*),
                 void (*squeeze)(St*, const size_t*, size_t, uint8_t* const*), const char* name) {
  std::mt19937 g(W);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int iter = 0; iter < 20; ++iter) {
    uint8_t blk[W][200], in[W][34];
    const uint8_t* bp[W];
    size_t rate[W], inlen[W];
    uint8_t out[W][4 * 168];
    uint8_t* op[W];
    for (int l = 0; l < W; ++l) {
      const bool x128 = (l + iter) % 3 != 0;
      rate[l] = x128 ? mk::kShake128Rate : mk::kShake256Rate;
      inlen[l] = x128 ? 34 : 33;
      for (auto& b : in[l]) b = uint8_t(byte(g));
      std::memset(blk[l], 0, 200);
      std::memcpy(blk[l], in[l], inlen[l]);
      blk[l][inlen[l]] = 0x1f;
      blk[l][rate[l] - 1] |= 0x80;
      bp[l] = blk[l];
      op[l] = out[l];
    }
    St st;
    if (iter % 2 == 0) {
      absorb(&st, bp);
    } else {  // lane by lane over a state full of junk
      std::memset(&st, 0xa5, sizeof st);
      for (int l = 0; l < W; ++l) set_lane(&st, l, bp[l]);
    }
    squeeze(&st, rate, 3, op);
    for (int l = 0; l < W; ++l) op[l] = out[l] + 3 * rate[l];
    squeeze(&st, rate, 1, op);
    for (int l = 0; l < W; ++l) {
      uint8_t want[4 * 168];
      mk::Sponge sp;
      mk::sponge_absorb(sp, rate[l], 0x1f, in[l], inlen[l]);
      mk::sponge_squeeze(sp, want, 4 * rate[l]);
      ASSERT_EQ(0, std::memcmp(want, out[l], 4 * rate[l])) << name << " lane " << l << " iteration " << iter;
    }
  }
}

TEST(MlkemKernels, MultiLaneKeccakEqualsSponge) {
  if ((cpu_features_detected() & kAVX2) == kAVX2)
    check_lanes<4, mk::KeccakX4>(mk::avx2::keccakx4_absorb, mk::avx2::keccakx4_set_lane,
                                 mk::avx2::keccakx4_squeeze, "x4 avx2");
  const uint32_t avx512 = kAVX512F | kAVX512VL | kAVX512BW;
  if ((cpu_features_detected() & avx512) == avx512) {
    check_lanes<4, mk::KeccakX4>(mk::avx512::keccakx4_absorb, mk::avx512::keccakx4_set_lane,
                                 mk::avx512::keccakx4_squeeze, "x4 avx512");
    check_lanes<8, mk::KeccakX8>(mk::avx512::keccakx8_absorb, mk::avx512::keccakx8_set_lane,
                                 mk::avx512::keccakx8_squeeze, "x8 avx512");
  }
}

TEST(MlkemKernels, SingleSpongeEqualsReference) {
  const uint32_t avx512 = kAVX512F | kAVX512VL | kAVX512BW;
  std::mt19937 g(5);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::pair<const char*, decltype(&mk::avx2::keccak1_sponge)>> fns;
  if ((cpu_features_detected() & kAVX2) == kAVX2) fns.push_back({"avx2", mk::avx2::keccak1_sponge});
  if ((cpu_features_detected() & avx512) == avx512) fns.push_back({"avx512", mk::avx512::keccak1_sponge});
  std::vector<uint8_t> in(1700);
  for (auto& b : in) b = uint8_t(byte(g));
  for (const auto& [name, fn] : fns) {
    // Lengths around the block boundaries of every rate, split at several points.
    for (size_t len : {0, 1, 31, 32, 64, 71, 72, 73, 135, 136, 137, 800, 1088, 1120, 1184, 1568, 1600}) {
      for (size_t split : {size_t(0), size_t(32), len / 2, len}) {
        if (split > len) continue;
        uint8_t a[64], b[64];
        mk::sha3_256(a, in.data(), len);
        if (split == 0) {
          fn(b, 32, mk::kSha3_256Rate, 0x06, in.data(), len, nullptr, 0);
          ASSERT_EQ(0, std::memcmp(a, b, 32)) << name << " sha3-256 len " << len;
        }
        mk::sha3_512(a, in.data(), split, in.data() + split, len - split);
        fn(b, 64, mk::kSha3_512Rate, 0x06, in.data(), split, in.data() + split, len - split);
        ASSERT_EQ(0, std::memcmp(a, b, 64)) << name << " sha3-512 len " << len << " split " << split;
        uint8_t c[300], d[300];
        mk::shake256(c, sizeof c, in.data(), split, in.data() + split, len - split);
        fn(d, sizeof d, mk::kShake256Rate, 0x1f, in.data(), split, in.data() + split, len - split);
        ASSERT_EQ(0, std::memcmp(c, d, sizeof c)) << name << " shake256 len " << len << " split " << split;
      }
    }
  }
}

// The whole sampling step of every back end against RefBackend: matrix (both
// orientations) and noise of every level's keygen and encryption, through
// both lane schedules (batches and queue).
template <int K, int Eta1, int Eta2, class B>
void check_sample(const char* name, int n1, int n2) {
  std::mt19937 g(K * 10 + Eta1);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int iter = 0; iter < 10; ++iter) {
    uint8_t rho[32], seed[32];
    for (auto& b : rho) b = uint8_t(byte(g));
    for (auto& b : seed) b = uint8_t(byte(g));
    const bool tr = iter % 2 != 0;
    mk::PolyVec<K> a1[K], a2[K];
    mk::Poly n1p[2 * K + 1], n2p[2 * K + 1];
    mk::Poly* r1[2 * K + 1];
    mk::Poly* r2[2 * K + 1];
    for (int i = 0; i < 2 * K + 1; ++i) r1[i] = &n1p[i], r2[i] = &n2p[i];
    mk::RefBackend::sample<K, Eta1, Eta2>(a1, rho, tr, r1, n1, n2, seed);
    // sample() picks one of the two strategies per shape; check all three.
    for (int way = 0; way < 3; ++way) {
      std::memset(a2, 0x55, sizeof a2);
      std::memset(n2p, 0x55, sizeof n2p);
      if (way == 0) B::template sample<K, Eta1, Eta2>(a2, rho, tr, r2, n1, n2, seed);
      if (way == 1) B::template gen_matrix_noise_batches<K, Eta1, Eta2>(a2, rho, tr, r2, n1, n2, seed);
      if (way == 2) B::template gen_matrix_noise_queue<K, Eta1, Eta2>(a2, rho, tr, r2, n1, n2, seed);
      ASSERT_EQ(0, std::memcmp(a1, a2, sizeof a1)) << name << " K=" << K << " way " << way << " matrix";
      for (int i = 0; i < n1 + n2; ++i)
        ASSERT_EQ(0, std::memcmp(&n1p[i], &n2p[i], sizeof(mk::Poly)))
            << name << " K=" << K << " way " << way << " noise " << i;
    }
  }
}

template <class B>
void check_sample_all(const char* name) {
  check_sample<2, 3, 3, B>(name, 4, 0);  // keygen 512
  check_sample<2, 3, 2, B>(name, 2, 3);  // encrypt 512
  check_sample<3, 2, 2, B>(name, 6, 0);
  check_sample<3, 2, 2, B>(name, 3, 4);
  check_sample<4, 2, 2, B>(name, 8, 0);
  check_sample<4, 2, 2, B>(name, 4, 5);
}

TEST(MlkemKernels, SampleEqualsReference) {
  if ((cpu_features_detected() & kAVX2) == kAVX2) check_sample_all<mk::Avx2Backend>("avx2");
  const uint32_t avx512 = kAVX512F | kAVX512VL | kAVX512BW;
  if ((cpu_features_detected() & avx512) == avx512) check_sample_all<mk::Avx512Backend>("avx512");
}

}  // namespace
}  // namespace gpucrypto::test
