// SM4, what is specific to SM4: the descriptor and the S-box constructions
// of the SIMD paths (GFNI affine maps, AES-NI with nibble tables) over all
// 256 inputs. Known answers (GB/T 32907, the draft, OpenSSL, GmSSL), the
// reference comparison, CTR carries and the OpenSSL differential for every
// implementation: cipher_contract_test.
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "platform/cpu_features.h"
#include "ciphers/sm4/ref.h"
#include "ciphers/sm4/sbox_consts.h"
#include "ciphers/sm4/sm4.h"
#include "test/test_util.h"

namespace gpucrypto {
namespace {

using sm4_impl::kAesPostHi;
using sm4_impl::kAesPostLo;
using sm4_impl::kAesPreHi;
using sm4_impl::kAesPreLo;
using sm4_impl::kGfniPostConst;
using sm4_impl::kGfniPostMatrix;
using sm4_impl::kGfniPreConst;
using sm4_impl::kGfniPreMatrix;

// GB/T 32907-2016 section 6.2, the S-box table (row = high nibble).
constexpr uint8_t kStandardSbox[256] = {
    0xd6, 0x90, 0xe9, 0xfe, 0xcc, 0xe1, 0x3d, 0xb7, 0x16, 0xb6, 0x14, 0xc2, 0x28, 0xfb, 0x2c, 0x05,
    0x2b, 0x67, 0x9a, 0x76, 0x2a, 0xbe, 0x04, 0xc3, 0xaa, 0x44, 0x13, 0x26, 0x49, 0x86, 0x06, 0x99,
    0x9c, 0x42, 0x50, 0xf4, 0x91, 0xef, 0x98, 0x7a, 0x33, 0x54, 0x0b, 0x43, 0xed, 0xcf, 0xac, 0x62,
    0xe4, 0xb3, 0x1c, 0xa9, 0xc9, 0x08, 0xe8, 0x95, 0x80, 0xdf, 0x94, 0xfa, 0x75, 0x8f, 0x3f, 0xa6,
    0x47, 0x07, 0xa7, 0xfc, 0xf3, 0x73, 0x17, 0xba, 0x83, 0x59, 0x3c, 0x19, 0xe6, 0x85, 0x4f, 0xa8,
    0x68, 0x6b, 0x81, 0xb2, 0x71, 0x64, 0xda, 0x8b, 0xf8, 0xeb, 0x0f, 0x4b, 0x70, 0x56, 0x9d, 0x35,
    0x1e, 0x24, 0x0e, 0x5e, 0x63, 0x58, 0xd1, 0xa2, 0x25, 0x22, 0x7c, 0x3b, 0x01, 0x21, 0x78, 0x87,
    0xd4, 0x00, 0x46, 0x57, 0x9f, 0xd3, 0x27, 0x52, 0x4c, 0x36, 0x02, 0xe7, 0xa0, 0xc4, 0xc8, 0x9e,
    0xea, 0xbf, 0x8a, 0xd2, 0x40, 0xc7, 0x38, 0xb5, 0xa3, 0xf7, 0xf2, 0xce, 0xf9, 0x61, 0x15, 0xa1,
    0xe0, 0xae, 0x5d, 0xa4, 0x9b, 0x34, 0x1a, 0x55, 0xad, 0x93, 0x32, 0x30, 0xf5, 0x8c, 0xb1, 0xe3,
    0x1d, 0xf6, 0xe2, 0x2e, 0x82, 0x66, 0xca, 0x60, 0xc0, 0x29, 0x23, 0xab, 0x0d, 0x53, 0x4e, 0x6f,
    0xd5, 0xdb, 0x37, 0x45, 0xde, 0xfd, 0x8e, 0x2f, 0x03, 0xff, 0x6a, 0x72, 0x6d, 0x6c, 0x5b, 0x51,
    0x8d, 0x1b, 0xaf, 0x92, 0xbb, 0xdd, 0xbc, 0x7f, 0x11, 0xd9, 0x5c, 0x41, 0x1f, 0x10, 0x5a, 0xd8,
    0x0a, 0xc1, 0x31, 0x88, 0xa5, 0xcd, 0x7b, 0xbd, 0x2d, 0x74, 0xd0, 0x12, 0xb8, 0xe5, 0xb4, 0xb0,
    0x89, 0x69, 0x97, 0x4a, 0x0c, 0x96, 0x77, 0x7e, 0x65, 0xb9, 0xf1, 0x09, 0xc5, 0x6e, 0xc6, 0x84,
    0x18, 0xf0, 0x7d, 0xec, 0x3a, 0xdc, 0x4d, 0x20, 0x79, 0xee, 0x5f, 0x3e, 0xd7, 0xcb, 0x39, 0x48,
};

bool runnable(const CipherHw& hw) { return (hw.required & ~cpu_features_detected()) == 0; }

TEST(Sm4Algo, Descriptor) {
  const CipherAlgo& a = sm4();
  EXPECT_STREQ(a.name, "SM4");
  EXPECT_EQ(a.block_bytes, 16u);
  EXPECT_EQ(a.key_bytes, 16u);
}

TEST(Sm4Sbox, RefCircuitMatchesStandardTable) {
  for (int x = 0; x < 256; ++x) EXPECT_EQ(sm4_impl::ref_sbox(uint8_t(x)), kStandardSbox[x]) << x;
}

// Software model of gf2p8affineqb (Intel SDM): output bit i is the parity of
// (matrix byte 7-i AND x), XOR bit i of the constant.
uint8_t gf2p8affine(uint64_t m, uint8_t x, uint8_t c) {
  uint8_t r = 0;
  for (int i = 0; i < 8; ++i) {
    const uint8_t row = uint8_t(m >> (8 * (7 - i)));
    r |= uint8_t((__builtin_popcount(row & x) & 1) << i);
  }
  return r ^ c;
}

// Inverse in GF(2^8) modulo AES's x^8+x^4+x^3+x+1 (0 -> 0), by search.
uint8_t aes_field_inverse(uint8_t x) {
  auto mul = [](uint8_t a, uint8_t b) {
    uint8_t r = 0;
    for (int i = 0; i < 8; ++i, b >>= 1) {
      if (b & 1) r ^= a;
      a = uint8_t(a << 1) ^ ((a & 0x80) ? 0x1b : 0);
    }
    return r;
  };
  for (int y = 1; y < 256; ++y) {
    if (mul(x, uint8_t(y)) == 1) return uint8_t(y);
  }
  return 0;
}

// FIPS 197 section 5.1.1: the AES S-box as inversion plus affine map.
uint8_t aes_sbox(uint8_t x) {
  const uint8_t b = aes_field_inverse(x);
  auto rotl8 = [](uint8_t v, int k) { return uint8_t(v << k | v >> (8 - k)); };
  return b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63;
}

TEST(Sm4Sbox, GfniConstantsGiveStandardTable) {
  for (int x = 0; x < 256; ++x) {
    const uint8_t y = gf2p8affine(kGfniPreMatrix, uint8_t(x), kGfniPreConst);
    const uint8_t s = gf2p8affine(kGfniPostMatrix, aes_field_inverse(y), kGfniPostConst);
    EXPECT_EQ(s, kStandardSbox[x]) << x;
  }
}

// The GFNI key setup (the GFNI implementations' setkey) writes exactly the
// reference schedule.
TEST(Sm4Schedule, GfniKeySetupIsTheReferenceSchedule) {
  if ((sm4_impl::kGfniSetkeyRequired & ~cpu_features_detected()) != 0) GTEST_SKIP() << "no GFNI";
  for (int trial = 0; trial < 256; ++trial) {
    const test::Bytes key = test::random_bytes(16);
    sm4_impl::Schedule want{}, got;
    std::memset(&got, 0xa5, sizeof got);
    sm4_impl::ref_setkey(&want, key.data(), key.size(), true);
    sm4_impl::gfni_setkey(&got, key.data(), key.size(), true);
    ASSERT_EQ(std::memcmp(&want, &got, sizeof want), 0) << test::to_hex(key);
  }
}

TEST(Sm4Sbox, AesNiNibbleTablesGiveStandardTable) {
  // The model itself: FIPS 197 section 5.1.1 gives S(0x53) = 0xed; S(0) = 0x63.
  ASSERT_EQ(aes_sbox(0x53), 0xed);
  ASSERT_EQ(aes_sbox(0x00), 0x63);
  for (int x = 0; x < 256; ++x) {
    const uint8_t y = aes_sbox(kAesPreLo[x & 15] ^ kAesPreHi[x >> 4]);
    EXPECT_EQ(kAesPostLo[y & 15] ^ kAesPostHi[y >> 4], kStandardSbox[x]) << x;
  }
}

// The SIMD S-box layers (GFNI affine/affine-inverse matrices, AES-NI with
// nibble-table affine maps) on the real instructions, all 256 inputs, every
// byte position of a vector.
struct SboxPath {
  const char* impl;
  void (*sbox)(const uint8_t*, uint8_t*, size_t);
};

class Sm4SimdSbox : public ::testing::TestWithParam<SboxPath> {};

TEST_P(Sm4SimdSbox, MatchesStandardTableForAllInputs) {
  const CipherHw* hw = find_hw(sm4(), GetParam().impl);
  ASSERT_NE(hw, nullptr);
  if (!runnable(*hw)) GTEST_SKIP() << "CPU lacks " << hw->name;
  for (size_t rot = 0; rot < 64; rot += 13) {
    uint8_t in[256], out[256];
    for (int i = 0; i < 256; ++i) in[i] = uint8_t(i + rot);
    GetParam().sbox(in, out, 256);
    for (int i = 0; i < 256; ++i) EXPECT_EQ(out[i], kStandardSbox[in[i]]) << "input " << int(in[i]);
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, Sm4SimdSbox,
                         ::testing::Values(SboxPath{"avx512-gfni", sm4_impl::avx512_gfni::sbox_layer},
                                           SboxPath{"avx2-gfni", sm4_impl::avx2_gfni::sbox_layer},
                                           SboxPath{"avx2-aesni", sm4_impl::avx2_aesni::sbox_layer}),
                         [](const auto& info) {
                           std::string s = info.param.impl;
                           for (char& c : s) c = c == '-' ? '_' : c;
                           return s;
                         });

}  // namespace
}  // namespace gpucrypto
