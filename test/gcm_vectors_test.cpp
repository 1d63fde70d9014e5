// GCM known answers (GCM specification test cases 1-6, 13-16; RFC 8998 A.1
// SM4-GCM, from test/vectors/modes.txt) on every implementation: each
// block-cipher implementation x each GHASH implementation the CPU runs, the
// fused AES-GCM kernels, in one piece and byte by byte, encrypt and decrypt
// with the tag check; then through EVP with every back end forced. Also the
// GHASH implementations against the reference for every block count around
// their batch sizes, and the pool's chunk combination.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstring>
#include <random>

#include "ciphers/gcm/gcm_mode.h"
#include "ciphers/ghash/ghash.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/sm4/sm4.h"
#include "engine/dispatcher.h"
#include "platform/cpu_features.h"
#include "test/gcm_util.h"

namespace gpucrypto::test {
namespace {

const CipherAlgo& algo_of(const std::string& cipher) {
  if (cipher == "SM4-GCM") return sm4();
  if (cipher == "AES-192-GCM") return aes192();
  return cipher == "AES-128-GCM" ? aes128() : aes256();
}

struct Combo {
  const char* block;  // nullptr: best
  const char* ghash;  // nullptr: best
  bool fused;
  std::string label;
};

std::vector<Combo> combos(const CipherAlgo& a) {
  std::vector<Combo> v;
  const uint32_t f = cpu_features_detected();
  for (const CipherHw* b : runnable_impls(a)) {
    for (const GhashHw* g : ghash_impls()) {
      if ((g->required & ~f) != 0) continue;
      v.push_back({b->name, g->name, false, std::string(b->name) + "+" + g->name});
    }
  }
  for (const AesGcmHw* x : aes_gcm_impls()) {
    if ((x->required & ~f) == 0) v.push_back({nullptr, nullptr, true, x->name});
  }
  return v;
}

// One message through gcm_mode in pieces of `step` bytes (0: one piece).
Bytes run(GcmKey& k, const GcmVector& t, bool enc, size_t step, Bytes* tag) {
  GcmState s;
  gcm_set_iv(k, &s, t.iv.data(), t.iv.size());
  for (size_t i = 0; i < t.aad.size(); i += step ? step : t.aad.size())
    EXPECT_EQ(gcm_aad(k, &s, t.aad.data() + i, std::min(step ? step : t.aad.size(), t.aad.size() - i)), 0);
  Bytes out = enc ? t.pt : t.ct;
  for (size_t i = 0; i < out.size(); i += step ? step : out.size())
    EXPECT_EQ(gcm_crypt(k, &s, out.data() + i, out.data() + i, std::min(step ? step : out.size(), out.size() - i), enc), 0);
  tag->resize(16);
  gcm_tag(k, &s, tag->data());
  return out;
}

TEST(GcmVectors, EveryImplementation) {
  const auto vs = gcm_vectors();
  ASSERT_EQ(vs.size(), 11u) << "modes.txt: GCM test cases 1-6, 13-16 and RFC 8998 A.1";
  const uint32_t f = cpu_features_detected();
  size_t checked = 0;
  for (const GcmVector& t : vs) {
    const CipherAlgo& a = algo_of(t.cipher);
    for (const Combo& c : combos(a)) {
      if (c.fused && t.cipher == "SM4-GCM") continue;
      SCOPED_TRACE(t.name + " on " + c.label);
      GcmKey k;
      ASSERT_TRUE(gcm_set_key(&k, a, f, t.key.data(), c.block, c.ghash, c.fused));
      if (c.fused) {
        ASSERT_NE(k.fused, nullptr);
      }
      for (size_t step : {size_t(0), size_t(1), size_t(7), size_t(16), size_t(17)}) {
        Bytes tag;
        EXPECT_EQ(to_hex(run(k, t, true, step, &tag)), to_hex(t.ct));
        EXPECT_EQ(to_hex(tag), to_hex(t.tag));
        EXPECT_EQ(to_hex(run(k, t, false, step, &tag)), to_hex(t.pt));
        EXPECT_EQ(to_hex(tag), to_hex(t.tag));
      }
      GcmState s;
      gcm_set_iv(k, &s, t.iv.data(), t.iv.size());
      gcm_aad(k, &s, t.aad.data(), t.aad.size());
      Bytes pt(t.ct.size());
      gcm_crypt(k, &s, t.ct.data(), pt.data(), pt.size(), false);
      Bytes bad = t.tag;
      bad[15] ^= 1;
      GcmState s2 = s;
      EXPECT_TRUE(gcm_check_tag(k, &s, t.tag.data(), 16));
      EXPECT_FALSE(gcm_check_tag(k, &s2, bad.data(), 16));
      ++checked;
    }
  }
  EXPECT_GE(checked, 11u);
}

// A key set with its message's IV (gcm_set_key_iv: E_K(J0) made in the key
// expansion's pass) gives the known answers for that IV, again for the same
// IV (decryption), and for other IVs under the same key (the kept E_K(J0)
// must not be used for them); a new key without an IV forgets it.
TEST(GcmVectors, KeyWithIv) {
  const auto vs = gcm_vectors();
  const uint32_t f = cpu_features_detected();
  size_t checked = 0;
  for (const GcmVector& t : vs) {
    SCOPED_TRACE(t.name);
    const CipherAlgo& a = algo_of(t.cipher);
    GcmKey k;
    ASSERT_TRUE(gcm_set_key_iv(&k, a, f, t.key.data(), t.iv.data(), t.iv.size()));
    EXPECT_EQ(k.has_ek0, t.iv.size() == 12 && k.gcm != nullptr);
    Bytes tag;
    EXPECT_EQ(to_hex(run(k, t, true, 0, &tag)), to_hex(t.ct));
    EXPECT_EQ(to_hex(tag), to_hex(t.tag));
    EXPECT_EQ(to_hex(run(k, t, false, 7, &tag)), to_hex(t.pt));
    EXPECT_EQ(to_hex(tag), to_hex(t.tag));
    // Another IV under this key: the reference path's answer.
    GcmVector other = t;
    other.iv[0] ^= 0x80;
    GcmKey ref;
    ASSERT_TRUE(gcm_set_key(&ref, a, f, t.key.data(), "ref", "ref", false));
    Bytes tag_ref;
    const Bytes ct_ref = run(ref, other, true, 0, &tag_ref);
    EXPECT_EQ(to_hex(run(k, other, true, 0, &tag)), to_hex(ct_ref));
    EXPECT_EQ(to_hex(tag), to_hex(tag_ref));
    // A new key set without an IV, then the first IV: no E_K(J0) of the old key.
    const Bytes key2 = random_bytes(a.key_bytes);
    ASSERT_TRUE(gcm_set_key(&k, a, f, key2.data()));
    EXPECT_FALSE(k.has_ek0);
    ASSERT_TRUE(gcm_set_key(&ref, a, f, key2.data(), "ref", "ref", false));
    EXPECT_EQ(to_hex(run(k, t, true, 0, &tag)), to_hex(run(ref, t, true, 0, &tag_ref)));
    EXPECT_EQ(to_hex(tag), to_hex(tag_ref));
    ++checked;
  }
  EXPECT_EQ(checked, 11u);
}

TEST(GcmVectors, EvpEveryBackend) {
  for (const char* backend : kBackends) {
    BackendFixture b(backend);
    ASSERT_TRUE(b.fx().ok());
    const auto before = gcm_served(b.fx().provider());
    size_t n = 0;
    for (const GcmVector& t : gcm_vectors()) {
      SCOPED_TRACE(t.name + " backend " + backend);
      GcmMessage m{t.key, t.iv, t.aad, t.pt, {}, 16, {}, {}, false};
      GcmResult e = evp_gcm(b.fx().libctx(), t.cipher.c_str(), "provider=gpucrypto", true, m);
      ASSERT_TRUE(e.init_ok && e.updates_ok && e.final_ok);
      EXPECT_EQ(to_hex(e.out), to_hex(t.ct));
      EXPECT_EQ(to_hex(e.tag), to_hex(t.tag));
      m.in = t.ct;
      m.tag = t.tag;
      GcmResult d = evp_gcm(b.fx().libctx(), t.cipher.c_str(), "provider=gpucrypto", false, m);
      EXPECT_TRUE(d.init_ok && d.updates_ok && d.final_ok);
      EXPECT_EQ(to_hex(d.out), to_hex(t.pt));
      m.tag[0] ^= 0x80;
      d = evp_gcm(b.fx().libctx(), t.cipher.c_str(), "provider=gpucrypto", false, m);
      EXPECT_TRUE(d.updates_ok);
      EXPECT_FALSE(d.final_ok);
      n += 2;  // the failed check is not a served record
    }
    const auto after = gcm_served(b.fx().provider());
    EXPECT_EQ(after.first - before.first, n) << backend;
  }
}

// A power as the carry-less hooks keep it (ghash.h): the 128-bit
// little-endian value times x^-1, i.e. shifted left by one with 0xC2..01
// XORed in when the top bit falls out.
void twist_row(uint8_t row[16]) {
  uint64_t lo, hi;
  std::memcpy(&lo, row, 8);
  std::memcpy(&hi, row + 8, 8);
  const bool top = (hi >> 63) != 0;
  hi = hi << 1 | lo >> 63;
  lo <<= 1;
  if (top) {
    hi ^= 0xC200000000000000ull;
    lo ^= 1;
  }
  std::memcpy(row, &lo, 8);
  std::memcpy(row + 8, &hi, 8);
}

// Every GHASH implementation against the reference, 0 ... 3 batches + 1
// blocks, from a random starting value.
TEST(GcmVectors, GhashAgainstReference) {
  const uint32_t f = cpu_features_detected();
  const GhashHw* ref = find_ghash("ref");
  ASSERT_NE(ref, nullptr);
  const Bytes h = random_bytes(16), x0 = random_bytes(16), data = random_bytes(16 * 100);
  GhashKey rk;
  ref->init(&rk, h.data());
  for (const GhashHw* g : ghash_impls()) {
    if ((g->required & ~f) != 0) continue;
    GhashKey k;
    g->init(&k, h.data());
    for (uint32_t level : {1u, 2u, 4u, 5u, 8u, 16u, 17u, 32u}) {  // H^1, then each power level
      g->extend(&k, level);
      ref->extend(&rk, level);
      ASSERT_EQ(k.npowers, rk.npowers);
      ASSERT_EQ(k.npowers, ghash_power_level(level));
      // The layout: the reference's powers, twisted for the carry-less hooks.
      GhashKey want = rk;
      if (std::strcmp(g->name, "ref") != 0) {
        for (size_t i = kGhashPowers - rk.npowers; i < kGhashPowers; ++i) twist_row(want.pow[i]);
      }
      EXPECT_EQ(0, std::memcmp(k.pow[kGhashPowers - k.npowers], want.pow[kGhashPowers - rk.npowers],
                               16 * (k.npowers + 3)))
          << g->name << ": key layout (powers and zero rows), want=" << level;
      for (size_t n = 0; n <= 3 * kGhashPowers + 1; ++n) {
        Bytes a = x0, b = x0;
        ref->ghash(&rk, a.data(), data.data() + 3, n);
        g->ghash(&k, b.data(), data.data() + 3, n);
        ASSERT_EQ(to_hex(a), to_hex(b)) << g->name << " n=" << n << " want=" << level;
      }
    }
    ref->init(&rk, h.data());
    Bytes r1(16), r2(16);
    ref->mul(r1.data(), x0.data(), h.data());
    g->mul(r2.data(), x0.data(), h.data());
    EXPECT_EQ(to_hex(r1), to_hex(r2)) << g->name;
  }
}

// inc32: the counter's low word wraps without touching the upper 96 bits;
// the pool's chunks combine to the single-thread result, across such a wrap.
TEST(GcmVectors, Ctr32WrapAndPoolCombination) {
  const uint32_t f = cpu_features_detected();
  const Bytes key = random_bytes(16), data = random_bytes(16 * 20000 + 5);
  for (bool fused : {false, true}) {
    GcmKey k;
    ASSERT_TRUE(gcm_set_key(&k, aes128(), f, key.data(), nullptr, nullptr, fused));
    gcm_full_powers(k);
    Bytes ctr0(16, 0xab);
    ctr0[12] = 0xff, ctr0[13] = 0xff, ctr0[14] = 0xff, ctr0[15] = 0xf0;  // wraps after 16 blocks
    // Model: block i under counter (upper 96 bits, low word + i mod 2^32).
    Bytes model(16 * 40), cb(16);
    for (size_t i = 0; i < 40; ++i) {
      cb = ctr0;
      const uint32_t lo = 0xfffffff0u + uint32_t(i);
      cb[12] = uint8_t(lo >> 24), cb[13] = uint8_t(lo >> 16), cb[14] = uint8_t(lo >> 8), cb[15] = uint8_t(lo);
      k.hw->encrypt(k.ks, cb.data(), model.data() + 16 * i, 1);
      for (int j = 0; j < 16; ++j) model[16 * i + j] ^= data[16 * i + j];
    }
    Bytes ctr = ctr0, xi(16, 0), out(16 * 40);
    gcm_blocks(k, ctr.data(), xi.data(), data.data(), out.data(), 40, true);
    EXPECT_EQ(to_hex(out), to_hex(model));
    EXPECT_EQ(to_hex(Bytes(ctr.begin(), ctr.begin() + 12)), to_hex(Bytes(ctr0.begin(), ctr0.begin() + 12)));
    Bytes xr(16, 0);
    GhashKey rk;
    find_ghash("ref")->init(&rk, k.h);
    find_ghash("ref")->ghash(&rk, xr.data(), out.data(), 40);
    EXPECT_EQ(to_hex(xi), to_hex(xr));

    EngineConfig cfg;
    cfg.threads = 2;
    const size_t n = data.size() / 16;
    Bytes c1 = ctr0, x1(16, 7), o1(16 * n), c2 = ctr0, x2(16, 7), o2(16 * n);
    gcm_blocks(k, c1.data(), x1.data(), data.data(), o1.data(), n, true);
    dispatch_gcm(k, c2.data(), x2.data(), data.data(), o2.data(), n, true, cfg);
    EXPECT_EQ(o1, o2);
    EXPECT_EQ(to_hex(x1), to_hex(x2));
    EXPECT_EQ(to_hex(c1), to_hex(c2));
    Bytes c3 = ctr0, x3(16, 7), o3 = o1;
    dispatch_gcm(k, c3.data(), x3.data(), o3.data(), o3.data(), n, false, cfg);  // in place
    EXPECT_EQ(0, std::memcmp(o3.data(), data.data(), 16 * n));
    EXPECT_EQ(to_hex(x3), to_hex(x1));
  }
}

// GCM's AES-NI key expansion writes the encryption rows ciphers/rijndael's
// generic expansion writes (the fused and the CTR kernels read only those),
// and the H = E_K(0) it computes alongside is the reference cipher's.
TEST(GcmVectors, FastAesKeysMatchRijndael) {
  const uint32_t f = cpu_features_detected();
  if ((f & kAESNI) == 0) GTEST_SKIP() << "no AES-NI";
  for (const CipherAlgo* a : {&aes128(), &aes192(), &aes256()}) {
    for (int i = 0; i < 20; ++i) {
      const Bytes key = random_bytes(a->key_bytes);
      GcmKey k;
      ASSERT_TRUE(gcm_set_key(&k, *a, f, key.data()));
      KeySchedule ref(*find_hw(*a, "ref"), key, false);
      // enc rows: Nr + 1 rows of 32 bytes (16 used) at the start of both schedules.
      const size_t nr = a->key_bytes / 4 + 6;
      for (size_t r = 0; r <= nr; ++r) {
        EXPECT_EQ(0, std::memcmp(k.ks + 32 * r, static_cast<const uint8_t*>(ref.get()) + 32 * r, 16))
            << a->name << " row " << r;
      }
      // H = E_K(0^128), computed alongside the expansion, against the reference cipher.
      uint8_t h[16];
      const uint8_t zero[16] = {};
      find_hw(*a, "ref")->encrypt(ref.get(), zero, h, 1);
      EXPECT_EQ(to_hex(Bytes(h, h + 16)), to_hex(Bytes(k.h, k.h + 16))) << a->name;
    }
  }
}

// The fused AES-GCM kernels (which the short known answers never reach: they
// take runs of 8+ blocks once the key has all its powers) against the
// reference block cipher and GHASH, every length 0 ... 100 blocks, 255-257,
// 288 and 1000 blocks, unaligned and in place, both directions, every AES key size.
TEST(GcmVectors, FusedAgainstReference) {
  const uint32_t f = cpu_features_detected();
  if (select_aes_gcm(f) == nullptr) GTEST_SKIP() << "no fused AES-GCM kernel on this CPU";
  for (const CipherAlgo* a : {&aes128(), &aes192(), &aes256()}) {
    const Bytes key = random_bytes(a->key_bytes), data = random_bytes(16 * 1000 + 3);
    GcmKey fast, ref;
    ASSERT_TRUE(gcm_set_key(&fast, *a, f, key.data()));
    ASSERT_TRUE(gcm_set_key(&ref, *a, f, key.data(), "ref", "ref", false));
    gcm_full_powers(fast);
    ASSERT_NE(fast.fused, nullptr);
    std::vector<size_t> lens;
    for (size_t n = 0; n <= 100; ++n) lens.push_back(n);
    // Decryption holds each batch's ciphertext for the next from 256 blocks on.
    for (size_t n : {255, 256, 257, 288, 1000}) lens.push_back(n);
    for (size_t n : lens) {
      for (bool enc : {true, false}) {
        Bytes c1(16, 0x11), x1(16, 0x22), c2 = c1, x2 = x1, o1(16 * n + 3), o2 = o1;
        c1[15] = c2[15] = 0x05;
        gcm_blocks(fast, c1.data(), x1.data(), data.data() + 3, o1.data() + 3, n, enc);
        gcm_blocks(ref, c2.data(), x2.data(), data.data() + 3, o2.data() + 3, n, enc);
        ASSERT_EQ(o1, o2) << a->name << " n=" << n << " enc=" << enc;
        ASSERT_EQ(to_hex(x1), to_hex(x2)) << a->name << " n=" << n << " enc=" << enc;
        ASSERT_EQ(to_hex(c1), to_hex(c2));
        Bytes inplace(data.begin() + 3, data.begin() + 3 + 16 * n), c3(16, 0x11), x3(16, 0x22);
        c3[15] = 0x05;
        gcm_blocks(fast, c3.data(), x3.data(), inplace.data(), inplace.data(), n, enc);
        ASSERT_EQ(inplace, Bytes(o2.begin() + 3, o2.begin() + 3 + 16 * n)) << "in place n=" << n;
        ASSERT_EQ(to_hex(x3), to_hex(x2)) << "in place n=" << n;
      }
    }
  }
}

// The GFNI SM4 key schedule GCM uses is ciphers/sm4's reference schedule.
TEST(GcmVectors, FastSm4KeysMatchReference) {
  const uint32_t f = cpu_features_detected();
  if ((f & kGFNI) == 0) GTEST_SKIP() << "no GFNI";
  for (int i = 0; i < 50; ++i) {
    const Bytes key = random_bytes(16);
    GcmKey k;
    ASSERT_TRUE(gcm_set_key(&k, sm4(), f, key.data()));
    KeySchedule ref(*find_hw(sm4(), "ref"), key, true);
    EXPECT_EQ(0, std::memcmp(k.ks, ref.get(), find_hw(sm4(), "ref")->ks_bytes));
  }
}

}  // namespace
}  // namespace gpucrypto::test
