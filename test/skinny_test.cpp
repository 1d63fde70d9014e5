// SKINNY-128-256 / -384: the designers' known-answer vectors on every
// implementation, the S-box circuit against the published table, every SIMD
// path against the reference over all batch/tail lengths, misaligned and in
// place, and CTR counters at every carry boundary.
#include "ciphers/skinny/skinny.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "platform/cpu_features.h"
#include "ciphers/skinny/ref.h"
#include "test/test_util.h"

namespace gpucrypto {
namespace {

using test::Bytes;
using test::hex;
using test::KeySchedule;
using test::to_hex;

// S8, the 8-bit S-box of SKINNY-128 (Beierle et al., ePrint 2016/660,
// Section 2.3) as a table, copied from the Romulus NIST-LWC submission code
// (skinny_main.c, NEC 2020). Row = high nibble.
constexpr uint8_t kSbox8[256] = {
    0x65, 0x4c, 0x6a, 0x42, 0x4b, 0x63, 0x43, 0x6b, 0x55, 0x75, 0x5a, 0x7a, 0x53, 0x73, 0x5b, 0x7b,
    0x35, 0x8c, 0x3a, 0x81, 0x89, 0x33, 0x80, 0x3b, 0x95, 0x25, 0x98, 0x2a, 0x90, 0x23, 0x99, 0x2b,
    0xe5, 0xcc, 0xe8, 0xc1, 0xc9, 0xe0, 0xc0, 0xe9, 0xd5, 0xf5, 0xd8, 0xf8, 0xd0, 0xf0, 0xd9, 0xf9,
    0xa5, 0x1c, 0xa8, 0x12, 0x1b, 0xa0, 0x13, 0xa9, 0x05, 0xb5, 0x0a, 0xb8, 0x03, 0xb0, 0x0b, 0xb9,
    0x32, 0x88, 0x3c, 0x85, 0x8d, 0x34, 0x84, 0x3d, 0x91, 0x22, 0x9c, 0x2c, 0x94, 0x24, 0x9d, 0x2d,
    0x62, 0x4a, 0x6c, 0x45, 0x4d, 0x64, 0x44, 0x6d, 0x52, 0x72, 0x5c, 0x7c, 0x54, 0x74, 0x5d, 0x7d,
    0xa1, 0x1a, 0xac, 0x15, 0x1d, 0xa4, 0x14, 0xad, 0x02, 0xb1, 0x0c, 0xbc, 0x04, 0xb4, 0x0d, 0xbd,
    0xe1, 0xc8, 0xec, 0xc5, 0xcd, 0xe4, 0xc4, 0xed, 0xd1, 0xf1, 0xdc, 0xfc, 0xd4, 0xf4, 0xdd, 0xfd,
    0x36, 0x8e, 0x38, 0x82, 0x8b, 0x30, 0x83, 0x39, 0x96, 0x26, 0x9a, 0x28, 0x93, 0x20, 0x9b, 0x29,
    0x66, 0x4e, 0x68, 0x41, 0x49, 0x60, 0x40, 0x69, 0x56, 0x76, 0x58, 0x78, 0x50, 0x70, 0x59, 0x79,
    0xa6, 0x1e, 0xaa, 0x11, 0x19, 0xa3, 0x10, 0xab, 0x06, 0xb6, 0x08, 0xba, 0x00, 0xb3, 0x09, 0xbb,
    0xe6, 0xce, 0xea, 0xc2, 0xcb, 0xe3, 0xc3, 0xeb, 0xd6, 0xf6, 0xda, 0xfa, 0xd3, 0xf3, 0xdb, 0xfb,
    0x31, 0x8a, 0x3e, 0x86, 0x8f, 0x37, 0x87, 0x3f, 0x92, 0x21, 0x9e, 0x2e, 0x97, 0x27, 0x9f, 0x2f,
    0x61, 0x48, 0x6e, 0x46, 0x4f, 0x67, 0x47, 0x6f, 0x51, 0x71, 0x5e, 0x7e, 0x57, 0x77, 0x5f, 0x7f,
    0xa2, 0x18, 0xae, 0x16, 0x1f, 0xa7, 0x17, 0xaf, 0x01, 0xb2, 0x0e, 0xbe, 0x07, 0xb7, 0x0f, 0xbf,
    0xe2, 0xca, 0xee, 0xc6, 0xcf, 0xe7, 0xc7, 0xef, 0xd2, 0xf2, 0xde, 0xfe, 0xd7, 0xf7, 0xdf, 0xff,
};

// Beierle et al., "The SKINNY Family of Block Ciphers and its Low-Latency
// Variant MANTIS", CRYPTO 2016, full version ePrint 2016/660, Appendix B.2
// (via ../shared/vectors/skinny.txt). Tweakey = TK1 || TK2 [|| TK3].
struct Kat {
  const char* tweakey;
  const char* plaintext;
  const char* ciphertext;
};
constexpr Kat kSkinny256Kat = {"009cec81605d4ac1d2ae9e3085d7a1f31ac123ebfc00fddcf01046ceeddfcab3",
                               "3a0c47767a26a68dd382a695e7022e25",
                               "b731d98a4bde147a7ed4a6f16b9b587f"};
constexpr Kat kSkinny384Kat = {
    "df889548cfc7ea52d296339301797449ab588a34a47f1ab2dfe9c8293fbea9a5"
    "ab1afac2611012cd8cef952618c3ebe8",
    "a3994b66ad85a3459f44e92b08f550cb", "94ecf589e2017c601b38c6346a10dcfa"};

// Every implementation this build should have, best first; a missing one is a
// test failure, one the CPU cannot run is skipped.
const char* const kImplNames[] = {"avx512", "avx2", "ref"};

bool runnable(const CipherHw& hw) { return (hw.required & ~cpu_features_detected()) == 0; }

const CipherHw& ref_of(const CipherAlgo& algo) {
  const CipherHw* hw = find_hw(algo, "ref");
  if (hw == nullptr) throw std::runtime_error("no ref");
  return *hw;
}

TEST(SkinnyAlgo, Descriptors) {
  const CipherAlgo& a = skinny128_256();
  EXPECT_STREQ(a.name, "SKINNY-128-256");
  EXPECT_EQ(a.block_bytes, 16u);
  EXPECT_EQ(a.key_bytes, 32u);
  const CipherAlgo& b = skinny128_384();
  EXPECT_STREQ(b.name, "SKINNY-128-384");
  EXPECT_EQ(b.block_bytes, 16u);
  EXPECT_EQ(b.key_bytes, 48u);
  for (const CipherAlgo* algo : {&a, &b}) {
    ASSERT_FALSE(algo->impls.empty());
    EXPECT_STREQ(algo->impls.back()->name, "ref");
    EXPECT_EQ(algo->impls.back()->required, 0u);
    EXPECT_EQ(&select_hw(*algo, 0), algo->impls.back());
    for (const CipherHw* hw : algo->impls) {
      EXPECT_GE(hw->ks_bytes, skinny_impl::kScheduleBytes) << hw->name;
      EXPECT_LE(hw->ks_bytes, 65536u) << hw->name;
    }
  }
  // An AVX2 path must stay selectable under the "avx2" backend cap.
  const CipherHw* avx2 = find_hw(a, "avx2");
  ASSERT_NE(avx2, nullptr);
  EXPECT_EQ(avx2->required & kAVX512Family, 0u);
  EXPECT_EQ(&select_hw(a, kAllFeatures & ~kAVX512Family), avx2);
}

TEST(SkinnySbox, RefCircuitMatchesPublishedTable) {
  for (int x = 0; x < 256; ++x) {
    EXPECT_EQ(skinny_impl::ref_sbox(uint8_t(x)), kSbox8[x]) << x;
    EXPECT_EQ(skinny_impl::ref_sbox_inv(kSbox8[x]), x) << x;
  }
}

class SkinnyImpl : public ::testing::TestWithParam<std::tuple<int, const char*>> {
 protected:
  void SetUp() override {
    algo_ = std::get<0>(GetParam()) == 256 ? &skinny128_256() : &skinny128_384();
    hw_ = find_hw(*algo_, std::get<1>(GetParam()));
    ASSERT_NE(hw_, nullptr) << "implementation not registered";
    if (!runnable(*hw_)) GTEST_SKIP() << "CPU lacks " << hw_->name;
  }
  const Kat& kat() const { return algo_->key_bytes == 32 ? kSkinny256Kat : kSkinny384Kat; }
  const CipherAlgo* algo_ = nullptr;
  const CipherHw* hw_ = nullptr;
};

TEST_P(SkinnyImpl, KnownAnswer) {
  const Bytes key = hex(kat().tweakey), pt = hex(kat().plaintext), ct = hex(kat().ciphertext);
  EXPECT_EQ(to_hex(test::ecb_encrypt(*algo_, *hw_, key, pt)), kat().ciphertext);
  EXPECT_EQ(to_hex(test::ecb_decrypt(*algo_, *hw_, key, ct)), kat().plaintext);
  // The same block at every position of several batches (SIMD lanes/slots).
  const size_t n = 3 * hw_->batch_blocks + 1;
  Bytes many_pt, many_ct;
  for (size_t i = 0; i < n; ++i) {
    many_pt.insert(many_pt.end(), pt.begin(), pt.end());
    many_ct.insert(many_ct.end(), ct.begin(), ct.end());
  }
  EXPECT_EQ(test::ecb_encrypt(*algo_, *hw_, key, many_pt), many_ct);
  EXPECT_EQ(test::ecb_decrypt(*algo_, *hw_, key, many_ct), many_pt);
}

// One schedule layout for every impl: an encrypt-only schedule decrypts too
// (the provider may set up with_decrypt=false for CTR and ECB encryption).
TEST_P(SkinnyImpl, EncryptOnlyScheduleAndRoundTrip) {
  const Bytes key = test::random_bytes(algo_->key_bytes);
  const size_t n = 2 * hw_->batch_blocks + 3;
  const Bytes pt = test::random_bytes(16 * n);
  KeySchedule ks(*hw_, key, false);
  Bytes ct(pt.size()), back(pt.size());
  hw_->encrypt(ks.get(), pt.data(), ct.data(), n);
  EXPECT_NE(ct, pt);
  hw_->decrypt(ks.get(), ct.data(), back.data(), n);
  EXPECT_EQ(back, pt);
}

// ECB and CTR against the reference over every block count 0..3*batch+1,
// from misaligned buffers, out of place and in place.
TEST_P(SkinnyImpl, MatchesRefAllLengthsMisalignedInPlace) {
  const CipherHw& ref = ref_of(*algo_);
  const size_t max_n = 3 * hw_->batch_blocks + 1;
  for (int trial = 0; trial < 2; ++trial) {
    const Bytes key = test::random_bytes(algo_->key_bytes);
    const Bytes data = test::random_bytes(16 * max_n);
    Bytes iv = test::random_bytes(16);
    KeySchedule rks(ref, key), ks(*hw_, key);
    Bytes ref_ct(data.size()), ref_pt(data.size()), ref_ctr(data.size());
    ref.encrypt(rks.get(), data.data(), ref_ct.data(), max_n);
    ref.decrypt(rks.get(), data.data(), ref_pt.data(), max_n);
    Bytes ctr_end = iv;
    ref.ctr(rks.get(), ctr_end.data(), data.data(), ref_ctr.data(), max_n);
    // ECB is blockwise and CTR a prefix of one keystream: a run of n blocks
    // must equal the first n blocks of the full reference run.
    std::vector<uint8_t> inbuf(16 * max_n + 64), outbuf(16 * max_n + 64);
    for (size_t n = 0; n <= max_n; ++n) {
      const size_t bytes = 16 * n;
      const size_t ia = 1 + n % 61, oa = 3 + n % 29;  // odd offsets: never aligned
      uint8_t* in = inbuf.data() + ia;
      uint8_t* out = outbuf.data() + oa;
      std::memcpy(in, data.data(), bytes);
      hw_->encrypt(ks.get(), in, out, n);
      ASSERT_EQ(0, std::memcmp(out, ref_ct.data(), bytes)) << "encrypt n=" << n;
      hw_->decrypt(ks.get(), in, out, n);
      ASSERT_EQ(0, std::memcmp(out, ref_pt.data(), bytes)) << "decrypt n=" << n;
      Bytes ctr = iv;
      hw_->ctr(ks.get(), ctr.data(), in, out, n);
      ASSERT_EQ(0, std::memcmp(out, ref_ctr.data(), bytes)) << "ctr n=" << n;
      Bytes expect_ctr = iv;
      ctr_add(expect_ctr.data(), 16, n);
      ASSERT_EQ(to_hex(ctr), to_hex(expect_ctr)) << "ctr n=" << n;
      // In place.
      hw_->encrypt(ks.get(), in, in, n);
      ASSERT_EQ(0, std::memcmp(in, ref_ct.data(), bytes)) << "in-place encrypt n=" << n;
      std::memcpy(in, data.data(), bytes);
      hw_->decrypt(ks.get(), in, in, n);
      ASSERT_EQ(0, std::memcmp(in, ref_pt.data(), bytes)) << "in-place decrypt n=" << n;
      std::memcpy(in, data.data(), bytes);
      ctr = iv;
      hw_->ctr(ks.get(), ctr.data(), in, in, n);
      ASSERT_EQ(0, std::memcmp(in, ref_ctr.data(), bytes)) << "in-place ctr n=" << n;
    }
    // The reference itself advanced the counter by max_n.
    Bytes expect_end = iv;
    ctr_add(expect_end.data(), 16, max_n);
    EXPECT_EQ(to_hex(ctr_end), to_hex(expect_end));
  }
}

// CTR with counters about to carry out of the low byte, the low 32 and 64
// bits, and out of the whole block (ff..ff wraps to 00..00), against the
// reference keystream computed block by block from explicit counter blocks.
TEST_P(SkinnyImpl, CtrCarriesAndWrap) {
  const CipherHw& ref = ref_of(*algo_);
  const char* const starts[] = {
      "0123456789abcdef0123456789abcdf0",  // low byte ...f0
      "0123456789abcdef01234567fffffff0",  // low 32 bits
      "0123456789abcdeffffffffffffffff0",  // low 64 bits, in the first batch
      "0123456789abcdefffffffffffffff38",  // low 64 bits, 200 blocks in
      "0123456789abcdefffffffffffffff00",  // low 64 bits, at a batch boundary
      "fffffffffffffffffffffffffffffff0",  // whole block wraps
      "ffffffffffffffffffffffffffffff81",
  };
  const Bytes key = test::random_bytes(algo_->key_bytes);
  KeySchedule rks(ref, key), ks(*hw_, key);
  const size_t n = 3 * hw_->batch_blocks + 1;
  const Bytes data = test::random_bytes(16 * n);
  for (const char* s : starts) {
    // Explicit counter blocks c, c+1, ... (test-side carry, byte by byte).
    Bytes counters;
    Bytes c = hex(s);
    for (size_t i = 0; i < n; ++i) {
      counters.insert(counters.end(), c.begin(), c.end());
      for (int j = 15; j >= 0 && ++c[size_t(j)] == 0; --j) {
      }
    }
    Bytes keystream(counters.size());
    ref.encrypt(rks.get(), counters.data(), keystream.data(), n);
    Bytes expect(data.size());
    for (size_t i = 0; i < data.size(); ++i) expect[i] = data[i] ^ keystream[i];

    Bytes ctr = hex(s), out(data.size());
    hw_->ctr(ks.get(), ctr.data(), data.data(), out.data(), n);
    EXPECT_EQ(to_hex(out), to_hex(expect)) << s;
    EXPECT_EQ(to_hex(ctr), to_hex(c)) << s;
    // The same stream in uneven pieces continues the counter exactly.
    Bytes ctr2 = hex(s), out2(data.size());
    size_t done = 0;
    for (size_t piece : {size_t(5), hw_->batch_blocks + 2, size_t(1), n}) {
      const size_t m = std::min(piece, n - done);
      hw_->ctr(ks.get(), ctr2.data(), data.data() + 16 * done, out2.data() + 16 * done, m);
      done += m;
    }
    EXPECT_EQ(to_hex(out2), to_hex(expect)) << s;
    EXPECT_EQ(to_hex(ctr2), to_hex(c)) << s;
  }
}

std::string param_name(const ::testing::TestParamInfo<SkinnyImpl::ParamType>& info) {
  std::string name = std::string("skinny") + std::to_string(std::get<0>(info.param)) + "_" +
                     std::get<1>(info.param);
  for (char& ch : name) {
    if (ch == '-') ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(All, SkinnyImpl,
                         ::testing::Combine(::testing::Values(256, 384),
                                            ::testing::ValuesIn(kImplNames)),
                         param_name);

}  // namespace
}  // namespace gpucrypto
