// Load: 64 application threads share one library context and run a fixed
// number of EVP operations each over every registered cipher (ECB, CTR, CBC,
// CFB and OFB, both directions) with sizes from 1 byte to 8 MiB, split into random update
// chunks -- large calls go through the provider's thread pool while the other
// application threads compete for it. Every output is checked against the
// portable reference implementation (ciphers/<alg>/ref; the chained modes
// through the mode model over it, test/mode_model.h), computed in the
// test. A watchdog turns a deadlock into a failure, and the peak resident
// set must stay within the test's own buffers plus a fixed allowance.
//
// GPUCRYPTO_LOAD_OPS (operations per thread, default 3) and
// GPUCRYPTO_LOAD_MAX_BYTES (default 8 MiB) scale it down for TSan runs.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ciphers/block_cipher.h"
#include "engine/cipher_registry.h"
#include "test/mode_model.h"
#include "test/test_util.h"

namespace {

using gpucrypto::CipherAlgo;
using gpucrypto::CipherHw;
using gpucrypto::test::Bytes;

constexpr size_t kThreads = 64;

size_t env_size(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != 0 ? std::strtoull(v, nullptr, 10) : fallback;
}

// Peak resident set of this process, from /proc (kB -> bytes).
size_t peak_rss() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
  return 0;
}

// Bytes of test buffers in flight, bounded so that the memory check below
// measures the provider, not 64 threads' worth of 8 MiB buffers.
class ByteBudget {
 public:
  explicit ByteBudget(size_t cap) : left_(cap) {}
  void take(size_t n) {
    std::unique_lock l(m_);
    cv_.wait(l, [&] { return left_ >= n; });
    left_ -= n;
  }
  void give(size_t n) {
    {
      std::lock_guard l(m_);
      left_ += n;
    }
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  size_t left_;
};

struct Target {
  std::string name;  // EVP name
  const CipherAlgo* algo;
  bool ctr;
  EVP_CIPHER* cipher = nullptr;
  // CBC, CFB, OFB (ECB and CTR keep their own reference below); these take an IV.
  std::optional<gpucrypto::test::ModelMode> chained;
};

std::vector<Target> targets() {
  std::vector<Target> t;
  auto add = [&](const std::string& base, const CipherAlgo& a) {
    t.push_back({base + "-ECB", &a, false, nullptr, std::nullopt});
    t.push_back({base + "-CTR", &a, true, nullptr, std::nullopt});
    using gpucrypto::test::ModelMode;
    for (auto [m, suffix] : {std::pair{ModelMode::kCBC, "-CBC"}, std::pair{ModelMode::kCFB, "-CFB"},
                             std::pair{ModelMode::kOFB, "-OFB"}})
      t.push_back({base + suffix, &a, false, nullptr, m});
  };
  for (const gpucrypto::CipherRow& r : gpucrypto::cipher_rows()) add(r.name, r.algo());
  return t;
}

// The reference: ECB with PKCS#7 padding, or CTR, through the ref hooks.
Bytes reference_encrypt(const Target& t, const Bytes& key, const Bytes& iv, const Bytes& pt) {
  if (t.chained) {
    Bytes ct;
    EXPECT_TRUE(gpucrypto::test::ModeModel(*t.algo, key.data()).crypt(*t.chained, true, true, iv, pt, &ct));
    return ct;
  }
  const CipherHw& ref = *gpucrypto::find_hw(*t.algo, "ref");
  if (t.ctr) return gpucrypto::test::ctr_crypt(*t.algo, ref, key, iv, pt);
  const size_t bs = t.algo->block_bytes;
  Bytes padded = pt;
  padded.resize((pt.size() / bs + 1) * bs, uint8_t(bs - pt.size() % bs));
  return gpucrypto::test::ecb_encrypt(*t.algo, ref, key, padded);
}

// Deterministic bytes (RAND_bytes would dominate the run time).
void fill(std::mt19937_64& rng, uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t v = rng();
    std::memcpy(p + i, &v, n - i < 8 ? n - i : 8);
  }
}

struct Outcome {
  std::atomic<size_t> ops{0}, bytes{0}, mismatches{0}, evp_failures{0};
  std::mutex m;
  std::string first_error;
};

void worker(size_t id, const std::vector<Target>& ts, size_t ops, size_t max_bytes,
            ByteBudget* budget, Outcome* out) {
  std::mt19937_64 rng(0x10ad0000 + id);
  for (size_t op = 0; op < ops; ++op) {
    const Target& t = ts[(id * 7 + op * 13) % ts.size()];
    // Log-uniform sizes, with the extremes forced on a few threads.
    size_t len = size_t(std::exp(std::uniform_real_distribution<double>(0, std::log(double(max_bytes)))(rng)));
    if (op == 0 && id == 0) len = 1;
    if (op == 0 && id == 1) len = max_bytes;
    if (op == 0 && id == 2) len = max_bytes - 1;
    len = std::max<size_t>(1, std::min(len, max_bytes));
    const bool enc = (id + op) % 2 == 0;
    const size_t bs = t.algo->block_bytes;
    budget->take(3 * len);
    Bytes key(t.algo->key_bytes), iv(t.ctr || t.chained ? bs : 0), pt(len);
    fill(rng, key.data(), key.size());
    fill(rng, iv.data(), iv.size());
    fill(rng, pt.data(), pt.size());
    if (t.ctr && op % 3 == 1) std::memset(iv.data(), 0xff, iv.size());  // counter wrap
    Bytes ct = reference_encrypt(t, key, iv, pt);
    const Bytes& input = enc ? pt : ct;
    const Bytes& want = enc ? ct : pt;
    // Two to four update calls of random sizes.
    std::vector<size_t> chunks;
    size_t left = input.size();
    const int pieces = 1 + int(rng() % 3);
    for (int i = 0; i < pieces && left > 0; ++i) {
      const size_t n = rng() % (left + 1);
      chunks.push_back(n);
      left -= n;
    }
    Bytes got;
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    bool ok = ctx != nullptr &&
              EVP_CipherInit_ex2(ctx, t.cipher, key.data(), iv.empty() ? nullptr : iv.data(), enc, nullptr) == 1;
    got.resize(input.size() + bs);
    size_t pos = 0, done = 0;
    chunks.push_back(input.size() - [&] {
      size_t s = 0;
      for (size_t c : chunks) s += c;
      return s;
    }());
    for (size_t c : chunks) {
      int outl = 0;
      ok = ok && EVP_CipherUpdate(ctx, got.data() + done, &outl, input.data() + pos, int(c)) == 1;
      pos += c;
      done += size_t(outl);
    }
    int outl = 0;
    ok = ok && EVP_CipherFinal_ex(ctx, got.data() + done, &outl) == 1;
    done += size_t(outl);
    got.resize(done);
    EVP_CIPHER_CTX_free(ctx);
    if (!ok) {
      ++out->evp_failures;
    } else if (got != want) {
      ++out->mismatches;
    }
    if (!ok || got != want) {
      std::lock_guard l(out->m);
      if (out->first_error.empty())
        out->first_error = t.name + (enc ? " encrypt " : " decrypt ") + std::to_string(len) +
                           " bytes: " + (ok ? "output differs from the reference" : "EVP call failed");
    }
    ++out->ops;
    out->bytes += len;
    budget->give(3 * len);
  }
}

TEST(Load, SixtyFourThreadsMixedCiphersAndSizesMatchTheReference) {
  gpucrypto::test::ProviderFixture fx;
  ASSERT_TRUE(fx.ok());
  const size_t ops = env_size("GPUCRYPTO_LOAD_OPS", 3);
  const size_t max_bytes = env_size("GPUCRYPTO_LOAD_MAX_BYTES", size_t(8) << 20);
  ASSERT_GE(max_bytes, 16u);
  std::vector<Target> ts = targets();
  ASSERT_EQ(ts.size(), 5 * gpucrypto::cipher_rows().size());  // every row x ECB, CTR, CBC, CFB, OFB
  for (Target& t : ts) {
    t.cipher = EVP_CIPHER_fetch(fx.libctx(), t.name.c_str(), "provider=gpucrypto");
    ASSERT_NE(t.cipher, nullptr) << t.name;
  }
  // At most 12 largest-size operations' buffers in flight.
  const size_t budget_bytes = 3 * 12 * max_bytes;
  ByteBudget budget(budget_bytes);
  const size_t rss_before = peak_rss();
  Outcome out;
  std::atomic<size_t> finished{0};
  std::vector<std::thread> threads;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      worker(i, ts, ops, max_bytes, &budget, &out);
      ++finished;
    });
  // Watchdog: a deadlock fails the test with a message instead of hanging CI.
  const auto limit = std::chrono::seconds(env_size("GPUCRYPTO_LOAD_TIMEOUT_S", 900));
  while (finished.load() < kThreads) {
    if (std::chrono::steady_clock::now() - start > limit) {
      std::fprintf(stderr, "load test: %zu of %zu threads still running after %lld s: deadlock?\n",
                   kThreads - finished.load(), kThreads, (long long)limit.count());
      std::abort();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (std::thread& t : threads) t.join();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const size_t rss_growth = peak_rss() - rss_before;
  for (Target& t : ts) EVP_CIPHER_free(t.cipher);

  std::printf("load: %zu threads x %zu ops = %zu operations, %.1f MiB, %.1f s, peak RSS +%.1f MiB\n",
              kThreads, ops, out.ops.load(), double(out.bytes.load()) / (1 << 20), secs,
              double(rss_growth) / (1 << 20));
  EXPECT_EQ(out.ops.load(), kThreads * ops);
  EXPECT_EQ(out.evp_failures.load(), 0u) << out.first_error;
  EXPECT_EQ(out.mismatches.load(), 0u) << out.first_error;
  // Bounded memory: the test's own in-flight buffers plus 256 MiB for the
  // thread pool, OpenSSL and allocator slack. A provider that copied inputs
  // per chunk or leaked per call would blow through this.
  // ThreadSanitizer keeps shadow memory for every byte touched (several times
  // the data), so the same bound is scaled there. AddressSanitizer holds freed
  // blocks in its quarantine (256 MiB by default on x86-64) on top of an
  // eighth of shadow and small redzones: its quarantine is added.
#if defined(__SANITIZE_THREAD__)
  constexpr size_t kShadowFactor = 4, kQuarantine = 0;
#elif defined(__SANITIZE_ADDRESS__)
  constexpr size_t kShadowFactor = 1, kQuarantine = size_t(256) << 20;
#else
  constexpr size_t kShadowFactor = 1, kQuarantine = 0;
#endif
  EXPECT_LT(rss_growth, kShadowFactor * (budget_bytes + (size_t(256) << 20)) + kQuarantine);
}

}  // namespace
