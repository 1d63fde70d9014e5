// The GPU runtime without a GPU: behaviour with no device, and the whole
// pipeline (chunking, staging, slot reuse over several emulated devices,
// in-order completion, fallback, disabling after repeated errors, fork)
// driven through the test-only emulated device and the fault-injection
// switch GPUCRYPTO_GPU_FAULT. The "CPU" side of each job is done here the way
// the dispatcher does it: run_blocks(), then the rest on a CPU implementation.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

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
using test_map::all_ciphers;

enum class Mode { kEcbEnc, kEcbDec, kCtr };

// Reference result on the CPU (the portable implementation).
Bytes cpu_result(Cipher c, Mode m, const Bytes& key, const Bytes& iv, const Bytes& in) {
  const CipherAlgo& algo = cpu_algo(c);
  const CipherHw& ref = *algo.impls.back();
  switch (m) {
    case Mode::kEcbEnc: return test::ecb_encrypt(algo, ref, key, in);
    case Mode::kEcbDec: return test::ecb_decrypt(algo, ref, key, in);
    case Mode::kCtr: break;
  }
  return test::ctr_crypt(algo, ref, key, iv, in);
}

// What the dispatcher does: the GPU first, then blocks [done, n) on the CPU.
// `buf` is transformed in place when in_place, else into a new buffer.
struct Outcome {
  Bytes out;
  size_t gpu_blocks;
};
Outcome dispatch_like(Cipher c, Mode m, const Bytes& key, const Bytes& iv, const Bytes& in,
                      bool in_place) {
  const size_t bb = block_bytes(c);
  Bytes buf = in, out(in.size(), 0x5a);
  uint8_t* dst = in_place ? buf.data() : out.data();
  Job job{c, key.data(), key.size(), m == Mode::kCtr, m != Mode::kEcbDec,
          iv.empty() ? nullptr : iv.data(), buf.data(), dst, in.size() / bb};
  const size_t done = run_blocks(job);
  EXPECT_LE(done, job.nblocks);
  // The untouched rest must still be the input (in place) or unwritten.
  for (size_t i = done * bb; i < in.size(); ++i) {
    if (dst[i] != (in_place ? in[i] : 0x5a)) {
      ADD_FAILURE() << "byte " << i << " past the GPU prefix was written";
      break;
    }
  }
  Bytes rest_in(in.begin() + long(done * bb), in.end());
  Bytes rest_iv = iv;
  if (m == Mode::kCtr) ctr_add(rest_iv.data(), bb, done);
  const Bytes rest = cpu_result(c, m, key, rest_iv, rest_in);
  if (!rest.empty()) std::memcpy(dst + done * bb, rest.data(), rest.size());
  return {Bytes(dst, dst + in.size()), done};
}

class GpuRuntime : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("GPUCRYPTO_GPU_FAULT");
    testing::set_chunk_bytes(size_t(8) << 20);
    set_min_bytes(0);
    testing::reset();
  }
  static void use(const char* fault, size_t chunk = 4096) {
    setenv("GPUCRYPTO_GPU_FAULT", fault, 1);
    testing::set_chunk_bytes(chunk);
    testing::reset();
  }
};

TEST_F(GpuRuntime, WithoutDeviceNothingIsTouched) {
  unsetenv("GPUCRYPTO_GPU_FAULT");
  testing::reset();
  if (usable()) GTEST_SKIP() << "a real GPU is present: " << describe();
  EXPECT_EQ(describe().rfind("none (", 0), 0u) << describe();
  EXPECT_EQ(min_bytes(), SIZE_MAX);
  const Bytes key(16, 1), in(4096, 2);
  Bytes out(4096, 0x5a);
  Job job{Cipher::kAES128, key.data(), 16, false, true, nullptr, in.data(), out.data(), 256};
  EXPECT_EQ(run_blocks(job), 0u);
  EXPECT_FALSE(run(job));
  EXPECT_EQ(out, Bytes(4096, 0x5a));
  EXPECT_EQ(stats().jobs, 0u);
}

TEST_F(GpuRuntime, EmulatedDeviceIsNeverReportedAsAGpu) {
  use("emulate:2");
  ASSERT_TRUE(usable());
  EXPECT_NE(describe().find("not a GPU"), std::string::npos) << describe();
  EXPECT_TRUE(stats().emulated);
}

TEST_F(GpuRuntime, MalformedFaultSwitchDisablesTheGpu) {
  for (const char* bad : {"emulate,bogus", "emulate,h2d:x", "emulate:0", "emulate,sync@0", "h2d:"}) {
    SCOPED_TRACE(bad);
    ::testing::internal::CaptureStderr();
    use(bad);
    EXPECT_FALSE(usable());
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("GPUCRYPTO_GPU_FAULT"), std::string::npos) << err;
    EXPECT_NE(describe().find("GPUCRYPTO_GPU_FAULT"), std::string::npos);
  }
}

// Every cipher and mode through the emulated pipeline: 2 devices x 4 streams,
// 4 KiB chunks, so large jobs wrap around the slots several times; sizes
// include one block, a partial last chunk and in-place work.
TEST_F(GpuRuntime, EmulatedPipelineMatchesCpu) {
  use("emulate:2");
  std::mt19937_64 rng(3);
  for (Cipher c : all_ciphers()) {
    const size_t bb = block_bytes(c);
    for (Mode m : {Mode::kEcbEnc, Mode::kEcbDec, Mode::kCtr}) {
      for (size_t nblocks : {size_t(1), 4096 / bb - 1, 4096 / bb * 19 + 3}) {
        SCOPED_TRACE(std::string(cipher_name(c)) + " mode " + std::to_string(int(m)) + " n " +
                     std::to_string(nblocks));
        const Bytes key = test::random_bytes(key_bytes(c)), in = test::random_bytes(nblocks * bb);
        Bytes iv = test::random_bytes(bb);
        std::memset(iv.data() + bb / 2, 0xff, bb / 2);  // counters carry mid-job
        const bool in_place = (rng() & 1) != 0;
        Outcome o = dispatch_like(c, m, key, iv, in, in_place);
        EXPECT_EQ(o.gpu_blocks, nblocks);  // no faults: everything on the "GPU"
        EXPECT_EQ(o.out, cpu_result(c, m, key, iv, in));
      }
    }
  }
  EXPECT_FALSE(stats().disabled);
  EXPECT_EQ(stats().failed_jobs, 0u);
}

// Each injected fault, on every call: big jobs still come out right (the CPU
// redoes what the GPU did not finish), the GPU is disabled after the third
// failed job, and the warning is printed exactly once.
TEST_F(GpuRuntime, PersistentFaultsFallBackAndWarnOnce) {
  for (const char* fault : {"emulate,alloc", "emulate,h2d", "emulate,launch", "emulate,d2h",
                            "emulate,sync", "emulate:3,launch"}) {
    SCOPED_TRACE(fault);
    use(fault);
    ::testing::internal::CaptureStderr();
    for (int rep = 0; rep < 6; ++rep) {
      const Cipher c = all_ciphers()[size_t(rep) % all_ciphers().size()];
      const size_t bb = block_bytes(c);
      const Bytes key = test::random_bytes(key_bytes(c)), iv = test::random_bytes(bb);
      const Bytes in = test::random_bytes(64 * 1024);
      for (Mode m : {Mode::kEcbEnc, Mode::kEcbDec, Mode::kCtr}) {
        Outcome o = dispatch_like(c, m, key, iv, in, rep % 2 == 0);
        EXPECT_EQ(o.out, cpu_result(c, m, key, iv, in));
        EXPECT_EQ(o.gpu_blocks, 0u);  // every job fails at its first chunk
      }
    }
    const std::string err = ::testing::internal::GetCapturedStderr();
    size_t count = 0;
    for (size_t p = err.find("GPU disabled"); p != std::string::npos; p = err.find("GPU disabled", p + 1))
      ++count;
    EXPECT_EQ(count, 1u) << err;
    EXPECT_NE(err.find("injected"), std::string::npos) << err;
    EXPECT_TRUE(stats().disabled);
    EXPECT_EQ(stats().warnings, 1u);
    EXPECT_EQ(stats().failed_jobs, 3u);  // disabled after three; later jobs never reach it
    EXPECT_FALSE(usable());
    EXPECT_EQ(min_bytes(), SIZE_MAX);
    EXPECT_NE(describe().find("disabled"), std::string::npos);
  }
}

// A fault in the middle of a job: the chunks before it are kept (a correct
// prefix, completed in order even though several were in flight), the rest
// is untouched for the CPU; one failure neither disables nor warns.
TEST_F(GpuRuntime, MidJobFaultKeepsAnExactPrefix) {
  struct Case {
    const char* fault;
    size_t gpu_chunks;  // chunks of 4 KiB that must come from the GPU
  };
  // 1 device x 4 streams. The k-th copy-in/launch/copy-out belongs to chunk
  // k-1, so "h2d@10" stops before chunk 9: chunks 0..8 complete. The k-th
  // wait completes chunk k-1.
  for (Case cs : {Case{"emulate,h2d@10", 9}, Case{"emulate,launch@7", 6}, Case{"emulate,d2h@2", 1},
                  Case{"emulate,sync@5", 4}, Case{"emulate,sync@1", 0}}) {
    SCOPED_TRACE(cs.fault);
    use(cs.fault);
    ::testing::internal::CaptureStderr();
    const Bytes key = test::random_bytes(16), iv = test::random_bytes(16);
    const Bytes in = test::random_bytes(4096 * 32);
    Outcome o = dispatch_like(Cipher::kSM4, Mode::kCtr, key, iv, in, /*in_place=*/true);
    EXPECT_EQ(o.gpu_blocks, cs.gpu_chunks * 4096 / 16);
    EXPECT_EQ(o.out, cpu_result(Cipher::kSM4, Mode::kCtr, key, iv, in));
    // The fault fired once: the next job runs entirely on the GPU again.
    Outcome again = dispatch_like(Cipher::kAES128, Mode::kEcbEnc, key, {}, in, false);
    EXPECT_EQ(again.gpu_blocks, in.size() / 16);
    EXPECT_EQ(again.out, cpu_result(Cipher::kAES128, Mode::kEcbEnc, key, {}, in));
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    EXPECT_FALSE(stats().disabled);
    EXPECT_EQ(stats().failed_jobs, 1u);
  }
}

// run() is all or nothing: after a mid-job fault an in-place buffer holds
// its input again, so redoing the whole job on the CPU is right.
TEST_F(GpuRuntime, RunRestoresInPlaceInputAfterMidJobFault) {
  for (bool ctr : {false, true}) {
    for (bool enc : {true, false}) {
      use("emulate,sync@6");
      const Bytes key = test::random_bytes(32), iv = test::random_bytes(16);
      const Bytes in = test::random_bytes(4096 * 16);
      Bytes buf = in;
      Job job{Cipher::kSkinny128_256, key.data(), 32, ctr, enc, iv.data(), buf.data(), buf.data(), buf.size() / 16};
      EXPECT_FALSE(run(job));
      EXPECT_TRUE(buf == in);
      EXPECT_TRUE(run(job));  // the fault fired once
      EXPECT_EQ(buf, cpu_result(Cipher::kSkinny128_256, ctr ? Mode::kCtr : enc ? Mode::kEcbEnc : Mode::kEcbDec, key, iv, in));
    }
  }
}

// Two failures, then a success: the failure count starts again.
TEST_F(GpuRuntime, TransientFaultsDoNotDisable) {
  use("emulate,launch:2");
  const Bytes key = test::random_bytes(32), in = test::random_bytes(16 * 1024);
  for (int rep = 0; rep < 5; ++rep) {
    Outcome o = dispatch_like(Cipher::kSkinny128_256, Mode::kEcbEnc, key, {}, in, false);
    EXPECT_EQ(o.out, cpu_result(Cipher::kSkinny128_256, Mode::kEcbEnc, key, {}, in));
    EXPECT_EQ(o.gpu_blocks, rep < 2 ? 0u : in.size() / 16);
  }
  EXPECT_FALSE(stats().disabled);
  EXPECT_EQ(stats().warnings, 0u);
}

TEST_F(GpuRuntime, ConcurrentCallersAllGetCorrectResults) {
  use("emulate:2");
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 3; ++rep) {
        const Cipher c = all_ciphers()[size_t(t + rep) % all_ciphers().size()];
        const size_t bb = block_bytes(c);
        const Bytes key = test::random_bytes(key_bytes(c)), iv = test::random_bytes(bb);
        const Bytes in = test::random_bytes(40 * 1024);
        Bytes out(in.size());
        Job job{c, key.data(), key.size(), true, true, iv.data(), in.data(), out.data(), in.size() / bb};
        if (!run(job) || out != cpu_result(c, Mode::kCtr, key, iv, in)) ++bad;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST_F(GpuRuntime, MinBytesOverrideAndCalibration) {
  use("emulate");
  const size_t measured = min_bytes();
  EXPECT_GE(measured, size_t(1) << 20);
  EXPECT_LE(measured, size_t(256) << 20);
  EXPECT_GT(calibration().bytes_per_second, 0.0);
  set_min_bytes(12345);
  EXPECT_EQ(min_bytes(), 12345u);
  set_min_bytes(0);
  EXPECT_EQ(min_bytes(), measured);
}

// A child after fork() initialises its own runtime and works; the parent's
// is unaffected.
TEST_F(GpuRuntime, WorksAgainAfterFork) {
  use("emulate");
  const Bytes key = test::random_bytes(16), in = test::random_bytes(32 * 1024);
  const Bytes want = cpu_result(Cipher::kAES128, Mode::kEcbEnc, key, {}, in);
  ASSERT_EQ(dispatch_like(Cipher::kAES128, Mode::kEcbEnc, key, {}, in, false).out, want);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    Bytes out(in.size());
    Job job{Cipher::kAES128, key.data(), 16, false, true, nullptr, in.data(), out.data(), in.size() / 16};
    const bool ok = usable() && run(job) && out == want && stats().jobs == 1;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(dispatch_like(Cipher::kAES128, Mode::kEcbEnc, key, {}, in, true).out, want);
  EXPECT_EQ(stats().jobs, 2u);
}

}  // namespace
}  // namespace gpucrypto::gpu
