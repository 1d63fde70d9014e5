// The constant-time GPU kernels (gpu/kernels/{bitslice,aes_ct,sm4_ct,
// skinny_ct}.cuh) and the table family next to them, all on the host grid
// emulator (no GPU; nothing here is a GPU result): the S-box circuits over
// all 256 inputs, the official vectors of test/vectors, byte-for-byte
// agreement with every CPU implementation (random keys and sizes, ragged
// threads, CTR carries and wrap-around, in place), the keystream-only op, and
// the runtime's CTR transfer modes and kernel-family choice on the emulated
// device with injected faults.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

#include "engine/config.h"
#include "engine/dispatcher.h"
#include "gpu/gpu_backend.h"
#include "gpu/kernels/bitslice.cuh"
#include "gpu/kernels/host_tables.h"
#include "gpu/kernels/skinny_ct.cuh"
#include "gpu/launch.h"
#include "test/gpu_cipher_map.h"
#include "test/test_util.h"

namespace gpucrypto::gpu {
namespace {

using kern::Op;
using test::Bytes;
using test::hex;
using test_map::cpu_algo;
using test_map::all_ciphers;

constexpr KernelFamily kFamilies[] = {KernelFamily::kConstantTime, KernelFamily::kTables};

// One launch on the emulator; in place when in_place (out aliases in).
Bytes emulate(Cipher c, KernelFamily f, Op op, const Bytes& key, const Bytes& in, const Bytes& iv = {},
              uint32_t threads = kThreadsPerBlock, bool in_place = false) {
  const size_t bb = block_bytes(c);
  CipherLaunch l{c, op};
  l.family = f;
  l.threads = threads;
  EXPECT_TRUE(build_schedule(c, key.data(), key.size(), &l.ks));
  if (!iv.empty())
    for (size_t w = 0; w < bb / 4; ++w)
      l.ctr_be[w] = uint32_t(iv[4 * w]) << 24 | uint32_t(iv[4 * w + 1]) << 16 |
                    uint32_t(iv[4 * w + 2]) << 8 | iv[4 * w + 3];
  Bytes buf = in, out(in.size(), 0x5a);
  const uint64_t n = in.size() / bb;
  emulate_launch(l, {buf.data(), in_place ? buf.data() : out.data(), n, &kern::host_tables()});
  return in_place ? buf : out;
}

// ---- circuits --------------------------------------------------------------

// Applies a plane circuit to all 256 byte values (eight words of 32 bytes at
// a time, through the transpose) and returns the 256 results.
template <class F>
std::array<uint8_t, 256> on_all_bytes(F&& circuit) {
  std::array<uint8_t, 256> r{};
  for (int base = 0; base < 256; base += 32) {
    uint32_t q[8];
    for (int j = 0; j < 8; ++j) {
      q[j] = 0;
      for (int b = 0; b < 4; ++b) q[j] |= uint32_t(base + 4 * j + b) << (8 * b);
    }
    kern::bs_transpose(q);
    circuit(q);
    kern::bs_transpose(q);
    for (int j = 0; j < 8; ++j)
      for (int b = 0; b < 4; ++b) r[size_t(base + 4 * j + b)] = uint8_t(q[j] >> (8 * b));
  }
  return r;
}

TEST(GpuCtCircuits, TransposeIsItsOwnInverseWithTheDocumentedLayout) {
  for (int j = 0; j < 8; ++j)
    for (int r = 0; r < 4; ++r)
      for (int b = 0; b < 8; ++b) {
        uint32_t q[8] = {};
        q[j] = 1u << (8 * r + b);
        kern::bs_transpose(q);
        for (int p = 0; p < 8; ++p) EXPECT_EQ(q[p], p == b ? 1u << (8 * r + j) : 0u);
        kern::bs_transpose(q);
        for (int p = 0; p < 8; ++p) EXPECT_EQ(q[p], p == j ? 1u << (8 * r + b) : 0u);
      }
}

TEST(GpuCtCircuits, SboxesMatchTheirTablesForAllInputs) {
  const kern::Tables& t = kern::host_tables();
  const auto aes = on_all_bytes([](uint32_t (&q)[8]) { kern::bs_aes_sbox(q); });
  const auto aes_inv = on_all_bytes([](uint32_t (&q)[8]) { kern::bs_aes_inv_sbox(q); });
  const auto sm4 = on_all_bytes([](uint32_t (&q)[8]) { kern::bs_sm4_sbox(q); });
  const auto sk = on_all_bytes([](uint32_t (&q)[8]) { kern::bs_skinny_sbox(q); });
  const auto sk_inv = on_all_bytes([](uint32_t (&q)[8]) { kern::bs_skinny_inv_sbox(q); });
  for (int x = 0; x < 256; ++x) {
    SCOPED_TRACE(x);
    EXPECT_EQ(aes[size_t(x)], kern::kAesSbox[size_t(x)]);
    EXPECT_EQ(aes_inv[size_t(x)], t.aes_inv_sbox[x]);
    EXPECT_EQ(sm4[size_t(x)], kern::sm4_sbox()[size_t(x)]);
    EXPECT_EQ(sk[size_t(x)], uint8_t(kern::skinny_sbox4(uint32_t(x))));
    EXPECT_EQ(sk_inv[size_t(sk[size_t(x)])], x);
  }
  // Spot values of the standards themselves (FIPS 197 Figure 7, GB/T 32907).
  EXPECT_EQ(aes[0x53], 0xed);
  EXPECT_EQ(sm4[0x00], 0xd6);
  EXPECT_EQ(sm4[0xff], 0x48);
}

// ---- official vectors ------------------------------------------------------

struct Vec {
  Cipher c;
  bool ctr;
  Bytes key, iv, pt, ct;
  std::string name;
};

std::vector<Vec> official_vectors() {
  std::vector<Vec> v;
  for (const char* file : {"aes.txt", "sm4.txt", "skinny.txt"}) {
    const test::KatFile f = test::load_vector_blocks(file);
    EXPECT_EQ(f.error, "") << file;
    for (const test::KatRecord& r : f.records) {
      auto get = [&](const char* k) { auto it = r.find(k); return it == r.end() ? std::string() : it->second; };
      Vec x;
      x.name = std::string(file) + ": " + get("name") + get("cipher");
      const std::string mode = get("mode");
      if (std::string(file) == "skinny.txt") {
        const std::string c = get("cipher");
        if (c != "SKINNY-128-256" && c != "SKINNY-128-384") continue;
        x.c = c == "SKINNY-128-256" ? Cipher::kSkinny128_256 : Cipher::kSkinny128_384;
        x.key = hex(get("tweakey"));
      } else {
        if ((mode != "ECB" && mode != "CTR") || !get("iterations").empty()) continue;
        x.key = hex(get("key"));
        if (std::string(file) == "sm4.txt") {
          x.c = Cipher::kSM4;
        } else {
          x.c = x.key.size() == 16 ? Cipher::kAES128 : x.key.size() == 24 ? Cipher::kAES192 : Cipher::kAES256;
        }
      }
      x.ctr = mode == "CTR";
      x.iv = hex(get("iv"));
      x.pt = hex(get("plaintext"));
      x.ct = hex(get("ciphertext"));
      if (x.pt.empty() || x.pt.size() != x.ct.size() || x.pt.size() % 16 != 0) continue;
      v.push_back(x);
    }
  }
  return v;
}

TEST(GpuCtKernels, OfficialVectorsBothFamiliesAllOps) {
  const std::vector<Vec> vecs = official_vectors();
  ASSERT_GE(vecs.size(), 20u);  // 15 AES ECB + 3 CTR, SM4 ECB and CTR, 2 SKINNY
  for (const Vec& v : vecs) {
    for (KernelFamily f : kFamilies) {
      SCOPED_TRACE(v.name + " / " + kernel_family_name(f));
      if (v.ctr) {
        EXPECT_EQ(emulate(v.c, f, Op::kCtr, v.key, v.pt, v.iv), v.ct);
        EXPECT_EQ(emulate(v.c, f, Op::kCtr, v.key, v.ct, v.iv, 64, true), v.pt);
        Bytes ks = emulate(v.c, f, Op::kKeystream, v.key, v.pt, v.iv);
        for (size_t i = 0; i < ks.size(); ++i) ks[i] ^= v.pt[i];
        EXPECT_EQ(ks, v.ct);
      } else {
        EXPECT_EQ(emulate(v.c, f, Op::kEncrypt, v.key, v.pt), v.ct);
        EXPECT_EQ(emulate(v.c, f, Op::kDecrypt, v.key, v.ct), v.pt);
      }
    }
  }
}

// ---- every CPU implementation ---------------------------------------------

TEST(GpuCtKernels, MatchEveryCpuImplementationByteForByte) {
  std::mt19937_64 rng(19);
  for (Cipher c : all_ciphers()) {
    const CipherAlgo& algo = cpu_algo(c);
    const size_t bb = block_bytes(c);
    for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(8), size_t(9), size_t(17),
                     size_t(64 + 5), size_t(rng() % 300 + 1)}) {
      const Bytes key = test::random_bytes(key_bytes(c)), pt = test::random_bytes(n * bb);
      // Counters: random, one whose low half carries inside the launch, and
      // the all-ones counter that wraps to zero.
      Bytes carry = test::random_bytes(bb), wrap(bb, 0xff);
      std::memset(carry.data() + bb / 2, 0xff, bb / 2);
      carry[bb - 1] = uint8_t(0x100 - (n > 1 ? n / 2 : 1));
      const uint32_t threads = (rng() & 1) ? 32 : 96;  // ragged last CTA and thread
      for (const CipherHw* hw : test::runnable_impls(algo)) {
        const Bytes ct = test::ecb_encrypt(algo, *hw, key, pt);
        for (KernelFamily f : kFamilies) {
          SCOPED_TRACE(std::string(cipher_name(c)) + " " + hw->name + " n=" + std::to_string(n) +
                       " " + kernel_family_name(f));
          const bool in_place = (rng() & 1) != 0;
          EXPECT_EQ(emulate(c, f, Op::kEncrypt, key, pt, {}, threads, in_place), ct);
          EXPECT_EQ(emulate(c, f, Op::kDecrypt, key, ct, {}, threads, !in_place), pt);
          for (const Bytes& iv : {test::random_bytes(bb), carry, wrap}) {
            const Bytes want = test::ctr_crypt(algo, *hw, key, iv, pt);
            EXPECT_EQ(emulate(c, f, Op::kCtr, key, pt, iv, threads, in_place), want);
            Bytes ks = emulate(c, f, Op::kKeystream, key, Bytes(pt.size(), 0), iv, threads);
            EXPECT_EQ(ks, test::ctr_crypt(algo, *hw, key, iv, Bytes(pt.size(), 0)));
          }
        }
      }
    }
  }
}

// The bit-sliced bodies compute blocks past the end of a ragged thread on
// zeros and must never store them.
TEST(GpuCtKernels, RaggedThreadsWriteNothingPastTheEnd) {
  for (Cipher c : {Cipher::kAES128, Cipher::kSM4, Cipher::kSkinny128_384}) {
    for (size_t n : {size_t(1), size_t(5), size_t(9), size_t(15)}) {
      const Bytes key = test::random_bytes(key_bytes(c)), pt = test::random_bytes(n * 16);
      CipherLaunch l{c, Op::kEncrypt};
      build_schedule(c, key.data(), key.size(), &l.ks);
      Bytes out(pt.size() + 256, 0x5a);
      emulate_launch(l, {pt.data(), out.data(), n, &kern::host_tables()});
      for (size_t i = pt.size(); i < out.size(); ++i) ASSERT_EQ(out[i], 0x5a) << cipher_name(c) << " n " << n;
    }
  }
}

// ---- the runtime on the emulated device -----------------------------------

class GpuCtRuntime : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("GPUCRYPTO_GPU_FAULT");
    unsetenv("GPUCRYPTO_GPU_CTR_TRANSFER");
    testing::set_chunk_bytes(size_t(8) << 20);
    testing::reset();
  }
  static void use(const char* fault, size_t chunk = 4096) {
    setenv("GPUCRYPTO_GPU_FAULT", fault, 1);
    testing::set_chunk_bytes(chunk);
    testing::reset();
  }
  // run_blocks, then the rest on the portable CPU code, as the dispatcher does.
  static Bytes crypt(Cipher c, bool ctr, bool enc, const Bytes& key, const Bytes& iv, const Bytes& in,
                     size_t* gpu_blocks, KernelFamily family = KernelFamily::kConstantTime) {
    const size_t bb = block_bytes(c);
    Bytes buf = in;
    Job job{c, key.data(), key.size(), ctr, enc, iv.data(), buf.data(), buf.data(), in.size() / bb, family};
    const size_t done = run_blocks(job);
    *gpu_blocks = done;
    const CipherAlgo& algo = cpu_algo(c);
    const CipherHw& ref = *algo.impls.back();
    Bytes rest(buf.begin() + long(done * bb), buf.end()), rest_iv = iv;
    EXPECT_EQ(rest, Bytes(in.begin() + long(done * bb), in.end())) << "the rest was touched";
    if (ctr) ctr_add(rest_iv.data(), bb, done);
    rest = ctr ? test::ctr_crypt(algo, ref, key, rest_iv, rest)
               : enc ? test::ecb_encrypt(algo, ref, key, rest) : test::ecb_decrypt(algo, ref, key, rest);
    std::copy(rest.begin(), rest.end(), buf.begin() + long(done * bb));
    return buf;
  }
  static Bytes cpu(Cipher c, bool ctr, bool enc, const Bytes& key, const Bytes& iv, const Bytes& in) {
    const CipherAlgo& algo = cpu_algo(c);
    const CipherHw& ref = *algo.impls.back();
    return ctr ? test::ctr_crypt(algo, ref, key, iv, in)
               : enc ? test::ecb_encrypt(algo, ref, key, in) : test::ecb_decrypt(algo, ref, key, in);
  }
};

TEST_F(GpuCtRuntime, BothFamiliesAndTransferModesMatchTheCpu) {
  use("emulate:2");
  for (KernelFamily f : kFamilies) {
    for (CtrTransfer t : {CtrTransfer::kShip, CtrTransfer::kKeystream}) {
      testing::set_ctr_transfer(t);
      for (Cipher c : all_ciphers()) {
        const size_t bb = block_bytes(c);
        SCOPED_TRACE(std::string(cipher_name(c)) + " " + kernel_family_name(f) + " " + ctr_transfer_name(t));
        const Bytes key = test::random_bytes(key_bytes(c)), in = test::random_bytes(4096 * 9 + 3 * bb);
        Bytes iv = test::random_bytes(bb);
        std::memset(iv.data() + bb / 2, 0xff, bb / 2);
        size_t done = 0;
        EXPECT_EQ(crypt(c, true, true, key, iv, in, &done, f), cpu(c, true, true, key, iv, in));
        EXPECT_EQ(done, in.size() / bb);
        EXPECT_EQ(testing::last_ctr_transfer(), t);
        EXPECT_EQ(crypt(c, false, false, key, iv, in, &done, f), cpu(c, false, false, key, iv, in));
      }
    }
  }
  EXPECT_EQ(stats().failed_jobs, 0u);
}

// Keystream mode: a fault mid-job keeps the exact prefix (in place, the rest
// still the input), and the staged keystream is wiped chunk by chunk.
TEST_F(GpuCtRuntime, KeystreamModeKeepsAnExactPrefixAndWipesTheKeystream) {
  struct Case {
    const char* fault;
    size_t gpu_chunks;
  };
  for (Case cs : {Case{"emulate,launch@7", 6}, Case{"emulate,d2h@2", 1}, Case{"emulate,sync@5", 4},
                  Case{"emulate,sync@1", 0}, Case{"emulate", 32}}) {
    SCOPED_TRACE(cs.fault);
    for (Cipher c : {Cipher::kAES256, Cipher::kSM4, Cipher::kSkinny128_256}) {
      use(cs.fault);  // each cipher counts its own faults
      testing::set_ctr_transfer(CtrTransfer::kKeystream);
      const Bytes key = test::random_bytes(key_bytes(c)), iv = test::random_bytes(16);
      const Bytes in = test::random_bytes(4096 * 32);
      size_t done = 0;
      ::testing::internal::CaptureStderr();
      EXPECT_EQ(crypt(c, true, true, key, iv, in, &done), cpu(c, true, true, key, iv, in));
      ::testing::internal::GetCapturedStderr();
      EXPECT_EQ(done, cs.gpu_chunks * 4096 / 16);
      EXPECT_EQ(testing::last_ctr_transfer(), CtrTransfer::kKeystream);
      EXPECT_TRUE(testing::staging_clear()) << "keystream left in the staging buffers";
    }
  }
}

TEST_F(GpuCtRuntime, TableKernelsOnlyWhenAsked) {
  use("emulate");
  const Bytes key = test::random_bytes(16), iv = test::random_bytes(16), in = test::random_bytes(8192);
  size_t done = 0;
  crypt(Cipher::kAES128, true, true, key, iv, in, &done);
  crypt(Cipher::kSM4, false, true, key, iv, in, &done);
  EXPECT_EQ(stats().jobs, 2u);
  EXPECT_EQ(stats().table_jobs, 0u);
  EXPECT_EQ(crypt(Cipher::kSM4, false, true, key, iv, in, &done, KernelFamily::kTables),
            cpu(Cipher::kSM4, false, true, key, iv, in));
  EXPECT_EQ(stats().table_jobs, 1u);

  // Through the dispatcher: the job carries the call's configuration's
  // family (gpu_kernels), constant-time unless the configuration says tables.
  const CipherAlgo& algo = cpu_algo(Cipher::kAES128);
  const CipherHw& hw = *algo.impls.back();
  test::KeySchedule ks(hw, key);
  Bytes buf = in, ctr = iv;
  EngineConfig cfg;
  cfg.gpu_min_bytes = 4096;
  auto job = [&] {
    return CipherJob{&hw, ks.get(), 16, JobKind::kCtr, ctr.data(), buf.data(), buf.data(),
                     buf.size() / 16, Cipher::kAES128, key.data(), key.size()};
  };
  EXPECT_EQ(dispatch_large(job(), cfg), Served::kGpu);
  EXPECT_EQ(stats().table_jobs, 1u);
  ASSERT_EQ(config_set(&cfg, "gpu_kernels", "tables"), "");
  EXPECT_EQ(dispatch_large(job(), cfg), Served::kGpu);
  EXPECT_EQ(stats().table_jobs, 2u);
  // Both jobs ran CTR over the same buffer from consecutive counters: the
  // CPU's CTR of the input over the whole run gives the same bytes.
  Bytes twice = test::ctr_crypt(algo, hw, key, iv, Bytes(in.size() * 2, 0));
  for (size_t i = 0; i < in.size(); ++i) twice[i] ^= twice[in.size() + i] ^ in[i];
  EXPECT_EQ(buf, Bytes(twice.begin(), twice.begin() + long(in.size())));
}

TEST_F(GpuCtRuntime, CtrCalibrationMeasuresBothModesAndPicksTheFaster) {
  use("emulate");
  EXPECT_FALSE(ctr_calibration(Cipher::kAES128, KernelFamily::kConstantTime).measured);
  const CtrCalibration cal = testing::calibrate_ctr_now(Cipher::kAES128, KernelFamily::kConstantTime);
  EXPECT_TRUE(cal.measured);
  EXPECT_GT(cal.ship_bytes_per_second, 0.0);
  EXPECT_GT(cal.keystream_bytes_per_second, 0.0);
  EXPECT_TRUE(ctr_calibration(Cipher::kAES128, KernelFamily::kConstantTime).measured);
  EXPECT_FALSE(ctr_calibration(Cipher::kAES128, KernelFamily::kTables).measured);
  EXPECT_EQ(stats().jobs, 0u);  // calibration jobs are not the caller's

  // The choice from a calibration: keystream's higher throughput wins from
  // the crossover on; a mode that is better in both is always chosen.
  CtrCalibration m{true, 20.0, 20e9, 30.0, 35e9, 0};
  EXPECT_EQ(ctr_pick(m, 64 << 10), CtrTransfer::kShip);
  EXPECT_EQ(ctr_pick(m, 64 << 20), CtrTransfer::kKeystream);
  m.keystream_latency_us = 10.0;
  EXPECT_EQ(ctr_pick(m, 1), CtrTransfer::kKeystream);
  m.keystream_bytes_per_second = 10e9;
  m.keystream_latency_us = 30.0;
  EXPECT_EQ(ctr_pick(m, size_t(1) << 30), CtrTransfer::kShip);
  EXPECT_EQ(ctr_pick(CtrCalibration{}, size_t(1) << 30), CtrTransfer::kShip);  // unmeasured
}

TEST_F(GpuCtRuntime, MalformedCtrTransferVariableDisablesTheGpu) {
  setenv("GPUCRYPTO_GPU_CTR_TRANSFER", "both", 1);
  ::testing::internal::CaptureStderr();
  use("emulate");
  EXPECT_FALSE(usable());
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("GPUCRYPTO_GPU_CTR_TRANSFER"), std::string::npos);
  setenv("GPUCRYPTO_GPU_CTR_TRANSFER", "keystream", 1);
  use("emulate");
  EXPECT_TRUE(usable());
  const Bytes key = test::random_bytes(16), iv = test::random_bytes(16), in = test::random_bytes(8192);
  size_t done = 0;
  EXPECT_EQ(crypt(Cipher::kAES128, true, true, key, iv, in, &done), cpu(Cipher::kAES128, true, true, key, iv, in));
  EXPECT_EQ(testing::last_ctr_transfer(), CtrTransfer::kKeystream);
}

// ---- the setting -----------------------------------------------------------

TEST(GpuKernelsSetting, DefaultIsConstantTimeAndMalformedValuesAreRejected) {
  EngineConfig cfg;
  EXPECT_EQ(cfg.gpu_kernels, KernelFamily::kConstantTime);
  EXPECT_NE(config_describe(cfg).find("gpu_kernels=constant-time"), std::string::npos);
  for (const char* bad : {"", "table", "Tables", "ct", "constant_time", "constant-time ", "tables,ct"}) {
    SCOPED_TRACE(bad);
    const std::string err = config_set(&cfg, "gpu_kernels", bad);
    EXPECT_NE(err.find("gpu_kernels"), std::string::npos) << err;
    EXPECT_NE(err.find("constant-time or tables"), std::string::npos) << err;
    EXPECT_EQ(cfg.gpu_kernels, KernelFamily::kConstantTime);
  }
  EXPECT_EQ(config_set(&cfg, "gpu_kernels", "tables"), "");
  EXPECT_EQ(cfg.gpu_kernels, KernelFamily::kTables);
  EXPECT_NE(config_describe(cfg).find("gpu_kernels=tables"), std::string::npos);
  EXPECT_EQ(config_set(&cfg, "gpu_kernels", "constant-time"), "");
  EXPECT_EQ(cfg.gpu_kernels, KernelFamily::kConstantTime);

  setenv("GPUCRYPTO_GPU_KERNELS", "fast", 1);
  EngineConfig env;
  const std::string err = config_apply_env(&env);
  EXPECT_NE(err.find("GPUCRYPTO_GPU_KERNELS"), std::string::npos) << err;
  setenv("GPUCRYPTO_GPU_KERNELS", "tables", 1);
  EXPECT_EQ(config_apply_env(&env), "");
  EXPECT_EQ(env.gpu_kernels, KernelFamily::kTables);
  unsetenv("GPUCRYPTO_GPU_KERNELS");
}

}  // namespace
}  // namespace gpucrypto::gpu
