// Rijndael / AES, what is specific to Rijndael: names and sizes, rounds per
// size, and Gladman's wide-block vectors (with the 160/224-bit keys) through
// the raw key expansion. AES and wide-block known answers through setkey, the
// OpenSSL differential, the reference comparison and CTR carries for every
// implementation: cipher_contract_test.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include <cstring>

#include "ciphers/rijndael/internal.h"
#include "ciphers/rijndael/rijndael.h"
#include "platform/cpu_features.h"
#include "test/test_util.h"

namespace gpucrypto {
namespace {

using test::Bytes;
using test::hex;
using test::to_hex;

const unsigned kSizes[] = {128, 192, 256};

// ---------------------------------------------------------------------------
// Known answers: wide blocks.
struct WideVector {
  const char* source;
  unsigned block_bits, key_bits;
  const char* ct;
};

// Brian Gladman's Rijndael test set ("Correct Output (for variable block
// size)", aestst.cpp, 15/01/2002), also in Bouncy Castle's RijndaelTest.java;
// copied from test/vectors/rijndael_wide.txt. Key = the leading
// key_bits/8 bytes of e (kE), plaintext = the leading block_bits/8 bytes of
// pi (kPi). The 160- and 224-bit-key rows are extra: they exercise Nk = 5
// and 7 of the generic key expansion through the raw schedule (the
// algorithms themselves only take 128/192/256-bit keys).
constexpr const char* kE = "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfe";
constexpr const char* kPi = "3243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c8";
const WideVector kWide[] = {
    {"Gladman B=192 K=128", 192, 128, "b24d275489e82bb8f7375e0d5fcdb1f481757c538b65148a"},
    {"Gladman B=192 K=160 (extra)", 192, 160, "738dae25620d3d3beff4a037a04290d73eb33521a63ea568"},
    {"Gladman B=192 K=192", 192, 192, "725ae43b5f3161de806a7c93e0bca93c967ec1ae1b71e1cf"},
    {"Gladman B=192 K=224 (extra)", 192, 224, "bbfc14180afbf6a36382a061843f0b63e769acdc98769130"},
    {"Gladman B=192 K=256", 192, 256, "0ebacf199e3315c2e34b24fcc7c46ef4388aa475d66c194c"},
    {"Gladman B=256 K=128", 256, 128,
     "7d15479076b69a46ffb3b3beae97ad8313f622f67fedb487de9f06b9ed9c8f19"},
    {"Gladman B=256 K=160 (extra)", 256, 160,
     "514f93fb296b5ad16aa7df8b577abcbd484decacccc7fb1f18dc567309ceeffd"},
    {"Gladman B=256 K=192", 256, 192,
     "5d7101727bb25781bf6715b0e6955282b9610e23a43c2eb062699f0ebf5887b2"},
    {"Gladman B=256 K=224 (extra)", 256, 224,
     "d56c5a63627432579e1dd308b2c8f157b40a4bfb56fea1377b25d3ed3d6dbf80"},
    {"Gladman B=256 K=256", 256, 256,
     "a49406115dfb30a40418aafa4869b7c6a886ff31602a7dd19c889dc64f7e4e7a"},
};

// 64-byte aligned, zeroed raw schedule.
struct RawSched {
  alignas(64) rijndael_impl::KeySched ks{};
};

// The generic key expansion written straight into the schedule every
// implementation of the block size reads (the 128/192/256-bit keys through
// setkey: cipher_contract_test's known answers).
TEST(Rijndael, WideBlockKnownAnswersThroughRawSchedule) {
  for (const auto& v : kWide) {
    const Bytes key = hex(std::string(kE, v.key_bits / 4)), pt = hex(std::string(kPi, v.block_bits / 4)),
                ct = hex(v.ct);
    // The algorithm for this block size; only its hooks are used.
    const CipherAlgo& algo = rijndael(v.block_bits, 128);
    ASSERT_EQ(algo.block_bytes, pt.size());
    for (const CipherHw* hw : test::runnable_impls(algo)) {
      SCOPED_TRACE(std::string(v.source) + " " + hw->name);
      RawSched s;
      rijndael_impl::expand_key(&s.ks, v.block_bits / 32, key.data(), key.size());
      Bytes out(pt.size());
      hw->encrypt(&s.ks, pt.data(), out.data(), 1);
      EXPECT_EQ(to_hex(out), to_hex(ct));
      hw->decrypt(&s.ks, ct.data(), out.data(), 1);
      EXPECT_EQ(to_hex(out), to_hex(pt));
    }
  }
}

TEST(Rijndael, NamesAndSizes) {
  EXPECT_STREQ(aes128().name, "AES-128");
  EXPECT_STREQ(aes192().name, "AES-192");
  EXPECT_STREQ(aes256().name, "AES-256");
  EXPECT_STREQ(rijndael(192, 128).name, "RIJNDAEL-192-128");
  EXPECT_STREQ(rijndael(256, 192).name, "RIJNDAEL-256-192");
  for (unsigned b : kSizes) {
    for (unsigned k : kSizes) {
      const CipherAlgo& a = rijndael(b, k);
      EXPECT_EQ(a.block_bytes, b / 8);
      EXPECT_EQ(a.key_bytes, k / 8);
    }
  }
  EXPECT_THROW(rijndael(160, 128), std::invalid_argument);
  EXPECT_THROW(rijndael(128, 64), std::invalid_argument);
}

TEST(Rijndael, RoundsPerSize) {
  // Nr = max(Nb, Nk) + 6.
  const unsigned expected[3][3] = {{10, 12, 14}, {12, 12, 14}, {14, 14, 14}};
  for (int b = 0; b < 3; ++b) {
    for (int k = 0; k < 3; ++k) {
      RawSched s;
      const Bytes key(kSizes[k] / 8, 0x5a);
      rijndael_impl::expand_key(&s.ks, kSizes[b] / 32, key.data(), key.size());
      EXPECT_EQ(s.ks.nr, expected[b][k]) << kSizes[b] << "/" << kSizes[k];
    }
  }
}

// The AES-NI key setup (the aesni and vaes512 implementations' setkey) writes
// exactly the schedule of the generic expansion, both directions and the
// zero padding of every row, over a schedule that held another key: the
// implementations share schedules, so any difference is a wrong key.
TEST(Rijndael, AesniKeySetupIsTheGenericSchedule) {
  if ((rijndael_impl::kAesAesniHw.required & ~cpu_features_detected()) != 0)
    GTEST_SKIP() << "no AES-NI on this CPU";
  for (unsigned bits : kSizes) {
    for (int trial = 0; trial < 64; ++trial) {
      const Bytes key = test::random_bytes(bits / 8);
      RawSched want, got;
      rijndael_impl::setkey_nb4(&want.ks, key.data(), key.size(), true);
      std::memset(&got.ks, 0xa5, sizeof got.ks);  // a previous key's leftovers
      rijndael_impl::setkey_aesni(&got.ks, key.data(), key.size(), true);
      // Every field (the struct's tail padding is not written: the caller
      // zeroes the storage before setkey, the hook contract).
      ASSERT_EQ(std::memcmp(want.ks.enc, got.ks.enc, sizeof want.ks.enc), 0) << bits << "-bit key " << to_hex(key);
      ASSERT_EQ(std::memcmp(want.ks.dec, got.ks.dec, sizeof want.ks.dec), 0) << bits << "-bit key " << to_hex(key);
      ASSERT_EQ(got.ks.nb, 4u);
      ASSERT_EQ(got.ks.nr, want.ks.nr);
    }
  }
}

}  // namespace
}  // namespace gpucrypto
