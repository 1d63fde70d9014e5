// What the babyKyber and ML-KEM GPU tests (gpu_kem_test.cpp,
// gpu_mlkem_test.cpp) share: seeded random bytes, byte slices and the
// "finished prefix, untouched rest" check, and the fixtures that switch the
// runtime to the emulated device (GPUCRYPTO_GPU_FAULT) and put it back.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "gpu/gpu_backend.h"

namespace gpucrypto::gpu {

using Bytes = std::vector<uint8_t>;

inline Bytes random_bytes(std::mt19937_64& rng, size_t n) {
  Bytes b(n);
  for (auto& x : b) x = uint8_t(rng());
  return b;
}

inline Bytes slice(const Bytes& b, size_t from, size_t len) {
  return Bytes(b.begin() + long(from), b.begin() + long(from + len));
}

// After a job that finished `done` of its records of `unit` bytes: got's
// first done records are want's, the rest still hold `fill`.
inline void expect_prefix(const Bytes& got, const Bytes& want, size_t done, size_t unit, uint8_t fill) {
  const size_t n = got.size() / unit;
  EXPECT_EQ(slice(got, 0, done * unit), slice(want, 0, done * unit));
  EXPECT_EQ(slice(got, done * unit, (n - done) * unit), Bytes((n - done) * unit, fill));
}

// The runtime on 2 emulated devices, in chunks of kChunk bytes (many chunks
// over the 8 slots); use() switches to another fault plan.
template <size_t kChunk, class Base = ::testing::Test>
class EmulatedRuntime : public Base {
 protected:
  void SetUp() override { use("emulate:2"); }
  void TearDown() override {
    unsetenv("GPUCRYPTO_GPU_FAULT");
    testing::set_chunk_bytes(size_t(8) << 20);
    testing::reset();
  }
  static void use(const char* fault) {
    setenv("GPUCRYPTO_GPU_FAULT", fault, 1);
    testing::reset();
    testing::set_chunk_bytes(kChunk);
  }
};

// A C batch API's GPU hook: use(nullptr) for the real device (if any),
// use("emulate...") for the emulated one.
class BatchApiHook : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // Read once, at the hook's first use: a threshold small enough for the
    // test batches (bytes of PCIe traffic).
    setenv("GPUCRYPTO_GPU_MIN_BYTES", "1k", 1);
  }
  void TearDown() override {
    unsetenv("GPUCRYPTO_GPU_FAULT");
    testing::reset();
  }
  static void use(const char* fault) {
    if (fault) setenv("GPUCRYPTO_GPU_FAULT", fault, 1);
    else unsetenv("GPUCRYPTO_GPU_FAULT");
    testing::reset();
    (void)usable();  // initialise now, so stats() starts from zero
  }
};

}  // namespace gpucrypto::gpu
