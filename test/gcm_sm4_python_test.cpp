// SM4-GCM against python3 `cryptography` (built on OpenSSL 4.0) both ways
// over random inputs: python decrypts and authenticates what gpucrypto
// encrypted, gpucrypto decrypts and authenticates what python encrypted,
// and python rejects a tampered tag (so its check is live). IV lengths 8 ...
// 128 (cryptography's GCM minimum is 8), AAD 0 ... 300, data 0 ... 3000,
// split updates, full and 12-byte tags, every back end.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "test/gcm_util.h"

namespace gpucrypto::test {
namespace {

constexpr const char* kScript = R"PY(
import sys
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.exceptions import InvalidTag
for line in sys.stdin:
    key, iv, aad, pt1, ct1, tag1, pt2, taglen = [bytes.fromhex(f) if i < 7 else int(f) for i, f in enumerate(line.split(","))]
    d = Cipher(algorithms.SM4(key), modes.GCM(iv, tag1, min_tag_length=4)).decryptor()
    d.authenticate_additional_data(aad)
    try:
        ok = (d.update(ct1) + d.finalize()) == pt1
    except InvalidTag:
        ok = False
    bad = bytearray(tag1); bad[0] ^= 1
    d = Cipher(algorithms.SM4(key), modes.GCM(iv, bytes(bad), min_tag_length=4)).decryptor()
    d.authenticate_additional_data(aad)
    try:
        d.update(ct1); d.finalize(); rejected = False
    except InvalidTag:
        rejected = True
    e = Cipher(algorithms.SM4(key), modes.GCM(iv)).encryptor()
    e.authenticate_additional_data(aad)
    ct2 = e.update(pt2) + e.finalize()
    print("%d,%d,%s,%s" % (ok, rejected, ct2.hex(), e.tag[:taglen].hex()))
)PY";

struct Case {
  GcmMessage m;
  Bytes pt2;
  GcmResult ours;
};

TEST(GcmSm4Python, BothWays) {
  if (std::system("python3 -c 'from cryptography.hazmat.primitives.ciphers import algorithms; algorithms.SM4' 2>/dev/null") != 0)
    GTEST_SKIP() << "python3 cryptography with SM4 not available";
  const std::string dir = ::testing::TempDir();
  const std::string script = dir + "gcm_sm4.py", input = dir + "gcm_sm4.in", output = dir + "gcm_sm4.out";
  std::ofstream(script) << kScript;
  for (const char* backend : kBackends) {
    SCOPED_TRACE(backend);
    BackendFixture b(backend);
    ASSERT_TRUE(b.fx().ok());
    std::mt19937_64 rng{uint64_t(backend[1])};
    std::vector<Case> cases;
    std::ofstream in(input);
    constexpr size_t kIv[] = {8, 12, 16, 60, 128};
    for (int t = 0; t < 120; ++t) {
      Case c;
      c.m.key = random_bytes(16);
      c.m.iv = random_bytes(kIv[rng() % std::size(kIv)]);
      c.m.aad = random_bytes(rng() % 301);
      c.m.in = random_bytes(rng() % 3001);
      c.m.taglen = rng() % 2 ? 16 : 12;
      c.m.data_pieces = {size_t(rng() % 100), size_t(rng() % 2000)};
      c.pt2 = random_bytes(rng() % 3001);
      c.ours = evp_gcm(b.fx().libctx(), "SM4-GCM", "provider=gpucrypto", true, c.m);
      ASSERT_TRUE(c.ours.final_ok);
      in << to_hex(c.m.key) << "," << to_hex(c.m.iv) << "," << to_hex(c.m.aad) << "," << to_hex(c.m.in) << ","
         << to_hex(c.ours.out) << "," << to_hex(c.ours.tag) << "," << to_hex(c.pt2) << "," << c.m.taglen << "\n";
      cases.push_back(c);
    }
    in.close();
    ASSERT_EQ(std::system(("python3 " + script + " < " + input + " > " + output).c_str()), 0);
    std::ifstream out(output);
    std::string line;
    size_t i = 0;
    for (; std::getline(out, line) && i < cases.size(); ++i) {
      std::stringstream ss(line);
      std::string ok, rejected, ct2, tag2;
      std::getline(ss, ok, ',');
      std::getline(ss, rejected, ',');
      std::getline(ss, ct2, ',');
      std::getline(ss, tag2, ',');
      EXPECT_EQ(ok, "1") << "python could not open gpucrypto's message " << i;
      EXPECT_EQ(rejected, "1") << "python accepted a tampered tag " << i;
      GcmMessage d = cases[i].m;
      d.in = hex(ct2);
      d.tag = hex(tag2);
      d.data_pieces = {size_t(rng() % 3000)};
      const GcmResult r = evp_gcm(b.fx().libctx(), "SM4-GCM", "provider=gpucrypto", false, d);
      EXPECT_TRUE(r.final_ok) << "gpucrypto could not open python's message " << i;
      EXPECT_EQ(r.out, cases[i].pt2) << i;
    }
    EXPECT_EQ(i, cases.size());
  }
}

}  // namespace
}  // namespace gpucrypto::test
