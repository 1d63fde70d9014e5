// Rijndael / AES: known answers on every implementation this CPU runs,
// differential tests against OpenSSL's default provider (AES) and against the
// reference (all nine block/key sizes), CTR counter carries, misaligned and
// in-place buffers.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ciphers/rijndael/internal.h"
#include "ciphers/rijndael/rijndael.h"
#include "test/test_util.h"

namespace gpucrypto {
namespace {

using test::Bytes;
using test::hex;
using test::to_hex;

const unsigned kSizes[] = {128, 192, 256};

std::string impl_label(const CipherAlgo& algo, const CipherHw& hw) {
  return std::string(algo.name) + "/" + hw.name;
}

// ---------------------------------------------------------------------------
// Known answers: AES.
struct AesEcbVector {
  const char* source;
  const char* key;
  const char* pt;
  const char* ct;
};

// FIPS 197 Appendix C.1-C.3, and NIST SP 800-38A Appendix F.1.1/F.1.3/F.1.5
// (ECB-AES128/192/256.Encrypt, the four blocks concatenated; F.1.2/4/6
// decrypt the same data). Copied from ../shared/vectors/aes.txt.
const AesEcbVector kAesEcb[] = {
    {"FIPS-197 C.1 AES-128", "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {"FIPS-197 C.2 AES-192", "000102030405060708090a0b0c0d0e0f1011121314151617",
     "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"},
    {"FIPS-197 C.3 AES-256", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
    {"SP800-38A F.1.1 ECB-AES128", "2b7e151628aed2a6abf7158809cf4f3c",
     "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
     "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710",
     "3ad77bb40d7a3660a89ecaf32466ef97 f5d3d58503b9699de785895a96fdbaaf"
     "43b1cd7f598ece23881b00e3ed030688 7b0c785e27e8ad3f8223207104725dd4"},
    {"SP800-38A F.1.3 ECB-AES192", "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
     "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
     "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710",
     "bd334f1d6e45f25ff712a214571fa5cc 974104846d0ad3ad7734ecb3ecee4eef"
     "ef7afd2270e2e60adce0ba2face6444e 9a4b41ba738d6c72fb16691603c18e0e"},
    {"SP800-38A F.1.5 ECB-AES256", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
     "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
     "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710",
     "f3eed1bdb5d2a03c064b5a7e3db181f8 591ccb10d410ed26dc5ba74a31362870"
     "b6ed21b99ca6f4f9f153e7b1beafed1d 23304b7a39f9f3ff067d8d8f9e24ecc7"},
};

struct AesCtrVector {
  const char* source;
  const char* key;
  const char* iv;
  const char* pt;
  const char* ct;
};

// NIST SP 800-38A Appendix F.5.1/F.5.3/F.5.5 (CTR-AES128/192/256.Encrypt;
// F.5.2/4/6 decrypt the same data). Copied from ../shared/vectors/aes.txt.
constexpr const char* kF5Plain =
    "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
const AesCtrVector kAesCtr[] = {
    {"SP800-38A F.5.1 CTR-AES128", "2b7e151628aed2a6abf7158809cf4f3c",
     "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", kF5Plain,
     "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
     "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
    {"SP800-38A F.5.3 CTR-AES192", "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
     "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", kF5Plain,
     "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6f4ce8e94"
     "1e36b26bd1ebc670d1bd1d665620abf74f78a7f6d29809585a97daec58c6b050"},
    {"SP800-38A F.5.5 CTR-AES256", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
     "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", kF5Plain,
     "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
     "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6"},
};

const CipherAlgo& aes_for_key(size_t key_bytes) { return rijndael(128, unsigned(key_bytes * 8)); }

TEST(Rijndael, AesEcbKnownAnswers) {
  for (const auto& v : kAesEcb) {
    const Bytes key = hex(v.key), pt = hex(v.pt), ct = hex(v.ct);
    const CipherAlgo& algo = aes_for_key(key.size());
    for (const CipherHw* hw : test::runnable_impls(algo)) {
      SCOPED_TRACE(std::string(v.source) + " " + impl_label(algo, *hw));
      EXPECT_EQ(to_hex(test::ecb_encrypt(algo, *hw, key, pt)), to_hex(ct));
      EXPECT_EQ(to_hex(test::ecb_decrypt(algo, *hw, key, ct)), to_hex(pt));
    }
  }
}

TEST(Rijndael, AesCtrKnownAnswers) {
  for (const auto& v : kAesCtr) {
    const Bytes key = hex(v.key), iv = hex(v.iv), pt = hex(v.pt), ct = hex(v.ct);
    const CipherAlgo& algo = aes_for_key(key.size());
    for (const CipherHw* hw : test::runnable_impls(algo)) {
      SCOPED_TRACE(std::string(v.source) + " " + impl_label(algo, *hw));
      EXPECT_EQ(to_hex(test::ctr_crypt(algo, *hw, key, iv, pt)), to_hex(ct));
      EXPECT_EQ(to_hex(test::ctr_crypt(algo, *hw, key, iv, ct)), to_hex(pt));
      // The counter after four blocks: ...feff + 4 = ...ff03 (carry across bytes).
      test::KeySchedule ks(*hw, key, false);
      Bytes ctr = iv, out(pt.size());
      hw->ctr(ks.get(), ctr.data(), pt.data(), out.data(), 4);
      EXPECT_EQ(to_hex(ctr), "f0f1f2f3f4f5f6f7f8f9fafbfcfdff03");
    }
  }
}

// ---------------------------------------------------------------------------
// Known answers: wide blocks.
struct WideVector {
  const char* source;
  unsigned block_bits;
  const char* key;
  const char* pt;
  const char* ct;
};

// Brian Gladman's Rijndael test set ("Correct Output (for variable block
// size)", aestst.cpp, 15/01/2002), also in Bouncy Castle's RijndaelTest.java;
// copied from ../shared/vectors/rijndael_wide.txt. Key = leading bytes of e,
// plaintext = leading bytes of pi. The 160- and 224-bit-key rows are extra:
// they exercise Nk = 5 and 7 of the generic key expansion through the raw
// schedule (the algorithms themselves only take 128/192/256-bit keys).
constexpr const char* kE =
    "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfe";
constexpr const char* kPi192 = "3243f6a8885a308d313198a2e03707344a4093822299f31d";
constexpr const char* kPi256 = "3243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c8";
const WideVector kWide[] = {
    {"Gladman B=192 K=128", 192, "2b7e151628aed2a6abf7158809cf4f3c", kPi192,
     "b24d275489e82bb8f7375e0d5fcdb1f481757c538b65148a"},
    {"Gladman B=192 K=160 (extra)", 192, "2b7e151628aed2a6abf7158809cf4f3c762e7160", kPi192,
     "738dae25620d3d3beff4a037a04290d73eb33521a63ea568"},
    {"Gladman B=192 K=192", 192, "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da5", kPi192,
     "725ae43b5f3161de806a7c93e0bca93c967ec1ae1b71e1cf"},
    {"Gladman B=192 K=224 (extra)", 192, "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d90",
     kPi192, "bbfc14180afbf6a36382a061843f0b63e769acdc98769130"},
    {"Gladman B=192 K=256", 192, kE, kPi192, "0ebacf199e3315c2e34b24fcc7c46ef4388aa475d66c194c"},
    {"Gladman B=256 K=128", 256, "2b7e151628aed2a6abf7158809cf4f3c", kPi256,
     "7d15479076b69a46ffb3b3beae97ad8313f622f67fedb487de9f06b9ed9c8f19"},
    {"Gladman B=256 K=160 (extra)", 256, "2b7e151628aed2a6abf7158809cf4f3c762e7160", kPi256,
     "514f93fb296b5ad16aa7df8b577abcbd484decacccc7fb1f18dc567309ceeffd"},
    {"Gladman B=256 K=192", 256, "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da5", kPi256,
     "5d7101727bb25781bf6715b0e6955282b9610e23a43c2eb062699f0ebf5887b2"},
    {"Gladman B=256 K=224 (extra)", 256, "2b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d90",
     kPi256, "d56c5a63627432579e1dd308b2c8f157b40a4bfb56fea1377b25d3ed3d6dbf80"},
    {"Gladman B=256 K=256", 256, kE, kPi256,
     "a49406115dfb30a40418aafa4869b7c6a886ff31602a7dd19c889dc64f7e4e7a"},
};

// 64-byte aligned, zeroed raw schedule (for the Nk = 5, 7 keys).
struct RawSched {
  alignas(64) rijndael_impl::KeySched ks{};
};

TEST(Rijndael, WideBlockKnownAnswers) {
  for (const auto& v : kWide) {
    const Bytes key = hex(v.key), pt = hex(v.pt), ct = hex(v.ct);
    const bool standard_key = key.size() % 8 == 0;
    // The algorithm for this block size (with a 128-bit key when the vector's
    // key length is not one of the algorithms'; only its hooks are used then).
    const CipherAlgo& algo = rijndael(v.block_bits, standard_key ? unsigned(key.size() * 8) : 128);
    ASSERT_EQ(algo.block_bytes, pt.size());
    for (const CipherHw* hw : test::runnable_impls(algo)) {
      SCOPED_TRACE(std::string(v.source) + " " + hw->name);
      if (standard_key) {
        EXPECT_EQ(to_hex(test::ecb_encrypt(algo, *hw, key, pt)), to_hex(ct));
        EXPECT_EQ(to_hex(test::ecb_decrypt(algo, *hw, key, ct)), to_hex(pt));
      }
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
      ASSERT_FALSE(a.impls.empty());
      EXPECT_STREQ(a.impls.back()->name, "ref");
      EXPECT_EQ(a.impls.back()->required, 0u);
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

// ---------------------------------------------------------------------------
// Differential against OpenSSL's default provider.
class EvpCipher {
 public:
  EvpCipher(const char* name) : c_(EVP_CIPHER_fetch(nullptr, name, "provider=default")) {
    if (c_ == nullptr) throw std::runtime_error(std::string("fetch ") + name);
  }
  ~EvpCipher() { EVP_CIPHER_free(c_); }
  EvpCipher(const EvpCipher&) = delete;
  EvpCipher& operator=(const EvpCipher&) = delete;

  Bytes run(const Bytes& key, const Bytes& iv, const Bytes& in, bool enc) const {
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    Bytes out(in.size() + 16);
    int n1 = 0, n2 = 0;
    bool ok = ctx != nullptr &&
              EVP_CipherInit_ex2(ctx, c_, key.data(), iv.empty() ? nullptr : iv.data(), enc ? 1 : 0,
                                 nullptr) == 1 &&
              EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
              EVP_CipherUpdate(ctx, out.data(), &n1, in.data(), int(in.size())) == 1 &&
              EVP_CipherFinal_ex(ctx, out.data() + n1, &n2) == 1;
    EVP_CIPHER_CTX_free(ctx);
    if (!ok) throw std::runtime_error("EVP failure");
    out.resize(size_t(n1 + n2));
    return out;
  }

 private:
  EVP_CIPHER* c_;
};

// A buffer whose data starts `misalign` bytes past a 64-byte boundary.
class Buffer {
 public:
  Buffer(size_t n, size_t misalign) : store_(n + 128), p_(store_.data()) {
    const auto addr = reinterpret_cast<uintptr_t>(p_);
    p_ += (64 - addr % 64) % 64 + misalign;
  }
  uint8_t* data() { return p_; }

 private:
  Bytes store_;
  uint8_t* p_;
};

// Interesting counters: random, near the 2^128 wrap, near 2^64 and 2^32
// low-word wraps, and one that wraps the low 64 bits inside a batch.
std::vector<Bytes> interesting_ivs(size_t bs, std::mt19937_64& rng) {
  std::vector<Bytes> ivs;
  ivs.push_back(test::random_bytes(bs));
  Bytes all(bs, 0xff);
  all[bs - 1] = 0xf0;  // ff..f0: wraps to 00..00 after 16 blocks
  ivs.push_back(all);
  all[bs - 1] = 0xff;  // ff..ff: wraps immediately
  ivs.push_back(all);
  for (size_t low : {size_t(4), size_t(8)}) {
    Bytes iv = test::random_bytes(bs);
    for (size_t i = bs - low; i < bs; ++i) iv[i] = 0xff;
    iv[bs - 1] = uint8_t(0xff - rng() % 40);  // 0..39 blocks before the low-word wrap
    ivs.push_back(iv);
  }
  Bytes iv = test::random_bytes(bs);  // low 64 bits all ones, high word with a carry chain
  for (size_t i = 0; i < bs; ++i) iv[i] = i < bs - 9 ? iv[i] : 0xff;
  iv[bs - 1] = 0xe5;
  ivs.push_back(iv);
  return ivs;
}

TEST(Rijndael, AesDifferentialVsOpenSSL) {
  std::mt19937_64 rng(20240611);
  for (unsigned kbits : kSizes) {
    const CipherAlgo& algo = rijndael(128, kbits);
    const std::string k = std::to_string(kbits);
    const EvpCipher ecb(("AES-" + k + "-ECB").c_str()), ctr(("AES-" + k + "-CTR").c_str());
    for (const CipherHw* hw : test::runnable_impls(algo)) {
      SCOPED_TRACE(impl_label(algo, *hw));
      const int iterations = std::strcmp(hw->name, "ref") == 0 ? 12 : 60;
      for (int it = 0; it < iterations; ++it) {
        const Bytes key = test::random_bytes(algo.key_bytes);
        test::KeySchedule ks(*hw, key, true);
        const size_t nblocks = rng() % (4 * hw->batch_blocks + 40);
        const size_t n = 16 * nblocks;
        const Bytes pt = test::random_bytes(n);
        const size_t mis_in = rng() % 64, mis_out = rng() % 64;
        const bool in_place = it % 3 == 0;

        // ECB encrypt and decrypt.
        const Bytes want_ct = ecb.run(key, {}, pt, true);
        Buffer bin(n, mis_in), bout(n, mis_out);
        uint8_t* out = in_place ? bin.data() : bout.data();
        if (n != 0) std::memcpy(bin.data(), pt.data(), n);
        hw->encrypt(ks.get(), bin.data(), out, nblocks);
        ASSERT_EQ(to_hex(out, n), to_hex(want_ct)) << "ECB enc, blocks=" << nblocks;
        if (n != 0) std::memcpy(bin.data(), want_ct.data(), n);
        hw->decrypt(ks.get(), bin.data(), out, nblocks);
        ASSERT_EQ(to_hex(out, n), to_hex(pt)) << "ECB dec, blocks=" << nblocks;

        // CTR, from every interesting counter.
        for (const Bytes& iv : interesting_ivs(16, rng)) {
          const Bytes want = ctr.run(key, iv, pt, true);
          if (n != 0) std::memcpy(bin.data(), pt.data(), n);
          Bytes c = iv;
          hw->ctr(ks.get(), c.data(), bin.data(), out, nblocks);
          ASSERT_EQ(to_hex(out, n), to_hex(want)) << "CTR iv=" << to_hex(iv) << " blocks=" << nblocks;
          Bytes next = iv;
          ctr_add(next.data(), 16, nblocks);
          EXPECT_EQ(to_hex(c), to_hex(next)) << "counter after " << nblocks << " blocks";
        }
      }
    }
  }
}

// A long CTR run in several calls of odd sizes equals one OpenSSL call,
// across the 2^32 and 2^64 low-word wraps.
TEST(Rijndael, AesCtrChunkedAcrossWraps) {
  const EvpCipher ctr("AES-256-CTR");
  const CipherAlgo& algo = aes256();
  const Bytes key = test::random_bytes(32);
  for (const char* ivhex : {"0123456789abcdef00000000fffffff9", "0123456789abcdeffffffffffffffff3",
                            "fffffffffffffffffffffffffffffffb"}) {
    const Bytes iv = hex(ivhex), pt = test::random_bytes(16 * 301);
    const Bytes want = ctr.run(key, iv, pt, true);
    for (const CipherHw* hw : test::runnable_impls(algo)) {
      SCOPED_TRACE(std::string(hw->name) + " iv=" + ivhex);
      test::KeySchedule ks(*hw, key, false);
      Bytes c = iv, out(pt.size());
      size_t done = 0;
      for (size_t chunk : {1, 2, 3, 5, 7, 33, 64, 1, 70, 115}) {
        hw->ctr(ks.get(), c.data(), pt.data() + 16 * done, out.data() + 16 * done, chunk);
        done += chunk;
      }
      ASSERT_EQ(done, 301u);
      EXPECT_EQ(to_hex(out), to_hex(want));
    }
  }
}

// ---------------------------------------------------------------------------
// Every SIMD implementation against the reference, every size and every
// block count 0 .. 3*batch+1 (all tails), ECB both ways and CTR.
TEST(Rijndael, SimdMatchesReferenceAllBlockCounts) {
  for (unsigned b : kSizes) {
    for (unsigned k : kSizes) {
      const CipherAlgo& algo = rijndael(b, k);
      const CipherHw& ref = *algo.impls.back();
      const size_t bs = algo.block_bytes;
      const Bytes key = test::random_bytes(algo.key_bytes);
      test::KeySchedule rks(ref, key, true);
      for (const CipherHw* hw : test::runnable_impls(algo)) {
        if (hw == &ref) continue;
        SCOPED_TRACE(impl_label(algo, *hw));
        test::KeySchedule ks(*hw, key, true);
        for (size_t n = 0; n <= 3 * hw->batch_blocks + 1; ++n) {
          const Bytes in = test::random_bytes(n * bs);
          Bytes want(n * bs), got(n * bs);
          ref.encrypt(rks.get(), in.data(), want.data(), n);
          hw->encrypt(ks.get(), in.data(), got.data(), n);
          ASSERT_EQ(to_hex(got), to_hex(want)) << "encrypt n=" << n;
          ref.decrypt(rks.get(), in.data(), want.data(), n);
          hw->decrypt(ks.get(), in.data(), got.data(), n);
          ASSERT_EQ(to_hex(got), to_hex(want)) << "decrypt n=" << n;
          Bytes iv = test::random_bytes(bs);
          if (n % 2 == 1) {  // low 64 bits about to wrap inside the call
            for (size_t i = bs - 8; i < bs; ++i) iv[i] = 0xff;
            iv[bs - 1] = uint8_t(0xff - n / 2);
          }
          Bytes c1 = iv, c2 = iv;
          ref.ctr(rks.get(), c1.data(), in.data(), want.data(), n);
          hw->ctr(ks.get(), c2.data(), in.data(), got.data(), n);
          ASSERT_EQ(to_hex(got), to_hex(want)) << "ctr n=" << n << " iv=" << to_hex(iv);
          ASSERT_EQ(to_hex(c2), to_hex(c1)) << "counter n=" << n;
        }
      }
    }
  }
}

// Wide-block CTR near the full-width wrap and in place, against the reference.
TEST(Rijndael, WideCtrWrapAndInPlace) {
  std::mt19937_64 rng(7);
  for (unsigned b : {192u, 256u}) {
    for (unsigned k : kSizes) {
      const CipherAlgo& algo = rijndael(b, k);
      const CipherHw& ref = *algo.impls.back();
      const size_t bs = algo.block_bytes;
      const Bytes key = test::random_bytes(algo.key_bytes);
      test::KeySchedule rks(ref, key, false);
      for (const CipherHw* hw : test::runnable_impls(algo)) {
        SCOPED_TRACE(impl_label(algo, *hw));
        test::KeySchedule ks(*hw, key, false);
        for (const Bytes& iv : interesting_ivs(bs, rng)) {
          const size_t n = 1 + rng() % 70;
          const Bytes in = test::random_bytes(n * bs);
          Bytes want(n * bs), c1 = iv, c2 = iv;
          ref.ctr(rks.get(), c1.data(), in.data(), want.data(), n);
          Buffer buf(n * bs, rng() % 64);
          std::memcpy(buf.data(), in.data(), n * bs);
          hw->ctr(ks.get(), c2.data(), buf.data(), buf.data(), n);  // in place
          ASSERT_EQ(to_hex(buf.data(), n * bs), to_hex(want)) << "iv=" << to_hex(iv);
          ASSERT_EQ(to_hex(c2), to_hex(c1));
          Bytes next = iv;
          ctr_add(next.data(), bs, n);
          EXPECT_EQ(to_hex(c2), to_hex(next));
        }
      }
    }
  }
  // ff..ff + 1 wraps to 00..00 (full carry across the whole block).
  const CipherAlgo& algo = rijndael(256, 256);
  for (const CipherHw* hw : test::runnable_impls(algo)) {
    test::KeySchedule ks(*hw, Bytes(32, 1), false);
    Bytes c(32, 0xff), in(64, 0), out(64);
    hw->ctr(ks.get(), c.data(), in.data(), out.data(), 2);
    Bytes expect(32, 0);
    expect[31] = 1;
    EXPECT_EQ(to_hex(c), to_hex(expect)) << hw->name;
  }
}

// decrypt(encrypt(x)) == x for all nine sizes on every implementation,
// misaligned and in place.
TEST(Rijndael, RoundTripAllSizes) {
  std::mt19937_64 rng(99);
  for (unsigned b : kSizes) {
    for (unsigned k : kSizes) {
      const CipherAlgo& algo = rijndael(b, k);
      for (const CipherHw* hw : test::runnable_impls(algo)) {
        SCOPED_TRACE(impl_label(algo, *hw));
        for (int it = 0; it < 5; ++it) {
          const Bytes key = test::random_bytes(algo.key_bytes);
          test::KeySchedule ks(*hw, key, true);
          const size_t n = rng() % 100, len = n * algo.block_bytes;
          const Bytes pt = test::random_bytes(len);
          Buffer buf(len, rng() % 64);
          if (len != 0) std::memcpy(buf.data(), pt.data(), len);
          hw->encrypt(ks.get(), buf.data(), buf.data(), n);
          if (n > 0) {
            EXPECT_NE(to_hex(buf.data(), len), to_hex(pt));
          }
          hw->decrypt(ks.get(), buf.data(), buf.data(), n);
          EXPECT_EQ(to_hex(buf.data(), len), to_hex(pt));
        }
      }
    }
  }
}

}  // namespace
}  // namespace gpucrypto
