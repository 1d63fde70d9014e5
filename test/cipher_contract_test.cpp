// The contract every block cipher implementation meets (ciphers/block_cipher.h),
// checked once for every (algorithm x implementation) pair the impls tables
// list: a new CipherHw in an algorithm's impls, or a new CipherAlgo in
// all_algos() below, is tested here without touching this file (see
// docs/ARCHITECTURE.md, "which tests pick up a new cipher / ISA path").
//
// Per pair: the known answers of test/vectors, the reference over every
// block count 0 .. 3*batch+1 on misaligned and in-place buffers, block
// independence, CTR across carries and wraps, split calls, round trips,
// encrypt-only schedules, and OpenSSL's default provider where it has the
// cipher. Algorithm internals (S-box circuits, key schedules, byte order)
// stay in the per-algorithm tests.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <map>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ciphers/block_cipher.h"
#include "engine/cipher_registry.h"
#include "gpu/launch.h"
#include "platform/cpu_features.h"
#include "test/test_util.h"

namespace gpucrypto {
namespace {

using test::Bytes;
using test::hex;
using test::KeySchedule;
using test::to_hex;

// Every block cipher the library serves (engine/cipher_registry.h), each
// with all its implementations (algo.impls): a new cipher's row is all this
// file needs.
std::vector<const CipherAlgo*> all_algos() {
  std::vector<const CipherAlgo*> v;
  for (const CipherRow& r : cipher_rows()) v.push_back(&r.algo());
  return v;
}

struct Case {
  const CipherAlgo* algo;
  const CipherHw* hw;
};

// gtest prints the parameter in test listings and ctest names.
void PrintTo(const Case& c, std::ostream* os) { *os << c.algo->name << " " << c.hw->name; }

std::vector<Case> all_cases() {
  std::vector<Case> v;
  for (const CipherAlgo* algo : all_algos()) {
    for (const CipherHw* hw : algo->impls) v.push_back({algo, hw});
  }
  return v;
}

// "SM4" + "avx512-gfni" -> "SM4_avx512_gfni".
std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string s = std::string(info.param.algo->name) + "_" + info.param.hw->name;
  for (char& c : s) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return s;
}

// --- test-side counter arithmetic (independent of ctr_add) -----------------

// c + n as a big-endian integer modulo 2^(8*c.size()).
Bytes counter_plus(Bytes c, uint64_t n) {
  for (size_t i = c.size(); i-- > 0 && n != 0;) {
    const uint64_t s = uint64_t(c[i]) + (n & 0xff);
    c[i] = uint8_t(s);
    n = (n >> 8) + (s >> 8);
  }
  return c;
}

// c - n, one byte-wise borrow at a time.
Bytes counter_minus(Bytes c, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    for (size_t i = c.size(); i-- > 0;) {
      if (c[i]-- != 0) break;
    }
  }
  return c;
}

// The CTR keystream every implementation must produce: explicit counter
// blocks start, start+1, ... through the reference ECB encryption.
Bytes keystream(const CipherAlgo& algo, const Bytes& key, const Bytes& start, size_t n) {
  if (n == 0) return {};
  const CipherHw& ref = *algo.impls.back();
  Bytes blocks, c = start;
  for (size_t i = 0; i < n; ++i) {
    blocks.insert(blocks.end(), c.begin(), c.end());
    c = counter_plus(c, 1);
  }
  KeySchedule ks(ref, key, false);
  Bytes out(blocks.size());
  ref.encrypt(ks.get(), blocks.data(), out.data(), n);
  return out;
}

Bytes xor_prefix(const Bytes& data, const Bytes& stream, size_t stream_off, size_t len) {
  Bytes out(len);
  for (size_t i = 0; i < len; ++i) out[i] = data[i] ^ stream[stream_off + i];
  return out;
}

// A buffer whose data starts `misalign` (< 64) bytes past a 64-byte boundary,
// with room to spare: never empty, so no null pointers reach the hooks or
// memcpy even for zero blocks.
class Buffer {
 public:
  Buffer(size_t n, size_t misalign) : store_(n + 128) {
    const auto addr = reinterpret_cast<uintptr_t>(store_.data());
    off_ = (64 - addr % 64) % 64 + misalign % 64;
  }
  uint8_t* data() { return store_.data() + off_; }
  void load(const Bytes& b, size_t n) {
    if (n != 0) std::memcpy(data(), b.data(), n);
  }
  std::string hex(size_t n) { return to_hex(data(), n); }

 private:
  Bytes store_;
  size_t off_ = 0;
};

std::string hex_prefix(const Bytes& b, size_t n) { return to_hex(b.data(), n); }

// --- known-answer vectors from test/vectors ----------------------------

struct Vector {
  std::string name, mode;  // mode: ECB, ECB-iterated or CTR
  Bytes key, iv, pt, ct;
  long iterations = 1;
};

std::string vector_file(const CipherAlgo& algo) {
  const CipherRow* r = find_row(algo.name);
  return r != nullptr && r->vectors != nullptr ? r->vectors : "";
}

// The records of the algorithm's file that apply to it: "cipher" (when
// present) names it, block_bits / key_bits (when present) are its sizes, the
// key has its key length; modes other than ECB / CTR (CBC, OFB, ...) and
// records that are not cipher vectors (round keys, reduced-round checks) are
// left to the per-algorithm tests.
std::vector<Vector> vectors_for(const CipherAlgo& algo, std::string* error) {
  std::vector<Vector> out;
  const std::string file = vector_file(algo);
  if (file.empty()) {
    *error = std::string("no vector file known for ") + algo.name;
    return out;
  }
  const test::KatFile f = test::load_vector_blocks(file);
  if (!f.error.empty()) {
    *error = f.error;
    return out;
  }
  auto field = [](const test::KatRecord& r, const char* k) {
    const auto it = r.find(k);
    return it == r.end() ? std::string() : it->second;
  };
  for (const test::KatRecord& r : f.records) {
    const std::string cipher = field(r, "cipher"), bb = field(r, "block_bits"),
                      kb = field(r, "key_bits");
    if (!cipher.empty() && cipher != algo.name) continue;
    if (!bb.empty() && std::stoul(bb) != 8 * algo.block_bytes) continue;
    if (!kb.empty() && std::stoul(kb) != 8 * algo.key_bytes) continue;
    Vector v;
    v.name = field(r, "name").empty() ? cipher : field(r, "name");
    v.mode = field(r, "mode").empty() ? "ECB" : field(r, "mode");
    v.key = hex(field(r, "key").empty() ? field(r, "tweakey") : field(r, "key"));
    v.iv = hex(field(r, "iv"));
    v.pt = hex(field(r, "plaintext"));
    v.ct = hex(field(r, "ciphertext"));
    if (!field(r, "iterations").empty()) v.iterations = std::stol(field(r, "iterations"));
    if (v.key.size() != algo.key_bytes || v.pt.empty() || v.ct.size() != v.pt.size()) continue;
    const bool ecb = (v.mode == "ECB" || v.mode == "ECB-iterated") && v.iv.empty() &&
                     v.pt.size() % algo.block_bytes == 0;
    const bool ctr = v.mode == "CTR" && v.iv.size() == algo.block_bytes;
    if (!ecb && !ctr) continue;
    if (v.mode == "ECB-iterated" && v.pt.size() != algo.block_bytes) continue;
    out.push_back(v);
  }
  return out;
}

// --- OpenSSL's default provider, for the differential test -------------------

class EvpCipher {
 public:
  explicit EvpCipher(const std::string& name)
      : c_(EVP_CIPHER_fetch(nullptr, name.c_str(), "provider=default")) {}
  ~EvpCipher() { EVP_CIPHER_free(c_); }
  EvpCipher(const EvpCipher&) = delete;
  EvpCipher& operator=(const EvpCipher&) = delete;
  bool ok() const { return c_ != nullptr; }

  // One-shot, no padding; throws on any EVP error.
  Bytes run(const Bytes& key, const Bytes& iv, const Bytes& in, bool enc) const {
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    Bytes out(in.size() + 32);
    int n1 = 0, n2 = 0;
    const bool ok =
        ctx != nullptr &&
        EVP_CipherInit_ex2(ctx, c_, key.data(), iv.empty() ? nullptr : iv.data(), enc ? 1 : 0,
                           nullptr) == 1 &&
        EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
        EVP_CipherUpdate(ctx, out.data(), &n1, in.empty() ? out.data() : in.data(),
                         int(in.size())) == 1 &&
        EVP_CipherFinal_ex(ctx, out.data() + n1, &n2) == 1;
    EVP_CIPHER_CTX_free(ctx);
    if (!ok) throw std::runtime_error("EVP failure");
    out.resize(size_t(n1 + n2));
    return out;
  }

 private:
  EVP_CIPHER* c_;
};

// Counters for the differential test: random, near the full-width wrap, near
// the 2^32 and 2^64 low-word wraps, and low 64 bits all ones with a carry
// chain into the high word.
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
  Bytes iv = test::random_bytes(bs);
  for (size_t i = bs - 9; i < bs; ++i) iv[i] = 0xff;
  iv[bs - 1] = 0xe5;
  ivs.push_back(iv);
  return ivs;
}

// --- the fixture -------------------------------------------------------------

class CipherContract : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    algo_ = GetParam().algo;
    hw_ = GetParam().hw;
    const uint32_t have = cpu_features_detected();
    if ((hw_->required & have) != hw_->required) {
      GTEST_SKIP() << "this CPU lacks features " << hw_->name << " needs (required 0x" << std::hex
                   << hw_->required << ", missing 0x" << (hw_->required & ~have) << ")";
    }
  }
  const CipherAlgo& algo() const { return *algo_; }
  const CipherHw& hw() const { return *hw_; }
  const CipherHw& ref() const { return *algo_->impls.back(); }
  size_t bs() const { return algo_->block_bytes; }
  size_t batch() const { return hw_->batch_blocks; }
  Bytes random_key() const { return test::random_bytes(algo_->key_bytes); }
  // The 01 23 45 .. ef pattern, block_bytes long.
  Bytes pattern() const {
    static constexpr uint8_t kDigits[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
    Bytes p(bs());
    for (size_t i = 0; i < p.size(); ++i) p[i] = kDigits[i % 8];
    return p;
  }

 private:
  const CipherAlgo* algo_ = nullptr;
  const CipherHw* hw_ = nullptr;
};

// The registry's rows (engine/cipher_registry.h) agree with their
// algorithms, are found by every name the tests and bench look them up by,
// and every CUDA kernel has its row.
TEST(CipherRegistry, RowsAgreeWithTheirAlgorithms) {
  for (const CipherRow& r : cipher_rows()) {
    SCOPED_TRACE(r.name);
    EXPECT_STREQ(r.name, r.algo().name);
    EXPECT_EQ(find_row(r.name), &r);
    for (Mode m : kModes) EXPECT_EQ(find_row(r.evp_name(m)), &r) << mode_suffix(m);
    EXPECT_EQ(find_row(std::string(r.name) + "-GCM"), &r);
    EXPECT_NE(r.vectors, nullptr);
    if (r.gcm_names != nullptr) {
      EXPECT_EQ(r.algo().block_bytes, 16u) << "GCM needs a 128-bit block";
      EXPECT_EQ(std::string(r.gcm_names).rfind(std::string(r.name) + "-GCM", 0), 0u) << r.gcm_names;
    }
    if (r.gpu) {
      EXPECT_EQ(&row_of(*r.gpu), &r);
      EXPECT_EQ(gpu::block_bytes(*r.gpu), r.algo().block_bytes);
      EXPECT_EQ(gpu::key_bytes(*r.gpu), r.algo().key_bytes);
    }
  }
  EXPECT_EQ(find_row("NO-SUCH-CIPHER-CBC"), nullptr);
  // gpu::Cipher has no count enumerator (its switches stay exhaustive): its last value bounds it.
  for (int c = 0; c <= int(gpu::Cipher::kAES256); ++c) {
    const auto it = std::find_if(cipher_rows().begin(), cipher_rows().end(),
                                 [&](const CipherRow& r) { return r.gpu == gpu::Cipher(c); });
    EXPECT_NE(it, cipher_rows().end()) << "gpu::Cipher " << c << " has no registry row";
  }
}

// The table itself: best first, the portable reference last, one name per
// implementation, sizes the hooks can work with.
TEST(CipherContractTable, EveryAlgorithmListsItsImplementations) {
  for (const CipherAlgo* algo : all_algos()) {
    SCOPED_TRACE(algo->name);
    ASSERT_FALSE(algo->impls.empty());
    EXPECT_LE(algo->block_bytes, kMaxBlockBytes);
    const CipherHw& ref = *algo->impls.back();
    EXPECT_STREQ(ref.name, "ref");
    EXPECT_EQ(ref.required, 0u);
    EXPECT_EQ(&select_hw(*algo, 0), &ref);
    EXPECT_EQ(find_hw(*algo, "ref"), &ref);
    EXPECT_EQ(find_hw(*algo, "no-such-implementation"), nullptr);
    for (size_t i = 0; i < algo->impls.size(); ++i) {
      const CipherHw* hw = algo->impls[i];
      SCOPED_TRACE(hw->name);
      EXPECT_EQ(find_hw(*algo, hw->name), hw) << "implementation names must be unique";
      EXPECT_GE(hw->batch_blocks, 1u);
      EXPECT_GT(hw->ks_bytes, 0u);
      EXPECT_TRUE(hw->setkey != nullptr && hw->encrypt != nullptr && hw->decrypt != nullptr &&
                  hw->ctr != nullptr);
      // With exactly this implementation's features, the selection is it or
      // one listed before it (best first).
      const CipherHw* sel = &select_hw(*algo, hw->required);
      const auto pos = std::find(algo->impls.begin(), algo->impls.end(), sel);
      EXPECT_LE(size_t(pos - algo->impls.begin()), i);
    }
  }
}

// Known answers of test/vectors: ECB both ways (the encryption through
// an encrypt-only schedule), the same blocks in every lane of several
// batches, vectors of one key in one call, iterated encryption, and CTR with
// whole and partial blocks and the counter left behind.
TEST_P(CipherContract, KnownAnswers) {
  std::string error;
  const std::vector<Vector> vs = vectors_for(algo(), &error);
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_FALSE(vs.empty()) << "no vectors for " << algo().name << " in " << vector_file(algo());
  std::map<std::string, std::pair<Bytes, Bytes>> by_key;  // ECB vectors of one key, concatenated
  for (const Vector& v : vs) {
    SCOPED_TRACE(v.name);
    if (v.mode == "ECB") {
      EXPECT_EQ(to_hex(test::ecb_encrypt(algo(), hw(), v.key, v.pt)), to_hex(v.ct));
      EXPECT_EQ(to_hex(test::ecb_decrypt(algo(), hw(), v.key, v.ct)), to_hex(v.pt));
      const size_t blocks = v.pt.size() / bs(), reps = (3 * batch() + 5 + blocks - 1) / blocks;
      Bytes many_pt, many_ct;
      for (size_t i = 0; i < reps; ++i) {
        many_pt.insert(many_pt.end(), v.pt.begin(), v.pt.end());
        many_ct.insert(many_ct.end(), v.ct.begin(), v.ct.end());
      }
      EXPECT_EQ(test::ecb_encrypt(algo(), hw(), v.key, many_pt), many_ct);
      EXPECT_EQ(test::ecb_decrypt(algo(), hw(), v.key, many_ct), many_pt);
      auto& [pt, ct] = by_key[to_hex(v.key)];
      pt.insert(pt.end(), v.pt.begin(), v.pt.end());
      ct.insert(ct.end(), v.ct.begin(), v.ct.end());
    } else if (v.mode == "ECB-iterated") {
      // Each output fed back, one single-block call at a time.
      KeySchedule ks(hw(), v.key);
      Bytes block = v.pt;
      for (long i = 0; i < v.iterations; ++i) hw().encrypt(ks.get(), block.data(), block.data(), 1);
      EXPECT_EQ(to_hex(block), to_hex(v.ct));
      for (long i = 0; i < v.iterations; ++i) hw().decrypt(ks.get(), block.data(), block.data(), 1);
      EXPECT_EQ(to_hex(block), to_hex(v.pt));
    } else {
      EXPECT_EQ(to_hex(test::ctr_crypt(algo(), hw(), v.key, v.iv, v.pt)), to_hex(v.ct));
      EXPECT_EQ(to_hex(test::ctr_crypt(algo(), hw(), v.key, v.iv, v.ct)), to_hex(v.pt));
      const size_t full = v.pt.size() / bs();
      KeySchedule ks(hw(), v.key, false);
      Bytes c = v.iv, out(v.pt.size());
      hw().ctr(ks.get(), c.data(), v.pt.data(), out.data(), full);
      EXPECT_EQ(to_hex(c), to_hex(counter_plus(v.iv, full))) << "counter after " << full;
    }
  }
  for (const auto& [key, pair] : by_key) {
    SCOPED_TRACE("all ECB vectors of key " + key + " in one call");
    EXPECT_EQ(to_hex(test::ecb_encrypt(algo(), hw(), hex(key), pair.first)), to_hex(pair.second));
    EXPECT_EQ(to_hex(test::ecb_decrypt(algo(), hw(), hex(key), pair.second)), to_hex(pair.first));
  }
}

// ECB both ways and CTR against the reference over every block count
// 0 .. 3*batch+1 (every SIMD tail), from misaligned buffers, out of place
// and in place, with random counters and counters wrapping their low 64 bits
// or the whole block inside the run. ECB is blockwise and CTR a prefix of one
// keystream, so a run of n blocks equals the first n blocks of the full run.
TEST_P(CipherContract, MatchesReferenceEveryLengthMisalignedInPlace) {
  const size_t max_n = 3 * batch() + 1, max_bytes = max_n * bs();
  for (int trial = 0; trial < 3; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Bytes key = random_key(), data = test::random_bytes(max_bytes);
    Bytes iv = test::random_bytes(bs());
    if (trial == 1) {  // the low 64 bits wrap in the middle of the run
      for (size_t i = bs() - 8; i < bs(); ++i) iv[i] = 0xff;
      iv = counter_minus(iv, max_n / 2);
    } else if (trial == 2) {  // the whole counter wraps a third into the run
      iv = counter_minus(Bytes(bs(), 0xff), max_n / 3);
    }
    KeySchedule ks(hw(), key), rks(ref(), key);
    Bytes ref_ct(max_bytes), ref_pt(max_bytes), ref_ctr(max_bytes), ref_c = iv;
    ref().encrypt(rks.get(), data.data(), ref_ct.data(), max_n);
    ref().decrypt(rks.get(), data.data(), ref_pt.data(), max_n);
    ref().ctr(rks.get(), ref_c.data(), data.data(), ref_ctr.data(), max_n);
    EXPECT_EQ(to_hex(ref_c), to_hex(counter_plus(iv, max_n)));
    for (size_t n = 0; n <= max_n; ++n) {
      const size_t bytes = n * bs();
      Buffer in(max_bytes, 1 + (n + trial) % 63), out(max_bytes, 3 + (5 * n + trial) % 59);
      in.load(data, bytes);
      hw().encrypt(ks.get(), in.data(), out.data(), n);
      ASSERT_EQ(out.hex(bytes), hex_prefix(ref_ct, bytes)) << "encrypt n=" << n;
      hw().decrypt(ks.get(), in.data(), out.data(), n);
      ASSERT_EQ(out.hex(bytes), hex_prefix(ref_pt, bytes)) << "decrypt n=" << n;
      Bytes c = iv;
      hw().ctr(ks.get(), c.data(), in.data(), out.data(), n);
      ASSERT_EQ(out.hex(bytes), hex_prefix(ref_ctr, bytes)) << "ctr n=" << n;
      ASSERT_EQ(to_hex(c), to_hex(counter_plus(iv, n))) << "counter n=" << n;
      // In place.
      hw().encrypt(ks.get(), in.data(), in.data(), n);
      ASSERT_EQ(in.hex(bytes), hex_prefix(ref_ct, bytes)) << "in-place encrypt n=" << n;
      in.load(data, bytes);
      hw().decrypt(ks.get(), in.data(), in.data(), n);
      ASSERT_EQ(in.hex(bytes), hex_prefix(ref_pt, bytes)) << "in-place decrypt n=" << n;
      in.load(data, bytes);
      c = iv;
      hw().ctr(ks.get(), c.data(), in.data(), in.data(), n);
      ASSERT_EQ(in.hex(bytes), hex_prefix(ref_ctr, bytes)) << "in-place ctr n=" << n;
      ASSERT_EQ(to_hex(c), to_hex(counter_plus(iv, n))) << "in-place counter n=" << n;
      if (n % 2 == 1) {  // the low 64 bits wrap inside this very call, at block n/2
        Bytes wiv = iv;
        for (size_t i = bs() - std::min<size_t>(8, bs()); i < bs(); ++i) wiv[i] = 0xff;
        wiv = counter_minus(wiv, n / 2);
        Bytes want(bytes), c1 = wiv, c2 = wiv;
        ref().ctr(rks.get(), c1.data(), data.data(), want.data(), n);
        in.load(data, bytes);
        hw().ctr(ks.get(), c2.data(), in.data(), out.data(), n);
        ASSERT_EQ(out.hex(bytes), to_hex(want)) << "ctr n=" << n << " iv=" << to_hex(wiv);
        ASSERT_EQ(to_hex(c2), to_hex(c1)) << "counter n=" << n;
      }
    }
    // Lanes are independent: each block of the full run equals a one-block call.
    if (trial == 0) {
      for (size_t i = 0; i < max_n; ++i) {
        Bytes one(bs());
        hw().encrypt(ks.get(), data.data() + i * bs(), one.data(), 1);
        ASSERT_EQ(to_hex(one), to_hex(ref_ct.data() + i * bs(), bs())) << "block " << i;
        hw().decrypt(ks.get(), data.data() + i * bs(), one.data(), 1);
        ASSERT_EQ(to_hex(one), to_hex(ref_pt.data() + i * bs(), bs())) << "block " << i;
      }
    }
  }
}

// CTR from counters just below a carry out of the low 1, 2, 4, 6, 8 and 9
// bytes, into the top bit, across a high word, and out of the whole block
// (ff..ff wraps to 00..00), at every position within a batch and some farther
// back, against the keystream of explicit counter blocks; out of place and
// in place, misaligned, and the counter left behind.
TEST_P(CipherContract, CtrCarriesAndWraps) {
  const Bytes key = random_key();
  KeySchedule ks(hw(), key, false);
  const Bytes all_ff(bs(), 0xff);
  std::vector<Bytes> bases = {Bytes(bs(), 0), pattern(), all_ff};
  for (size_t low : {1, 2, 4, 6, 8, 9}) {
    if (low >= bs()) continue;
    Bytes b = pattern();
    for (size_t i = bs() - low; i < bs(); ++i) b[i] = 0xff;
    bases.push_back(b);
  }
  Bytes top = all_ff;  // 7f ff .. ff: the carry reaches the top bit
  top[0] = 0x7f;
  bases.push_back(top);
  Bytes high_zero = all_ff;  // 00 00 00 00 ff .. ff
  std::fill(high_zero.begin(), high_zero.begin() + std::min<size_t>(4, bs() / 2), 0);
  bases.push_back(high_zero);
  if (bs() > 8) {
    Bytes b = all_ff;  // ff .. fe ff ff ff ff ff ff ff ff: carry stops in the high word
    b[bs() - 9] = 0xfe;
    bases.push_back(b);
  }
  if (bs() >= 16) {
    Bytes b = all_ff;  // ff .. ff 00 00 00 00 ff*8
    std::fill(b.end() - 12, b.end() - 8, 0);
    bases.push_back(b);
  }
  std::vector<size_t> backs;
  for (size_t b = 0; b <= std::max<size_t>(batch() + 1, 40); ++b) backs.push_back(b);
  for (size_t b : {47, 62, 101, 126, 199, 200, 255}) backs.push_back(b);
  const size_t max_back = 255, main_n = std::max<size_t>(3 * batch() + 1, 70);
  const std::vector<size_t> extra_n = {0, 1, 7, 33, batch(), 2 * batch() + 3, 300};
  const size_t max_n = std::max<size_t>(main_n, 300);
  const Bytes data = test::random_bytes(max_n * bs());
  for (const Bytes& base : bases) {
    const Bytes first = counter_minus(base, max_back);
    const Bytes stream = keystream(algo(), key, first, max_back + max_n);
    for (size_t back : backs) {
      const Bytes start = counter_minus(base, back);
      std::vector<size_t> ns = {main_n};
      for (size_t b : {0, 1, 12, 24, 26, 47, 62, 101, 200}) {
        if (back == b) ns.insert(ns.end(), extra_n.begin(), extra_n.end());
      }
      for (size_t n : ns) {
        SCOPED_TRACE(to_hex(base) + " - " + std::to_string(back) + ", n=" + std::to_string(n));
        const size_t bytes = n * bs();
        const std::string want = to_hex(xor_prefix(data, stream, (max_back - back) * bs(), bytes));
        const std::string want_c = to_hex(counter_plus(start, n));
        Buffer in(bytes, 1 + back % 61), out(bytes, 2 + n % 47);
        in.load(data, bytes);
        Bytes c = start;
        hw().ctr(ks.get(), c.data(), in.data(), out.data(), n);
        ASSERT_EQ(out.hex(bytes), want);
        ASSERT_EQ(to_hex(c), want_c);
        c = start;
        hw().ctr(ks.get(), c.data(), in.data(), in.data(), n);
        ASSERT_EQ(in.hex(bytes), want) << "in place";
        ASSERT_EQ(to_hex(c), want_c) << "in place";
      }
    }
  }
  // The counter left behind, by value: ff..ff + k = 00..0(k-1).
  for (size_t k = 1; k <= 3; ++k) {
    Bytes c = all_ff, expect(bs(), 0);
    expect[bs() - 1] = uint8_t(k - 1);
    Bytes out(k * bs());
    hw().ctr(ks.get(), c.data(), data.data(), out.data(), k);
    EXPECT_EQ(to_hex(c), to_hex(expect)) << "ff..ff + " << k;
  }
  // A partial final block through the whole-and-tail helper, across the wrap.
  const Bytes start = counter_minus(all_ff, 21), in = test::random_bytes(40 * bs() + 5);
  EXPECT_EQ(to_hex(test::ctr_crypt(algo(), hw(), key, start, in)),
            to_hex(xor_prefix(in, keystream(algo(), key, start, 41), 0, in.size())));
}

// One long call equals many calls of other block counts (random ones,
// including empty calls, and fixed uneven patterns), in ECB both ways and in
// CTR with the counter carried from call to call across low-word and
// full-width wraps.
TEST_P(CipherContract, SplitCallsMatchOneCall) {
  const Bytes key = random_key();
  KeySchedule ks(hw(), key);
  const size_t n = std::max<size_t>(5 * batch() + 7, 700), bytes = n * bs();
  const Bytes data = test::random_bytes(bytes);
  std::mt19937_64 rng(n * 131 + bs());
  std::vector<std::vector<size_t>> patterns;
  for (int r = 0; r < 3; ++r) {
    std::vector<size_t> p;
    for (size_t done = 0; done < n;) {
      const size_t k = std::min<size_t>(rng() % (2 * batch() + 4), n - done);
      p.push_back(k);
      done += k;
    }
    patterns.push_back(p);
  }
  auto fixed = [&](auto next) {
    std::vector<size_t> p;
    size_t step = 1;
    for (size_t done = 0; done < n; step = next(step)) {
      const size_t k = std::min(step, n - done);
      p.push_back(k);
      done += k;
    }
    patterns.push_back(p);
  };
  fixed([](size_t s) { return s * 3 % 37 + 1; });
  fixed([](size_t s) { return s * 3 + 1; });
  patterns.push_back({5, batch() + 2, 1, n - 8 - batch()});
  patterns.push_back({1, 2, 3, 5, 7, 33, 64, 1, 70, 115, n - 301});

  Bytes whole_ct(bytes), whole_pt(bytes);
  hw().encrypt(ks.get(), data.data(), whole_ct.data(), n);
  hw().decrypt(ks.get(), data.data(), whole_pt.data(), n);
  Bytes low4 = pattern(), low8 = pattern();
  for (size_t i = bs() - 4; i < bs(); ++i) low4[i] = 0xff;
  for (size_t i = bs() - 8; i < bs(); ++i) low8[i] = 0xff;
  const std::vector<Bytes> starts = {counter_minus(low4, 15), counter_minus(low4, 255),
                                     counter_minus(low4, 6), counter_minus(low8, 12),
                                     counter_minus(Bytes(bs(), 0xff), 4)};
  std::vector<std::string> wants;
  for (const Bytes& start : starts) {
    wants.push_back(to_hex(xor_prefix(data, keystream(algo(), key, start, n), 0, bytes)));
  }
  for (size_t pi = 0; pi < patterns.size(); ++pi) {
    SCOPED_TRACE("pattern " + std::to_string(pi));
    Bytes ct(bytes), pt(bytes);
    size_t done = 0;
    for (size_t k : patterns[pi]) {
      hw().encrypt(ks.get(), data.data() + done * bs(), ct.data() + done * bs(), k);
      hw().decrypt(ks.get(), data.data() + done * bs(), pt.data() + done * bs(), k);
      done += k;
    }
    ASSERT_EQ(done, n);
    EXPECT_EQ(to_hex(ct), to_hex(whole_ct)) << "ECB encrypt";
    EXPECT_EQ(to_hex(pt), to_hex(whole_pt)) << "ECB decrypt";
    for (size_t si = 0; si < starts.size(); ++si) {
      const Bytes& start = starts[si];
      const std::string& want = wants[si];
      SCOPED_TRACE("counter " + to_hex(start));
      const std::string want_c = to_hex(counter_plus(start, n));
      if (pi == 0) {
        Bytes c = start, out(bytes);
        hw().ctr(ks.get(), c.data(), data.data(), out.data(), n);
        EXPECT_EQ(to_hex(out), want) << "one call";
        EXPECT_EQ(to_hex(c), want_c) << "one call";
      }
      Bytes c = start, out(bytes);
      done = 0;
      for (size_t k : patterns[pi]) {
        hw().ctr(ks.get(), c.data(), data.data() + done * bs(), out.data() + done * bs(), k);
        done += k;
      }
      EXPECT_EQ(to_hex(out), want);
      EXPECT_EQ(to_hex(c), want_c);
    }
  }
}

// decrypt(encrypt(x)) == x, out of place and in place, misaligned.
TEST_P(CipherContract, RoundTrip) {
  std::mt19937_64 rng(99 + bs());
  std::vector<size_t> ns = {0, 1, 98, 195, 292, 2 * batch() + 3};
  for (int i = 0; i < 3; ++i) ns.push_back(rng() % 100);
  for (size_t n : ns) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const Bytes key = random_key();
    KeySchedule ks(hw(), key);
    const size_t len = n * bs();
    const Bytes pt = test::random_bytes(len);
    Buffer buf(len, rng() % 64), ct(len, rng() % 64);
    buf.load(pt, len);
    hw().encrypt(ks.get(), buf.data(), ct.data(), n);
    if (n > 0) {
      EXPECT_NE(ct.hex(len), to_hex(pt));
    }
    hw().decrypt(ks.get(), ct.data(), buf.data(), n);
    EXPECT_EQ(buf.hex(len), to_hex(pt));
    hw().encrypt(ks.get(), buf.data(), buf.data(), n);
    if (n > 0) {
      EXPECT_NE(buf.hex(len), to_hex(pt));
    }
    hw().decrypt(ks.get(), buf.data(), buf.data(), n);
    EXPECT_EQ(buf.hex(len), to_hex(pt));
  }
}

// A schedule set up with with_decrypt = false (as the provider does for CTR
// and ECB encryption) encrypts and runs CTR exactly like a full one.
TEST_P(CipherContract, EncryptOnlyScheduleEncryptsTheSame) {
  for (int trial = 0; trial < 2; ++trial) {
    const Bytes key = random_key();
    KeySchedule full(hw(), key, true), enc_only(hw(), key, false);
    const size_t n = 2 * batch() + 3;
    const Bytes pt = test::random_bytes(n * bs()), iv = test::random_bytes(bs());
    Bytes a(pt.size()), b(pt.size()), ca = iv, cb = iv;
    hw().encrypt(full.get(), pt.data(), a.data(), n);
    hw().encrypt(enc_only.get(), pt.data(), b.data(), n);
    EXPECT_EQ(to_hex(b), to_hex(a));
    hw().ctr(full.get(), ca.data(), pt.data(), a.data(), n);
    hw().ctr(enc_only.get(), cb.data(), pt.data(), b.data(), n);
    EXPECT_EQ(to_hex(b), to_hex(a));
    EXPECT_EQ(to_hex(cb), to_hex(ca));
  }
}

// Differential against OpenSSL's default provider, for the algorithms it
// has under the same name (AES-128/192/256, SM4): random lengths from
// misaligned and in-place buffers with interesting counters, byte lengths
// with partial final blocks, and CTR in uneven calls across wraps.
TEST_P(CipherContract, MatchesOpenSslDefaultProvider) {
  const EvpCipher ecb(std::string(algo().name) + "-ECB"), ctr(std::string(algo().name) + "-CTR");
  if (!ecb.ok() || !ctr.ok()) {
    GTEST_SKIP() << "OpenSSL's default provider has no " << algo().name << "-ECB/-CTR";
  }
  std::mt19937_64 rng(20240611);
  const int iterations = std::strcmp(hw().name, "ref") == 0 ? 12 : 60;
  for (int it = 0; it < iterations; ++it) {
    const Bytes key = random_key();
    KeySchedule ks(hw(), key, true);
    const size_t nblocks = rng() % (4 * batch() + 40), n = nblocks * bs();
    const Bytes pt = test::random_bytes(n);
    const bool in_place = it % 3 == 0;
    Buffer bin(n, rng() % 64), bout(n, rng() % 64);
    uint8_t* out = in_place ? bin.data() : bout.data();
    auto out_hex = [&] { return to_hex(out, n); };
    const Bytes want_ct = ecb.run(key, {}, pt, true);
    bin.load(pt, n);
    hw().encrypt(ks.get(), bin.data(), out, nblocks);
    ASSERT_EQ(out_hex(), to_hex(want_ct)) << "ECB enc, blocks=" << nblocks;
    bin.load(want_ct, n);
    hw().decrypt(ks.get(), bin.data(), out, nblocks);
    ASSERT_EQ(out_hex(), to_hex(pt)) << "ECB dec, blocks=" << nblocks;
    for (const Bytes& iv : interesting_ivs(bs(), rng)) {
      const Bytes want = ctr.run(key, iv, pt, true);
      bin.load(pt, n);
      Bytes c = iv;
      hw().ctr(ks.get(), c.data(), bin.data(), out, nblocks);
      ASSERT_EQ(out_hex(), to_hex(want)) << "CTR iv=" << to_hex(iv) << " blocks=" << nblocks;
      EXPECT_EQ(to_hex(c), to_hex(counter_plus(iv, nblocks))) << "counter after " << nblocks;
    }
  }
  // Byte lengths (partial final CTR blocks) from counters about to carry.
  for (int trial = 0; trial < 8; ++trial) {
    const Bytes key = random_key();
    for (size_t len : {0, 1, 15, 16, 17, 100, 1000, 4096 + 7}) {
      const Bytes data = test::random_bytes(len);
      Bytes iv = test::random_bytes(bs());
      if (trial % 4 == 1) std::fill(iv.end() - 4, iv.end(), 0xff);  // carry out of 32 bits
      if (trial % 4 == 2) std::fill(iv.end() - 8, iv.end(), 0xff);  // carry out of 64 bits
      if (trial % 4 == 3) std::fill(iv.begin(), iv.end(), 0xff);    // full-width wrap
      EXPECT_EQ(to_hex(test::ctr_crypt(algo(), hw(), key, iv, data)),
                to_hex(ctr.run(key, iv, data, true)))
          << "ctr len " << len;
      const Bytes whole(data.begin(), data.begin() + long(len / bs() * bs()));
      EXPECT_EQ(to_hex(test::ecb_encrypt(algo(), hw(), key, whole)),
                to_hex(ecb.run(key, {}, whole, true)))
          << "ecb len " << len;
    }
  }
  // A long CTR run in calls of odd sizes equals one OpenSSL call, across the
  // 2^32, 2^64 and full-width wraps.
  const Bytes key = random_key();
  KeySchedule ks(hw(), key, false);
  for (const char* ivhex : {"0123456789abcdef00000000fffffff9", "0123456789abcdeffffffffffffffff3",
                            "fffffffffffffffffffffffffffffffb"}) {
    SCOPED_TRACE(ivhex);
    const Bytes iv = hex(ivhex), pt = test::random_bytes(301 * bs());
    ASSERT_EQ(iv.size(), bs());
    Bytes c = iv, out(pt.size());
    size_t done = 0;
    for (size_t chunk : {1, 2, 3, 5, 7, 33, 64, 1, 70, 115}) {
      hw().ctr(ks.get(), c.data(), pt.data() + bs() * done, out.data() + bs() * done, chunk);
      done += chunk;
    }
    ASSERT_EQ(done, 301u);
    EXPECT_EQ(to_hex(out), to_hex(ctr.run(key, iv, pt, true)));
  }
}

INSTANTIATE_TEST_SUITE_P(Every, CipherContract, ::testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace gpucrypto
