// The GPU kernel bodies, run over whole grids by the host grid emulator:
// official vectors, decrypt round trips, CTR counters that carry, grid shapes,
// and byte-for-byte agreement with the project's CPU implementations.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"
#include "gpu/kernels/host_tables.h"
#include "gpu/kernels/rectangle.cuh"
#include "gpu/kernels/skinny.cuh"
#include "gpu/launch.h"
#include "test/gpu_cipher_map.h"
#include "test/test_util.h"

namespace gpucrypto::gpu {
namespace {

using test::Bytes;
using test_map::cpu_algo;
using test_map::all_ciphers;
using test::hex;
using test::to_hex;
using kern::Op;

// Runs one launch of the kernel body on the emulator.
Bytes emulate(Cipher c, Op op, const Bytes& key, const Bytes& in, const Bytes& iv = {},
              SkinnyDesign design = kDefaultSkinny, uint32_t threads = kThreadsPerBlock) {
  const size_t bb = block_bytes(c);
  EXPECT_EQ(in.size() % bb, 0u);
  CipherLaunch s{c, op, design, threads};
  EXPECT_TRUE(build_schedule(c, key.data(), key.size(), &s.ks));
  Bytes out(in.size(), 0xee);
  if (op == Op::kCtr) {
    EXPECT_EQ(iv.size(), bb);
    for (size_t w = 0; w < bb / 4; ++w)
      s.ctr_be[w] = uint32_t(iv[4 * w]) << 24 | uint32_t(iv[4 * w + 1]) << 16 |
                    uint32_t(iv[4 * w + 2]) << 8 | iv[4 * w + 3];
  }
  emulate_launch(s, {in.data(), out.data(), in.size() / bb, &kern::host_tables()});
  return out;
}

struct Kat {
  Cipher cipher;
  const char* key;
  const char* pt;
  const char* ct;
};

// Single-block vectors, copied from test/vectors/*.txt:
const Kat kEcbVectors[] = {
    // SKINNY: Beierle et al., ePrint 2016/660, Appendix B.2.
    {Cipher::kSkinny128_256, "009cec81605d4ac1d2ae9e3085d7a1f31ac123ebfc00fddcf01046ceeddfcab3",
     "3a0c47767a26a68dd382a695e7022e25", "b731d98a4bde147a7ed4a6f16b9b587f"},
    {Cipher::kSkinny128_384,
     "df889548cfc7ea52d296339301797449ab588a34a47f1ab2dfe9c8293fbea9a5ab1afac2611012cd8cef952618c3ebe8",
     "a3994b66ad85a3459f44e92b08f550cb", "94ecf589e2017c601b38c6346a10dcfa"},
    // SM4: GB/T 32907-2016 Appendix A Example 1; draft-ribose-cfrg-sm4-10 A.1.
    {Cipher::kSM4, "0123456789abcdeffedcba9876543210", "0123456789abcdeffedcba9876543210",
     "681edf34d206965e86b3e94f536e4246"},
    {Cipher::kSM4, "fedcba98765432100123456789abcdef", "000102030405060708090a0b0c0d0e0f",
     "f766678f13f01adeac1b3ea955adb594"},
    // RECTANGLE: Zhang et al., ePrint 2014/084 (final version), test vectors.
    {Cipher::kRectangle80, "00000000000000000000", "0000000000000000", "2d96e354e8b10874"},
    {Cipher::kRectangle80, "ffffffffffffffffffff", "ffffffffffffffff", "9945aa34ae3d0112"},
    {Cipher::kRectangle128, "00000000000000000000000000000000", "0000000000000000",
     "aee6361344a499ee"},
    {Cipher::kRectangle128, "ffffffffffffffffffffffffffffffff", "ffffffffffffffff",
     "e83eefee4a157a46"},
    // AES: FIPS 197 Appendix C.1-C.3.
    {Cipher::kAES128, "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {Cipher::kAES192, "000102030405060708090a0b0c0d0e0f1011121314151617",
     "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"},
    {Cipher::kAES256, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
};

TEST(GpuKernelEmu, EcbVectorsBothWays) {
  for (const Kat& v : kEcbVectors) {
    SCOPED_TRACE(cipher_name(v.cipher));
    for (SkinnyDesign d : {SkinnyDesign::kTable, SkinnyDesign::kSliced}) {
      EXPECT_EQ(to_hex(emulate(v.cipher, Op::kEncrypt, hex(v.key), hex(v.pt), {}, d)), v.ct);
      EXPECT_EQ(to_hex(emulate(v.cipher, Op::kDecrypt, hex(v.key), hex(v.ct), {}, d)), v.pt);
    }
  }
}

// The four-block plaintext of every SP 800-38A example.
constexpr char kSp80038aPlaintext[] =
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";

// SP 800-38A F.1.1 / F.1.5 ECB: four blocks in one launch.
TEST(GpuKernelEmu, AesEcbMultiBlockSp80038a) {
  const Bytes pt = hex(kSp80038aPlaintext);
  EXPECT_EQ(to_hex(emulate(Cipher::kAES128, Op::kEncrypt, hex("2b7e151628aed2a6abf7158809cf4f3c"), pt)),
            "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
            "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4");
  EXPECT_EQ(to_hex(emulate(Cipher::kAES256, Op::kEncrypt,
                           hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"), pt)),
            "f3eed1bdb5d2a03c064b5a7e3db181f8591ccb10d410ed26dc5ba74a31362870"
            "b6ed21b99ca6f4f9f153e7b1beafed1d23304b7a39f9f3ff067d8d8f9e24ecc7");
}

struct CtrKat {
  Cipher cipher;
  const char* key;
  const char* iv;
  const char* pt;
  const char* ct;
};

const CtrKat kCtrVectors[] = {
    // SP 800-38A F.5.1, F.5.3, F.5.5 (counter carries out of the last byte).
    {Cipher::kAES128, "2b7e151628aed2a6abf7158809cf4f3c", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
     kSp80038aPlaintext,
     "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
    {Cipher::kAES192, "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
     kSp80038aPlaintext,
     "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e941e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050"},
    {Cipher::kAES256, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
     kSp80038aPlaintext,
     "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"},
    // SM4: draft-ribose-cfrg-sm4-10 A.2.5.1.
    {Cipher::kSM4, "0123456789abcdeffedcba9876543210", "000102030405060708090a0b0c0d0e0f",
     "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbccccccccccccccccddddddddddddddddeeeeeeeeeeeeeeeeffffffffffffffffaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb",
     "ac3236cb970cc20791364c395a1342d1a3cbc1878c6f30cd074cce385cdd70c7f234bc0e24c11980fd1286310ce37b926e02fcd0faa0baf38b2933851d824514"},
    // SM4 counter carry vectors from GmSSL tests/sm4_ctrtest.c (implementation
    // vectors, verified against OpenSSL): 64-bit and 128-bit overflow.
    {Cipher::kSM4, "0123456789abcdeffedcba9876543210", "0000000000000000ffffffffffffffff",
     "6162636465666768696a6b6c6d6e6f706b72737475767778797a313233343536",
     "024ffdc1b9b510f6968205b42f6dd15505e5e399e54b08aae25a9298dc9590a1"},
    {Cipher::kSM4, "0123456789abcdeffedcba9876543210", "ffffffffffffffffffffffffffffffff",
     "6162636465666768696a6b6c6d6e6f706b72737475767778797a313233343536",
     "0973cc1a6c15038fef912ea230f40f804d05871f7cb755b4ee2f022268e0971c"},
};

TEST(GpuKernelEmu, CtrVectors) {
  for (const CtrKat& v : kCtrVectors) {
    SCOPED_TRACE(v.iv);
    for (uint32_t threads : {1u, 3u, 512u})
      EXPECT_EQ(to_hex(emulate(v.cipher, Op::kCtr, hex(v.key), hex(v.pt), hex(v.iv), kDefaultSkinny, threads)),
                v.ct);
  }
}

// The RECTANGLE-80 round keys K_1 and K_25 for the all-zero key (civerly
// doctests, listed in test/vectors/rectangle.txt).
TEST(GpuKernelEmu, RectangleRoundKeys) {
  kern::KeySched ks{};
  const Bytes zero(10, 0);
  ASSERT_TRUE(build_schedule(Cipher::kRectangle80, zero.data(), 10, &ks));
  auto rk = [&](int r) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%04x%04x%04x%04x", ks.w[2 * r] & 0xffff, ks.w[2 * r] >> 16,
                  ks.w[2 * r + 1] & 0xffff, ks.w[2 * r + 1] >> 16);
    return std::string(buf);
  };
  EXPECT_EQ(rk(1), "000e000f00000000");
  EXPECT_EQ(rk(25), "9ab8f78501a136fc");
}

// The inverse S-box circuits against the forward ones, for every input.
TEST(GpuKernelEmu, InverseSboxCircuits) {
  // RECTANGLE S = 6 5 C A 1 E 7 9 B 0 3 D 8 F 4 2 (ePrint 2014/084, final version).
  const uint8_t kS[16] = {6, 5, 0xC, 0xA, 1, 0xE, 7, 9, 0xB, 0, 3, 0xD, 8, 0xF, 4, 2};
  for (uint32_t v = 0; v < 16; ++v) {
    uint32_t a0 = v & 1, a1 = (v >> 1) & 1, a2 = (v >> 2) & 1, a3 = v >> 3;
    kern::rectangle_sbox(a0, a1, a2, a3);
    EXPECT_EQ((a0 & 1) | (a1 & 1) << 1 | (a2 & 1) << 2 | (a3 & 1) << 3, kS[v]);
    kern::rectangle_inv_sbox(a0, a1, a2, a3);
    EXPECT_EQ((a0 & 1) | (a1 & 1) << 1 | (a2 & 1) << 2 | (a3 & 1) << 3, v);
  }
  // SKINNY S8: first entries of the table in ePrint 2016/660 (Table 2.x).
  const uint8_t kS8[8] = {0x65, 0x4c, 0x6a, 0x42, 0x4b, 0x63, 0x43, 0x6b};
  for (uint32_t x = 0; x < 8; ++x) EXPECT_EQ(kern::skinny_sbox4(x) & 0xff, kS8[x]);
  for (uint32_t x = 0; x < 256; ++x)
    EXPECT_EQ(kern::skinny_inv_sbox4(kern::skinny_sbox4(x * 0x01010101u)), x * 0x01010101u);
}

// CTR = XOR with ECB of explicitly built counter blocks, for counters that
// carry across 8, 32, 64 bits and wrap the whole block.
TEST(GpuKernelEmu, CtrMatchesEcbOfCountersAcrossCarries) {
  std::mt19937_64 rng(7);
  for (Cipher c : all_ciphers()) {
    SCOPED_TRACE(cipher_name(c));
    const size_t bb = block_bytes(c);
    const Bytes key = test::random_bytes(key_bytes(c));
    for (int tail_ff : {1, 4, 8, int(bb)}) {
      Bytes iv = test::random_bytes(bb);
      for (int i = 0; i < tail_ff; ++i) iv[bb - 1 - size_t(i)] = 0xff;
      iv[bb - 1] = 0xf0;  // carries after 16 blocks
      const size_t nblocks = 40 + rng() % 600;
      Bytes counters(nblocks * bb), ctr = iv;
      for (size_t b = 0; b < nblocks; ++b) {
        std::memcpy(&counters[b * bb], ctr.data(), bb);
        ctr_add(ctr.data(), bb, 1);
      }
      const Bytes pt = test::random_bytes(nblocks * bb);
      Bytes ks = emulate(c, Op::kEncrypt, key, counters);
      for (size_t i = 0; i < pt.size(); ++i) ks[i] ^= pt[i];
      EXPECT_EQ(emulate(c, Op::kCtr, key, pt, iv, kDefaultSkinny, 512), ks);
      EXPECT_EQ(emulate(c, Op::kCtr, key, pt, iv, kDefaultSkinny, 96), ks);
    }
  }
}

TEST(GpuKernelEmu, SkinnyDesignsAgree) {
  for (Cipher c : {Cipher::kSkinny128_256, Cipher::kSkinny128_384}) {
    const Bytes key = test::random_bytes(key_bytes(c)), pt = test::random_bytes(16 * 1000);
    const Bytes a = emulate(c, Op::kEncrypt, key, pt, {}, SkinnyDesign::kTable);
    EXPECT_EQ(a, emulate(c, Op::kEncrypt, key, pt, {}, SkinnyDesign::kSliced));
    EXPECT_EQ(emulate(c, Op::kDecrypt, key, a), pt);
  }
}

// Byte for byte against every CPU implementation this machine runs, random
// keys, sizes (including a partial last thread block) and counters.
TEST(GpuKernelEmu, MatchesCpuImplementations) {
  std::mt19937_64 rng(11);
  for (Cipher c : all_ciphers()) {
    const CipherAlgo& algo = cpu_algo(c);
    const size_t bb = block_bytes(c);
    ASSERT_EQ(algo.block_bytes, bb);
    for (const CipherHw* hw : test::runnable_impls(algo)) {
      SCOPED_TRACE(std::string(cipher_name(c)) + " vs " + hw->name);
      for (int rep = 0; rep < 3; ++rep) {
        const Bytes key = test::random_bytes(algo.key_bytes);
        const size_t nblocks = 1 + rng() % 1500;
        const Bytes pt = test::random_bytes(nblocks * bb);
        Bytes iv = test::random_bytes(bb);
        if (rep == 1) std::memset(iv.data() + bb / 2, 0xff, bb / 2);  // carry into the top half
        if (rep == 2) std::memset(iv.data(), 0xff, bb);                // wraps after one block
        const Bytes ct = test::ecb_encrypt(algo, *hw, key, pt);
        EXPECT_EQ(emulate(c, Op::kEncrypt, key, pt), ct);
        EXPECT_EQ(emulate(c, Op::kDecrypt, key, ct), pt);
        EXPECT_EQ(emulate(c, Op::kCtr, key, pt, iv), test::ctr_crypt(algo, *hw, key, iv, pt));
        if (c == Cipher::kSkinny128_256 || c == Cipher::kSkinny128_384) {
          EXPECT_EQ(emulate(c, Op::kEncrypt, key, pt, {}, SkinnyDesign::kTable), ct);
        }
      }
    }
  }
}

}  // namespace
}  // namespace gpucrypto::gpu
