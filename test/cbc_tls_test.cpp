// TLS record mode of the block ciphers (provider/cipher_tls.h), driven through
// EVP exactly as libssl drives a provided CBC cipher: EVP_CipherInit, then
// tls-version and tls-mac-size, one in-place EVP_CipherUpdate per record,
// tls-mac read back after each decryption. Record by record against the
// default provider (AES-128/192/256-CBC and SM4-CBC; ECB and the stream
// modes in lockstep only): same return value, same outl, same bytes in the
// whole buffer, same MAC (a random one on both when the padding is bad, and
// never the record's), the MAC owned by the context in the block modes and
// pointing into the record in the stream modes. Every record is also checked
// against a plain model of the SSL 3.0 / TLS rules (RFC 5246 6.2.3.2), which
// is all our other CBC ciphers (SKINNY, RECTANGLE, wide-block Rijndael) are
// compared with. Records: good, bad padding bytes, bad padding length, SSL
// 3.0 non-minimal padding, garbage, too short for the MAC or the explicit IV,
// not whole blocks, unknown versions; MAC sizes 0 (encrypt-then-MAC), 20, 32,
// 48. The counts are printed.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/prov_ssl.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "engine/cipher_registry.h"
#include "test/mode_model.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

constexpr const char* kOurs = "provider=gpucrypto";
constexpr const char* kDefault = "provider=default";
constexpr unsigned kVersions[] = {SSL3_VERSION, TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION,
                                  DTLS1_2_VERSION, 0x0304 /* TLS 1.3: no CBC records */};
constexpr size_t kMacSizes[] = {0, 20, 32, 48};

bool explicit_iv(unsigned v) { return v != SSL3_VERSION && v != TLS1_VERSION; }

struct Named {
  std::string name;
  const CipherAlgo* algo;
  bool peer;  // the default provider has it
};

std::vector<Named> cbc_ciphers() {
  std::vector<Named> v;
  for (const CipherRow& r : cipher_rows()) v.push_back({r.evp_name(Mode::kCBC), &r.algo(), r.in_default});
  return v;
}

std::string test_name(const ::testing::TestParamInfo<Named>& info) { return gtest_name(info.param.name); }

// What one update of one record gave.
struct Record {
  int ret = 0;
  int outl = -1;
  Bytes buf;  // the whole buffer (record and the room after it)
  bool mac_null = true, mac_in_buf = false;
  size_t mac_off = 0;  // into buf, when mac_in_buf
  Bytes mac;
};

// One EVP context in TLS record mode, as libssl keeps one per direction.
class TlsCtx {
 public:
  TlsCtx(OSSL_LIB_CTX* lib, const std::string& name, const char* propq, bool enc, const Bytes& key,
         const Bytes& iv, unsigned version, size_t mac_size)
      : mac_size_(mac_size) {
    cipher_ = EVP_CIPHER_fetch(lib, name.c_str(), propq);
    ctx_ = EVP_CIPHER_CTX_new();
    if (cipher_ == nullptr || ctx_ == nullptr) return;
    if (EVP_CipherInit_ex2(ctx_, cipher_, key.data(), iv.empty() ? nullptr : iv.data(), enc ? 1 : 0,
                           nullptr) != 1)
      return;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &version),
                      OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac_size),
                      OSSL_PARAM_construct_end()};
    ok_ = EVP_CIPHER_CTX_set_params(ctx_, p) == 1;
  }
  ~TlsCtx() {
    EVP_CIPHER_CTX_free(ctx_);
    EVP_CIPHER_free(cipher_);
  }
  TlsCtx(const TlsCtx&) = delete;
  TlsCtx& operator=(const TlsCtx&) = delete;
  bool ok() const { return ok_; }
  EVP_CIPHER_CTX* get() const { return ctx_; }

  // `room` bytes after the record (libssl leaves room for the padding; EVP
  // hands the provider inl + block size).
  // The buffers stay alive with the context: a stream mode's tls-mac points
  // into the last record it split (also after a record it refused).
  Record record(const Bytes& in, size_t room, bool in_place = true) {
    Record r;
    Bytes& buf = *buffers_.emplace_back(std::make_unique<Bytes>(in.size() + room, 0xee));
    std::copy(in.begin(), in.end(), buf.begin());
    Bytes other(buf);
    r.ret = EVP_CipherUpdate(ctx_, in_place ? buf.data() : other.data(), &r.outl, buf.data(),
                             int(in.size()));
    read_mac(&r, buf);
    r.buf = buf;
    ERR_clear_error();
    return r;
  }
  void read_mac(Record* r, const Bytes& buf) const {
    void* mac = nullptr;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, &mac, mac_size_),
                      OSSL_PARAM_construct_end()};
    if (EVP_CIPHER_CTX_get_params(ctx_, p) != 1) {
      r->mac_null = false;
      r->mac = {0xde, 0xad};  // marks a failed get
      return;
    }
    r->mac_null = mac == nullptr;
    if (mac == nullptr) return;
    const auto* m = static_cast<const uint8_t*>(mac);
    r->mac.assign(m, m + mac_size_);
    r->mac_in_buf = m >= buf.data() && m < buf.data() + buf.size();
    if (r->mac_in_buf) r->mac_off = size_t(m - buf.data());
  }

 private:
  EVP_CIPHER* cipher_ = nullptr;
  EVP_CIPHER_CTX* ctx_ = nullptr;
  size_t mac_size_;
  bool ok_ = false;
  std::vector<std::unique_ptr<Bytes>> buffers_;
};

// The SSL 3.0 / TLS rules, the plain way, on a decrypted record.
struct Expect {
  bool ok = false;
  size_t outl = 0;
  bool good = false;  // padding well formed: mac is the record's
  Bytes mac;          // the record's MAC (good), or the bytes a bad padding must not return
};

Expect model_unpad(unsigned version, size_t bs, size_t mac_size, const Bytes& plain) {
  Expect e;
  const bool known = version == SSL3_VERSION || version == TLS1_VERSION ||
                     version == TLS1_1_VERSION || version == TLS1_2_VERSION ||
                     version == DTLS1_2_VERSION;
  if (!known || plain.size() % bs != 0) return e;
  size_t at = 0, len = plain.size();
  if (explicit_iv(version)) {
    if (len < bs) return e;
    at = bs;
    len -= bs;
  }
  if (len < 1 + mac_size) return e;
  const size_t pad = plain[at + len - 1];
  bool good = len >= 1 + mac_size + pad;
  if (version == SSL3_VERSION) {
    good = good && pad + 1 <= bs;
  } else {
    for (size_t i = 0; good && i <= pad; ++i) good = plain[at + len - 1 - i] == pad;
  }
  if (mac_size == 0 && !good) return e;
  e.ok = true;
  e.good = good;
  e.outl = len - mac_size - (good ? pad + 1 : 0);
  e.mac.assign(plain.begin() + long(at + e.outl), plain.begin() + long(at + e.outl + mac_size));
  return e;
}

// Counts for the summary line.
struct Tally {
  size_t compared = 0, modelled = 0, good = 0, bad_padding = 0, rejected = 0, encrypted = 0;
  void print(const std::string& what) const {
    if (encrypted != 0) {
      std::printf("cbc_tls: %-30s %5zu records against the model and decrypted back, %5zu against the default provider\n",
                  what.c_str(), encrypted, compared);
      return;
    }
    std::printf("cbc_tls: %-30s %5zu records against the model (%zu good, %zu bad padding -> random MAC, "
                "%zu rejected), %5zu against the default provider\n",
                what.c_str(), modelled, good, bad_padding, rejected, compared);
  }
};

void expect_same(const Record& ours, const Record& ref, const std::string& what) {
  EXPECT_EQ(ours.ret, ref.ret) << what;
  EXPECT_EQ(ours.outl, ref.outl) << what;
  EXPECT_EQ(to_hex(ours.buf), to_hex(ref.buf)) << what;
  EXPECT_EQ(ours.mac_null, ref.mac_null) << what;
  EXPECT_EQ(ours.mac_in_buf, ref.mac_in_buf) << what;
  if (ours.mac_in_buf && ref.mac_in_buf) {
    EXPECT_EQ(ours.mac_off, ref.mac_off) << what;
  }
  EXPECT_EQ(ours.mac.size(), ref.mac.size()) << what;
}

void expect_model(const Record& r, const Expect& e, const Bytes& plain, size_t bs, size_t mac_size,
                  const std::string& what) {
  ASSERT_EQ(r.ret, e.ok ? 1 : 0) << what;
  if (!e.ok) return;
  EXPECT_EQ(size_t(r.outl), e.outl) << what;
  // The plaintext in place: the explicit IV block decrypts to whatever it
  // holds, the payload follows.
  EXPECT_EQ(to_hex(Bytes(r.buf.begin(), r.buf.begin() + long(plain.size()))), to_hex(plain)) << what;
  if (mac_size == 0) {
    EXPECT_TRUE(r.mac_null) << what;
    return;
  }
  ASSERT_FALSE(r.mac_null) << what;
  EXPECT_FALSE(r.mac_in_buf) << what << ": a block mode copies the MAC out";
  ASSERT_EQ(r.mac.size(), mac_size) << what;
  if (e.good) {
    EXPECT_EQ(to_hex(r.mac), to_hex(e.mac)) << what;
  } else {
    EXPECT_NE(to_hex(r.mac), to_hex(e.mac)) << what << ": a bad padding must give a random MAC";
  }
  (void)bs;
}

// A random decrypted record of one of the kinds; sets *whole_blocks false for
// a record that is not whole blocks (sent as ciphertext garbage).
Bytes random_plain(std::mt19937_64& rng, unsigned version, size_t bs, size_t mac_size,
                   bool* whole_blocks) {
  *whole_blocks = true;
  const size_t iv = explicit_iv(version) ? bs : 0;
  const int kind = int(rng() % 10);
  auto bytes = [&](size_t n) {
    Bytes b(n);
    for (auto& x : b) x = uint8_t(rng());
    return b;
  };
  if (kind == 8) {  // too short: 0 .. 2 blocks below what a MAC and its padding byte need
    const size_t blocks = rng() % ((iv + mac_size) / bs + 2);
    return bytes(blocks * bs);
  }
  if (kind == 9) {  // not whole blocks
    *whole_blocks = false;
    const size_t n = 1 + rng() % (3 * bs) + (rng() % 2) * (bs * (rng() % 40));
    return bytes(n % bs == 0 ? n + 1 : n);
  }
  if (kind == 7) return bytes(bs * (1 + rng() % 80));  // garbage
  const size_t payload = rng() % 4 == 0 ? rng() % 16400 : rng() % 700;
  Bytes p = bytes(iv + payload + mac_size);
  const size_t min_pad = (bs - (p.size() + 1) % bs) % bs;  // bytes before the length byte
  size_t pad = min_pad;
  if (version != SSL3_VERSION && rng() % 2 == 0) {
    const size_t more = (255 - min_pad) / bs;
    pad += bs * (rng() % (more + 1));
  }
  if (version == SSL3_VERSION && kind == 6) pad += bs * (1 + rng() % 3);  // not minimal: SSL 3.0 refuses
  if (pad > 255) pad = min_pad;
  for (size_t i = 0; i <= pad; ++i) p.push_back(uint8_t(pad));
  if (version == SSL3_VERSION) {  // SSL 3.0 padding bytes are arbitrary
    for (size_t i = 0; i < pad; ++i) p[p.size() - 2 - i] = uint8_t(rng());
  }
  if (kind == 4 && pad > 0) p[p.size() - 2 - rng() % pad] ^= uint8_t(1 + rng() % 255);  // one bad byte
  if (kind == 5) p.back() = uint8_t(p.size() - iv - mac_size + rng() % 8);  // longer than the record
  if (kind == 6 && version != SSL3_VERSION) p.back() ^= uint8_t(1u << (rng() % 8));
  return p;
}

class CbcTls : public ::testing::TestWithParam<Named> {};

// Decryption: random records on one context per provider (CBC chains across
// records, as on a connection), for every version and MAC size.
TEST_P(CbcTls, DecryptRecords) {
  const Named& n = GetParam();
  ProviderFixture fx;
  ASSERT_TRUE(fx.ok());
  const size_t bs = n.algo->block_bytes;
  std::mt19937_64 rng(std::hash<std::string>{}(n.name));
  Tally t;
  const int per = n.peer ? 70 : 25;
  for (unsigned version : kVersions) {
    for (size_t mac_size : kMacSizes) {
      const std::string where = n.name + " version 0x" + to_hex(Bytes{uint8_t(version >> 8), uint8_t(version)}) +
                                " mac " + std::to_string(mac_size);
      const Bytes key = random_bytes(n.algo->key_bytes), iv = random_bytes(bs);
      TlsCtx ours(fx.libctx(), n.name, kOurs, false, key, iv, version, mac_size);
      ASSERT_TRUE(ours.ok()) << where;
      std::unique_ptr<TlsCtx> ref;
      if (n.peer) {
        ref = std::make_unique<TlsCtx>(fx.libctx(), n.name, kDefault, false, key, iv, version, mac_size);
        ASSERT_TRUE(ref->ok()) << where;
      }
      ModeModel model(*n.algo, key.data());
      Bytes chain = iv;
      for (int i = 0; i < per; ++i) {
        bool whole = true;
        const Bytes plain = random_plain(rng, version, bs, mac_size, &whole);
        Bytes ct;
        if (whole) {
          ASSERT_TRUE(model.crypt(ModelMode::kCBC, true, false, chain, plain, &ct));
        } else {
          ct = plain;
        }
        const std::string what = where + " record " + std::to_string(i) + " (" + std::to_string(plain.size()) + " bytes)";
        // The default provider reads before the buffer on an empty record
        // with an explicit IV (ossl_cipher_tlsunpadblock subtracts the block
        // size unchecked): not compared there; ours refuses it, on a context
        // of its own so that the two contexts stay in the same state (a
        // record frees the last one's MAC).
        const bool ref_safe = !(explicit_iv(version) && ct.empty());
        const Record r = ref_safe ? ours.record(ct, bs) : TlsCtx(fx.libctx(), n.name, kOurs, false, key, iv, version, mac_size).record(ct, bs);
        if (ref && ref_safe) {
          const Record d = ref->record(ct, bs);
          expect_same(r, d, what);
          if (r.ret == 1 && mac_size != 0 && model_unpad(version, bs, mac_size, plain).good) {
            EXPECT_EQ(to_hex(r.mac), to_hex(d.mac)) << what;
          }
          ++t.compared;
        }
        const Expect e = whole ? model_unpad(version, bs, mac_size, plain) : Expect{};
        expect_model(r, e, whole ? plain : Bytes{}, bs, mac_size, what);
        ++t.modelled;
        if (!e.ok) ++t.rejected;
        else if (e.good) ++t.good;
        else ++t.bad_padding;
        if (whole && !ct.empty()) chain.assign(ct.end() - long(bs), ct.end());
        if (HasFailure()) return;
      }
    }
  }
  t.print(n.name + " decrypt");
  EXPECT_GT(t.good, 0u);
  EXPECT_GT(t.bad_padding, 0u);
  EXPECT_GT(t.rejected, 0u);
}

// Encryption: random record lengths; ours against the default and the model
// (TLS padding then CBC), and what one encrypts the other decrypts.
TEST_P(CbcTls, EncryptRecords) {
  const Named& n = GetParam();
  ProviderFixture fx;
  ASSERT_TRUE(fx.ok());
  const size_t bs = n.algo->block_bytes;
  std::mt19937_64 rng(std::hash<std::string>{}(n.name) + 1);
  Tally t;
  const int per = n.peer ? 40 : 15;
  for (unsigned version : {SSL3_VERSION, TLS1_VERSION, TLS1_1_VERSION, TLS1_2_VERSION}) {
    for (size_t mac_size : kMacSizes) {
      const Bytes key = random_bytes(n.algo->key_bytes), iv = random_bytes(bs);
      const std::string where = n.name + " version " + std::to_string(version) + " mac " + std::to_string(mac_size);
      TlsCtx ours(fx.libctx(), n.name, kOurs, true, key, iv, version, mac_size);
      ASSERT_TRUE(ours.ok()) << where;
      std::unique_ptr<TlsCtx> ref, ref_dec;
      TlsCtx ours_dec(fx.libctx(), n.name, kOurs, false, key, iv, version, mac_size);
      if (n.peer) {
        ref = std::make_unique<TlsCtx>(fx.libctx(), n.name, kDefault, true, key, iv, version, mac_size);
        ref_dec = std::make_unique<TlsCtx>(fx.libctx(), n.name, kDefault, false, key, iv, version, mac_size);
      }
      ModeModel model(*n.algo, key.data());
      Bytes chain = iv;
      for (int i = 0; i < per; ++i) {
        const size_t len = (explicit_iv(version) ? bs : 0) + mac_size +
                           (rng() % 5 == 0 ? rng() % 16385 : rng() % 300);
        const Bytes in = random_bytes(len);
        const std::string what = where + " record " + std::to_string(i) + " (" + std::to_string(len) + " bytes)";
        const Record r = ours.record(in, bs);
        Bytes padded = in;
        const size_t padnum = bs - len % bs;
        // SSL 3.0: zeros, then the length byte (the default provider's choice).
        padded.insert(padded.end(), padnum - 1, version == SSL3_VERSION ? 0 : uint8_t(padnum - 1));
        padded.push_back(uint8_t(padnum - 1));
        Bytes want;
        ASSERT_TRUE(model.crypt(ModelMode::kCBC, true, false, chain, padded, &want));
        ASSERT_EQ(r.ret, 1) << what;
        ASSERT_EQ(size_t(r.outl), padded.size()) << what;
        EXPECT_EQ(to_hex(Bytes(r.buf.begin(), r.buf.begin() + long(want.size()))), to_hex(want)) << what;
        EXPECT_TRUE(r.mac_null) << what;
        chain.assign(want.end() - long(bs), want.end());
        if (ref) {
          expect_same(r, ref->record(in, bs), what);
          ++t.compared;
        }
        // Decrypt what ours encrypted on both providers.
        const Bytes ct(r.buf.begin(), r.buf.begin() + r.outl);
        const Expect e = model_unpad(version, bs, mac_size, padded);
        ASSERT_TRUE(e.ok && e.good) << what;
        for (TlsCtx* d : {&ours_dec, ref_dec.get()}) {
          if (d == nullptr) continue;
          const Record back = d->record(ct, bs);
          ASSERT_EQ(back.ret, 1) << what;
          EXPECT_EQ(size_t(back.outl), e.outl) << what;
          EXPECT_EQ(to_hex(Bytes(back.buf.begin(), back.buf.begin() + long(padded.size()))), to_hex(padded)) << what;
          if (mac_size != 0) {
            EXPECT_EQ(to_hex(back.mac), to_hex(e.mac)) << what;
          }
        }
        ++t.encrypted;
        if (HasFailure()) return;
      }
      // Not in place: both refuse, and the context goes on.
      const Bytes in = random_bytes(mac_size + 5);
      const Record bad = ours.record(in, bs, false);
      EXPECT_EQ(bad.ret, 0) << where;
      if (ref) expect_same(bad, ref->record(in, bs, false), where + " not in place");
      uint8_t fin[64];
      int finl = 0;
      EXPECT_EQ(EVP_CipherFinal_ex(ours.get(), fin, &finl), 0) << where << ": no final in TLS mode";
      ERR_clear_error();
    }
  }
  t.print(n.name + " encrypt");
}

INSTANTIATE_TEST_SUITE_P(All, CbcTls, ::testing::ValuesIn(cbc_ciphers()), test_name);

// The parameter lists libssl reads (and the types) are the default provider's.
TEST(CbcTlsParams, ListedAsTheDefault) {
  ProviderFixture fx;
  ASSERT_TRUE(fx.ok());
  for (const char* name : {"AES-128-CBC", "AES-256-ECB", "AES-128-CTR", "SM4-OFB", "AES-192-CFB"}) {
    EVP_CIPHER* ours = EVP_CIPHER_fetch(fx.libctx(), name, kOurs);
    EVP_CIPHER* ref = EVP_CIPHER_fetch(fx.libctx(), name, kDefault);
    ASSERT_NE(ours, nullptr);
    ASSERT_NE(ref, nullptr);
    for (const char* key : {OSSL_CIPHER_PARAM_TLS_VERSION, OSSL_CIPHER_PARAM_TLS_MAC_SIZE}) {
      const OSSL_PARAM* o = OSSL_PARAM_locate_const(EVP_CIPHER_settable_ctx_params(ours), key);
      const OSSL_PARAM* d = OSSL_PARAM_locate_const(EVP_CIPHER_settable_ctx_params(ref), key);
      ASSERT_NE(d, nullptr) << name << " " << key;
      ASSERT_NE(o, nullptr) << name << " " << key << " not settable";
      EXPECT_EQ(o->data_type, d->data_type) << name << " " << key;
    }
    const OSSL_PARAM* o = OSSL_PARAM_locate_const(EVP_CIPHER_gettable_ctx_params(ours), OSSL_CIPHER_PARAM_TLS_MAC);
    const OSSL_PARAM* d = OSSL_PARAM_locate_const(EVP_CIPHER_gettable_ctx_params(ref), OSSL_CIPHER_PARAM_TLS_MAC);
    ASSERT_NE(d, nullptr);
    ASSERT_NE(o, nullptr) << name << " tls-mac not gettable";
    EXPECT_EQ(o->data_type, d->data_type) << name;
    EVP_CIPHER_free(ours);
    EVP_CIPHER_free(ref);
  }
}

// ECB and the stream modes take the TLS parameters too (the default provider's
// generic code has them): lockstep on random records, the stream modes'
// MAC pointing into the record at the same offset.
TEST(CbcTlsParams, OtherModesInLockstep) {
  ProviderFixture fx;
  ASSERT_TRUE(fx.ok());
  std::mt19937_64 rng(0x7e15);
  size_t compared = 0;
  for (const char* name : {"AES-128-ECB", "SM4-ECB", "AES-128-CTR", "AES-256-OFB", "AES-192-CFB",
                           "AES-128-CFB8", "SM4-CTR"}) {
    const bool ecb = std::strstr(name, "ECB") != nullptr;
    for (unsigned version : {TLS1_VERSION, TLS1_2_VERSION}) {
      for (size_t mac_size : kMacSizes) {
        for (bool enc : {true, false}) {
          const Bytes key = random_bytes(std::strstr(name, "256") ? 32 : std::strstr(name, "192") ? 24 : 16);
          const Bytes iv = ecb ? Bytes{} : random_bytes(16);
          TlsCtx ours(fx.libctx(), name, kOurs, enc, key, iv, version, mac_size);
          TlsCtx ref(fx.libctx(), name, kDefault, enc, key, iv, version, mac_size);
          ASSERT_TRUE(ours.ok() && ref.ok()) << name;
          for (int i = 0; i < 25; ++i) {
            size_t len = rng() % 600;
            if (ecb && !enc && rng() % 4 != 0) len = (len / 16 + (explicit_iv(version) ? 1 : 0)) * 16;
            if (ecb && !enc && explicit_iv(version) && len == 0) len = 16;  // see DecryptRecords
            Bytes in = random_bytes(len);
            if (ecb && !enc && len >= 16 && len % 16 == 0 && rng() % 2 == 0) {
              // A well-formed padding under ECB: encrypt it with the default's ECB.
              const size_t pad = rng() % 16;
              for (size_t k = 0; k <= pad && k < len; ++k) in[len - 1 - k] = uint8_t(pad);
              Bytes ct;
              ASSERT_TRUE(evp_crypt(fx.libctx(), name, kDefault, true, key, {}, in, &ct, false));
              in = ct;
            }
            const std::string what = std::string(name) + (enc ? " enc" : " dec") + " v" +
                                     std::to_string(version) + " mac " + std::to_string(mac_size) +
                                     " len " + std::to_string(len);
            const Record r = ours.record(in, 16), d = ref.record(in, 16);
            expect_same(r, d, what);
            if (r.mac_in_buf || (!ecb && !enc && mac_size != 0 && r.ret == 1 && len != 0)) {
              EXPECT_TRUE(r.mac_in_buf) << what;
              EXPECT_EQ(to_hex(r.mac), to_hex(d.mac)) << what;
            }
            ++compared;
            if (HasFailure()) return;
          }
        }
      }
    }
  }
  std::printf("cbc_tls: %zu ECB/stream-mode records in lockstep with the default provider\n", compared);
}

// The MAC is the context's: it survives a copy of the context (the copy owns
// its own), the original's free, and lives until the next record.
TEST(CbcTlsParams, MacOwnedByTheContext) {
  ProviderFixture fx;
  ASSERT_TRUE(fx.ok());
  const Bytes key = random_bytes(16), iv = random_bytes(16);
  const size_t mac_size = 20;
  Bytes plain = random_bytes(16 + 30 + mac_size);  // explicit IV, payload, MAC
  const Bytes want_mac(plain.end() - long(mac_size), plain.end());
  const size_t pad = 15 - plain.size() % 16;
  plain.insert(plain.end(), pad + 1, uint8_t(pad));
  Bytes ct;
  ASSERT_TRUE(evp_crypt(fx.libctx(), "AES-128-CBC", kDefault, true, key, iv, plain, &ct, false));
  auto* dup = EVP_CIPHER_CTX_new();
  {
    TlsCtx ours(fx.libctx(), "AES-128-CBC", kOurs, false, key, iv, TLS1_2_VERSION, mac_size);
    ASSERT_TRUE(ours.ok());
    const Record r = ours.record(ct, 16);
    ASSERT_EQ(r.ret, 1);
    EXPECT_EQ(r.outl, 30);
    EXPECT_EQ(to_hex(r.mac), to_hex(want_mac));
    ASSERT_EQ(EVP_CIPHER_CTX_copy(dup, ours.get()), 1);
  }  // the original is freed: the copy's MAC must still be there
  void* mac = nullptr;
  OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, &mac, mac_size),
                    OSSL_PARAM_construct_end()};
  ASSERT_EQ(EVP_CIPHER_CTX_get_params(dup, p), 1);
  ASSERT_NE(mac, nullptr);
  EXPECT_EQ(to_hex(static_cast<const uint8_t*>(mac), mac_size), to_hex(want_mac));
  EVP_CIPHER_CTX_free(dup);
}

}  // namespace
}  // namespace gpucrypto::test
