// The babyKyber GPU batch kernels without a GPU: every kernel x design run on
// the host grid emulator against the per-instance reference (kem/core/babykyber_pke.h)
// and every CPU batch path, byte for byte; the worked example through the
// kernel bodies; the runtime pipeline (gpu/gpu_kem.h) on the emulated device,
// with faults; and the C batch API's GPU step. Device tests skip without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "platform/cpu_features.h"
#include "gpu/gpu_backend.h"
#include "gpu/gpu_kem.h"
#include "gpu/kernels/babykyber.cuh"
#include "gpu/launch.h"
#include "gpucrypto/babykyber.h"
#include "kem/core/babykyber_pke.h"
#include "kem/babykyber/batch_impl.h"
#include "test/babykyber_example.h"
#include "test/gpu_kem_fixtures.h"

namespace gpucrypto::gpu {
namespace {

namespace bk = kem::babykyber;

constexpr size_t kCoinsK = bk::kKeygenCoinsBytes, kEk = bk::kEkBytes, kDk = bk::kDkBytes,
                 kCt = bk::kCtBytes, kCoinsE = bk::kEncryptCoinsBytes;
constexpr KemDesign kDesigns[] = {KemDesign::kThreadPerInstance, KemDesign::kSevenThreads,
                                  KemDesign::kPacked146};
// Ragged counts around the 146-instance blocks and 256-thread blocks.
constexpr size_t kSizes[] = {1, 7, 145, 146, 147, 1022, 5000};

// The inputs of one test batch: valid keys from keygen, plus every 13th
// encryption key random bytes (mostly non-canonical) and random private keys
// and ciphertexts for decryption (the decoders reduce them).
struct Batch {
  size_t n;
  Bytes kcoins, ecoins, ek, dk, m, ct;
  Batch(size_t count, uint64_t seed) : n(count) {
    std::mt19937_64 rng(seed);
    kcoins = random_bytes(rng, n * kCoinsK);
    ecoins = random_bytes(rng, n * kCoinsE);
    m = random_bytes(rng, n);  // the kernels keep bits 0..3, as bk::encrypt
    ek.resize(n * kEk);
    dk.resize(n * kDk);
    for (size_t i = 0; i < n; ++i) bk::keygen(&ek[i * kEk], &dk[i * kDk], &kcoins[i * kCoinsK]);
    for (size_t i = 0; i < n; i += 13) {
      Bytes r = random_bytes(rng, kEk);
      std::memcpy(&ek[i * kEk], r.data(), kEk);
    }
    ct = random_bytes(rng, n * kCt);
    for (size_t i = 1; i < n; i += 3) {  // and some honest ciphertexts
      bk::encrypt(&ct[i * kCt], &ek[i * kEk], m[i], &ecoins[i * kCoinsE]);
    }
    for (size_t i = 0; i < n; i += 5) {
      Bytes r = random_bytes(rng, kDk);
      std::memcpy(&dk[i * kDk], r.data(), kDk);
    }
  }
};

// Per-instance reference results.
struct Expected {
  Bytes ek, dk, ct, ok, m;
  explicit Expected(const Batch& b)
      : ek(b.n * kEk), dk(b.n * kDk), ct(b.n * kCt), ok(b.n), m(b.n) {
    for (size_t i = 0; i < b.n; ++i) {
      bk::keygen(&ek[i * kEk], &dk[i * kDk], &b.kcoins[i * kCoinsK]);
      ok[i] = uint8_t(bk::encrypt(&ct[i * kCt], &b.ek[i * kEk], b.m[i], &b.ecoins[i * kCoinsE]) & 1);
      m[i] = bk::decrypt(&b.dk[i * kDk], &b.ct[i * kCt]);
    }
  }
};

Bytes concat(std::initializer_list<const Bytes*> parts) {
  Bytes r;
  for (const Bytes* p : parts) r.insert(r.end(), p->begin(), p->end());
  return r;
}

// One emulated launch over the kernels' planar layout (no runtime).
Bytes emulate(KemOp op, KemDesign d, size_t n, const Bytes& in) {
  Bytes out(n * kern::kem_out_bytes(op), 0xee);
  EXPECT_EQ(in.size(), n * kern::kem_in_bytes(op));
  emulate_launch(BabyKyberLaunch{op, d}, {in.data(), out.data(), n, nullptr});
  return out;
}

class KemKernels : public ::testing::TestWithParam<KemDesign> {};

TEST_P(KemKernels, KeygenMatchesReference) {
  for (size_t n : kSizes) {
    Batch b(n, 1000 + n);
    Expected x(b);
    const Bytes out = emulate(KemOp::kKeygen, GetParam(), n, b.kcoins);
    EXPECT_EQ(slice(out, 0, n * kEk), x.ek) << "n = " << n;
    EXPECT_EQ(slice(out, n * kEk, n * kDk), x.dk) << "n = " << n;
  }
}

TEST_P(KemKernels, EncryptMatchesReference) {
  for (size_t n : kSizes) {
    Batch b(n, 2000 + n);
    Expected x(b);
    const Bytes out = emulate(KemOp::kEncrypt, GetParam(), n, concat({&b.ek, &b.m, &b.ecoins}));
    EXPECT_EQ(slice(out, 0, n * kCt), x.ct) << "n = " << n;
    EXPECT_EQ(slice(out, n * kCt, n), x.ok) << "n = " << n;
    EXPECT_EQ(x.ok[0], 0) << "instance 0 has a random (non-canonical) key";
  }
}

TEST_P(KemKernels, DecryptMatchesReference) {
  for (size_t n : kSizes) {
    Batch b(n, 3000 + n);
    Expected x(b);
    const Bytes out = emulate(KemOp::kDecrypt, GetParam(), n, concat({&b.dk, &b.ct}));
    EXPECT_EQ(out, x.m) << "n = " << n;
  }
}

// Against every CPU batch path this machine runs (the vector kernels too).
TEST_P(KemKernels, MatchesEveryCpuBatchPath) {
  const size_t n = 1022;
  Batch b(n, 4000);
  const Bytes kg = emulate(KemOp::kKeygen, GetParam(), n, b.kcoins);
  Bytes ms = b.m;
  for (auto& v : ms) v &= 0x0f;  // the C API's range
  const Bytes enc = emulate(KemOp::kEncrypt, GetParam(), n, concat({&b.ek, &ms, &b.ecoins}));
  const Bytes dec = emulate(KemOp::kDecrypt, GetParam(), n, concat({&b.dk, &b.ct}));
  int paths = 0;
  for (const kem::PkeBatchImpl* impl : kem::pke_batch_impls()) {
    if ((impl->required & cpu_features_detected()) != impl->required) continue;
    ++paths;
    Bytes ek(n * kEk), dk(n * kDk), ct(n * kCt), m(n);
    impl->keygen(n, b.kcoins.data(), kCoinsK, ek.data(), kEk, dk.data(), kDk);
    EXPECT_EQ(concat({&ek, &dk}), kg) << impl->name;
    const bool ok = impl->encrypt(n, ct.data(), kCt, b.ek.data(), kEk, ms.data(), b.ecoins.data(),
                                  kCoinsE);
    EXPECT_FALSE(ok) << impl->name;  // every 13th key is random
    EXPECT_EQ(ct, slice(enc, 0, n * kCt)) << impl->name;
    impl->decrypt(n, m.data(), b.ct.data(), kCt, b.dk.data(), kDk);
    EXPECT_EQ(m, dec) << impl->name;
  }
  EXPECT_GE(paths, 1);
}

INSTANTIATE_TEST_SUITE_P(AllDesigns, KemKernels, ::testing::ValuesIn(kDesigns),
                         [](const auto& info) {
                           switch (info.param) {
                             case KemDesign::kThreadPerInstance: return std::string("PerThread");
                             case KemDesign::kSevenThreads: return std::string("Seven");
                             case KemDesign::kPacked146: break;
                           }
                           return std::string("Packed146");
                         });

// --- the worked example (source: test/babykyber_example.h) --------------------
std::vector<int> coeffs(const bk::Poly& p) { return {p.c[0], p.c[1], p.c[2], p.c[3]}; }

using Worked = ::gpucrypto::test::BabyKyberExample;
constexpr uint8_t kWorkedM = 0b1011;  // m = x^3 + x + 1

// Runs phases [from, to) of the 7-thread body on one instance whose shared
// slot the test filled in: the product and fold phases on given polynomials.
template <KemOp kOp>
void run_phases(kern::KemSeven<kOp, 1>& k, typename kern::KemSeven<kOp, 1>::Shared& sh, int from,
                int to) {
  for (int ph = from; ph < to; ++ph)
    for (uint32_t lane = 0; lane < kern::kKemLanes; ++lane)
      k.phase(ph, kern::ThreadCtx{lane, 0, kern::kKemLanes, 1}, sh);
}

TEST(KemWorkedExample, SevenThreadProductsAndFold) {
  Worked x;
  Bytes in(64), out(64);
  {
    kern::KemSeven<KemOp::kKeygen, 1> k{{in.data(), out.data(), 1}};
    typename decltype(k)::Shared sh;
    std::memset(&sh, 0xa5, sizeof sh);
    sh.slot[0].A = x.A, sh.slot[0].s = x.s, sh.slot[0].e = x.e;
    run_phases(k, sh, 1, 3);
    EXPECT_EQ(coeffs(sh.slot[0].t.p[0]), (std::vector<int>{7, 0, 15, 16}));   // t[0]
    EXPECT_EQ(coeffs(sh.slot[0].t.p[1]), (std::vector<int>{6, 11, 12, 10}));  // t[1]
  }
  {
    kern::KemSeven<KemOp::kEncrypt, 1> k{{in.data(), out.data(), 1}};
    typename decltype(k)::Shared sh;
    std::memset(&sh, 0xa5, sizeof sh);
    auto& sl = sh.slot[0];
    sl.A = x.A, sl.t = x.t, sl.r = x.r, sl.e1 = x.e1, sl.e2 = x.e2;
    kem::poly_from_msg<bk::P>(sl.ms, &kWorkedM);
    run_phases(k, sh, 1, 3);
    EXPECT_EQ(coeffs(sl.u.p[0]), (std::vector<int>{3, 10, 11, 11}));  // u[0]
    EXPECT_EQ(coeffs(sl.u.p[1]), (std::vector<int>{11, 13, 4, 4}));   // u[1]
    EXPECT_EQ(coeffs(sl.v), (std::vector<int>{15, 8, 6, 7}));         // v
  }
  {
    kern::KemSeven<KemOp::kDecrypt, 1> k{{in.data(), out.data(), 1}};
    typename decltype(k)::Shared sh;
    std::memset(&sh, 0xa5, sizeof sh);
    sh.slot[0].s = x.s, sh.slot[0].u = x.u, sh.slot[0].v = x.v;
    run_phases(k, sh, 1, 4);
    EXPECT_EQ(coeffs(sh.slot[0].w), (std::vector<int>{5, 7, 14, 7}));  // v - s^T u
    EXPECT_EQ(out[0], kWorkedM);
  }
}

// Decryption is byte level from the example's own values, so it runs whole
// through every design: dk = s, ct = (u, v) -> m = x^3 + x + 1.
TEST(KemWorkedExample, DecryptThroughEveryDesign) {
  Worked x;
  Bytes dk(kDk), ct(kCt);
  bk::encode_dk(dk.data(), x.s);
  bk::encode_ct(ct.data(), x.u, x.v);
  for (KemDesign d : kDesigns)
    EXPECT_EQ(emulate(KemOp::kDecrypt, d, 1, concat({&dk, &ct})), Bytes{kWorkedM})
        << kem_design_name(d);
}

// The public key (A, t) of the example, encrypted through every design with
// r and e2 from coins (CBD_1 bits) and e1 the sparse one the coins allow:
// u and v differ from the example's only by e1's difference (e1 is given,
// not sampled, in the example), and the message comes back.
TEST(KemWorkedExample, EncryptThroughEveryDesign) {
  Worked x;
  Bytes ek(kEk);
  bk::encode_ek(ek.data(), x.A, x.t);
  // r[0] = [0,0,1,-1], r[1] = [-1,0,1,1] as CBD_1 bit pairs (x_i, y_i), LSB first;
  // e1 = +1 at position 2 (e1[0] = x^2); e2 = [0,0,-1,-1].
  const Bytes coins = {0x90, 0x52, 0x02, 0xa0};
  bk::Poly e2;
  kem::sample_cbd<bk::P, 1>(e2, &coins[3]);
  ASSERT_EQ(coeffs(e2), coeffs(x.e2));
  bk::PolyVec r;
  kem::sample_cbd<bk::P, 1>(r.p[0], &coins[0]);
  kem::sample_cbd<bk::P, 1>(r.p[1], &coins[1]);
  ASSERT_EQ(coeffs(r.p[0]), coeffs(x.r.p[0]));
  ASSERT_EQ(coeffs(r.p[1]), coeffs(x.r.p[1]));
  // Expected: the example's u minus (its e1 - ours): e1[0] loses x, e1[1] loses x^2.
  bk::PolyVec u = x.u;
  u.p[0].c[1] = uint16_t((u.p[0].c[1] + 16) % 17);
  u.p[1].c[2] = uint16_t((u.p[1].c[2] + 16) % 17);
  Bytes want(kCt);
  bk::encode_ct(want.data(), u, x.v);
  const Bytes m = {kWorkedM};
  for (KemDesign d : kDesigns) {
    const Bytes out = emulate(KemOp::kEncrypt, d, 1, concat({&ek, &m, &coins}));
    EXPECT_EQ(slice(out, 0, kCt), want) << kem_design_name(d);
    EXPECT_EQ(out[kCt], 1) << kem_design_name(d);
    Bytes dk(kDk);
    bk::encode_dk(dk.data(), x.s);
    EXPECT_EQ(emulate(KemOp::kDecrypt, d, 1, concat({&dk, &want})), m) << kem_design_name(d);
  }
}

// --- the runtime on the emulated device ---------------------------------------

class KemRuntime : public EmulatedRuntime<4096> {};

// Strided arrays (as inside KEM private keys), every design, many chunks.
TEST_F(KemRuntime, StridedJobsMatchReference) {
  const size_t n = 5000, es = 21, ds = 84, cs = 40, cts = 9;
  Batch b(n, 5000);
  Expected x(b);
  for (KemDesign d : kDesigns) {
    Bytes coins(n * cs), ek(n * es, 0x11), dk(n * ds, 0x22);
    for (size_t i = 0; i < n; ++i) std::memcpy(&coins[i * cs], &b.kcoins[i * kCoinsK], kCoinsK);
    ASSERT_EQ(kem_keygen(n, coins.data(), cs, ek.data(), es, dk.data(), ds, d), n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(0, std::memcmp(&ek[i * es], &x.ek[i * kEk], kEk)) << i;
      ASSERT_EQ(0, std::memcmp(&dk[i * ds], &x.dk[i * kDk], kDk)) << i;
      ASSERT_EQ(ek[i * es + kEk], 0x11);  // gaps untouched
      ASSERT_EQ(dk[i * ds + kDk], 0x22);
    }
    Bytes ct(n * cts, 0x33);
    bool ok = true;
    ASSERT_EQ(kem_encrypt(n, ct.data(), cts, b.ek.data(), kEk, b.m.data(), b.ecoins.data(),
                          kCoinsE, &ok, d),
              n);
    EXPECT_FALSE(ok);  // random keys among them
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(0, std::memcmp(&ct[i * cts], &x.ct[i * kCt], kCt)) << i;
      ASSERT_EQ(ct[i * cts + kCt], 0x33);
    }
    Bytes m(n);
    ASSERT_EQ(kem_decrypt(n, m.data(), b.ct.data(), kCt, b.dk.data(), kDk, d), n);
    EXPECT_EQ(m, x.m);
  }
  EXPECT_TRUE(stats().emulated);
  EXPECT_EQ(stats().failed_jobs, 0u);
}

TEST_F(KemRuntime, AllCanonicalKeysReportOk) {
  const size_t n = 1000;
  Batch b(n, 6000);
  Bytes ek(n * kEk), dk(n * kDk), ct(n * kCt);
  for (size_t i = 0; i < n; ++i) bk::keygen(&ek[i * kEk], &dk[i * kDk], &b.kcoins[i * kCoinsK]);
  for (KemDesign d : kDesigns) {
    bool ok = false;
    ASSERT_EQ(kem_encrypt(n, ct.data(), kCt, ek.data(), kEk, b.m.data(), b.ecoins.data(),
                          kCoinsE, &ok, d),
              n);
    EXPECT_TRUE(ok) << kem_design_name(d);
  }
}

// A mid-job fault leaves an exact prefix and the rest untouched.
TEST_F(KemRuntime, MidJobFaultLeavesPrefix) {
  use("emulate,d2h@3");
  const size_t n = 3000;
  Batch b(n, 7000);
  Expected x(b);
  Bytes ek(n * kEk, 0), dk(n * kDk, 0);
  const size_t done = kem_keygen(n, b.kcoins.data(), kCoinsK, ek.data(), kEk, dk.data(), kDk);
  EXPECT_GT(done, 0u);
  EXPECT_LT(done, n);
  expect_prefix(ek, x.ek, done, kEk, 0);
  EXPECT_EQ(slice(dk, 0, done * kDk), slice(x.dk, 0, done * kDk));
  EXPECT_EQ(stats().failed_jobs, 1u);
}

TEST(KemNoDevice, NothingRunsWithoutADevice) {
  unsetenv("GPUCRYPTO_GPU_FAULT");
  testing::reset();
  if (usable()) GTEST_SKIP() << "a GPU is present: " << describe();
  Bytes coins(10 * kCoinsK, 1), ek(10 * kEk), dk(10 * kDk);
  EXPECT_EQ(kem_keygen(10, coins.data(), kCoinsK, ek.data(), kEk, dk.data(), kDk), 0u);
  EXPECT_EQ(stats().jobs, 0u);
}

// --- the C batch API's GPU step (kem/babykyber/babykyber_kem.cpp, engine/offload.h) -------

class KemBatchApi : public BatchApiHook {
 protected:
  // All three PKE calls through the C API; true when they match the
  // per-instance reference.
  static void run_and_check(size_t n, uint64_t seed) {
    Batch b(n, seed);
    for (auto& v : b.m) v &= 0x0f;
    Expected x(b);
    Bytes ek(n * kEk), dk(n * kDk), ct(n * kCt), m(n);
    ASSERT_EQ(babykyber_pke_keygen_batch(n, ek.data(), dk.data(), b.kcoins.data(), 1), BABYKYBER_OK);
    EXPECT_EQ(ek, x.ek);
    EXPECT_EQ(dk, x.dk);
    EXPECT_EQ(babykyber_pke_encrypt_batch(n, ct.data(), b.ek.data(), b.m.data(), b.ecoins.data(), 1),
              BABYKYBER_ERR_KEY);  // every 13th key is random
    EXPECT_EQ(ct, x.ct);
    ASSERT_EQ(babykyber_pke_encrypt_batch(n, ct.data(), ek.data(), b.m.data(), b.ecoins.data(), 1),
              BABYKYBER_OK);
    ASSERT_EQ(babykyber_pke_decrypt_batch(n, m.data(), ct.data(), dk.data(), 1), BABYKYBER_OK);
    EXPECT_EQ(m, b.m);  // babyKyber never fails to decrypt
    ASSERT_EQ(babykyber_pke_decrypt_batch(n, m.data(), b.ct.data(), b.dk.data(), 1), BABYKYBER_OK);
    EXPECT_EQ(m, x.m);
  }
};

TEST_F(KemBatchApi, CpuOnlyWithoutADevice) {
  use(nullptr);
  if (usable()) GTEST_SKIP() << "a GPU is present: " << describe();
  run_and_check(2000, 8000);
  EXPECT_EQ(stats().jobs, 0u);
}

TEST_F(KemBatchApi, LargeBatchesGoThroughTheEmulatedGpu) {
  use("emulate");
  run_and_check(2000, 8100);
  EXPECT_TRUE(stats().emulated);
  EXPECT_EQ(stats().jobs, 5u);  // keygen, 2 x encrypt, 2 x decrypt
  EXPECT_EQ(stats().failed_jobs, 0u);
}

TEST_F(KemBatchApi, SmallBatchesStayOnTheCpu) {
  use("emulate");
  run_and_check(10, 8200);  // 10 instances move < 1 KiB
  EXPECT_EQ(stats().jobs, 0u);
}

TEST_F(KemBatchApi, FaultsFallBackToTheCpu) {
  for (const char* fault : {"emulate,launch", "emulate,h2d@1", "emulate,sync", "emulate,alloc:1"}) {
    SCOPED_TRACE(fault);
    use(fault);
    run_and_check(2000, 8300);
    EXPECT_GE(stats().failed_jobs, 1u);
  }
}

// --- a real device (skipped without one) --------------------------------------

TEST(KemDevice, EveryDesignMatchesTheCpu) {
  if (std::getenv("GPUCRYPTO_GPU_FAULT") != nullptr) GTEST_SKIP() << "fault switch set";
  testing::reset();
  if (!usable() || stats().emulated) GTEST_SKIP() << "no GPU: " << describe();
  for (size_t n : {size_t(1), size_t(147), size_t(1022), size_t(1) << 20}) {
    Batch b(n, 9000 + n);
    Expected x(b);
    for (KemDesign d : kDesigns) {
      SCOPED_TRACE(kem_design_name(d));
      Bytes ek(n * kEk), dk(n * kDk), ct(n * kCt), m(n);
      ASSERT_EQ(kem_keygen(n, b.kcoins.data(), kCoinsK, ek.data(), kEk, dk.data(), kDk, d), n);
      EXPECT_EQ(ek, x.ek);
      EXPECT_EQ(dk, x.dk);
      bool ok = true;
      ASSERT_EQ(kem_encrypt(n, ct.data(), kCt, b.ek.data(), kEk, b.m.data(), b.ecoins.data(),
                            kCoinsE, &ok, d),
                n);
      EXPECT_EQ(ct, x.ct);
      EXPECT_FALSE(ok);
      ASSERT_EQ(kem_decrypt(n, m.data(), b.ct.data(), kCt, b.dk.data(), kDk, d), n);
      EXPECT_EQ(m, x.m);
    }
  }
}

}  // namespace
}  // namespace gpucrypto::gpu
