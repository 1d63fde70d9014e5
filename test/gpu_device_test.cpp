// The kernels and the runtime on a real GPU: byte-for-byte agreement with the
// best CPU implementation for 1 KiB ... 256 MiB, and throughput rows for
// gpu/check.sh. Skipped (GTEST_SKIP) when no CUDA device is usable — which
// is always the case in CI; the same kernel bodies are covered there by the
// host grid emulator (gpu_kernels_test, gpu_runtime_test).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"
#include "gpu/device.h"
#include "gpu/gpu_backend.h"
#include "gpu/launch.h"
#include "test/gpu_cipher_map.h"
#include "test/test_util.h"

namespace gpucrypto::gpu {
namespace {

using test::Bytes;
using test_map::cpu_algo;
using test_map::all_ciphers;

constexpr KernelFamily kFamilies[] = {KernelFamily::kConstantTime, KernelFamily::kTables};
constexpr CtrTransfer kTransfers[] = {CtrTransfer::kShip, CtrTransfer::kKeystream};

class GpuDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("GPUCRYPTO_GPU_FAULT") != nullptr) GTEST_SKIP() << "fault switch set";
    testing::reset();
    if (!usable()) GTEST_SKIP() << "no usable CUDA device: " << describe();
    ASSERT_FALSE(stats().emulated);
    std::printf("device: %s\n", describe().c_str());
  }
  void TearDown() override {
    testing::set_ctr_transfer(CtrTransfer::kAuto);
  }
};

TEST_F(GpuDevice, MatchesCpuFrom1KiBTo256MiB) {
  for (Cipher c : all_ciphers()) {
    const CipherAlgo& algo = cpu_algo(c);
    const CipherHw& hw = *test::runnable_impls(algo).front();  // best first
    const size_t bb = block_bytes(c);
    for (size_t bytes : {size_t(1) << 10, size_t(64) << 10, size_t(1) << 20, size_t(16) << 20,
                         size_t(256) << 20}) {
      // The largest size for two ciphers only: check.sh has five minutes.
      if (bytes > (size_t(16) << 20) && c != Cipher::kAES128 && c != Cipher::kSkinny128_256) continue;
      SCOPED_TRACE(std::string(cipher_name(c)) + " " + std::to_string(bytes));
      const Bytes key = test::random_bytes(key_bytes(c)), in = test::random_bytes(bytes);
      Bytes iv = test::random_bytes(bb);
      for (size_t i = bb / 2; i < bb; ++i) iv[i] = 0xff;  // carries inside the job
      Bytes out(bytes);
      Job ctr{c, key.data(), key.size(), true, true, iv.data(), in.data(), out.data(), bytes / bb};
      ASSERT_EQ(run_blocks(ctr), ctr.nblocks);
      EXPECT_TRUE(out == test::ctr_crypt(algo, hw, key, iv, in));
      Job ecb{c, key.data(), key.size(), false, true, nullptr, in.data(), out.data(), bytes / bb};
      ASSERT_EQ(run_blocks(ecb), ecb.nblocks);
      const Bytes want = test::ecb_encrypt(algo, hw, key, in);
      EXPECT_TRUE(out == want);
      Job dec{c, key.data(), key.size(), false, false, nullptr, out.data(), out.data(), bytes / bb};
      ASSERT_EQ(run_blocks(dec), dec.nblocks);  // in place
      EXPECT_TRUE(out == in);
    }
  }
  EXPECT_EQ(stats().failed_jobs, 0u);
}

// Both kernel families in both CTR transfer modes (and ECB both ways) on the
// device, against the CPU, at a size that spans several chunks.
TEST_F(GpuDevice, BothFamiliesAndTransferModesMatchCpu) {
  const size_t bytes = size_t(24) << 20;
  const Bytes in = test::random_bytes(bytes);
  for (KernelFamily f : kFamilies) {
    for (Cipher c : all_ciphers()) {
      const CipherAlgo& algo = cpu_algo(c);
      const CipherHw& hw = *test::runnable_impls(algo).front();
      const size_t bb = block_bytes(c);
      const Bytes key = test::random_bytes(key_bytes(c));
      Bytes iv(bb, 0xff);
      iv[0] = 0x42;  // wraps the low words inside the job
      const Bytes want = test::ctr_crypt(algo, hw, key, iv, in);
      for (CtrTransfer t : kTransfers) {
        SCOPED_TRACE(std::string(cipher_name(c)) + " " + kernel_family_name(f) + " " + ctr_transfer_name(t));
        testing::set_ctr_transfer(t);
        Bytes out = in;  // in place
        Job ctr{c, key.data(), key.size(), true, true, iv.data(), out.data(), out.data(), bytes / bb, f};
        ASSERT_EQ(run_blocks(ctr), ctr.nblocks);
        EXPECT_TRUE(out == want);
        EXPECT_EQ(testing::last_ctr_transfer(), t);
      }
      Bytes out(bytes);
      Job ecb{c, key.data(), key.size(), false, true, nullptr, in.data(), out.data(), bytes / bb, f};
      ASSERT_EQ(run_blocks(ecb), ecb.nblocks);
      EXPECT_TRUE(out == test::ecb_encrypt(algo, hw, key, in));
      Job dec{c, key.data(), key.size(), false, false, nullptr, out.data(), out.data(), bytes / bb, f};
      ASSERT_EQ(run_blocks(dec), dec.nblocks);
      EXPECT_TRUE(out == in);
    }
  }
  EXPECT_EQ(stats().failed_jobs, 0u);
}

// Kernel-only rows for check.sh: launches over device buffers already in
// place (no copies), one stream, timed around launch + synchronize.
TEST_F(GpuDevice, KernelOnlyRows) {
  std::string why;
  std::unique_ptr<Device> dev = open_cuda_devices(&why);
  ASSERT_NE(dev, nullptr) << why;
  const size_t bytes = size_t(64) << 20;
  ASSERT_TRUE(dev->prepare(bytes).ok);
  for (Cipher c : all_ciphers()) {
    const size_t bb = block_bytes(c);
    const Bytes key = test::random_bytes(key_bytes(c));
    for (KernelFamily f : kFamilies) {
      for (kern::Op op : {kern::Op::kEncrypt, kern::Op::kDecrypt, kern::Op::kCtr, kern::Op::kKeystream}) {
        CipherLaunch l{c, op};
        l.family = f;
        ASSERT_TRUE(build_schedule(c, key.data(), key.size(), &l.ks));
        ASSERT_TRUE(dev->launch(0, l, bytes / bb).ok);  // warm-up
        ASSERT_TRUE(dev->wait(0).ok);
        const int reps = 10;
        auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r) ASSERT_TRUE(dev->launch(0, l, bytes / bb).ok);
        ASSERT_TRUE(dev->wait(0).ok);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
        static constexpr const char* kOps[] = {"ecb-enc", "ecb-dec", "ctr", "keystream"};
        std::printf("BENCH kernel %s %s %s 64MiB: %.1f Gb/s\n", cipher_name(c), kernel_family_name(f),
                    kOps[int(op)], double(bytes) * 8 / s / 1e9);
      }
    }
  }
  dev->release();
}

// End-to-end rows (pinned staging, copies, kernels, host XOR) for check.sh:
// both families, CTR in both transfer modes and ECB, plus the CTR
// calibration each family's first job ran.
TEST_F(GpuDevice, ThroughputRows) {
  const size_t bytes = size_t(128) << 20;
  const Bytes in = test::random_bytes(bytes);
  Bytes out(bytes);
  std::printf("min_bytes: %zu (latency %.1f us, %.2f GB/s)\n", min_bytes(),
              calibration().latency_us, calibration().bytes_per_second / 1e9);
  auto time_job = [&](const Job& job) {
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      EXPECT_EQ(run_blocks(job), job.nblocks);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return double(bytes) * 8 / best / 1e9;
  };
  for (KernelFamily f : kFamilies) {
    for (Cipher c : all_ciphers()) {
      const size_t bb = block_bytes(c);
      const Bytes key = test::random_bytes(key_bytes(c)), iv(bb, 0);
      Job ctr{c, key.data(), key.size(), true, true, iv.data(), in.data(), out.data(), bytes / bb, f};
      for (CtrTransfer t : {CtrTransfer::kShip, CtrTransfer::kKeystream, CtrTransfer::kAuto}) {
        testing::set_ctr_transfer(t);
        const double gbps = time_job(ctr);
        std::printf("BENCH e2e %s %s CTR %s%s 128MiB: %.1f Gb/s\n", cipher_name(c), kernel_family_name(f),
                    ctr_transfer_name(t),
                    t == CtrTransfer::kAuto ? (std::string("->") + ctr_transfer_name(testing::last_ctr_transfer())).c_str() : "",
                    gbps);
      }
      Job ecb{c, key.data(), key.size(), false, true, nullptr, in.data(), out.data(), bytes / bb, f};
      std::printf("BENCH e2e %s %s ECB 128MiB: %.1f Gb/s\n", cipher_name(c), kernel_family_name(f),
                  time_job(ecb));
      const CtrCalibration cal = ctr_calibration(c, f);
      std::printf("CALIB %s %s measured=%d ship %.1f us %.1f Gb/s, keystream %.1f us %.1f Gb/s, "
                  "keystream from %zu bytes\n",
                  cipher_name(c), kernel_family_name(f), int(cal.measured), cal.ship_latency_us,
                  cal.ship_bytes_per_second * 8 / 1e9, cal.keystream_latency_us,
                  cal.keystream_bytes_per_second * 8 / 1e9, cal.keystream_from_bytes);
    }
  }
}

}  // namespace
}  // namespace gpucrypto::gpu
