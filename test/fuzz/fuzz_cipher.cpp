// Fuzz target: every gpucrypto cipher through EVP.
//
// Input layout: [cipher index][key][iv][flags][chunk sizes and data ...] then
// an op program. Two checks per input:
//  1. One-shot with random chunking: the EVP result (encrypt, then decrypt
//     with another chunking) must equal the portable reference
//     (ciphers/<alg>/ref; ECB with PKCS#7 or no padding, CTR; CBC, CFB, OFB,
//     CFB8 and CFB1 through the mode model over it, test/mode_model.h).
//  2. A random program of update / padding / get-params / dupctx / re-init
//     (new key, new IV, neither, switch direction) / set num / final /
//     wrong-typed params runs on our context -- and, for AES and SM4, on the
//     default provider's context in lockstep: every return code and every
//     output byte must agree.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <string>
#include <vector>

#include "ciphers/block_cipher.h"
#include "engine/cipher_registry.h"
#include "test/fuzz/fuzz_common.h"
#include "test/mode_model.h"

namespace {

using gpucrypto::CipherAlgo;
using gpucrypto::CipherHw;
using gpucrypto::fuzz::Reader;
using Bytes = std::vector<uint8_t>;
using gpucrypto::test::ModelMode;

struct Target {
  std::string name;
  const CipherAlgo* algo;
  bool ctr;
  bool has_default;  // the default provider serves the same name
  EVP_CIPHER* ours = nullptr;
  EVP_CIPHER* theirs = nullptr;
  ModelMode mode = ModelMode::kECB;
  bool iv() const { return mode != ModelMode::kECB; }
  bool stream() const { return !gpucrypto::test::model_padded(mode); }
};

std::vector<Target>& targets() {
  static std::vector<Target> t = [] {
    std::vector<Target> v;
    // Every registered name, in the registry's order (rows, then kModes):
    // test/fuzz/make_seeds.py indexes the same list (gpucrypto-cipher-list
    // --no-aliases).
    for (const gpucrypto::CipherRow& r : gpucrypto::cipher_rows())
      for (gpucrypto::Mode m : gpucrypto::kModes) {
        if (!r.has(m)) continue;
        Target x{r.evp_name(m), &r.algo(), m == gpucrypto::Mode::kCTR, r.in_default};
        x.mode = gpucrypto::test::model_mode_of(x.name);
        v.push_back(x);
      }
    const auto& p = gpucrypto::fuzz::providers();
    for (Target& x : v) {
      x.ours = EVP_CIPHER_fetch(p.lib, x.name.c_str(), "provider=gpucrypto");
      if (x.has_default) x.theirs = EVP_CIPHER_fetch(p.lib, x.name.c_str(), "provider=default");
      if (x.ours == nullptr) std::abort();
      if (x.theirs == nullptr) x.has_default = false;
    }
    return v;
  }();
  return t;
}

Bytes reference(const Target& t, bool pad, const uint8_t* key, const uint8_t* iv, const Bytes& pt) {
  const size_t bs = t.algo->block_bytes;
  if (t.mode != ModelMode::kECB && t.mode != ModelMode::kCTR) {
    Bytes out;
    gpucrypto::test::ModeModel(*t.algo, key).crypt(t.mode, true, pad, Bytes(iv, iv + bs), pt, &out);
    return out;
  }
  const CipherHw& ref = *gpucrypto::find_hw(*t.algo, "ref");
  alignas(64) static uint8_t ks[8192];
  std::memset(ks, 0, sizeof ks);
  ref.setkey(ks, key, t.algo->key_bytes, false);
  Bytes in = pt;
  if (t.ctr) {
    Bytes out(in.size()), ctr(iv, iv + bs);
    const size_t full = in.size() / bs;
    ref.ctr(ks, ctr.data(), in.data(), out.data(), full);
    if (in.size() % bs != 0) {
      uint8_t zero[gpucrypto::kMaxBlockBytes] = {}, stream[gpucrypto::kMaxBlockBytes];
      ref.ctr(ks, ctr.data(), zero, stream, 1);
      for (size_t i = full * bs; i < in.size(); ++i) out[i] = in[i] ^ stream[i - full * bs];
    }
    return out;
  }
  if (pad) in.resize((pt.size() / bs + 1) * bs, uint8_t(bs - pt.size() % bs));
  Bytes out(in.size());
  ref.encrypt(ks, in.data(), out.data(), in.size() / bs);
  return out;
}

// EVP with the given chunk sizes (the last chunk takes the rest).
bool evp(const Target& t, bool enc, bool pad, const uint8_t* key, const uint8_t* iv,
         const Bytes& in, const std::vector<size_t>& chunks, Bytes* out) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  bool ok = EVP_CipherInit_ex2(ctx, t.ours, key, t.iv() ? iv : nullptr, enc, nullptr) == 1 &&
            EVP_CIPHER_CTX_set_padding(ctx, pad) == 1;
  out->assign(in.size() + 64, 0);
  size_t pos = 0, done = 0;
  for (size_t i = 0; ok && i <= chunks.size(); ++i) {
    const size_t n = i < chunks.size() ? std::min(chunks[i], in.size() - pos) : in.size() - pos;
    int outl = 0;
    ok = EVP_CipherUpdate(ctx, out->data() + done, &outl, in.data() + pos, int(n)) == 1;
    pos += n;
    done += size_t(outl);
  }
  int outl = 0;
  ok = ok && EVP_CipherFinal_ex(ctx, out->data() + done, &outl) == 1;
  out->resize(done + size_t(ok ? outl : 0));
  EVP_CIPHER_CTX_free(ctx);
  return ok;
}

void one_shot(const Target& t, Reader& r, const uint8_t* key, const uint8_t* iv) {
  const size_t bs = t.algo->block_bytes;
  const uint8_t flags = r.byte();
  bool pad = (flags & 1) != 0;
  std::vector<size_t> chunks, chunks2;
  for (int i = 0, n = flags >> 5; i < n; ++i) chunks.push_back(r.byte());
  for (int i = 0, n = (flags >> 2) & 7; i < n; ++i) chunks2.push_back(r.u16() % 600);
  // CFB1 costs a block call per bit: shorter messages keep the runs fast.
  const size_t len = std::min<size_t>(r.u16() % (t.mode == ModelMode::kCFB1 ? 256 : 2048), r.left());
  Bytes pt(r.rest(), r.rest() + len);
  for (size_t i = 0; i < len; ++i) r.byte();
  if (!t.stream() && !pad) pt.resize(pt.size() - pt.size() % bs);
  const Bytes want = reference(t, pad, key, iv, pt);
  Bytes got, back;
  FUZZ_CHECK(evp(t, true, pad, key, iv, pt, chunks, &got), "%s encrypt failed", t.name.c_str());
  FUZZ_CHECK(got == want, "%s: %zu bytes differ from the reference", t.name.c_str(), pt.size());
  FUZZ_CHECK(evp(t, false, pad, key, iv, got, chunks2, &back), "%s decrypt failed", t.name.c_str());
  FUZZ_CHECK(back == pt, "%s: decrypt(encrypt(x)) != x", t.name.c_str());
}

// --- the op program ------------------------------------------------------------

struct Side {
  EVP_CIPHER* cipher;
  EVP_CIPHER_CTX* ctx;
};

struct Result {
  int rc;
  Bytes out;
};

Result do_update(Side& s, const uint8_t* in, size_t n) {
  Result r{0, Bytes(n + 64)};
  int outl = 0;
  r.rc = EVP_CipherUpdate(s.ctx, r.out.data(), &outl, in, int(n));
  r.out.resize(r.rc == 1 ? size_t(outl) : 0);
  return r;
}

Result do_final(Side& s) {
  Result r{0, Bytes(64)};
  int outl = 0;
  r.rc = EVP_CipherFinal_ex(s.ctx, r.out.data(), &outl);
  r.out.resize(r.rc == 1 ? size_t(outl) : 0);
  return r;
}

Result do_get(Side& s, bool ctr) {
  uint8_t iv[64] = {}, uiv[64] = {};
  unsigned num = 0, padding = 0;
  size_t keylen = 0, ivlen = 0;
  std::vector<OSSL_PARAM> p = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &keylen),
                               OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &ivlen),
                               OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_PADDING, &padding)};
  if (ctr) {
    p.push_back(OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num));
    p.push_back(OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_IV, iv, sizeof iv));
    p.push_back(OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, uiv, sizeof uiv));
  }
  p.push_back(OSSL_PARAM_construct_end());
  Result r{EVP_CIPHER_CTX_get_params(s.ctx, p.data()), {}};
  auto put = [&](const void* v, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(v);
    r.out.insert(r.out.end(), b, b + n);
  };
  put(&keylen, sizeof keylen);
  put(&ivlen, sizeof ivlen);
  if (ctr) {
    put(&num, sizeof num);
    put(iv, sizeof iv);
    put(uiv, sizeof uiv);
  }
  return r;
}

void program(const Target& t, Reader& r, const uint8_t* key0, const uint8_t* iv0) {
  const size_t bs = t.algo->block_bytes, kl = t.algo->key_bytes;
  const bool diff = t.has_default;
  Side a{t.ours, EVP_CIPHER_CTX_new()}, b{t.theirs, diff ? EVP_CIPHER_CTX_new() : nullptr};
  bool enc = true;
  static const bool trace = std::getenv("FUZZ_TRACE") != nullptr;  // replaying a crash
  auto both = [&](auto&& fn) {
    Result x = fn(a);
    if (diff) {
      Result y = fn(b);
      if (trace)
        std::fprintf(stderr, "  ours rc=%d out=%zu  default rc=%d out=%zu\n", x.rc, x.out.size(),
                     y.rc, y.out.size());
      FUZZ_CHECK(x.rc == y.rc, "%s: return %d, default provider %d", t.name.c_str(), x.rc, y.rc);
      FUZZ_CHECK(x.out == y.out, "%s: output differs from the default provider", t.name.c_str());
    }
    return x.rc;
  };
  uint8_t key[64], iv[32];
  std::memcpy(key, key0, kl);
  std::memcpy(iv, iv0, bs);
  if (both([&](Side& s) {
        return Result{EVP_CipherInit_ex2(s.ctx, s.cipher, key, t.iv() ? iv : nullptr, 1, nullptr), {}};
      }) != 1)
    std::abort();
  static uint8_t data[4096];
  for (int step = 0; step < 64 && r.left() > 0; ++step) {
    const uint8_t op = r.byte();
    if (trace) std::fprintf(stderr, "op %d (%d)\n", op % 9, op);
    int rc = 1;
    switch (op % 9) {
      case 0:
      case 1: {  // update: size from the input, data from a counter pattern
        const size_t n = op % 9 == 0 ? r.byte() : r.u16() % sizeof data;
        for (size_t i = 0; i < n; ++i) data[i] = uint8_t(i * 31 + step);
        if (trace) std::fprintf(stderr, "  update %zu bytes\n", n);
        rc = both([&](Side& s) { return do_update(s, data, n); });
        break;
      }
      case 2: {  // padding on/off (ECB; ignored by CTR)
        const int pad = r.byte() & 1;
        if (trace) std::fprintf(stderr, "  padding %d\n", pad);
        rc = both([&](Side& s) { return Result{EVP_CIPHER_CTX_set_padding(s.ctx, pad), {}}; });
        break;
      }
      case 3:
        rc = both([&](Side& s) { return do_get(s, t.iv()); });
        break;
      case 4:  // dupctx mid-stream; continue on the copy
        rc = both([&](Side& s) {
          EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
          const int ok = EVP_CIPHER_CTX_copy(c, s.ctx);
          EVP_CIPHER_CTX_free(s.ctx);
          s.ctx = c;
          return Result{ok, {}};
        });
        break;
      case 5: {  // re-init: new key, new IV, both or neither; maybe flip direction
        uint8_t how = r.byte();
        // Switching direction without the key: OpenSSL's default provider
        // keeps the schedule of the old direction (garbage out); ours
        // re-expands it. Give the key so the lockstep compares like with like.
        if ((how & 4) && diff) how |= 1;
        if (how & 1) r.bytes(key, kl);  // (zeros past the input's end: still a key)
        if (how & 2) r.bytes(iv, bs);
        if (how & 4) enc = !enc;
        if (trace) std::fprintf(stderr, "  re-init how=%d enc=%d\n", how & 7, int(enc));
        rc = both([&](Side& s) {
          return Result{EVP_CipherInit_ex2(s.ctx, nullptr, (how & 1) ? key : nullptr,
                                           (how & 2) && t.iv() ? iv : nullptr, enc, nullptr),
                        {}};
        });
        break;
      }
      case 6:
        // Resume inside a keystream block. CTR is not in lockstep: the
        // default provider keeps whatever stale keystream its buffer holds
        // (e.g. after a re-init), ours regenerates E(ctr - 1); only ours
        // runs it. CFB and OFB resume from the register, as the default
        // provider does: in lockstep.
        if (t.stream() && (!t.ctr || !diff)) {
          unsigned num = r.byte() % bs;
          rc = both([&](Side& s) {
            const OSSL_PARAM p[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_NUM, &num),
                                    OSSL_PARAM_construct_end()};
            return Result{EVP_CIPHER_CTX_set_params(s.ctx, p), {}};
          });
        }
        break;
      case 7:
        rc = both([&](Side& s) { return do_final(s); });
        break;
      case 8: {  // wrong types and values: must fail or be ignored, never crash
        char text[] = "x";
        size_t big = r.byte();
        const OSSL_PARAM p[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_PADDING, text, 0),
            OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &big),
            OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_NUM, text, 1),
            OSSL_PARAM_construct_end()};
        const int which = r.byte() % 3;
        const int wrc = EVP_CIPHER_CTX_set_params(a.ctx, p + which);
        if (trace) std::fprintf(stderr, "  wrong-typed params from #%d (keylen %zu): rc=%d\n", which, big, wrc);
        rc = 1;  // the default provider's answer differs by design; no lockstep
        break;
      }
    }
    // After a failure the two providers' states may legitimately differ
    // (e.g. what a failed ECB final leaves buffered): stop the program.
    if (rc != 1) break;
  }
  EVP_CIPHER_CTX_free(a.ctx);
  EVP_CIPHER_CTX_free(b.ctx);
  ERR_clear_error();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<Target>& ts = targets();
  Reader r(data, size);
  const Target& t = ts[r.byte() % ts.size()];
  uint8_t key[64] = {}, iv[32] = {};
  r.bytes(key, t.algo->key_bytes);
  r.bytes(iv, t.algo->block_bytes);
  one_shot(t, r, key, iv);
  program(t, r, key, iv);
  ERR_clear_error();
  return 0;
}
