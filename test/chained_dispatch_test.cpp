// CBC and CFB decryption through the dispatcher (engine/dispatcher.h): the
// pool's chunks chain to the ciphertext block before them, in place too
// (the boundary blocks are saved before any chunk runs); block counts around
// the chunk size and mt_min_bytes; 1, 2 and 7 threads; any split through
// run_blocks; and the GPU path (ECB kernels on the emulated device, the XOR
// on the CPU) with and without injected faults mid-job. The reference is the
// mode model over the portable ECB (test/mode_model.h). Run under TSan too.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "engine/dispatcher.h"
#include "gpu/gpu_backend.h"
#include "test/gpu_cipher_map.h"
#include "test/mode_model.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

using gpucrypto::kChunkBytes;  // engine/dispatcher.h

struct Case {
  const CipherAlgo* algo;
  JobKind kind;
};

Bytes model_decrypt(const CipherAlgo& algo, JobKind kind, const Bytes& key, const Bytes& iv,
                    const Bytes& ct) {
  Bytes pt;
  EXPECT_TRUE(ModeModel(algo, key.data())
                  .crypt(kind == JobKind::kCbcDecrypt ? ModelMode::kCBC : ModelMode::kCFB, false,
                         false, iv, ct, &pt));
  return pt;
}

CipherJob job_of(const CipherHw& hw, const void* ks, const CipherAlgo& algo, JobKind kind,
                 uint8_t* reg, const uint8_t* in, uint8_t* out, size_t nblocks) {
  CipherJob j{};
  j.hw = &hw;
  j.ks = ks;
  j.block_bytes = algo.block_bytes;
  j.kind = kind;
  j.ctr = reg;
  j.in = in;
  j.out = out;
  j.nblocks = nblocks;
  return j;
}

class Chained : public ::testing::TestWithParam<Case> {};

TEST_P(Chained, PoolChunkBoundariesInPlaceAndEveryThreadCount) {
  const CipherAlgo& algo = *GetParam().algo;
  const JobKind kind = GetParam().kind;
  const size_t bs = algo.block_bytes, chunk = (kChunkBytes + bs - 1) / bs;
  const CipherHw& hw = select_hw(algo, cpu_features_detected());
  const Bytes key = random_bytes(algo.key_bytes);
  KeySchedule ks(hw, key, true);
  const size_t mt_blocks = (256 * 1024) / bs;
  for (size_t n : {size_t(1), chunk - 1, chunk, chunk + 1, 2 * chunk - 1, 2 * chunk + 1, 3 * chunk + 7,
                   mt_blocks - 1, mt_blocks, mt_blocks + 1, 9 * chunk + 2}) {
    const Bytes iv = random_bytes(bs), ct = random_bytes(n * bs);
    const Bytes want = model_decrypt(algo, kind, key, iv, ct);
    for (size_t threads : {1, 2, 7}) {
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(std::to_string(n) + " blocks, " + std::to_string(threads) + " threads" +
                     (in_place ? ", in place" : ""));
        EngineConfig cfg;
        cfg.threads = threads;
        cfg.mt_min_bytes = 256 * 1024;
        Bytes buf = ct, out(ct.size(), 0x33), reg = iv;
        uint8_t* dst = in_place ? buf.data() : out.data();
        const Served s = dispatch(job_of(hw, ks.get(), algo, kind, reg.data(), buf.data(), dst, n), cfg);
        const bool pooled = threads > 1 && n * bs >= cfg.mt_min_bytes && n > chunk;
        EXPECT_EQ(s, pooled ? Served::kThreadPool : Served::kCallingThread);
        EXPECT_TRUE(Bytes(dst, dst + n * bs) == want);
        EXPECT_EQ(reg, Bytes(ct.end() - bs, ct.end())) << "register = the last ciphertext block";
      }
    }
  }
}

// Any split of a job into run_blocks calls gives the single-call bytes.
TEST_P(Chained, AnySplitThroughRunBlocks) {
  const CipherAlgo& algo = *GetParam().algo;
  const JobKind kind = GetParam().kind;
  const size_t bs = algo.block_bytes, n = 300;
  const CipherHw& hw = select_hw(algo, cpu_features_detected());
  const Bytes key = random_bytes(algo.key_bytes), iv = random_bytes(bs), ct = random_bytes(n * bs);
  KeySchedule ks(hw, key, true);
  const Bytes want = model_decrypt(algo, kind, key, iv, ct);
  for (size_t split : {size_t(1), size_t(7), size_t(128), size_t(299)}) {
    Bytes out(ct.size()), reg = iv;
    const CipherJob job = job_of(hw, ks.get(), algo, kind, reg.data(), ct.data(), out.data(), n);
    run_blocks(job, split, n - split);  // the later part first: it reads only input
    run_blocks(job, 0, split);
    EXPECT_EQ(out, want) << "split at " << split;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, Chained,
    ::testing::Values(Case{&sm4(), JobKind::kCbcDecrypt}, Case{&sm4(), JobKind::kCfbDecrypt},
                      Case{&aes128(), JobKind::kCbcDecrypt}, Case{&aes256(), JobKind::kCfbDecrypt},
                      Case{&rectangle80(), JobKind::kCbcDecrypt}, Case{&skinny128_256(), JobKind::kCfbDecrypt},
                      Case{&rijndael(192, 128), JobKind::kCbcDecrypt},
                      Case{&rijndael(256, 256), JobKind::kCfbDecrypt}),
    [](const auto& info) {
      return gtest_name(info.param.algo->name) + (info.param.kind == JobKind::kCbcDecrypt ? "_CBC" : "_CFB");
    });

// --- the GPU path on the emulated device ---------------------------------------

class ChainedGpu : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("GPUCRYPTO_GPU_FAULT");
    gpu::testing::set_chunk_bytes(size_t(8) << 20);
    gpu::testing::reset();
    testing::set_gpu_slice_bytes(0);
  }
  static void use(const char* fault, size_t chunk_bytes, size_t slice_bytes) {
    setenv("GPUCRYPTO_GPU_FAULT", fault, 1);
    gpu::testing::set_chunk_bytes(chunk_bytes);
    gpu::testing::reset();
    testing::set_gpu_slice_bytes(slice_bytes);
  }
  // Every GPU cipher, both kinds, in place and not, against the model.
  static void run_all(bool expect_gpu) {
    for (gpu::Cipher gc : gpu::test_map::all_ciphers()) {
      const CipherAlgo& algo = gpu::test_map::cpu_algo(gc);
      const size_t bs = algo.block_bytes, n = (192 * 1024) / bs + 3;
      const CipherHw& hw = select_hw(algo, cpu_features_detected());
      const Bytes key = random_bytes(algo.key_bytes);
      KeySchedule ks(hw, key, true);
      for (JobKind kind : {JobKind::kCbcDecrypt, JobKind::kCfbDecrypt}) {
        const Bytes iv = random_bytes(bs), ct = random_bytes(n * bs);
        const Bytes want = model_decrypt(algo, kind, key, iv, ct);
        for (bool in_place : {false, true}) {
          SCOPED_TRACE(std::string(algo.name) + (kind == JobKind::kCbcDecrypt ? " CBC" : " CFB") +
                       (in_place ? " in place" : ""));
          EngineConfig cfg;
          cfg.threads = 2;
          cfg.mt_min_bytes = 64 * 1024;
          cfg.gpu_min_bytes = 64 * 1024;
          Bytes buf = ct, out(ct.size(), 0x44), reg = iv;
          uint8_t* dst = in_place ? buf.data() : out.data();
          CipherJob job = job_of(hw, ks.get(), algo, kind, reg.data(), buf.data(), dst, n);
          job.gpu_cipher = gc;
          job.key = key.data();
          job.keylen = key.size();
          const Served s = dispatch(job, cfg);
          if (expect_gpu) {
            EXPECT_EQ(s, Served::kGpu);
          }
          EXPECT_TRUE(Bytes(dst, dst + n * bs) == want);
          EXPECT_EQ(reg, Bytes(ct.end() - bs, ct.end()));
        }
      }
    }
  }
};

TEST_F(ChainedGpu, EmulatedDeviceWholeJobsAndSlices) {
  use("emulate", 64 * 1024, 0);
  ASSERT_TRUE(gpu::usable());
  run_all(true);
  use("emulate:2", 16 * 1024, 40 * 1024);  // several slices, two devices, small pipeline chunks
  run_all(true);
}

// A CUDA error mid-job keeps the finished prefix; the CPU finishes from the
// block after it, chaining to the right ciphertext block (in place too).
TEST_F(ChainedGpu, FaultsMidJobKeepTheExactPrefix) {
  for (const char* fault : {"emulate,d2h@3", "emulate,launch@2", "emulate,h2d@5", "emulate,alloc"}) {
    SCOPED_TRACE(fault);
    use(fault, 16 * 1024, 48 * 1024);
    run_all(false);
  }
}

}  // namespace
}  // namespace gpucrypto::test
