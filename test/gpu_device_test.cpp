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
#include "gpu/gpu_backend.h"
#include "gpu/launch.h"
#include "test/gpu_cipher_map.h"
#include "test/test_util.h"

namespace gpucrypto::gpu {
namespace {

using test::Bytes;
using test_map::cpu_algo;
using test_map::kAllCiphers;

class GpuDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("GPUCRYPTO_GPU_FAULT") != nullptr) GTEST_SKIP() << "fault switch set";
    testing::reset();
    if (!usable()) GTEST_SKIP() << "no usable CUDA device: " << describe();
    ASSERT_FALSE(stats().emulated);
    std::printf("device: %s\n", describe().c_str());
  }
};

TEST_F(GpuDevice, MatchesCpuFrom1KiBTo256MiB) {
  for (Cipher c : kAllCiphers) {
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

// Throughput rows (end to end: pinned staging, copies, kernels) for check.sh.
TEST_F(GpuDevice, ThroughputRows) {
  const size_t bytes = size_t(256) << 20;
  const Bytes in = test::random_bytes(bytes);
  Bytes out(bytes);
  std::printf("min_bytes: %zu (latency %.1f us, %.2f GB/s)\n", min_bytes(),
              calibration().latency_us, calibration().bytes_per_second / 1e9);
  for (Cipher c : kAllCiphers) {
    const size_t bb = block_bytes(c);
    const Bytes key = test::random_bytes(key_bytes(c)), iv(bb, 0);
    Job job{c, key.data(), key.size(), true, true, iv.data(), in.data(), out.data(), bytes / bb};
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      ASSERT_EQ(run_blocks(job), job.nblocks);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("BENCH gpu %s-CTR 256MiB: %.2f GB/s (%.1f Gb/s)\n", cipher_name(c),
                double(bytes) / best / 1e9, double(bytes) * 8 / best / 1e9);
  }
}

}  // namespace
}  // namespace gpucrypto::gpu
