// The ML-KEM GPU batch kernels without a GPU (gpu/kernels/mlkem.cuh,
// gpu/gpu_mlkem.h): the per-lane NTT / basemul pieces against
// kem/core/mlkem_poly.h; keygen, encaps and decaps for ML-KEM-512/768/1024 on the
// host grid emulator against the CPU API byte for byte (random seeds, bad
// encapsulation keys, tampered ciphertexts, garbage private keys) and against
// the ACVP vectors; the runtime pipeline on the emulated device with chunking
// and fault injection. Every result here is emulated on the CPU, never a GPU
// result; the device test skips without a GPU.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gpu/gpu_backend.h"
#include "gpu/gpu_mlkem.h"
#include "gpu/kernels/mlkem.cuh"
#include "gpu/launch.h"
#include "gpucrypto/mlkem.h"
#include "kem/core/mlkem_core.h"
#include "test/gpu_kem_fixtures.h"
#include "test_util.h"

namespace gpucrypto::gpu {
namespace {

namespace mk = kem::mlkem;
using test::hex;
using test::to_hex;

constexpr int kLevels[] = {512, 768, 1024};

struct Sz {
  size_t ek, dk, ct;
  explicit Sz(int level)
      : ek(mlkem_publickey_bytes(level)),
        dk(mlkem_secretkey_bytes(level)),
        ct(mlkem_ciphertext_bytes(level)) {}
};

int level_k(int level) { return level == 512 ? 2 : level == 768 ? 3 : 4; }

// The CPU core's encaps (kem/core/mlkem_core.h), which writes ct and ss even for
// an ek that fails the modulus check (the C API then wipes them).
uint32_t core_encaps(int level, uint8_t* ct, uint8_t* ss, const uint8_t* ek, const uint8_t* m) {
  switch (level) {
    case 512: return mk::Kem<2, mk::RefBackend>::encaps(ct, ss, ek, m);
    case 768: return mk::Kem<3, mk::RefBackend>::encaps(ct, ss, ek, m);
    default: return mk::Kem<4, mk::RefBackend>::encaps(ct, ss, ek, m);
  }
}

Bytes shake256(const Bytes& a, const Bytes& b, size_t outlen) {
  Bytes out(outlen);
  EVP_MD_CTX* c = EVP_MD_CTX_new();
  EXPECT_EQ(EVP_DigestInit_ex2(c, EVP_shake256(), nullptr), 1);
  EVP_DigestUpdate(c, a.data(), a.size());
  EVP_DigestUpdate(c, b.data(), b.size());
  EXPECT_EQ(EVP_DigestFinalXOF(c, out.data(), outlen), 1);
  EVP_MD_CTX_free(c);
  return out;
}

// One emulated launch of the kernel for (level, op) over the planar layout
// (no runtime): in = the fields back to back, returns the output buffer.
Bytes emulate(int level, MlkemOp op, size_t n, const Bytes& in) {
  const size_t total = mlkem_instance_bytes(level, op) * n;
  const size_t out_bytes = total - in.size();
  Bytes out(out_bytes, 0xee);
  emulate_launch(MlkemLaunch{op, level_k(level)}, {in.data(), out.data(), n, nullptr});
  return out;
}

Bytes concat(const Bytes& a, const Bytes& b) {
  Bytes r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

// --- the per-lane pieces against kem/core/mlkem_poly.h -------------------------------

mk::Poly random_poly(std::mt19937_64& rng, int bound) {
  mk::Poly p;
  for (auto& c : p.c) c = int16_t(int(rng() % uint64_t(2 * bound - 1)) - (bound - 1));
  return p;
}

std::vector<int16_t> coeffs(const mk::Poly& p) { return {p.c, p.c + mk::kN}; }

TEST(MlkemLanes, NttLayersMatchReference) {
  int16_t zeta[128];
  for (int i = 0; i < 128; ++i) zeta[i] = kern::mlkem_zeta(i);
  std::mt19937_64 rng(1);
  for (int trial = 0; trial < 50; ++trial) {
    mk::Poly a = random_poly(rng, mk::kQ), ref = a;
    mk::RefBackend::ntt(ref);
    // Butterflies of a layer in reverse lane order: order must not matter.
    for (int layer = 0; layer < 7; ++layer)
      for (int b = 127; b >= 0; --b) kern::mlkem_ntt_butterfly(a.c, layer, b, zeta);
    ASSERT_EQ(coeffs(a), coeffs(ref)) << trial;

    mk::Poly x = random_poly(rng, 4 * mk::kQ), xr = x;
    mk::RefBackend::invntt(xr);
    for (int layer = 0; layer < 7; ++layer)
      for (int b = 0; b < 128; ++b) kern::mlkem_invntt_butterfly(x.c, layer, b, zeta);
    ASSERT_EQ(coeffs(x), coeffs(xr)) << trial;
  }
}

TEST(MlkemLanes, BasemulPairsMatchReference) {
  int16_t zeta[128];
  for (int i = 0; i < 128; ++i) zeta[i] = kern::mlkem_zeta(i);
  std::mt19937_64 rng(2);
  mk::PolyVec<4> a, b;
  for (int j = 0; j < 4; ++j) a.p[j] = random_poly(rng, mk::kQ), b.p[j] = random_poly(rng, mk::kQ);
  mk::Poly ref;
  mk::RefBackend::basemul_acc<4>(ref, a, b);
  const mk::Poly* pa[4] = {&a.p[0], &a.p[1], &a.p[2], &a.p[3]};
  const mk::Poly* pb[4] = {&b.p[0], &b.p[1], &b.p[2], &b.p[3]};
  mk::Poly got;
  for (int pair = 0; pair < 128; ++pair)
    kern::mlkem_basemul_pair<4>(got.c[2 * pair], got.c[2 * pair + 1], pa, pb, pair, zeta);
  EXPECT_EQ(coeffs(got), coeffs(ref));
}

TEST(MlkemLanes, CompressGroupsMatchReference) {
  std::mt19937_64 rng(3);
  const mk::Poly a = random_poly(rng, mk::kQ);
  auto check = [&]<int D>() {
    uint8_t ref[32 * D], got[32 * D];
    mk::poly_compress<D>(ref, a);
    for (int g = 0; g < 32; ++g) {
      int16_t c[8];
      for (int j = 0; j < 8; ++j) c[j] = a.c[8 * g + j];
      kern::mlkem_compress8<D>(got + D * g, c);
    }
    EXPECT_EQ(0, std::memcmp(ref, got, sizeof ref)) << "d = " << D;
  };
  check.template operator()<4>();
  check.template operator()<5>();
  check.template operator()<10>();
  check.template operator()<11>();
}

// 48 KiB of static shared memory per block, 128 threads per instance, and the
// instances per block gpu/README.md states.
TEST(MlkemLanes, SharedMemoryBudget) {
  const std::map<std::pair<int, MlkemOp>, uint32_t> want = {
      {{512, MlkemOp::kKeygen}, 4}, {{768, MlkemOp::kKeygen}, 4}, {{1024, MlkemOp::kKeygen}, 3},
      {{512, MlkemOp::kEncaps}, 4}, {{768, MlkemOp::kEncaps}, 4}, {{1024, MlkemOp::kEncaps}, 3},
      {{512, MlkemOp::kDecaps}, 4}, {{768, MlkemOp::kDecaps}, 4}, {{1024, MlkemOp::kDecaps}, 3}};
  for (const auto& [key, inst] : want) {
    const auto [level, op] = key;
    EXPECT_EQ(mlkem_instances_per_block(level, op), inst) << level << " op " << int(op);
    EXPECT_LE(mlkem_shared_bytes(level, op), size_t(48) << 10);
  }
  EXPECT_EQ(mlkem_instances_per_block(1000, MlkemOp::kKeygen), 0u);
  EXPECT_EQ(mlkem_instance_bytes(768, MlkemOp::kDecaps), size_t(2400 + 1088 + 32));
  EXPECT_EQ(mlkem_instance_bytes(512, MlkemOp::kKeygen), size_t(64 + 800 + 1632));
  EXPECT_EQ(mlkem_instance_bytes(1024, MlkemOp::kEncaps), size_t(1568 + 32 + 1568 + 32 + 1));
}

// The last phase zeroes each instance's shared slot (s, e, r, m', G's output):
// one block run by hand, as the emulator does, then the slots are inspected.
TEST(MlkemLanes, SharedSlotsAreWipedAtTheEnd) {
  auto run = [&]<class Kn>(const Bytes& in, size_t out_bytes) {
    const size_t n = Kn::kInstancesPerBlock;
    Bytes out(out_bytes * n);
    const Kn k{{in.data(), out.data(), n}};
    auto sh = std::make_unique<typename Kn::Shared>();
    std::memset(static_cast<void*>(sh.get()), 0, sizeof(typename Kn::Shared));
    for (int ph = 0; ph < Kn::kPhases; ++ph) {
      for (uint32_t t = 0; t < Kn::kThreads; ++t) k.phase(ph, kern::ThreadCtx{t, 0, Kn::kThreads, 1}, *sh);
      if (ph == Kn::kPhases - 2) {  // before the wipe: the kernel's data
        const auto* b = reinterpret_cast<const uint8_t*>(&sh->slot[0]);
        EXPECT_NE(std::count(b, b + sizeof(sh->slot), 0), long(sizeof(sh->slot)));
      }
    }
    const auto* b = reinterpret_cast<const uint8_t*>(&sh->slot[0]);
    EXPECT_EQ(std::count(b, b + sizeof(sh->slot), 0), long(sizeof(sh->slot)));
  };
  std::mt19937_64 rng(5);
  using KG = kern::MlkemKernel<2, MlkemOp::kKeygen>;
  using EN = kern::MlkemKernel<3, MlkemOp::kEncaps>;
  using DE = kern::MlkemKernel<4, MlkemOp::kDecaps>;
  run.template operator()<KG>(random_bytes(rng, 64 * KG::kInstancesPerBlock), 800 + 1632);
  run.template operator()<EN>(random_bytes(rng, (1184 + 32) * EN::kInstancesPerBlock), 1088 + 33);
  run.template operator()<DE>(random_bytes(rng, (3168 + 1568) * DE::kInstancesPerBlock), 32);
}

// --- whole kernels on the grid emulator against the CPU API -----------------------

// A batch of n instances with CPU results: keys from random seeds, every
// 5th ek with one coefficient set >= q, ciphertexts of which every 3rd is
// honest, every 3rd tampered in one bit, every 3rd random bytes.
struct Batch {
  int level;
  size_t n;
  Sz sz;
  Bytes seeds, ek, dk, m, ct;        // inputs (ek: keygen's, with some made bad)
  Bytes gen_ek;                      // keygen's ek (CPU), all good
  Bytes ek_ok;                       // which ek are canonical
  Bytes x_ct, x_ss, x_dss;           // CPU results: encaps ct/ss, decaps ss
  Batch(int lvl, size_t count, uint64_t seed) : level(lvl), n(count), sz(lvl) {
    std::mt19937_64 rng(seed);
    seeds = random_bytes(rng, n * 64);
    m = random_bytes(rng, n * 32);
    ek.resize(n * sz.ek);
    dk.resize(n * sz.dk);
    ct.resize(n * sz.ct);
    ek_ok.assign(n, 1);
    for (size_t i = 0; i < n; ++i)
      EXPECT_EQ(mlkem_keypair_derand(level, &ek[i * sz.ek], &dk[i * sz.dk], &seeds[i * 64]), MLKEM_OK);
    gen_ek = ek;
    for (size_t i = 2; i < n; i += 5) {
      // Coefficient j of polynomial p := 0xfff (>= q): 12-bit field at bits
      // 12 j of the polynomial's 384 bytes.
      const size_t p = rng() % size_t(level_k(level)), j = rng() % 256;
      uint8_t* b = &ek[i * sz.ek + p * 384 + 3 * (j / 2)];
      if (j % 2 == 0) b[0] = 0xff, b[1] |= 0x0f;
      else b[1] |= 0xf0, b[2] = 0xff;
      ek_ok[i] = 0;
    }
    x_ct.resize(n * sz.ct);
    x_ss.resize(n * 32);
    x_dss.resize(n * 32);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t ok = core_encaps(level, &x_ct[i * sz.ct], &x_ss[i * 32], &ek[i * sz.ek], &m[i * 32]);
      EXPECT_EQ(ok != 0, ek_ok[i] != 0) << i;
      Bytes c(sz.ct), s(32);
      const int rc = mlkem_encaps_derand(level, c.data(), s.data(), &ek[i * sz.ek], &m[i * 32]);
      EXPECT_EQ(rc, ek_ok[i] ? MLKEM_OK : MLKEM_ERR_KEY);
      if (rc == MLKEM_OK) {
        EXPECT_EQ(0, std::memcmp(c.data(), &x_ct[i * sz.ct], sz.ct));
        EXPECT_EQ(0, std::memcmp(s.data(), &x_ss[i * 32], 32));
      }
      uint8_t* cti = &ct[i * sz.ct];
      std::memcpy(cti, &x_ct[i * sz.ct], sz.ct);
      if (i % 3 == 1) cti[rng() % sz.ct] ^= uint8_t(1u << (rng() % 8));
      if (i % 3 == 2) {
        const Bytes r = random_bytes(rng, sz.ct);
        std::memcpy(cti, r.data(), sz.ct);
      }
      EXPECT_EQ(::mlkem_decaps(level, &x_dss[i * 32], cti, &dk[i * sz.dk]), MLKEM_OK);
    }
  }
};

class MlkemKernels : public ::testing::TestWithParam<int> {};

// Ragged counts around the 3- and 4-instance blocks.
constexpr size_t kCounts[] = {1, 3, 4, 5, 11};

TEST_P(MlkemKernels, KeygenMatchesCpu) {
  const int level = GetParam();
  for (size_t n : kCounts) {
    Batch b(level, n, 100 + n);
    const Bytes out = emulate(level, MlkemOp::kKeygen, n, b.seeds);
    EXPECT_EQ(slice(out, 0, n * b.sz.ek), b.gen_ek) << "n = " << n;
    EXPECT_EQ(slice(out, n * b.sz.ek, n * b.sz.dk), b.dk) << "n = " << n;
  }
}

TEST_P(MlkemKernels, EncapsMatchesCpuAndFlagsBadKeys) {
  const int level = GetParam();
  for (size_t n : kCounts) {
    Batch b(level, n, 200 + n);
    const Bytes out = emulate(level, MlkemOp::kEncaps, n, concat(b.ek, b.m));
    EXPECT_EQ(slice(out, 0, n * b.sz.ct), b.x_ct) << "n = " << n;
    EXPECT_EQ(slice(out, n * b.sz.ct, n * 32), b.x_ss) << "n = " << n;
    EXPECT_EQ(slice(out, n * (b.sz.ct + 32), n), b.ek_ok) << "n = " << n;
  }
}

TEST_P(MlkemKernels, DecapsMatchesCpuWithImplicitRejection) {
  const int level = GetParam();
  for (size_t n : kCounts) {
    Batch b(level, n, 300 + n);
    const Bytes out = emulate(level, MlkemOp::kDecaps, n, concat(b.dk, b.ct));
    EXPECT_EQ(out, b.x_dss) << "n = " << n;
    for (size_t i = 0; i < n; ++i) {
      const Bytes z = slice(b.dk, i * b.sz.dk + b.sz.dk - 32, 32);
      const Bytes c = slice(b.ct, i * b.sz.ct, b.sz.ct);
      const Bytes got = slice(out, i * 32, 32);
      if (i % 3 == 0 && b.ek_ok[i]) {
        EXPECT_EQ(got, slice(b.x_ss, i * 32, 32)) << "honest ciphertext " << i;
      } else if (i % 3 != 0) {
        // Tampered or random: the implicit-rejection secret J(z || c).
        EXPECT_EQ(got, shake256(z, c, 32)) << "tampered ciphertext " << i;
      }
    }
  }
}

// Decaps does not check dk (the caller does, once): garbage private keys
// still give the CPU's bytes.
TEST_P(MlkemKernels, DecapsOfGarbageKeysMatchesCpu) {
  const int level = GetParam();
  const Sz sz(level);
  const size_t n = 5;
  std::mt19937_64 rng(400);
  const Bytes dk = random_bytes(rng, n * sz.dk), ct = random_bytes(rng, n * sz.ct);
  Bytes want(n * 32);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(::mlkem_decaps(level, &want[i * 32], &ct[i * sz.ct], &dk[i * sz.dk]), MLKEM_OK);
  EXPECT_EQ(emulate(level, MlkemOp::kDecaps, n, concat(dk, ct)), want);
}

INSTANTIATE_TEST_SUITE_P(Levels, MlkemKernels, ::testing::ValuesIn(kLevels),
                         [](const auto& info) { return "MLKEM" + std::to_string(info.param); });

// --- the ACVP vectors (test/vectors/mlkem{512,768,1024}.txt) ------------------

using Record = test::KatRecord;

class MlkemAcvp : public ::testing::TestWithParam<int> {};

// Every keyGen, encapsulation, decapsulation (valid and modified ciphertext)
// and encapsulationKeyCheck record, one emulated batch per kind.
TEST_P(MlkemAcvp, EveryRecordThroughTheKernels) {
  const int level = GetParam();
  const test::KatFile f = test::load_kat("mlkem" + std::to_string(level) + ".txt");
  ASSERT_TRUE(f.error.empty()) << f.error;
  const std::vector<Record>& recs = f.records;
  const Sz sz(level);
  std::map<std::string, std::vector<const Record*>> by;
  for (const Record& r : recs) by[r.at("test")].push_back(&r);

  {  // keyGen
    const auto& rs = by["keyGen"];
    Bytes seeds;
    for (const Record* r : rs) seeds = concat(concat(seeds, hex(r->at("d"))), hex(r->at("z")));
    const Bytes out = emulate(level, MlkemOp::kKeygen, rs.size(), seeds);
    for (size_t i = 0; i < rs.size(); ++i) {
      SCOPED_TRACE("keyGen tcId " + rs[i]->at("tcId"));
      EXPECT_EQ(to_hex(&out[i * sz.ek], sz.ek), rs[i]->at("ek"));
      EXPECT_EQ(to_hex(&out[rs.size() * sz.ek + i * sz.dk], sz.dk), rs[i]->at("dk"));
    }
    EXPECT_EQ(rs.size(), 4u);
  }
  {  // encapsulation, then decapsulation of its ciphertexts (round trip)
    const auto& rs = by["encapsulation"];
    Bytes eks, ms, dks;
    for (const Record* r : rs) {
      eks = concat(eks, hex(r->at("ek")));
      ms = concat(ms, hex(r->at("m")));
      dks = concat(dks, hex(r->at("dk")));
    }
    const size_t n = rs.size();
    const Bytes out = emulate(level, MlkemOp::kEncaps, n, concat(eks, ms));
    const Bytes dec = emulate(level, MlkemOp::kDecaps, n, concat(dks, slice(out, 0, n * sz.ct)));
    for (size_t i = 0; i < n; ++i) {
      SCOPED_TRACE("encapsulation tcId " + rs[i]->at("tcId"));
      EXPECT_EQ(to_hex(&out[i * sz.ct], sz.ct), rs[i]->at("c"));
      EXPECT_EQ(to_hex(&out[n * sz.ct + i * 32], 32), rs[i]->at("k"));
      EXPECT_EQ(out[n * (sz.ct + 32) + i], 1);
      EXPECT_EQ(to_hex(&dec[i * 32], 32), rs[i]->at("k"));
    }
    EXPECT_EQ(n, 4u);
  }
  {  // decapsulation: valid and modified ciphertexts (implicit rejection)
    const auto& rs = by["decapsulation"];
    Bytes dks, cs;
    for (const Record* r : rs) dks = concat(dks, hex(r->at("dk"))), cs = concat(cs, hex(r->at("c")));
    const Bytes out = emulate(level, MlkemOp::kDecaps, rs.size(), concat(dks, cs));
    for (size_t i = 0; i < rs.size(); ++i) {
      SCOPED_TRACE("decapsulation tcId " + rs[i]->at("tcId") + " " + rs[i]->at("reason"));
      EXPECT_EQ(to_hex(&out[i * 32], 32), rs[i]->at("k"));
    }
    EXPECT_EQ(rs.size(), 4u);
  }
  {  // encapsulationKeyCheck: the kernel's modulus-check flag
    size_t checked = 0;
    Bytes eks;
    std::vector<bool> expect;
    for (const Record* r : by["encapsulationKeyCheck"]) {
      const Bytes ek = hex(r->at("ek"));
      if (ek.size() != sz.ek) continue;  // a length check is the caller's
      eks = concat(eks, ek);
      expect.push_back(r->at("testPassed") == "true");
      ++checked;
    }
    const Bytes out = emulate(level, MlkemOp::kEncaps, checked, concat(eks, Bytes(checked * 32, 7)));
    for (size_t i = 0; i < checked; ++i) EXPECT_EQ(out[checked * (sz.ct + 32) + i], expect[i] ? 1 : 0) << i;
    EXPECT_GE(checked, 1u);
    EXPECT_NE(std::count(expect.begin(), expect.end(), false), 0) << "no bad-key record checked";
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, MlkemAcvp, ::testing::ValuesIn(kLevels),
                         [](const auto& info) { return "MLKEM" + std::to_string(info.param); });

// --- the runtime pipeline on the emulated device ------------------------------------

// 3..19 instances per chunk: many chunks over the 8 slots.
class MlkemRuntime : public EmulatedRuntime<16 << 10, ::testing::TestWithParam<int>> {};

// Keygen, encaps and decaps of 40 instances through 2 emulated devices x 4
// streams, against the CPU API.
TEST_P(MlkemRuntime, AllOpsMatchCpu) {
  const int level = GetParam();
  const size_t n = 40;
  Batch b(level, n, 500);
  const Sz& sz = b.sz;
  Bytes ek(n * sz.ek), dk(n * sz.dk);
  ASSERT_EQ(mlkem_keygen(level, n, b.seeds.data(), ek.data(), dk.data()), n);
  EXPECT_EQ(ek, b.gen_ek);
  EXPECT_EQ(dk, b.dk);
  Bytes ct(n * sz.ct), ss(n * 32), ok(n, 0xee);
  ASSERT_EQ(mlkem_encaps(level, n, b.ek.data(), b.m.data(), ct.data(), ss.data(), ok.data()), n);
  EXPECT_EQ(ct, b.x_ct);
  EXPECT_EQ(ss, b.x_ss);
  EXPECT_EQ(ok, b.ek_ok);
  Bytes ss2(n * 32);
  ASSERT_EQ(mlkem_encaps(level, n, b.ek.data(), b.m.data(), ct.data(), ss2.data(), nullptr), n);
  EXPECT_EQ(ss2, b.x_ss);  // ek_ok may be null
  Bytes dss(n * 32);
  ASSERT_EQ(mlkem_decaps(level, n, b.dk.data(), b.ct.data(), dss.data()), n);
  EXPECT_EQ(dss, b.x_dss);
  EXPECT_TRUE(stats().emulated);
  EXPECT_EQ(stats().jobs, 4u);
  EXPECT_EQ(stats().failed_jobs, 0u);
}

// A mid-job fault leaves an exact prefix and the rest untouched, for every op.
TEST_P(MlkemRuntime, MidJobFaultLeavesPrefix) {
  const int level = GetParam();
  const size_t n = 60;
  Batch b(level, n, 600);
  const Sz& sz = b.sz;
  // A faulted batch finished some, not all, of its n instances.
  auto partial = [n](size_t done) {
    EXPECT_GT(done, 0u);
    EXPECT_LT(done, n);
    return done;
  };
  for (const char* fault : {"emulate:2,d2h@3", "emulate,launch@4", "emulate,sync@2"}) {
    SCOPED_TRACE(fault);
    use(fault);
    Bytes ek(n * sz.ek, 0x5a), dk(n * sz.dk, 0x5a);
    size_t done = partial(mlkem_keygen(level, n, b.seeds.data(), ek.data(), dk.data()));
    expect_prefix(ek, b.gen_ek, done, sz.ek, 0x5a);
    expect_prefix(dk, b.dk, done, sz.dk, 0x5a);

    use(fault);
    Bytes ct(n * sz.ct, 0x5a), ss(n * 32, 0x5a), ok(n, 0x5a);
    done = partial(mlkem_encaps(level, n, b.ek.data(), b.m.data(), ct.data(), ss.data(), ok.data()));
    expect_prefix(ct, b.x_ct, done, sz.ct, 0x5a);
    expect_prefix(ss, b.x_ss, done, 32, 0x5a);
    expect_prefix(ok, b.ek_ok, done, 1, 0x5a);

    use(fault);
    Bytes dss(n * 32, 0x5a);
    done = partial(mlkem_decaps(level, n, b.dk.data(), b.ct.data(), dss.data()));
    expect_prefix(dss, b.x_dss, done, 32, 0x5a);
    EXPECT_EQ(stats().failed_jobs, 1u);
  }
}

// How the ML-KEM batch API is to use these functions: the GPU's prefix, the
// rest on the CPU, identical output whatever failed (here: the first launch,
// so nothing is finished on the device).
TEST_P(MlkemRuntime, CallerFinishesTheRestOnTheCpu) {
  const int level = GetParam();
  const size_t n = 20;
  Batch b(level, n, 700);
  const Sz& sz = b.sz;
  for (const char* fault : {"emulate,launch@1", "emulate,h2d@2", "emulate,alloc"}) {
    SCOPED_TRACE(fault);
    use(fault);
    Bytes dss(n * 32, 0);
    const size_t done = mlkem_decaps(level, n, b.dk.data(), b.ct.data(), dss.data());
    EXPECT_LT(done, n);
    for (size_t i = done; i < n; ++i)
      ASSERT_EQ(::mlkem_decaps(level, &dss[i * 32], &b.ct[i * sz.ct], &b.dk[i * sz.dk]), MLKEM_OK);
    EXPECT_EQ(dss, b.x_dss);
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, MlkemRuntime, ::testing::ValuesIn(kLevels),
                         [](const auto& info) { return "MLKEM" + std::to_string(info.param); });

// --- the C batch API's GPU hook (kem/mlkem/mlkem_kem.cpp) -----------------------------

// (Batches of one never ask the hook.)
class MlkemBatchApi : public BatchApiHook {
 protected:
  // keypair, encaps and decaps (with one tampered ciphertext) through the C
  // batch API, against single-instance calls.
  static void run_and_check(int level, size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const Sz sz(level);
    const Bytes seeds = random_bytes(rng, n * 64), ms = random_bytes(rng, n * 32);
    Bytes xek(n * sz.ek), xdk(n * sz.dk), xct(n * sz.ct), xss(n * 32), xdss(n * 32);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(mlkem_keypair_derand(level, &xek[i * sz.ek], &xdk[i * sz.dk], &seeds[i * 64]), MLKEM_OK);
      ASSERT_EQ(mlkem_encaps_derand(level, &xct[i * sz.ct], &xss[i * 32], &xek[i * sz.ek], &ms[i * 32]),
                MLKEM_OK);
    }
    const size_t bad = n > 1 ? 1 : 0;  // this instance's ciphertext is tampered with
    xct[bad * sz.ct + 7] ^= 0x20;       // (implicit rejection)
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(::mlkem_decaps(level, &xdss[i * 32], &xct[i * sz.ct], &xdk[i * sz.dk]), MLKEM_OK);
    Bytes ek(n * sz.ek), dk(n * sz.dk), ct(n * sz.ct), ss(n * 32), dss(n * 32);
    ASSERT_EQ(mlkem_keypair_batch(nullptr, level, n, ek.data(), dk.data(), seeds.data(), 1), MLKEM_OK);
    EXPECT_EQ(ek, xek);
    EXPECT_EQ(dk, xdk);
    ASSERT_EQ(mlkem_encaps_batch(nullptr, level, n, ct.data(), ss.data(), ek.data(), ms.data(), 1), MLKEM_OK);
    ct[bad * sz.ct + 7] ^= 0x20;
    EXPECT_EQ(ct, xct);
    EXPECT_EQ(ss, xss);
    ASSERT_EQ(mlkem_decaps_batch(level, n, dss.data(), ct.data(), dk.data(), 1), MLKEM_OK);
    EXPECT_EQ(dss, xdss);
  }
};

TEST_F(MlkemBatchApi, CpuOnlyWithoutADevice) {
  use(nullptr);
  if (usable()) GTEST_SKIP() << "a GPU is present: " << describe();
  run_and_check(768, 12, 7000);
  EXPECT_EQ(stats().jobs, 0u);
}

TEST_F(MlkemBatchApi, BatchesGoThroughTheEmulatedGpu) {
  for (int level : kLevels) {
    SCOPED_TRACE(level);
    use("emulate");
    run_and_check(level, 12, 7100 + level);
    EXPECT_TRUE(stats().emulated);
    EXPECT_EQ(stats().jobs, 3u);  // keygen, encaps, decaps
    EXPECT_EQ(stats().failed_jobs, 0u);
  }
}

TEST_F(MlkemBatchApi, SingleInstancesStayOnTheCpu) {
  use("emulate");
  run_and_check(512, 1, 7200);
  EXPECT_EQ(stats().jobs, 0u);
}

// Randomness drawn for the device up front: the keys and secrets still work
// (decaps recovers what encaps produced); a bad ek fails the whole batch
// with its outputs zeroed, as on the CPU.
TEST_F(MlkemBatchApi, RandomBatchesAndBadKeysOnTheEmulatedGpu) {
  use("emulate");
  const int level = 768;
  const Sz sz(level);
  const size_t n = 9;
  Bytes ek(n * sz.ek), dk(n * sz.dk), ct(n * sz.ct), ss(n * 32), dss(n * 32);
  ASSERT_EQ(mlkem_keypair_batch(nullptr, level, n, ek.data(), dk.data(), nullptr, 1), MLKEM_OK);
  ASSERT_EQ(mlkem_encaps_batch(nullptr, level, n, ct.data(), ss.data(), ek.data(), nullptr, 1), MLKEM_OK);
  ASSERT_EQ(mlkem_decaps_batch(level, n, dss.data(), ct.data(), dk.data(), 1), MLKEM_OK);
  EXPECT_EQ(dss, ss);
  EXPECT_NE(ss, Bytes(n * 32, 0));
  EXPECT_EQ(stats().jobs, 3u);
  ek[4 * sz.ek] = 0xff, ek[4 * sz.ek + 1] |= 0x0f;  // instance 4: coefficient 0 = 4095 >= q
  std::fill(ss.begin(), ss.end(), 0xaa);
  EXPECT_EQ(mlkem_encaps_batch(nullptr, level, n, ct.data(), ss.data(), ek.data(), nullptr, 1), MLKEM_ERR_KEY);
  EXPECT_EQ(ss, Bytes(n * 32, 0));
  EXPECT_EQ(ct, Bytes(n * sz.ct, 0));
}

// Seeds, private keys and shared secrets do not stay in the pinned staging
// buffers after a job (the runtime scrubs them), on success and on failure.
TEST_F(MlkemBatchApi, StagingBuffersAreScrubbedAfterEachJob) {
  for (const char* fault : {"emulate", "emulate,sync@2"}) {
    SCOPED_TRACE(fault);
    use(fault);
    testing::set_chunk_bytes(16 << 10);
    run_and_check(768, 12, 7400);
    EXPECT_TRUE(testing::staging_clear());
    testing::set_chunk_bytes(size_t(8) << 20);
  }
}

TEST_F(MlkemBatchApi, FaultsFallBackToTheCpu) {
  for (const char* fault : {"emulate,launch", "emulate,h2d@1", "emulate,sync", "emulate,alloc:1"}) {
    SCOPED_TRACE(fault);
    use(fault);
    run_and_check(512, 10, 7300);
    EXPECT_GE(stats().failed_jobs, 1u);
  }
}

TEST(MlkemRuntimeArgs, BadLevelOrEmptyBatchDoesNothing) {
  setenv("GPUCRYPTO_GPU_FAULT", "emulate", 1);
  testing::reset();
  ASSERT_TRUE(usable());  // initialise now, so stats() starts from zero
  Bytes seeds(64), ek(2000), dk(4000), ct(2000), ss(32);
  EXPECT_EQ(mlkem_keygen(1000, 1, seeds.data(), ek.data(), dk.data()), 0u);
  EXPECT_EQ(mlkem_encaps(0, 1, ek.data(), seeds.data(), ct.data(), ss.data(), nullptr), 0u);
  EXPECT_EQ(mlkem_decaps(-1, 1, dk.data(), ct.data(), ss.data()), 0u);
  EXPECT_EQ(mlkem_keygen(512, 0, seeds.data(), ek.data(), dk.data()), 0u);
  EXPECT_EQ(mlkem_instance_bytes(1000, MlkemOp::kKeygen), 0u);
  EXPECT_EQ(stats().jobs, 0u);
  unsetenv("GPUCRYPTO_GPU_FAULT");
  testing::reset();
}

TEST(MlkemNoDevice, NothingRunsWithoutADevice) {
  unsetenv("GPUCRYPTO_GPU_FAULT");
  testing::reset();
  if (usable()) GTEST_SKIP() << "a GPU is present: " << describe();
  Bytes seeds(4 * 64, 1), ek(4 * 800, 0x5a), dk(4 * 1632, 0x5a);
  EXPECT_EQ(mlkem_keygen(512, 4, seeds.data(), ek.data(), dk.data()), 0u);
  EXPECT_EQ(ek, Bytes(4 * 800, 0x5a));
  EXPECT_EQ(stats().jobs, 0u);
}

// --- a real device (skipped without one) ---------------------------------------------

TEST(MlkemDevice, EveryLevelAndOpMatchesTheCpu) {
  if (std::getenv("GPUCRYPTO_GPU_FAULT") != nullptr) GTEST_SKIP() << "fault switch set";
  testing::reset();
  if (!usable() || stats().emulated) GTEST_SKIP() << "no GPU: " << describe();
  for (int level : kLevels) {
    for (size_t n : {size_t(1), size_t(5), size_t(4099)}) {
      SCOPED_TRACE("level " + std::to_string(level) + " n " + std::to_string(n));
      Batch b(level, n, 800 + n);
      const Sz& sz = b.sz;
      Bytes ek(n * sz.ek), dk(n * sz.dk), ct(n * sz.ct), ss(n * 32), ok(n), dss(n * 32);
      ASSERT_EQ(mlkem_keygen(level, n, b.seeds.data(), ek.data(), dk.data()), n);
      EXPECT_EQ(ek, b.gen_ek);
      EXPECT_EQ(dk, b.dk);
      ASSERT_EQ(mlkem_encaps(level, n, b.ek.data(), b.m.data(), ct.data(), ss.data(), ok.data()), n);
      EXPECT_EQ(ct, b.x_ct);
      EXPECT_EQ(ss, b.x_ss);
      EXPECT_EQ(ok, b.ek_ok);
      ASSERT_EQ(mlkem_decaps(level, n, b.dk.data(), b.ct.data(), dss.data()), n);
      EXPECT_EQ(dss, b.x_dss);
    }
  }
}

}  // namespace
}  // namespace gpucrypto::gpu
