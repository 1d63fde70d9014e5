// Key material is wiped on free and on re-key. This executable interposes
// malloc, aligned_alloc and free (ELF symbol interposition: gpucrypto.so is
// dlopen()ed and its calls to these resolve to the definitions here, as do
// libstdc++'s operator new/delete and libcrypto's CRYPTO_malloc/CRYPTO_free).
// While a test "watches", every block allocated is recorded and every freed
// block is scanned, before it really goes back to glibc, for the raw key and
// for 16-byte windows of its expanded schedule. A re-key is checked by
// scanning every still-live block for the old key's traces.
//
// Not built into sanitizer runs' checks: ASan/TSan own malloc/free, so the
// tests skip there (GPUCRYPTO_SANITIZER_BUILD).
#include <gtest/gtest.h>
#include <malloc.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

#include "ciphers/block_cipher.h"
#include "platform/cpu_features.h"
#include "gpucrypto/babykyber.h"
#include "gpucrypto/mlkem.h"
#include "test/test_util.h"

#ifndef GPUCRYPTO_SANITIZER_BUILD
extern "C" {
void* __libc_malloc(size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}
#endif

namespace {

// --- the allocator hook (no allocation inside, spinlock only) ---------------

constexpr size_t kMaxPatterns = 16, kPatternBytes = 16, kMaxLive = 8192;

struct Watch {
  std::atomic<bool> on{false};
  std::atomic_flag lock = ATOMIC_FLAG_INIT;
  // Byte strings that must not survive in freed (or, after re-key, live) memory.
  uint8_t pattern[kMaxPatterns][kPatternBytes];
  size_t npatterns = 0;
  // Blocks allocated while watching and not yet freed.
  void* live[kMaxLive];
  size_t live_size[kMaxLive];
  size_t nlive = 0;
  // Results.
  size_t frees_seen = 0, dirty_frees = 0, aligned_frees_seen = 0;
};
Watch g;

void lock() {
  while (g.lock.test_and_set(std::memory_order_acquire)) {
  }
}
void unlock() { g.lock.clear(std::memory_order_release); }

bool contains_pattern(const void* p, size_t n) {
  for (size_t i = 0; i < g.npatterns; ++i)
    if (memmem(p, n, g.pattern[i], kPatternBytes) != nullptr) return true;
  return false;
}

[[maybe_unused]] void record_alloc(void* p, size_t n) {
  if (p == nullptr || !g.on.load(std::memory_order_relaxed)) return;
  lock();
  if (g.nlive < kMaxLive) {
    g.live[g.nlive] = p;
    g.live_size[g.nlive] = n;
    ++g.nlive;
  }
  unlock();
}

[[maybe_unused]] void inspect_free(void* p) {
  if (p == nullptr || !g.on.load(std::memory_order_relaxed)) return;
  lock();
  ++g.frees_seen;
  if (reinterpret_cast<uintptr_t>(p) % 64 == 0) ++g.aligned_frees_seen;
  if (contains_pattern(p, malloc_usable_size(p))) ++g.dirty_frees;
  for (size_t i = 0; i < g.nlive; ++i) {
    if (g.live[i] == p) {
      g.live[i] = g.live[--g.nlive];
      g.live_size[i] = g.live_size[g.nlive];
      break;
    }
  }
  unlock();
}

}  // namespace

#ifndef GPUCRYPTO_SANITIZER_BUILD
extern "C" {
void* malloc(size_t n) {
  void* p = __libc_malloc(n);
  record_alloc(p, n);
  return p;
}
void* aligned_alloc(size_t align, size_t n) {
  void* p = __libc_memalign(align, n);
  record_alloc(p, n);
  return p;
}
void free(void* p) {
  inspect_free(p);
  __libc_free(p);
}
}
#endif

namespace {

using gpucrypto::CipherAlgo;
using gpucrypto::CipherHw;
using gpucrypto::test::Bytes;

class Wipe : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef GPUCRYPTO_SANITIZER_BUILD
    GTEST_SKIP() << "the sanitizer runtime owns malloc/free in this build";
#endif
    ASSERT_TRUE(fx_.ok());
    reset();
  }
  void TearDown() override { g.on = false; }

  static void reset() {
    g.on = false;
    lock();
    g.npatterns = 0;
    g.nlive = 0;
    g.frees_seen = g.dirty_frees = g.aligned_frees_seen = 0;
    unlock();
  }
  // Registers the raw key and up to `windows` distinct non-zero 16-byte
  // windows of the schedule `hw` derives from it.
  static void add_key_patterns(const CipherHw& hw, const uint8_t* key, size_t keylen,
                               size_t windows = 6) {
    lock();
    std::memcpy(g.pattern[g.npatterns++], key, kPatternBytes);
    unlock();
    alignas(64) static uint8_t ks[8192];
    ASSERT_LE(hw.ks_bytes, sizeof ks);
    std::memset(ks, 0, sizeof ks);
    hw.setkey(ks, key, keylen, true);
    size_t added = 0;
    for (size_t off = 0; off + kPatternBytes <= hw.ks_bytes && added < windows;
         off += kPatternBytes * 3) {
      // Only high-entropy windows: zero padding, constants and bit-sliced
      // 0x00/0xff masks would match unrelated schedules by chance.
      bool seen[256] = {};
      unsigned distinct = 0;
      for (size_t i = 0; i < kPatternBytes; ++i) {
        distinct += !seen[ks[off + i]];
        seen[ks[off + i]] = true;
      }
      if (distinct < 6) continue;
      lock();
      if (g.npatterns < kMaxPatterns) std::memcpy(g.pattern[g.npatterns++], ks + off, kPatternBytes);
      unlock();
      ++added;
    }
    std::memset(ks, 0, sizeof ks);
    ASSERT_GE(added, 2u) << hw.name << ": schedule gave too few fingerprints";
  }
  // Live blocks (allocated while watching, not yet freed) holding a pattern;
  // `where` gets "pattern p at offset o of a block of n bytes" for each.
  static size_t dirty_live_blocks(std::string* where = nullptr) {
    struct Hit {
      size_t pattern, offset, size;
    } hits[32];
    size_t nhits = 0, n = 0;
    lock();  // no allocation while locked: the hook would wait on itself
    for (size_t i = 0; i < g.nlive; ++i) {
      if (!contains_pattern(g.live[i], g.live_size[i])) continue;
      ++n;
      for (size_t j = 0; j < g.npatterns && nhits < 32; ++j) {
        const void* hit = memmem(g.live[i], g.live_size[i], g.pattern[j], kPatternBytes);
        if (hit != nullptr)
          hits[nhits++] = {j, size_t(static_cast<const uint8_t*>(hit) -
                                     static_cast<const uint8_t*>(g.live[i])),
                           g.live_size[i]};
      }
    }
    unlock();
    for (size_t i = 0; where != nullptr && i < nhits; ++i)
      *where += "pattern " + std::to_string(hits[i].pattern) + " at offset " +
                std::to_string(hits[i].offset) + " of a " + std::to_string(hits[i].size) +
                "-byte block\n";
    return n;
  }

  // One decapsulation with `key` (static buffers: nothing extra on the heap).
  static void decapsulate_once(OSSL_LIB_CTX* lib, EVP_PKEY* key, const uint8_t* ct, size_t ctlen) {
    static_assert(BABYKYBER_SHARED_SECRET_BYTES == MLKEM_SHARED_SECRET_BYTES);
    static uint8_t ss[MLKEM_SHARED_SECRET_BYTES];
    EVP_PKEY_CTX* kctx = EVP_PKEY_CTX_new_from_pkey(lib, key, nullptr);
    size_t ssl = sizeof ss;
    ASSERT_EQ(EVP_PKEY_decapsulate_init(kctx, nullptr), 1);
    ASSERT_EQ(EVP_PKEY_decapsulate(kctx, ss, &ssl, ct, ctlen), 1);
    EVP_PKEY_CTX_free(kctx);
  }

  // Stops watching; no live block and no freed one may hold a pattern.
  static void expect_no_secret_left(const char* what) {
    g.on = false;
    EXPECT_EQ(dirty_live_blocks(), 0u);
    EXPECT_EQ(g.dirty_frees, 0u) << "a freed block still held " << what;
  }

  // body(algo, hw, c) for every sampled registered cipher (test_util.h),
  // after reset(), hw the implementation this CPU selects, c our cipher.
  template <class Body>
  void each_cipher(Body body) {
    for (const auto& cs : gpucrypto::test::sampled_registered_ciphers()) {
      SCOPED_TRACE(cs.evp_name.c_str());
      reset();
      EVP_CIPHER* c = EVP_CIPHER_fetch(fx_.libctx(), cs.evp_name.c_str(), "provider=gpucrypto");
      ASSERT_NE(c, nullptr);
      body(*cs.algo, gpucrypto::select_hw(*cs.algo, gpucrypto::cpu_features_detected()), c);
      EVP_CIPHER_free(c);
    }
  }

  // A fresh random key of algo's length into key (at least 64 bytes).
  static void random_key(const CipherAlgo& algo, uint8_t* key) {
    const Bytes k = gpucrypto::test::random_bytes(algo.key_bytes);
    std::memcpy(key, k.data(), k.size());
  }

  gpucrypto::test::ProviderFixture fx_;
};


// The hook itself: a freed block holding the key is caught, a cleansed one
// is not, and frees from inside gpucrypto.so do reach the hook.
TEST_F(Wipe, HookSeesDirtyFreesIncludingTheModules) {
  static const uint8_t key[16] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  lock();
  std::memcpy(g.pattern[g.npatterns++], key, sizeof key);
  unlock();
  g.on = true;
  void* volatile a = malloc(100);
  std::memcpy(static_cast<uint8_t*>(a) + 40, key, sizeof key);
  free(a);
  EXPECT_EQ(g.dirty_frees, 1u) << "a freed copy of the key must be caught";
  void* volatile b = malloc(100);
  std::memcpy(b, key, sizeof key);
  OPENSSL_cleanse(b, 100);
  free(b);
  EXPECT_EQ(g.dirty_frees, 1u);

  // A context's key schedule is the only 64-byte-aligned block the module
  // allocates: seeing its free proves the module's free() is ours.
  EVP_CIPHER* c = EVP_CIPHER_fetch(fx_.libctx(), "AES-128-ECB", "provider=gpucrypto");
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  ASSERT_EQ(EVP_EncryptInit_ex2(ctx, c, key, nullptr, nullptr), 1);
  const size_t aligned_before = g.aligned_frees_seen;
  EVP_CIPHER_CTX_free(ctx);
  EXPECT_GE(g.aligned_frees_seen, aligned_before + 1);
  g.on = false;
  EVP_CIPHER_free(c);
}

TEST_F(Wipe, FreedContextsHoldNoKeyMaterial) {
  each_cipher([&](const CipherAlgo& algo, const CipherHw& hw, EVP_CIPHER* c) {
    static uint8_t key[64], iv[32];
    random_key(algo, key);
    std::memset(iv, 0x42, sizeof iv);
    add_key_patterns(hw, key, algo.key_bytes);
    static uint8_t buf[4096], out[4096 + 64];
    g.on = true;
    // Encrypt and decrypt contexts (decrypt also expands the inverse
    // schedule), a duplicate taken mid-stream, all freed.
    for (int enc = 0; enc < 2; ++enc) {
      EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
      EVP_CIPHER_CTX* dup = EVP_CIPHER_CTX_new();
      int outl = 0;
      ASSERT_EQ(EVP_CipherInit_ex2(ctx, c, key, iv, enc, nullptr), 1);
      ASSERT_EQ(EVP_CipherUpdate(ctx, out, &outl, buf, 1000), 1);
      ASSERT_EQ(EVP_CIPHER_CTX_copy(dup, ctx), 1);
      ASSERT_EQ(EVP_CipherUpdate(dup, out, &outl, buf, 3000), 1);  // large: thread pool too
      EVP_CIPHER_CTX_free(ctx);
      EVP_CIPHER_CTX_free(dup);
    }
    g.on = false;
    EXPECT_GE(g.aligned_frees_seen, 4u) << "four key schedules were allocated and freed";
    EXPECT_EQ(g.dirty_frees, 0u) << "a freed block still held the key or its schedule";
  });
}

TEST_F(Wipe, RekeyLeavesNoTraceOfTheOldKey) {
  each_cipher([&](const CipherAlgo& algo, const CipherHw& hw, EVP_CIPHER* c) {
    static uint8_t key1[64], key2[64], iv[32], buf[256], out[512];
    random_key(algo, key1);
    random_key(algo, key2);
    g.on = true;  // record the context's blocks from their allocation on
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    int outl = 0;
    ASSERT_EQ(EVP_DecryptInit_ex2(ctx, c, key1, iv, nullptr), 1);
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    ASSERT_EQ(EVP_DecryptUpdate(ctx, out, &outl, buf, 100), 1);
    // Control: the old key is visible in the live context before re-key
    // (otherwise the scan below would prove nothing).
    add_key_patterns(hw, key1, algo.key_bytes);
    EXPECT_GE(dirty_live_blocks(), 1u) << "the live context should hold key 1 before re-key";
    ASSERT_EQ(EVP_DecryptInit_ex2(ctx, nullptr, key2, iv, nullptr), 1);
    std::string where;
    EXPECT_EQ(dirty_live_blocks(&where), 0u) << "key 1 or its schedule survived the re-key:\n"
                                             << where;
    ASSERT_EQ(EVP_DecryptUpdate(ctx, out, &outl, buf, 100), 1);
    EVP_CIPHER_CTX_free(ctx);
    g.on = false;
    EXPECT_EQ(g.dirty_frees, 0u);
  });
}

TEST_F(Wipe, FreedBabyKyberKeysHoldNoPrivateKey) {
  static uint8_t pk[BABYKYBER_PUBLICKEY_BYTES], sk[BABYKYBER_SECRETKEY_BYTES];
  ASSERT_EQ(babykyber_keypair(fx_.libctx(), pk, sk), BABYKYBER_OK);
  // s (bytes 0..4) and z (the last 32 bytes) are the secrets.
  lock();
  std::memcpy(g.pattern[g.npatterns++], sk + BABYKYBER_SECRETKEY_BYTES - 32, kPatternBytes);
  std::memcpy(g.pattern[g.npatterns++], sk + BABYKYBER_SECRETKEY_BYTES - 16, kPatternBytes);
  unlock();
  g.on = true;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, sk, sizeof sk),
                         OSSL_PARAM_END};
  EVP_PKEY_CTX* fctx = EVP_PKEY_CTX_new_from_name(fx_.libctx(), "babyKyber", "provider=gpucrypto");
  EVP_PKEY* key = nullptr;
  ASSERT_EQ(EVP_PKEY_fromdata_init(fctx), 1);
  ASSERT_EQ(EVP_PKEY_fromdata(fctx, &key, EVP_PKEY_KEYPAIR, params), 1);
  EVP_PKEY* copy = EVP_PKEY_dup(key);
  ASSERT_NE(copy, nullptr);
  EXPECT_GE(dirty_live_blocks(), 1u) << "control: the live key object holds z";
  // One decapsulation, then everything freed.
  static uint8_t ct[BABYKYBER_CIPHERTEXT_BYTES];
  decapsulate_once(fx_.libctx(), copy, ct, sizeof ct);
  EVP_PKEY_free(copy);
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(fctx);
  expect_no_secret_left("the private key");
}

// ML-KEM-768: a key generated from a seed (d || z) through EVP, duplicated,
// exported and used for one decapsulation; after everything is freed no
// freed block may hold d, z or the start of s_hat.
TEST_F(Wipe, FreedMlkemKeysHoldNoSeedOrPrivateKey) {
  static uint8_t seed[MLKEM_KEYGEN_SEED_BYTES], ek[MLKEM768_PUBLICKEY_BYTES],
      dk[MLKEM768_SECRETKEY_BYTES];
  for (size_t i = 0; i < sizeof seed; ++i) seed[i] = uint8_t(0x5a ^ (i * 37));
  ASSERT_EQ(mlkem_keypair_derand(768, ek, dk, seed), MLKEM_OK);
  lock();
  std::memcpy(g.pattern[g.npatterns++], seed, kPatternBytes);       // d
  std::memcpy(g.pattern[g.npatterns++], seed + 32, kPatternBytes);  // z
  std::memcpy(g.pattern[g.npatterns++], dk, kPatternBytes);         // s_hat
  unlock();
  g.on = true;
  EVP_PKEY_CTX* gctx = EVP_PKEY_CTX_new_from_name(fx_.libctx(), "ML-KEM-768", "provider=gpucrypto");
  ASSERT_NE(gctx, nullptr);
  ASSERT_EQ(EVP_PKEY_keygen_init(gctx), 1);
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string("seed", seed, sizeof seed), OSSL_PARAM_END};
  ASSERT_EQ(EVP_PKEY_CTX_set_params(gctx, params), 1);
  EVP_PKEY* key = nullptr;
  ASSERT_EQ(EVP_PKEY_generate(gctx, &key), 1);
  EVP_PKEY* copy = EVP_PKEY_dup(key);
  ASSERT_NE(copy, nullptr);
  EXPECT_GE(dirty_live_blocks(), 1u) << "control: the live key objects hold the seed and dk";
  static uint8_t out[MLKEM768_SECRETKEY_BYTES];
  size_t outl = 0;
  EXPECT_EQ(EVP_PKEY_get_octet_string_param(copy, OSSL_PKEY_PARAM_PRIV_KEY, out, sizeof out, &outl), 1);
  EXPECT_EQ(std::memcmp(out, dk, sizeof dk), 0);
  static uint8_t ct[MLKEM768_CIPHERTEXT_BYTES];
  decapsulate_once(fx_.libctx(), copy, ct, sizeof ct);
  EVP_PKEY_free(copy);
  EVP_PKEY_free(key);
  EVP_PKEY_CTX_free(gctx);
  expect_no_secret_left("the seed or the private key");
}

}  // namespace
