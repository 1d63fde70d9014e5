// The dispatcher, thread pool and configuration, below the EVP layer.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <chrono>
#include <thread>
#include <vector>

#include "ciphers/rijndael/rijndael.h"
#include "ciphers/sm4/sm4.h"
#include "engine/config.h"
#include "engine/dispatcher.h"
#include "engine/thread_pool.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

CipherJob mk(const CipherHw* hw, const void* ks, size_t bs, bool ctr_mode, bool encrypt,
             uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks) {
  CipherJob j{};
  j.hw = hw;
  j.ks = ks;
  j.block_bytes = bs;
  j.kind = ctr_mode ? JobKind::kCtr : encrypt ? JobKind::kEcbEncrypt : JobKind::kEcbDecrypt;
  j.ctr = ctr;
  j.in = in;
  j.out = out;
  j.nblocks = nblocks;
  return j;
}

TEST(ThreadPool, CoversEveryItemExactlyOnce) {
  auto& pool = ThreadPool::instance();
  for (size_t parts : {0, 1, 2, 3, 7, 64}) {
    for (size_t n : {1, 2, 5, 100, 1001}) {
      std::vector<std::atomic<int>> hits(n);
      pool.parallel_for(n, 1, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) hits[i]++;
      }, parts);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n " << n << " parts " << parts;
    }
  }
}

TEST(ThreadPool, ManyCallersAtOnceFinish) {
  std::vector<std::thread> callers;
  std::atomic<size_t> total{0};
  for (int t = 0; t < 16; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        ThreadPool::instance().parallel_for(1000, 10, [&](size_t b, size_t e) { total += e - b; });
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(total.load(), size_t(16 * 200 * 1000));
}

TEST(ThreadPool, EveryChunkSizeCoversEveryItemOnce) {
  auto& pool = ThreadPool::instance();
  for (size_t chunk : {1, 3, 64, 999, 1000, 1001, 5000}) {
    for (size_t n : {1, 999, 1000, 1001, 4097}) {
      std::vector<std::atomic<int>> hits(n);
      std::atomic<size_t> calls{0};
      pool.parallel_for(n, chunk, [&](size_t b, size_t e) {
        ASSERT_LE(e - b, chunk);
        ++calls;
        for (size_t i = b; i < e; ++i) hits[i]++;
      });
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n " << n << " chunk " << chunk;
      EXPECT_EQ(calls.load(), (n + chunk - 1) / chunk) << "n " << n << " chunk " << chunk;
    }
  }
}

// Every other core busy with an unrelated compute loop: large calls through
// the pool stay byte-identical and finish (a helper that never gets a core
// must not hold the caller).
TEST(ThreadPool, BusyCoresStillCorrectAndFinish) {
  const CipherHw& hw = select_hw(aes128(), cpu_features_detected());
  KeySchedule ks(hw, random_bytes(16));
  const size_t nblocks = (3 << 20) / 16 + 5;
  Bytes in = random_bytes(nblocks * 16), iv(16, 0xff), want(in.size());
  {
    Bytes c = iv;
    hw.ctr(ks.get(), c.data(), in.data(), want.data(), nblocks);
  }
  std::atomic<bool> stop{false};
  std::vector<std::thread> hogs;
  for (unsigned i = 0; i < std::max(1u, std::thread::hardware_concurrency()); ++i)
    hogs.emplace_back([&] {
      volatile uint64_t x = 0;
      while (!stop.load(std::memory_order_relaxed)) x = x + 1;
    });
  const auto t0 = std::chrono::steady_clock::now();
  int bad = 0;
  for (size_t threads : {2, 7, 0}) {
    for (int rep = 0; rep < 20; ++rep) {
      EngineConfig cfg;
      cfg.threads = threads;
      cfg.mt_min_bytes = 0;
      Bytes out(in.size()), c = iv;
      dispatch(mk(&hw, ks.get(), 16, true, true, c.data(), in.data(), out.data(), nblocks), cfg);
      bad += out != want;
      Bytes inplace = in;
      Bytes c2 = iv;
      dispatch(mk(&hw, ks.get(), 16, true, true, c2.data(), inplace.data(), inplace.data(), nblocks), cfg);
      bad += inplace != want;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stop = true;
  for (auto& h : hogs) h.join();
  EXPECT_EQ(bad, 0);
  // 120 calls of 3 MiB take well under a second on one core; a minute means a hang.
  EXPECT_LT(secs, 60.0);
}

// A job's output must not depend on how it is split: every split point,
// including ones inside a counter carry, gives the single-call result.
TEST(Dispatcher, AnySplitIsByteIdentical) {
  const CipherAlgo& algo = sm4();
  const CipherHw& hw = select_hw(algo, cpu_features_detected());
  Bytes key = random_bytes(16);
  KeySchedule ks(hw, key);
  const size_t nblocks = 300;
  Bytes in = random_bytes(nblocks * 16);
  Bytes iv = hex("00000000000000ffffffffffffffff80");  // carries through 9 bytes at block 128
  Bytes want(in.size());
  {
    Bytes ctr = iv;
    hw.ctr(ks.get(), ctr.data(), in.data(), want.data(), nblocks);
  }
  for (size_t split : {size_t(1), size_t(127), size_t(128), size_t(129), size_t(299)}) {
    Bytes out(in.size()), ctr = iv;
    CipherJob job = mk(&hw, ks.get(), 16, true, true, ctr.data(), in.data(), out.data(), nblocks);
    run_blocks(job, 0, split);
    run_blocks(job, split, nblocks - split);
    EXPECT_EQ(out, want) << "split at " << split;
  }
}

TEST(Dispatcher, PoolWith1_2_7ThreadsIsByteIdentical) {
  for (const CipherAlgo* algo : {&sm4(), &aes128()}) {
    const CipherHw& hw = select_hw(*algo, cpu_features_detected());
    Bytes key = random_bytes(algo->key_bytes);
    KeySchedule ks(hw, key);
    const size_t nblocks = (1 << 20) / 16 + 3;
    Bytes in = random_bytes(nblocks * 16), iv(16, 0xff);
    iv[15] = 0x00;
    Bytes want(in.size()), ctr = iv;
    hw.ctr(ks.get(), ctr.data(), in.data(), want.data(), nblocks);
    for (size_t threads : {1, 2, 7}) {
      EngineConfig cfg;
      cfg.threads = threads;
      cfg.mt_min_bytes = 0;
      Bytes out(in.size()), c = iv;
      CipherJob job = mk(&hw, ks.get(), 16, true, true, c.data(), in.data(), out.data(), nblocks);
      const Served s = dispatch(job, cfg);
      EXPECT_EQ(s, threads == 1 ? Served::kCallingThread : Served::kThreadPool);
      EXPECT_EQ(out, want) << algo->name << " threads " << threads;
      EXPECT_EQ(c, ctr) << "counter after the call";
      // ECB too, decrypting what the pool encrypted.
      Bytes ecb(in.size()), back(in.size());
      CipherJob e = mk(&hw, ks.get(), 16, false, true, nullptr, in.data(), ecb.data(), nblocks);
      dispatch(e, cfg);
      CipherJob d = mk(&hw, ks.get(), 16, false, false, nullptr, ecb.data(), back.data(), nblocks);
      dispatch(d, cfg);
      EXPECT_EQ(back, in);
    }
  }
}

TEST(Dispatcher, SmallCallsStayOnTheCallingThread) {
  const CipherHw& hw = select_hw(sm4(), cpu_features_detected());
  KeySchedule ks(hw, random_bytes(16));
  Bytes in(4096), out(4096), ctr(16);
  EngineConfig cfg;  // defaults
  CipherJob job = mk(&hw, ks.get(), 16, true, true, ctr.data(), in.data(), out.data(), 256);
  EXPECT_EQ(dispatch(job, cfg), Served::kCallingThread);
}

// fork() while the pool is busy: parent and child both still work.
TEST(ThreadPool, ForkWhileBusy) {
  const CipherHw& hw = select_hw(sm4(), cpu_features_detected());
  KeySchedule ks(hw, random_bytes(16));
  const size_t nblocks = (4 << 20) / 16;
  Bytes in = random_bytes(nblocks * 16), want(in.size());
  Bytes ctr0(16, 0);
  {
    Bytes c = ctr0;
    hw.ctr(ks.get(), c.data(), in.data(), want.data(), nblocks);
  }
  EngineConfig cfg;
  cfg.threads = 2;
  cfg.mt_min_bytes = 0;
  auto encrypt_check = [&] {
    Bytes out(in.size()), c = ctr0;
    CipherJob job = mk(&hw, ks.get(), 16, true, true, c.data(), in.data(), out.data(), nblocks);
    dispatch(job, cfg);
    return out == want;
  };
  std::atomic<bool> stop{false};
  std::atomic<int> bad{0};
  std::thread busy([&] {
    while (!stop) bad += encrypt_check() ? 0 : 1;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (int i = 0; i < 3; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(encrypt_check() && encrypt_check() ? 0 : 1);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child " << i;
  }
  stop = true;
  busy.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_TRUE(encrypt_check());
}

TEST(Config, KeysParseAndRejectMalformedValues) {
  EngineConfig cfg;
  EXPECT_EQ(config_set(&cfg, "backend", "avx2"), "");
  EXPECT_EQ(cfg.backend, Backend::kAVX2);
  EXPECT_EQ(config_set(&cfg, "threads", "7"), "");
  EXPECT_EQ(cfg.threads, 7u);
  EXPECT_EQ(config_set(&cfg, "mt_min_bytes", "64k"), "");
  EXPECT_EQ(cfg.mt_min_bytes, 65536u);
  EXPECT_EQ(config_set(&cfg, "gpu_min_bytes", "16M"), "");
  EXPECT_EQ(*cfg.gpu_min_bytes, 16u << 20);
  EXPECT_EQ(config_set(&cfg, "gpu_min_bytes", "auto"), "");
  EXPECT_FALSE(cfg.gpu_min_bytes.has_value());
  EXPECT_EQ(config_set(&cfg, "backend", "fast"),
            "gpucrypto: invalid value 'fast' for 'backend' (expected auto, ref, avx2, avx512 or cuda)");
  EXPECT_NE(config_set(&cfg, "threads", "-1"), "");
  EXPECT_NE(config_set(&cfg, "threads", "2x"), "");
  EXPECT_NE(config_set(&cfg, "mt_min_bytes", ""), "");
  EXPECT_NE(config_set(&cfg, "mt_min_bytes", "99999999999999999999"), "");
  EXPECT_EQ(config_set(&cfg, "colour", "blue"), "gpucrypto: unknown configuration key 'colour'");
}

// Boolean keys take exactly the two values their message names; the other
// spellings once accepted silently (yes/on/true, no/off/false) are refused.
TEST(Config, BooleanKeysAcceptOnly0And1) {
  EngineConfig cfg;
  EXPECT_EQ(config_set(&cfg, "log", "1"), "");
  EXPECT_TRUE(cfg.log);
  EXPECT_EQ(config_set(&cfg, "log", "0"), "");
  EXPECT_FALSE(cfg.log);
  for (const char* v : {"yes", "on", "true", "no", "off", "false", "TRUE", "01", " 1", "1 ", ""}) {
    cfg.log = true;
    EXPECT_EQ(config_set(&cfg, "log", v),
              std::string("gpucrypto: invalid value '") + v + "' for 'log' (expected 0 or 1)")
        << v;
    EXPECT_TRUE(cfg.log) << "a refused value must leave the setting as it was: " << v;
  }
}

TEST(Config, BackendCapsTheSelectedImplementation) {
  EngineConfig cfg;
  cfg.backend = Backend::kRef;
  EXPECT_STREQ(select_hw(sm4(), cfg.features()).name, "ref");
  EXPECT_STREQ(select_hw(aes128(), cfg.features()).name, "ref");
  cfg.backend = Backend::kAVX2;
  EXPECT_EQ(cfg.features() & kAVX512F, 0u);
}

}  // namespace
}  // namespace gpucrypto::test
