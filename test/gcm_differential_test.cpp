// AES-GCM against OpenSSL's default provider, with every back end forced
// (ref, avx2, avx512 caps in turn): random keys, IV lengths 1, 8, 12, 16, 60,
// 128, AAD and plaintext lengths 0 ... 5000 and 3 MiB (across the pool),
// random splits of AAD and data, tag lengths 1 ... 16, in place, decryption
// of the other provider's output, and wrong tags (both fail in final after
// releasing the same bytes from update).
#include <gtest/gtest.h>

#include <random>

#include "test/gcm_util.h"

namespace gpucrypto::test {
namespace {

constexpr const char* kAes[] = {"AES-128-GCM", "AES-192-GCM", "AES-256-GCM"};
constexpr size_t kIvLens[] = {1, 8, 12, 16, 60, 128};

std::vector<size_t> random_pieces(std::mt19937_64& rng, size_t total) {
  std::vector<size_t> v;
  if (rng() % 3 == 0) return v;  // one piece
  size_t at = 0;
  while (at < total) {
    const size_t n = rng() % 4 == 0 ? rng() % 17 : rng() % (total - at + 1);
    v.push_back(n);
    at += n;
  }
  return v;
}

size_t random_len(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0: return rng() % 33;
    case 1: return rng() % 600;
    default: return rng() % 5001;
  }
}

// One message both ways through both providers.
void compare(OSSL_LIB_CTX* lib, const char* name, GcmMessage m, std::mt19937_64& rng,
             const std::string& what) {
  SCOPED_TRACE(what);
  const GcmResult ref = evp_gcm(lib, name, "provider=default", true, m);
  ASSERT_TRUE(ref.init_ok && ref.updates_ok && ref.final_ok);
  const GcmResult ours = evp_gcm(lib, name, "provider=gpucrypto", true, m);
  ASSERT_TRUE(ours.init_ok && ours.updates_ok && ours.final_ok);
  ASSERT_EQ(ours.out, ref.out);
  ASSERT_EQ(to_hex(ours.tag), to_hex(ref.tag));
  ASSERT_EQ(ref.tag.size(), m.taglen);
  // Decrypt each other's output, with fresh splits.
  GcmMessage d = m;
  d.in = ref.out;
  d.tag = ref.tag;
  d.aad_pieces = random_pieces(rng, d.aad.size());
  d.data_pieces = random_pieces(rng, d.in.size());
  d.in_place = rng() % 2 == 0;
  for (const char* pq : {"provider=gpucrypto", "provider=default"}) {
    const GcmResult r = evp_gcm(lib, name, pq, false, d);
    ASSERT_TRUE(r.init_ok && r.updates_ok && r.final_ok) << pq;
    ASSERT_EQ(r.out, m.in) << pq;
  }
  // A wrong tag: update releases the same bytes, final fails on both.
  d.tag[rng() % d.tag.size()] ^= uint8_t(1u << (rng() % 8));
  const GcmResult bad_ours = evp_gcm(lib, name, "provider=gpucrypto", false, d);
  const GcmResult bad_ref = evp_gcm(lib, name, "provider=default", false, d);
  EXPECT_EQ(bad_ours.updates_ok, bad_ref.updates_ok);
  EXPECT_FALSE(bad_ours.final_ok);
  EXPECT_FALSE(bad_ref.final_ok);
  EXPECT_EQ(bad_ours.out.size(), bad_ref.out.size());
  EXPECT_EQ(bad_ours.out, bad_ref.out);
}

class GcmDifferential : public ::testing::TestWithParam<const char*> {};

TEST_P(GcmDifferential, RandomMessages) {
  BackendFixture b(GetParam());
  ASSERT_TRUE(b.fx().ok());
  std::mt19937_64 rng(0x6763'6d00u + uint64_t(GetParam()[1]));
  const int trials = std::string(GetParam()) == "ref" ? 60 : 200;
  for (int t = 0; t < trials; ++t) {
    const char* name = kAes[rng() % 3];
    GcmMessage m;
    m.key = random_bytes(std::string(name) == "AES-128-GCM" ? 16 : std::string(name) == "AES-192-GCM" ? 24 : 32);
    m.iv = random_bytes(kIvLens[rng() % std::size(kIvLens)]);
    m.aad = random_bytes(random_len(rng));
    m.in = random_bytes(random_len(rng));
    m.taglen = 1 + rng() % 16;
    m.aad_pieces = random_pieces(rng, m.aad.size());
    m.data_pieces = random_pieces(rng, m.in.size());
    m.in_place = rng() % 2 == 0;
    compare(b.fx().libctx(), name, m, rng,
            std::string(name) + " iv " + std::to_string(m.iv.size()) + " aad " + std::to_string(m.aad.size()) +
                " pt " + std::to_string(m.in.size()) + " trial " + std::to_string(t));
    if (HasFatalFailure()) return;
  }
}

// Every length 0 ... 300 (all partial-block positions, the fused kernel's
// 8- and 32-block edges) with the AAD one byte longer.
TEST_P(GcmDifferential, EveryShortLength) {
  BackendFixture b(GetParam());
  ASSERT_TRUE(b.fx().ok());
  std::mt19937_64 rng(7);
  for (size_t n = 0; n <= 300; ++n) {
    GcmMessage m{random_bytes(16), random_bytes(12), random_bytes(n + 1), random_bytes(n), {}, 16, {}, {}, false};
    compare(b.fx().libctx(), "AES-128-GCM", m, rng, "length " + std::to_string(n));
    if (HasFatalFailure()) return;
  }
}

// 3 MiB (the pool: above the 1 MiB mt_min_bytes), one update and random
// splits, and AAD of 3 MiB; the served counter moves by one record per message.
TEST_P(GcmDifferential, ThreeMebibytes) {
  BackendFixture b(GetParam());
  ASSERT_TRUE(b.fx().ok());
  std::mt19937_64 rng(3);
  for (int t = 0; t < 3; ++t) {
    GcmMessage m{random_bytes(32), random_bytes(t == 1 ? 60 : 12), random_bytes(t == 2 ? 3 << 20 : 13),
                 random_bytes((3 << 20) + 5 * t), {}, 16, {}, {}, t == 1};
    if (t == 1) m.data_pieces = {1, 1 << 20, 3, 1 << 20};
    const auto before = gcm_served(b.fx().provider());
    compare(b.fx().libctx(), "AES-256-GCM", m, rng, "3 MiB trial " + std::to_string(t));
    const auto after = gcm_served(b.fx().provider());
    EXPECT_EQ(after.first - before.first, 2u) << "our encryption and decryption; not the failed one";
    EXPECT_EQ(after.second - before.second, 2 * m.in.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, GcmDifferential, ::testing::ValuesIn(kBackends),
                         [](const auto& i) { return std::string(i.param); });

}  // namespace
}  // namespace gpucrypto::test
