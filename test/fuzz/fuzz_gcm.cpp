// Fuzz target: the GCM AEAD ciphers through EVP.
//
// Input: [cipher index][key 32][iv 128][op program ...]. The program (init
// with key / IV / neither in either direction, IV length changes, AAD and
// data updates in place or not, final, get and set tag of any length,
// tlsaad, tlsivfixed, EVP_Cipher records, tlsivgen / tlsivinv, get iv,
// dupctx) runs on our context and, for AES-GCM, on the default provider's in
// lockstep: every return code and every output byte must agree. SM4-GCM
// (OpenSSL 3.0's default provider has none) runs the program twice and must
// give the same observations (no state leaks between contexts, no
// uninitialised bytes); its values are checked by gcm_vectors_test and
// gcm_sm4_python_test.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <string>
#include <vector>

#include "test/fuzz/fuzz_common.h"

namespace {

using gpucrypto::fuzz::Reader;
using Bytes = std::vector<uint8_t>;

struct Target {
  const char* name;
  size_t keylen;
  EVP_CIPHER* ours = nullptr;
  EVP_CIPHER* theirs = nullptr;
};

std::vector<Target>& targets() {
  static std::vector<Target> t = [] {
    std::vector<Target> v = {{"AES-128-GCM", 16}, {"AES-192-GCM", 24}, {"AES-256-GCM", 32}, {"SM4-GCM", 16}};
    const auto& p = gpucrypto::fuzz::providers();
    for (Target& x : v) {
      x.ours = EVP_CIPHER_fetch(p.lib, x.name, "provider=gpucrypto");
      x.theirs = EVP_CIPHER_fetch(p.lib, x.name, "provider=default");
      if (x.ours == nullptr) std::abort();
    }
    return v;
  }();
  return t;
}

// One context per provider, driven by the same ops; `out` collects every
// observable (return codes and bytes) in order.
struct Side {
  EVP_CIPHER* cipher;
  EVP_CIPHER_CTX* ctx = nullptr;
  Bytes out{};
  std::vector<std::pair<size_t, int>> ops{};  // (observations before op, op), for the report
  void note(int v) { out.push_back(uint8_t(v + 1)); }
  void note(const uint8_t* p, size_t n) { out.insert(out.end(), p, p + n); }
};

void run(Side& s, const uint8_t* key, const uint8_t* iv0, const Bytes& prog) {
  Reader r(prog.data(), prog.size());
  s.ctx = EVP_CIPHER_CTX_new();
  bool enc = true;
  s.note(EVP_CipherInit_ex2(s.ctx, s.cipher, key, iv0, 1, nullptr));  // an IV first: no random IV
  uint8_t buf[4096 + 64];
  int outl = 0;
  for (int step = 0; step < 64 && r.left() > 0; ++step) {
    const uint8_t op = r.byte() % 13;
    s.ops.push_back({s.out.size(), op});
    // Below 8 IV bytes the default provider's TLS IV fields (tlsivgen,
    // tlsivinv and the TLS record path that uses them) write outside its IV
    // buffer; gpucrypto refuses them. Not compared.
    if ((op == 3 || op == 9 || op == 10) && EVP_CIPHER_CTX_get_iv_length(s.ctx) < 8) continue;
    switch (op) {
      case 0: {  // init: key, IV, both or neither; direction
        const uint8_t f = r.byte();
        enc = (f & 1) != 0;
        s.note(EVP_CipherInit_ex2(s.ctx, nullptr, (f & 2) ? key : nullptr, (f & 4) ? iv0 : nullptr, enc, nullptr));
        break;
      }
      case 1: {
        size_t len = r.byte() % 131;
        OSSL_PARAM p[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &len), OSSL_PARAM_construct_end()};
        s.note(EVP_CIPHER_CTX_set_params(s.ctx, p));
        break;
      }
      case 2: {  // AAD
        const size_t n = r.u16() % 600;
        s.note(EVP_CipherUpdate(s.ctx, nullptr, &outl, prog.data(), int(std::min(n, prog.size()))));
        break;
      }
      case 3: {  // data, in place or not
        const size_t n = std::min<size_t>(r.u16() % 4096, prog.size());
        const bool in_place = r.byte() & 1;
        std::memcpy(buf, prog.data(), n);
        outl = -1;
        const int rv = EVP_CipherUpdate(s.ctx, in_place ? buf : buf + 4096 - n, &outl, buf, int(n));
        s.note(rv);
        if (rv == 1) s.note(in_place ? buf : buf + 4096 - n, size_t(outl));
        break;
      }
      case 4:
        outl = -1;
        s.note(EVP_CipherFinal_ex(s.ctx, buf, &outl));
        s.note(outl);
        break;
      case 5: {
        uint8_t tag[17] = {};
        const int len = r.byte() % 18;
        s.note(EVP_CIPHER_CTX_ctrl(s.ctx, EVP_CTRL_AEAD_GET_TAG, len, tag));
        s.note(tag, sizeof tag);
        break;
      }
      case 6: {
        uint8_t tag[17];
        r.bytes(tag, sizeof tag);
        s.note(EVP_CIPHER_CTX_ctrl(s.ctx, EVP_CTRL_AEAD_SET_TAG, r.byte() % 18, tag));
        break;
      }
      case 7: {
        uint8_t aad[14];
        r.bytes(aad, sizeof aad);
        s.note(EVP_CIPHER_CTX_ctrl(s.ctx, EVP_CTRL_AEAD_TLS1_AAD, 12 + r.byte() % 3, aad));
        break;
      }
      case 8: {  // fixed IV; an encrypting context draws random bytes for any length but -1
        uint8_t fixed[128];  // -1 copies a whole IV (up to 128 bytes) from it
        r.bytes(fixed, 16);
        std::memset(fixed + 16, 0x3c, sizeof fixed - 16);
        const int len = enc ? -1 : int(r.byte() % 13);
        s.note(EVP_CIPHER_CTX_ctrl(s.ctx, EVP_CTRL_GCM_SET_IV_FIXED, len, fixed));
        break;
      }
      case 9: {  // EVP_Cipher, in place (a TLS record when tlsaad is set)
        const size_t n = std::min<size_t>(r.u16() % 2048, prog.size());
        std::memcpy(buf, prog.data(), n);
        const int rv = EVP_Cipher(s.ctx, buf, buf, unsigned(n));
        s.note(rv);
        if (rv > 0) s.note(buf, n);
        break;
      }
      case 10: {
        uint8_t g[8] = {};
        r.bytes(g, sizeof g);
        const int len = 1 + r.byte() % 8;
        s.note(EVP_CIPHER_CTX_ctrl(s.ctx, (r.byte() & 1) ? EVP_CTRL_GCM_IV_GEN : EVP_CTRL_GCM_SET_IV_INV, len, g));
        s.note(g, sizeof g);
        break;
      }
      case 11: {
        uint8_t v[130] = {};
        OSSL_PARAM p[] = {OSSL_PARAM_construct_octet_string((r.byte() & 1) ? OSSL_CIPHER_PARAM_IV : OSSL_CIPHER_PARAM_UPDATED_IV,
                                                            v, 1 + r.byte() % 129),
                          OSSL_PARAM_construct_end()};
        s.note(EVP_CIPHER_CTX_get_params(s.ctx, p));
        s.note(v, sizeof v);
        break;
      }
      default: {  // EVP_CIPHER_CTX_copy, continue on the copy
        EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
        const int rv = EVP_CIPHER_CTX_copy(c, s.ctx);
        s.note(rv);
        if (rv == 1) {
          EVP_CIPHER_CTX_free(s.ctx);
          s.ctx = c;
        } else {
          EVP_CIPHER_CTX_free(c);
        }
        break;
      }
    }
  }
  EVP_CIPHER_CTX_free(s.ctx);
  s.ctx = nullptr;
  ERR_clear_error();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  auto& ts = targets();
  const Target& t = ts[r.byte() % ts.size()];
  uint8_t key[32], iv[128];
  r.bytes(key, sizeof key);
  r.bytes(iv, sizeof iv);
  const Bytes prog(r.rest(), r.rest() + r.left());
  Side ours{t.ours};
  run(ours, key, iv, prog);
  if (t.theirs != nullptr) {
    Side theirs{t.theirs};
    run(theirs, key, iv, prog);
    if (ours.out != theirs.out) {
      size_t i = 0;
      while (i < ours.out.size() && i < theirs.out.size() && ours.out[i] == theirs.out[i]) ++i;
      for (const Side* sd : {&ours, &theirs}) {
        std::fprintf(stderr, "%s:\n", sd == &ours ? "gpucrypto" : "default");
        for (size_t k = 0; k < sd->ops.size(); ++k) {
          const size_t at = sd->ops[k].first, end = k + 1 < sd->ops.size() ? sd->ops[k + 1].first : sd->out.size();
          std::fprintf(stderr, "op %d at %zu%s:", sd->ops[k].second, at, at > i ? " (after)" : "");
          for (size_t j = at; j < end && j < at + 24; ++j) std::fprintf(stderr, " %02x", sd->out[j]);
          std::fprintf(stderr, "\n");
        }
      }
      std::fprintf(stderr, "first difference at observation %zu: ours %d, default %d\n", i,
                   i < ours.out.size() ? ours.out[i] : -1, i < theirs.out.size() ? theirs.out[i] : -1);
    }
    FUZZ_CHECK(ours.out == theirs.out, "%s: gpucrypto and the default provider disagree (%zu vs %zu observations)",
               t.name, ours.out.size(), theirs.out.size());
  } else {
    Side again{t.ours};
    run(again, key, iv, prog);
    FUZZ_CHECK(ours.out == again.out, "%s: the same program gave two results", t.name);
  }
  return 0;
}
