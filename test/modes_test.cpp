// CBC, CFB, OFB, CFB8 and CFB1 through EVP and through the engine's mode
// kernels: SP 800-38A and draft-ribose-cfrg-sm4 known answers on every
// implementation; AES and SM4 differential against OpenSSL's default
// provider (and every cipher against the mode model built from the reference
// ECB, test/mode_model.h): random keys, IVs, lengths 0 ... 5000 and 3 MiB,
// random update chunkings, in place, misaligned, padding on and off, 1, 2 and
// 7 threads; call-for-call lockstep with the default provider (outputs, num,
// iv, updated-iv, copies, re-inits, set num, use-bits); the bad-decrypt and
// length errors; every chain hook (CBC/CFB encryption, OFB, the fused CBC/CFB
// decryption) and the CFB1 hook of every
// implementation against the mode layer's composition (ChainedHooks). The ctest backend.*
// variants run it with every CPU path.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "engine/cipher_registry.h"
#include "engine/block_modes.h"
#include "test/mode_model.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

constexpr const char* kOurs = "provider=gpucrypto";
constexpr const char* kDefault = "provider=default";

struct Named {
  std::string name;  // "AES-128-CBC"
  const CipherAlgo* algo;
  ModelMode mode;
  bool peer;  // the default provider has it
};

std::vector<Named> all_mode_names() {
  std::vector<Named> v;
  auto add = [&](const std::string& base, const CipherAlgo& a, bool aes, bool peer) {
    for (const char* m : {"CBC", "CFB", "OFB"}) v.push_back({base + "-" + m, &a, model_mode_of(m), peer});
    if (aes)
      for (const char* m : {"CFB8", "CFB1"}) v.push_back({base + "-" + m, &a, model_mode_of(m), peer});
  };
  for (const CipherRow& r : cipher_rows()) add(r.name, r.algo(), r.bit_modes, r.in_default);
  return v;
}

std::string test_name(const ::testing::TestParamInfo<Named>& info) { return gtest_name(info.param.name); }

std::vector<size_t> random_chunks(std::mt19937& rng, size_t total) {
  std::vector<size_t> v;
  size_t left = total;
  while (left > 0) {
    const size_t n = rng() % 4 == 0 ? rng() % 8 : std::uniform_int_distribution<size_t>(0, std::min<size_t>(left, 700))(rng);
    v.push_back(std::min(n, left));
    left -= v.back();
  }
  return v;
}

std::string last_error() {
  const unsigned long e = ERR_peek_last_error();
  const char* r = ERR_reason_error_string(e);
  ERR_clear_error();
  return r != nullptr ? r : "(none)";
}

// --- known answers on every implementation ------------------------------------

struct Vector {
  std::string name, mode;
  Bytes key, iv, pt, ct;
  size_t bits;
};

std::vector<Vector> vectors(const std::string& file) {
  std::vector<Vector> out;
  const KatFile f = load_vector_blocks(file);
  EXPECT_TRUE(f.error.empty()) << f.error;
  for (const KatRecord& r : f.records) {
    if (!r.count("mode") || !r.count("iv")) continue;
    const std::string m = r.at("mode");
    if (m != "CBC" && m != "CFB128" && m != "OFB" && m != "CFB8" && m != "CFB1") continue;
    out.push_back({r.at("name"), m, hex(r.at("key")), hex(r.at("iv")), hex(r.at("plaintext")),
                   hex(r.at("ciphertext")), r.count("bits") ? std::stoul(r.at("bits")) : 0});
  }
  return out;
}

// The engine kernels of one mode, both directions, on one implementation.
Bytes kernel(const CipherHw& hw, const CipherAlgo& algo, const Vector& v, bool enc) {
  KeySchedule ks(hw, v.key);
  const size_t bs = algo.block_bytes;
  Bytes reg = v.iv, in = enc ? v.pt : v.ct, out(in.size(), 0);
  const size_t nb = in.size() / bs;
  if (v.mode == "CBC") (enc ? cbc_encrypt : cbc_decrypt)(hw, ks.get(), bs, reg.data(), in.data(), out.data(), nb);
  if (v.mode == "CFB128") (enc ? cfb_encrypt : cfb_decrypt)(hw, ks.get(), bs, reg.data(), in.data(), out.data(), nb);
  if (v.mode == "OFB") ofb_crypt(hw, ks.get(), bs, reg.data(), in.data(), out.data(), nb);
  if (v.mode == "CFB8") cfb8_crypt(hw, ks.get(), bs, reg.data(), in.data(), out.data(), in.size(), enc);
  if (v.mode == "CFB1") cfb1_crypt(hw, ks.get(), bs, reg.data(), in.data(), out.data(), v.bits, enc);
  return out;
}

std::string evp_name(const std::string& algo, const std::string& mode) {
  return algo + "-" + (mode == "CFB128" ? std::string("CFB") : mode);
}

void check_vectors(const std::string& file, const std::string& prefix,
                   const CipherAlgo& (*algo_for)(size_t keylen)) {
  ProviderFixture prov;
  ASSERT_TRUE(prov.ok());
  const std::vector<Vector> vs = vectors(file);
  ASSERT_FALSE(vs.empty()) << file;
  for (const Vector& v : vs) {
    SCOPED_TRACE(v.name);
    const CipherAlgo& algo = algo_for(v.key.size());
    for (const CipherHw* hw : runnable_impls(algo)) {
      SCOPED_TRACE(hw->name);
      EXPECT_EQ(to_hex(kernel(*hw, algo, v, true)), to_hex(v.ct));
      EXPECT_EQ(to_hex(kernel(*hw, algo, v, false)), to_hex(v.pt));
    }
    // Through EVP (the implementation the backend cap selects), whole bytes.
    const std::string name = evp_name(prefix.empty() ? algo.name : prefix, v.mode);
    if (v.mode == "CFB1") continue;  // 16 bits: checked through use-bits below
    Bytes out;
    ASSERT_TRUE(evp_crypt(prov.libctx(), name.c_str(), kOurs, true, v.key, v.iv, v.pt, &out, false));
    EXPECT_EQ(to_hex(out), to_hex(v.ct)) << name;
    ASSERT_TRUE(evp_crypt(prov.libctx(), name.c_str(), kOurs, false, v.key, v.iv, v.ct, &out, false));
    EXPECT_EQ(to_hex(out), to_hex(v.pt)) << name;
  }
}

const CipherAlgo& aes_for(size_t keylen) { return rijndael(128, unsigned(keylen * 8)); }
const CipherAlgo& sm4_for(size_t) { return sm4(); }

TEST(ModeVectors, Sp800_38aCbcCfbOfbOnEveryImplementation) { check_vectors("modes.txt", "", aes_for); }
TEST(ModeVectors, Sm4DraftCbcOfbCfbOnEveryImplementation) { check_vectors("sm4.txt", "SM4", sm4_for); }

// F.3.1 CFB1-AES128 through EVP with use-bits (EVP_CIPH_FLAG_LENGTH_BITS):
// 16 bits in one update and bit by bit, both directions.
TEST(ModeVectors, Cfb1BitsThroughUseBits) {
  ProviderFixture prov;
  ASSERT_TRUE(prov.ok());
  for (const Vector& v : vectors("modes.txt")) {
    if (v.mode != "CFB1") continue;
    SCOPED_TRACE(v.name);
    EVP_CIPHER* c = EVP_CIPHER_fetch(prov.libctx(), "AES-128-CFB1", kOurs);
    ASSERT_NE(c, nullptr);
    for (bool enc : {true, false}) {
      for (size_t step : {v.bits, size_t(8)}) {
        EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
        ASSERT_EQ(EVP_CipherInit_ex2(ctx, c, v.key.data(), v.iv.data(), enc, nullptr), 1);
        unsigned one = 1;
        const OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_USE_BITS, &one), OSSL_PARAM_END};
        ASSERT_EQ(EVP_CIPHER_CTX_set_params(ctx, p), 1);
        const Bytes& in = enc ? v.pt : v.ct;
        Bytes out(in.size(), 0);
        // A call starts at bit 7 of its first byte (as in the default
        // provider), so calls split the bit stream at byte boundaries.
        size_t b = 0;
        while (b < v.bits) {
          const size_t n = std::min(step, v.bits - b);
          int outl = 0;
          ASSERT_EQ(EVP_CipherUpdate(ctx, out.data() + b / 8, &outl, in.data() + b / 8, int(n)), 1);
          EXPECT_EQ(size_t(outl), n);
          b += n;
        }
        EXPECT_EQ(to_hex(out), to_hex(enc ? v.ct : v.pt)) << "step " << step << " enc " << enc;
        EVP_CIPHER_CTX_free(ctx);
      }
    }
    EVP_CIPHER_free(c);
  }
}

// --- differential: default provider and the mode model -------------------------

class Modes : public ::testing::TestWithParam<Named> {
 protected:
  static void SetUpTestSuite() {
    one_ = provider_with("1", "1m").release();
    two_ = provider_with("2", "64k").release();
    seven_ = provider_with("7", "0").release();
  }
  static void TearDownTestSuite() {
    delete one_;
    delete two_;
    delete seven_;
  }
  static ProviderFixture *one_, *two_, *seven_;

  // Our one-shot result in `lib`, checked against the model (and the default
  // provider when it has the cipher); then decrypted back.
  void check(OSSL_LIB_CTX* lib, const Named& n, size_t len, bool pad, std::mt19937& rng) {
    const size_t kl = n.algo->key_bytes, bs = n.algo->block_bytes;
    if (!pad && model_padded(n.mode)) len -= len % bs;
    const Bytes key = random_bytes(kl), iv = random_bytes(bs), pt = random_bytes(len);
    Bytes ours, want, back;
    ASSERT_TRUE(evp_crypt(lib, n.name.c_str(), kOurs, true, key, iv, pt, &ours, pad, random_chunks(rng, len)))
        << last_error();
    ASSERT_TRUE(ModeModel(*n.algo, key.data()).crypt(n.mode, true, pad, iv, pt, &want));
    ASSERT_EQ(ours, want) << "model, len " << len << " pad " << pad;
    if (n.peer) {
      Bytes theirs;
      ASSERT_TRUE(evp_crypt(lib, n.name.c_str(), kDefault, true, key, iv, pt, &theirs, pad));
      ASSERT_EQ(ours, theirs) << "default provider, len " << len;
    }
    ASSERT_TRUE(evp_crypt(lib, n.name.c_str(), kOurs, false, key, iv, ours, &back, pad,
                          random_chunks(rng, ours.size())));
    ASSERT_EQ(back, pt) << "len " << len;
  }
};
ProviderFixture* Modes::one_ = nullptr;
ProviderFixture* Modes::two_ = nullptr;
ProviderFixture* Modes::seven_ = nullptr;

TEST_P(Modes, RandomLengthsChunkingsAndPaddingAgainstTheOracles) {
  const Named& n = GetParam();
  ASSERT_TRUE(one_->ok() && two_->ok() && seven_->ok());
  std::mt19937 rng(uint32_t(std::hash<std::string>{}(n.name)));
  const bool slow = n.mode == ModelMode::kCFB1;  // one block call per bit
  for (int t = 0; t < (slow ? 8 : 24); ++t) {
    const size_t len = t < 4 ? size_t(t) * 7 : std::uniform_int_distribution<size_t>(0, slow ? 600 : 5000)(rng);
    ProviderFixture* p = t % 3 == 0 ? one_ : t % 3 == 1 ? two_ : seven_;
    ASSERT_NO_FATAL_FAILURE(check(p->libctx(), n, len, t % 2 == 0, rng)) << "trial " << t;
  }
}

// 3 MiB: across the pool (2 and 7 threads) for the parallel decryptions;
// one oracle result (the default provider, else the model), every thread
// count against it, decrypted back with random chunkings.
TEST_P(Modes, ThreeMebibytesOnEveryThreadCount) {
  const Named& n = GetParam();
  if (n.mode == ModelMode::kCFB1 || n.mode == ModelMode::kCFB8) GTEST_SKIP() << "byte/bit-serial";
  std::mt19937 rng(5);
  const size_t bs = n.algo->block_bytes;
  const Bytes key = random_bytes(n.algo->key_bytes), iv = random_bytes(bs), pt = random_bytes((3u << 20) + 5);
  Bytes want;
  if (n.peer) ASSERT_TRUE(evp_crypt(one_->libctx(), n.name.c_str(), kDefault, true, key, iv, pt, &want));
  else ASSERT_TRUE(ModeModel(*n.algo, key.data()).crypt(n.mode, true, true, iv, pt, &want));
  for (ProviderFixture* p : {one_, two_, seven_}) {
    Bytes ours, back;
    ASSERT_TRUE(evp_crypt(p->libctx(), n.name.c_str(), kOurs, true, key, iv, pt, &ours, true,
                          random_chunks(rng, 5000)));
    ASSERT_TRUE(ours == want);
    ASSERT_TRUE(evp_crypt(p->libctx(), n.name.c_str(), kOurs, false, key, iv, ours, &back, true,
                          {7, 1u << 20, 13, 2u << 20}));
    ASSERT_TRUE(back == pt);
  }
}

// In place and misaligned, both directions, small and across the pool.
TEST_P(Modes, InPlaceAndMisaligned) {
  const Named& n = GetParam();
  const size_t bs = n.algo->block_bytes;
  const Bytes key = random_bytes(n.algo->key_bytes), iv = random_bytes(bs);
  const bool serial = n.mode == ModelMode::kCFB1 || n.mode == ModelMode::kCFB8;
  // The large case reaches the pool of the 7-thread instance (mt_min_bytes 0,
  // more than one 64 KiB chunk), in place: the saved chunk-boundary blocks.
  for (size_t len : {37 * bs, serial ? 300 * bs : (150u << 10) + 3 * bs}) {
    const Bytes pt = random_bytes(len);
    Bytes ct;
    ASSERT_TRUE(ModeModel(*n.algo, key.data()).crypt(n.mode, true, false, iv, pt, &ct));
    for (bool enc : {true, false}) {
      for (size_t off : {0, 3}) {
        Bytes buf(len + 8);
        std::ranges::copy(enc ? pt : ct, buf.begin() + off);
        EVP_CIPHER* c = EVP_CIPHER_fetch(seven_->libctx(), n.name.c_str(), kOurs);
        EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
        ASSERT_EQ(EVP_CipherInit_ex2(ctx, c, key.data(), iv.data(), enc, nullptr), 1);
        EVP_CIPHER_CTX_set_padding(ctx, 0);
        int outl = 0;
        ASSERT_EQ(EVP_CipherUpdate(ctx, buf.data() + off, &outl, buf.data() + off, int(len)), 1);
        EXPECT_EQ(size_t(outl), len);
        EXPECT_TRUE(Bytes(buf.begin() + off, buf.begin() + off + len) == (enc ? ct : pt))
            << "len " << len << " offset " << off << " enc " << enc;
        EVP_CIPHER_CTX_free(ctx);
        EVP_CIPHER_free(c);
      }
    }
  }
}

// CFB and OFB streams of every cipher: after every update `num` is the bytes
// used of the current block, and a fresh context given (updated-iv, num)
// continues the stream exactly (both directions; from 3.0.20 on only at num
// 0, as the default provider takes no other) -- the register semantics
// the lockstep test checks against the default provider, here for the
// ciphers it lacks too.
TEST_P(Modes, StreamStateResumesInAFreshContext) {
  const Named& n = GetParam();
  if (n.mode != ModelMode::kCFB && n.mode != ModelMode::kOFB) GTEST_SKIP() << "not a CFB/OFB stream";
  const size_t bs = n.algo->block_bytes;
  std::mt19937 rng(uint32_t(std::hash<std::string>{}(n.name)) + 3);
  const Bytes key = random_bytes(n.algo->key_bytes), iv = random_bytes(bs), pt = random_bytes(3000);
  Bytes ct;
  ASSERT_TRUE(ModeModel(*n.algo, key.data()).crypt(n.mode, true, false, iv, pt, &ct));
  EVP_CIPHER* c = EVP_CIPHER_fetch(one_->libctx(), n.name.c_str(), kOurs);
  ASSERT_NE(c, nullptr);
  for (bool enc : {true, false}) {
    const Bytes& in = enc ? pt : ct;
    const Bytes& want = enc ? ct : pt;
    EVP_CIPHER_CTX* a = EVP_CIPHER_CTX_new();
    ASSERT_EQ(EVP_CipherInit_ex2(a, c, key.data(), iv.data(), enc, nullptr), 1);
    size_t pos = 0;
    Bytes out(in.size());
    while (pos < in.size()) {
      const size_t len = std::min(in.size() - pos, size_t(rng() % 3 == 0 ? rng() % 200 : rng() % 20));
      int outl = 0;
      ASSERT_EQ(EVP_CipherUpdate(a, out.data() + pos, &outl, in.data() + pos, int(len)), 1);
      pos += len;
      unsigned num = 999;
      Bytes reg(bs);
      OSSL_PARAM g[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                        OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, reg.data(), bs),
                        OSSL_PARAM_END};
      ASSERT_EQ(EVP_CIPHER_CTX_get_params(a, g), 1);
      ASSERT_EQ(num, pos % bs) << "at " << pos;
      if (rng() % 8 != 0 || pos == in.size()) continue;
      EVP_CIPHER_CTX* b = EVP_CIPHER_CTX_new();
      ASSERT_EQ(EVP_CipherInit_ex2(b, c, key.data(), reg.data(), enc, nullptr), 1);
      const OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num), OSSL_PARAM_END};
      if (num != 0 && !default_num_unbounded()) {
        // From 3.0.20 on the default provider takes only num 0 on a stream,
        // and so do we (README, Differences from the default provider).
        EXPECT_EQ(EVP_CIPHER_CTX_set_params(b, p), 0);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(b);
        continue;
      }
      ASSERT_EQ(EVP_CIPHER_CTX_set_params(b, p), 1);
      const size_t rest = std::min<size_t>(in.size() - pos, 500);
      Bytes tail(rest);
      ASSERT_EQ(EVP_CipherUpdate(b, tail.data(), &outl, in.data() + pos, int(rest)), 1);
      EXPECT_EQ(tail, Bytes(want.begin() + pos, want.begin() + pos + rest)) << "resumed at " << pos;
      EVP_CIPHER_CTX_free(b);
    }
    EXPECT_EQ(out, want);
    EVP_CIPHER_CTX_free(a);
  }
  EVP_CIPHER_free(c);
}

INSTANTIATE_TEST_SUITE_P(Every, Modes, ::testing::ValuesIn(all_mode_names()), test_name);

// --- the chained-mode hooks ---------------------------------------------------------

// Every CipherHw chain hook (block_cipher.h): the sequential cbc_encrypt,
// cfb_encrypt and ofb, and the fused cbc_decrypt and cfb_decrypt.
struct ChainHook {
  const char* name;
  CipherHw::ChainFn CipherHw::*hook;
  // The mode layer's function of it: the hook when set, else the composition.
  void (*mode)(const CipherHw&, const void*, size_t, uint8_t*, const uint8_t*, uint8_t*, size_t);
};
constexpr ChainHook kChainHooks[] = {
    {"cbc_encrypt", &CipherHw::cbc_encrypt, cbc_encrypt}, {"cfb_encrypt", &CipherHw::cfb_encrypt, cfb_encrypt},
    {"ofb", &CipherHw::ofb, ofb_crypt},                   {"cbc_decrypt", &CipherHw::cbc_decrypt, cbc_decrypt},
    {"cfb_decrypt", &CipherHw::cfb_decrypt, cfb_decrypt}};

// A chain hook called directly, against the mode layer's composition over
// the same implementation's ECB hooks (a copy of the CipherHw without any
// chain hook): every block count 0 ... 40 (each tail of the 4-, 8-, 24- and
// 32-block batches) and a few past three batches, out of place (misaligned
// both ways) and in place, in one call and split at random points (reg
// carries the chain); the bytes and reg must agree.
struct ChainedCase {
  size_t n, in_off, out_off;
  bool in_place;
};

void check_chained_hook(const CipherAlgo& algo, const CipherHw& hw, const ChainHook& h, std::mt19937& rng) {
  const CipherHw::ChainFn hook = hw.*h.hook;
  CipherHw plain = hw;
  for (const ChainHook& other : kChainHooks) plain.*other.hook = nullptr;
  const size_t bs = algo.block_bytes;
  const Bytes key = random_bytes(algo.key_bytes);
  KeySchedule ks(hw, key);
  std::vector<size_t> counts;
  for (size_t n = 0; n <= 40; ++n) counts.push_back(n);
  for (size_t n : {3 * hw.batch_blocks - 1, 3 * hw.batch_blocks, 3 * hw.batch_blocks + 1, size_t(129)})
    counts.push_back(n);
  for (size_t n : counts) {
    for (const ChainedCase& c : {ChainedCase{n, 0, 0, false}, ChainedCase{n, 1, 5, false},
                                 ChainedCase{n, 0, 0, true}, ChainedCase{n, 3, 3, true}}) {
      SCOPED_TRACE("blocks " + std::to_string(n) + " in+" + std::to_string(c.in_off) + " out+" +
                   std::to_string(c.out_off) + (c.in_place ? " in place" : ""));
      const Bytes input = random_bytes(n * bs), iv = random_bytes(bs);
      Bytes want(n * bs), want_reg = iv;
      h.mode(plain, ks.get(), bs, want_reg.data(), input.data(), want.data(), n);
      for (bool split : {false, true}) {
        // Guard bytes around both buffers: nothing past the n blocks is written.
        Bytes a(n * bs + 2 * bs, 0xa5), b(n * bs + 2 * bs, 0x5a), reg = iv;
        std::ranges::copy(input, a.begin() + c.in_off);
        Bytes want_a = a, want_b = b;
        std::ranges::copy(want, c.in_place ? want_a.begin() + c.in_off : want_b.begin() + c.out_off);
        const uint8_t* in = a.data() + c.in_off;
        uint8_t* out = c.in_place ? a.data() + c.in_off : b.data() + c.out_off;
        if (!split) hook(ks.get(), reg.data(), in, out, n);
        for (size_t done = 0; split && done < n;) {  // pieces of 0 ... 39 blocks
          const size_t k = std::min(n - done, size_t(rng() % 40));
          hook(ks.get(), reg.data(), in + done * bs, out + done * bs, k);
          done += k;
        }
        EXPECT_EQ(to_hex(a), to_hex(want_a)) << (split ? "split" : "one call");
        EXPECT_EQ(to_hex(b), to_hex(want_b)) << (split ? "split" : "one call");
        EXPECT_EQ(to_hex(reg), to_hex(want_reg)) << (split ? "split" : "one call");
      }
    }
  }
}

TEST(ChainedHooks, EveryImplementationMatchesTheComposition) {
  std::mt19937 rng(16);
  int checked = 0;
  for (const Named& n : all_mode_names()) {
    if (n.mode != ModelMode::kCFB) continue;  // each algorithm once
    for (const CipherHw* hw : runnable_impls(*n.algo)) {
      SCOPED_TRACE(std::string(n.algo->name) + " " + hw->name);
      // The Rijndael SIMD paths fuse both decryptions (the mode layer's
      // two-pass staging costs them a fifth of their ECB throughput).
      if (std::string(n.algo->name).find("AES") == 0 || std::string(n.algo->name).find("RIJNDAEL") == 0) {
        if (std::string(hw->name) != "ref") {
          EXPECT_NE(hw->cbc_decrypt, nullptr);
          EXPECT_NE(hw->cfb_decrypt, nullptr);
        }
      }
      for (const ChainHook& h : kChainHooks) {
        if (hw->*h.hook == nullptr) continue;
        SCOPED_TRACE(h.name);
        ASSERT_NO_FATAL_FAILURE(check_chained_hook(*n.algo, *hw, h, rng));
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0);
}

// CipherHw::cfb1 called directly against the composition (one encrypt call
// per bit): 0 ... 300 bits, both directions, out of place (output bytes
// prefilled: bits past nbits must keep their value) and in place, in one
// call and split at byte boundaries (a call starts at bit 7 of its first
// byte).
TEST(ChainedHooks, Cfb1MatchesTheComposition) {
  std::mt19937 rng(1);
  int checked = 0;
  for (const Named& n : all_mode_names()) {
    if (n.mode != ModelMode::kCFB1) continue;
    for (const CipherHw* hw : runnable_impls(*n.algo)) {
      if (hw->cfb1 == nullptr) continue;
      SCOPED_TRACE(std::string(n.algo->name) + " " + hw->name);
      CipherHw plain = *hw;
      plain.cfb1 = nullptr;
      const size_t bs = n.algo->block_bytes;
      KeySchedule ks(*hw, random_bytes(n.algo->key_bytes));
      for (size_t bits = 0; bits <= 300; bits += bits < 20 ? 1 : 7) {
        for (bool enc : {true, false}) {
          for (bool in_place : {false, true}) {
            SCOPED_TRACE(std::to_string(bits) + " bits" + (enc ? " enc" : " dec") + (in_place ? " in place" : ""));
            const size_t bytes = (bits + 7) / 8 + 1;  // one guard byte
            const Bytes in = random_bytes(bytes), pre = random_bytes(bytes), iv = random_bytes(bs);
            Bytes want = in_place ? in : pre, want_reg = iv;
            cfb1_crypt(plain, ks.get(), bs, want_reg.data(), in.data(), want.data(), bits, enc);
            for (bool split : {false, true}) {
              Bytes a = in, b = pre, reg = iv;
              uint8_t* out = in_place ? a.data() : b.data();
              if (!split) hw->cfb1(ks.get(), reg.data(), a.data(), out, bits, enc);
              for (size_t done = 0; split && done < bits;) {
                const size_t k = std::min(bits - done, 8 * size_t(rng() % 5));
                hw->cfb1(ks.get(), reg.data(), a.data() + done / 8, out + done / 8, k, enc);
                done += k;
              }
              EXPECT_EQ(to_hex(in_place ? a : b), to_hex(want)) << (split ? "split" : "one call");
              EXPECT_EQ(to_hex(reg), to_hex(want_reg)) << (split ? "split" : "one call");
            }
          }
        }
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// --- call for call against the default provider ----------------------------------

// One EVP context per provider, driven by the same random program: every
// return code, output byte, num, iv and updated-iv must agree after every
// step (updates of any size, padding toggles, copies, re-inits with key
// and/or IV or neither, direction switches with the key, set num, use-bits).
class Lockstep : public ::testing::TestWithParam<Named> {};

struct Side {
  EVP_CIPHER* c = nullptr;
  EVP_CIPHER_CTX* ctx = nullptr;
};


TEST_P(Lockstep, EveryStepMatchesTheDefaultProvider) {
  const Named& n = GetParam();
  ProviderFixture prov;
  ASSERT_TRUE(prov.ok());
  const size_t kl = n.algo->key_bytes;
  std::mt19937 rng(uint32_t(std::hash<std::string>{}(n.name)) ^ 77);
  for (int round = 0; round < (n.mode == ModelMode::kCFB1 ? 6 : 10); ++round) {
    Side s[2];
    s[0].c = EVP_CIPHER_fetch(prov.libctx(), n.name.c_str(), kOurs);
    s[1].c = EVP_CIPHER_fetch(prov.libctx(), n.name.c_str(), kDefault);
    ASSERT_TRUE(s[0].c && s[1].c);
    Bytes key = random_bytes(kl), iv = random_bytes(16);
    bool enc = round % 2 == 0;
    const bool use_bits = n.mode == ModelMode::kCFB1 && round % 3 == 0;
    for (Side& x : s) {
      x.ctx = EVP_CIPHER_CTX_new();
      ASSERT_EQ(EVP_CipherInit_ex2(x.ctx, x.c, key.data(), round % 4 == 1 ? nullptr : iv.data(), enc, nullptr), 1);
      if (use_bits) EVP_CIPHER_CTX_set_flags(x.ctx, EVP_CIPH_FLAG_LENGTH_BITS);
    }
    const Bytes data = random_bytes(4096);
    std::string trace;
    for (int step = 0; step < 60; ++step) {
      const int op = int(rng() % 10);
      trace += std::to_string(op) + " ";
      SCOPED_TRACE("round " + std::to_string(round) + " ops " + trace);
      int rc[2];
      Bytes out[2];
      switch (op) {
        case 0: case 1: case 2: case 3: {  // update
          size_t len = op == 3 ? rng() % 2000 : rng() % 40;
          if (use_bits) len = rng() % 64;  // bits
          for (int i = 0; i < 2; ++i) {
            out[i].assign(len + 64, 0xa5);  // CFB1 bits keep what the buffer held
            int outl = -1;
            rc[i] = EVP_CipherUpdate(s[i].ctx, out[i].data(), &outl, data.data(), int(len));
            out[i].resize(rc[i] == 1 ? size_t(outl) + (use_bits ? 8 : 0) : 0);
          }
          break;
        }
        case 4: {  // padding toggle
          const int pad = int(rng() % 2);
          for (int i = 0; i < 2; ++i) rc[i] = EVP_CIPHER_CTX_set_padding(s[i].ctx, pad);
          break;
        }
        case 5: {  // copy, continue on the copy
          for (int i = 0; i < 2; ++i) {
            EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
            rc[i] = EVP_CIPHER_CTX_copy(c, s[i].ctx);
            EVP_CIPHER_CTX_free(s[i].ctx);
            s[i].ctx = c;
          }
          break;
        }
        case 6: {  // re-init: key and/or IV or neither; a direction switch brings the key
          const unsigned how = rng() % 8;
          if (how & 1) key = random_bytes(kl);
          if (how & 2) iv = random_bytes(16);
          if (how & 4) enc = !enc;
          for (int i = 0; i < 2; ++i)
            rc[i] = EVP_CipherInit_ex2(s[i].ctx, nullptr, (how & 5) ? key.data() : nullptr,
                                       (how & 2) ? iv.data() : nullptr, enc, nullptr);
          break;
        }
        case 7: {  // set num (CBC: kept, unused; from 3.0.20 on 0 only on a stream)
          unsigned v = rng() % 16;
          for (int i = 0; i < 2; ++i) {
            const OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &v), OSSL_PARAM_END};
            rc[i] = EVP_CIPHER_CTX_set_params(s[i].ctx, p);
          }
          break;
        }
        case 8: {  // final
          for (int i = 0; i < 2; ++i) {
            out[i].assign(64, 0);
            int outl = -1;
            rc[i] = EVP_CipherFinal_ex(s[i].ctx, out[i].data(), &outl);
            out[i].resize(rc[i] == 1 ? size_t(outl) : 0);
          }
          break;
        }
        default:
          rc[0] = rc[1] = 1;
          break;
      }
      ASSERT_EQ(rc[0], rc[1]);
      ASSERT_EQ(to_hex(out[0]), to_hex(out[1]));
      ASSERT_EQ(cipher_ctx_state(s[0].ctx), cipher_ctx_state(s[1].ctx));
      ERR_clear_error();
      // After a failed final the two may legitimately differ; a refused `num`
      // (from 3.0.20 on: any but 0 on a stream) changes nothing.
      if (rc[0] != 1 && op != 7) break;
    }
    for (Side& x : s) {
      EVP_CIPHER_CTX_free(x.ctx);
      EVP_CIPHER_free(x.c);
    }
  }
}

std::vector<Named> peer_names() {
  std::vector<Named> v;
  for (const Named& n : all_mode_names())
    if (n.peer) v.push_back(n);
  return v;
}
INSTANTIATE_TEST_SUITE_P(AesSm4, Lockstep, ::testing::ValuesIn(peer_names()), test_name);

// --- errors ----------------------------------------------------------------------

// A corrupted last CBC block fails as the default provider fails ("bad
// decrypt"); a truncated ciphertext is a wrong final block length.
TEST(ModeErrors, CbcCorruptedOrTruncatedCiphertext) {
  ProviderFixture prov;
  ASSERT_TRUE(prov.ok());
  for (const Named& n : all_mode_names()) {
    if (n.mode != ModelMode::kCBC) continue;
    SCOPED_TRACE(n.name);
    const size_t bs = n.algo->block_bytes;
    const Bytes key = random_bytes(n.algo->key_bytes), iv = random_bytes(bs), pt = random_bytes(5 * bs);
    Bytes ct, out;
    ASSERT_TRUE(evp_crypt(prov.libctx(), n.name.c_str(), kOurs, true, key, iv, pt, &ct));
    // A corrupted last block decrypts to random bytes: bad padding, except
    // by chance (then both providers accept it alike).
    int bad = 0;
    for (size_t t = 0; t < 8; ++t) {
      Bytes c2 = ct;
      c2[c2.size() - 1 - t] ^= uint8_t(0x5a + t);
      const bool ok = evp_crypt(prov.libctx(), n.name.c_str(), kOurs, false, key, iv, c2, &out);
      if (!ok) {
        EXPECT_EQ(last_error(), "bad decrypt");
        ++bad;
      }
      if (n.peer) {
        Bytes theirs;
        EXPECT_EQ(evp_crypt(prov.libctx(), n.name.c_str(), kDefault, false, key, iv, c2, &theirs), ok);
        if (ok) {
          EXPECT_EQ(theirs, out);
        }
      }
      ERR_clear_error();
    }
    EXPECT_GE(bad, 6);
    // Flipping bit 7 of the second-to-last block's last byte flips it in the
    // pad length (a full block of padding: bs ^ 0x80 > bs): always bad.
    ct[ct.size() - bs - 1] ^= 0x80;
    EXPECT_FALSE(evp_crypt(prov.libctx(), n.name.c_str(), kOurs, false, key, iv, ct, &out));
    EXPECT_EQ(last_error(), "bad decrypt");
    if (n.peer) {
      EXPECT_FALSE(evp_crypt(prov.libctx(), n.name.c_str(), kDefault, false, key, iv, ct, &out));
    }
    ERR_clear_error();
    ct.pop_back();
    EXPECT_FALSE(evp_crypt(prov.libctx(), n.name.c_str(), kOurs, false, key, iv, ct, &out));
    EXPECT_EQ(last_error(), "wrong final block length");
    // Without padding the plaintext comes back as it decrypts.
    Bytes raw;
    ASSERT_TRUE(evp_crypt(prov.libctx(), n.name.c_str(), kOurs, true, key, iv, pt, &raw, false));
    ASSERT_TRUE(evp_crypt(prov.libctx(), n.name.c_str(), kOurs, false, key, iv, raw, &out, false));
    EXPECT_EQ(out, pt);
  }
}

// Every name reports the default provider's sizes, mode and flags.
TEST(ModeErrors, ParametersMatchTheDefaultProvider) {
  ProviderFixture prov;
  ASSERT_TRUE(prov.ok());
  for (const Named& n : all_mode_names()) {
    SCOPED_TRACE(n.name);
    EVP_CIPHER* c = EVP_CIPHER_fetch(prov.libctx(), n.name.c_str(), kOurs);
    ASSERT_NE(c, nullptr);
    const size_t bs = n.algo->block_bytes;
    EXPECT_EQ(size_t(EVP_CIPHER_get_iv_length(c)), bs);
    EXPECT_EQ(size_t(EVP_CIPHER_get_block_size(c)), n.mode == ModelMode::kCBC ? bs : 1u);
    const int want_mode = n.mode == ModelMode::kCBC ? EVP_CIPH_CBC_MODE
                          : n.mode == ModelMode::kOFB ? EVP_CIPH_OFB_MODE
                                                      : EVP_CIPH_CFB_MODE;
    EXPECT_EQ(EVP_CIPHER_get_mode(c), want_mode);
    if (n.peer) {
      EVP_CIPHER* d = EVP_CIPHER_fetch(prov.libctx(), n.name.c_str(), kDefault);
      ASSERT_NE(d, nullptr);
      EXPECT_EQ(EVP_CIPHER_get_key_length(c), EVP_CIPHER_get_key_length(d));
      EXPECT_EQ(EVP_CIPHER_get_iv_length(c), EVP_CIPHER_get_iv_length(d));
      EXPECT_EQ(EVP_CIPHER_get_block_size(c), EVP_CIPHER_get_block_size(d));
      EXPECT_EQ(EVP_CIPHER_get_flags(c), EVP_CIPHER_get_flags(d));
      EXPECT_EQ(EVP_CIPHER_get_nid(c), EVP_CIPHER_get_nid(d));
      EVP_CIPHER_free(d);
    }
    EVP_CIPHER_free(c);
  }
}

// The aliases and OIDs fetch the same algorithm as in the default provider.
TEST(ModeErrors, AliasesAndOids) {
  ProviderFixture prov;
  ASSERT_TRUE(prov.ok());
  const std::pair<const char*, const char*> kNames[] = {
      {"AES128", "AES-128-CBC"},  {"AES192", "AES-192-CBC"},  {"AES256", "AES-256-CBC"},
      {"2.16.840.1.101.3.4.1.2", "AES-128-CBC"},  {"2.16.840.1.101.3.4.1.3", "AES-128-OFB"},
      {"2.16.840.1.101.3.4.1.4", "AES-128-CFB"},  {"2.16.840.1.101.3.4.1.22", "AES-192-CBC"},
      {"2.16.840.1.101.3.4.1.23", "AES-192-OFB"}, {"2.16.840.1.101.3.4.1.24", "AES-192-CFB"},
      {"2.16.840.1.101.3.4.1.42", "AES-256-CBC"}, {"2.16.840.1.101.3.4.1.43", "AES-256-OFB"},
      {"2.16.840.1.101.3.4.1.44", "AES-256-CFB"}, {"SM4", "SM4-CBC"},
      {"1.2.156.10197.1.104.2", "SM4-CBC"},       {"SM4-OFB128", "SM4-OFB"},
      {"1.2.156.10197.1.104.3", "SM4-OFB"},       {"SM4-CFB128", "SM4-CFB"},
      {"1.2.156.10197.1.104.4", "SM4-CFB"},       {"SKINNY-256-CBC", "SKINNY-128-256-CBC"},
      {"SKINNY-256-CFB", "SKINNY-128-256-CFB"},   {"SKINNY-256-OFB", "SKINNY-128-256-OFB"}};
  for (const auto& [alias, name] : kNames) {
    EVP_CIPHER* c = EVP_CIPHER_fetch(prov.libctx(), alias, kOurs);
    ASSERT_NE(c, nullptr) << alias;
    EXPECT_TRUE(EVP_CIPHER_is_a(c, name)) << alias << " is not " << name;
    EVP_CIPHER_free(c);
  }
  // The bit-segment modes are AES-only, as in the default provider.
  for (const char* none : {"SM4-CFB8", "SM4-CFB1", "SKINNY-128-256-CFB8", "RIJNDAEL-256-256-CFB1"}) {
    EVP_CIPHER* c = EVP_CIPHER_fetch(prov.libctx(), none, kOurs);
    EXPECT_EQ(c, nullptr) << none;
    EVP_CIPHER_free(c);
  }
  ERR_clear_error();
}

}  // namespace
}  // namespace gpucrypto::test
