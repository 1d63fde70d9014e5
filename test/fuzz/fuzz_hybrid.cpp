// Fuzz target: the hybrid TLS key shares (X25519MLKEM768, SecP256r1MLKEM768,
// SecP384r1MLKEM1024) through the built provider.
//
// The first byte picks the hybrid (byte % 3) and what the rest is
// ((byte / 3) % 2):
//  0: a client key share of fuzzed length, installed as a TLS 1.3 server
//     does (paramgen, then EVP_PKEY_set1_encoded_public_key): refused unless
//     it has the right length, its ML-KEM part passes the FIPS 203 modulus
//     check and (EC) its point is uncompressed; an accepted share
//     encapsulates to the right sizes or fails with an error (a low-order
//     X25519 point), never anything else.
//  1: a server key share (ciphertext) of fuzzed length decapsulated with one
//     fixed key pair: refused on a wrong length; otherwise it either fails
//     (bad classical point) or its ML-KEM half of the secret equals
//     mlkem_decaps on the ML-KEM half of the ciphertext.
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include <cstring>
#include <vector>

#include "gpucrypto/mlkem.h"
#include "test/fuzz/fuzz_common.h"

namespace {

using gpucrypto::fuzz::providers;
using gpucrypto::fuzz::Reader;
using Bytes = std::vector<uint8_t>;

struct Hybrid {
  const char* name;
  int level;
  size_t ek, dk, ct, cl_pub, cl_priv, cl_ss;
  bool mlkem_first;
};
const Hybrid kHybrids[] = {
    {"X25519MLKEM768", 768, MLKEM768_PUBLICKEY_BYTES, MLKEM768_SECRETKEY_BYTES, MLKEM768_CIPHERTEXT_BYTES, 32, 32, 32, true},
    {"SecP256r1MLKEM768", 768, MLKEM768_PUBLICKEY_BYTES, MLKEM768_SECRETKEY_BYTES, MLKEM768_CIPHERTEXT_BYTES, 65, 32, 32, false},
    {"SecP384r1MLKEM1024", 1024, MLKEM1024_PUBLICKEY_BYTES, MLKEM1024_SECRETKEY_BYTES, MLKEM1024_CIPHERTEXT_BYTES, 97, 48, 48, false}};

EVP_PKEY* empty_key(const Hybrid& h) {
  EVP_PKEY_CTX* pc = EVP_PKEY_CTX_new_from_name(providers().lib, h.name, "provider=gpucrypto");
  EVP_PKEY* k = nullptr;
  FUZZ_CHECK(pc != nullptr && EVP_PKEY_paramgen_init(pc) == 1 && EVP_PKEY_paramgen(pc, &k) == 1,
             "%s paramgen", h.name);
  EVP_PKEY_CTX_free(pc);
  return k;
}

void client_share(const Hybrid& h, Reader& r) {
  const size_t want = h.ek + h.cl_pub;
  const size_t len = r.byte() & 1 ? r.u16() % (want + 2) : want;
  Bytes share(len);
  r.bytes(share.data(), len);
  EVP_PKEY* k = empty_key(h);
  const bool ok = EVP_PKEY_set1_encoded_public_key(k, share.data(), share.size()) == 1;
  if (ok) {
    const uint8_t* ek = share.data() + (h.mlkem_first ? 0 : h.cl_pub);
    const uint8_t* cl = share.data() + (h.mlkem_first ? h.ek : 0);
    FUZZ_CHECK(len == want, "%s: a %zu-byte share was accepted", h.name, len);
    FUZZ_CHECK(mlkem_check_publickey(h.level, ek) == MLKEM_OK, "%s: an ek failing 7.2 accepted", h.name);
    FUZZ_CHECK(h.cl_pub == 32 || cl[0] == 0x04, "%s: a point not uncompressed accepted", h.name);
    EVP_PKEY_CTX* e = EVP_PKEY_CTX_new_from_pkey(providers().lib, k, nullptr);
    Bytes ct(h.ct + h.cl_pub), ss(32 + h.cl_ss);
    size_t ctl = ct.size(), ssl = ss.size();
    FUZZ_CHECK(e != nullptr && EVP_PKEY_encapsulate_init(e, nullptr) == 1, "encapsulate_init");
    if (EVP_PKEY_encapsulate(e, ct.data(), &ctl, ss.data(), &ssl) == 1)
      FUZZ_CHECK(ctl == ct.size() && ssl == ss.size(), "%s: encapsulation sizes", h.name);
    else
      FUZZ_CHECK(h.cl_pub == 32, "%s: encapsulation to an accepted EC share failed", h.name);
    EVP_PKEY_CTX_free(e);
  } else {
    FUZZ_CHECK(ERR_peek_error() != 0, "%s: a share refused without an error", h.name);
  }
  EVP_PKEY_free(k);
}

void server_share(const Hybrid& h, Reader& r) {
  static EVP_PKEY* keys[3] = {};
  const size_t idx = size_t(&h - kHybrids);
  if (keys[idx] == nullptr) {
    EVP_PKEY_CTX* g = EVP_PKEY_CTX_new_from_name(providers().lib, h.name, "provider=gpucrypto");
    FUZZ_CHECK(g != nullptr && EVP_PKEY_keygen_init(g) == 1 && EVP_PKEY_generate(g, &keys[idx]) == 1,
               "%s keygen", h.name);
    EVP_PKEY_CTX_free(g);
  }
  EVP_PKEY* k = keys[idx];
  const size_t want = h.ct + h.cl_pub;
  const size_t len = r.byte() & 1 ? r.u16() % (want + 2) : want;
  Bytes ct(len);
  r.bytes(ct.data(), len);
  EVP_PKEY_CTX* d = EVP_PKEY_CTX_new_from_pkey(providers().lib, k, nullptr);
  Bytes ss(32 + h.cl_ss);
  size_t ssl = ss.size();
  FUZZ_CHECK(d != nullptr && EVP_PKEY_decapsulate_init(d, nullptr) == 1, "decapsulate_init");
  const int rc = EVP_PKEY_decapsulate(d, ss.data(), &ssl, ct.data(), ct.size());
  FUZZ_CHECK(rc != 1 || len == want, "%s: a %zu-byte ciphertext decapsulated", h.name, len);
  if (rc == 1) {
    Bytes priv(h.dk + h.cl_priv);
    size_t pl = 0;
    FUZZ_CHECK(EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PRIV_KEY, priv.data(), priv.size(), &pl) == 1,
               "priv");
    uint8_t want_ss[32];
    const size_t mct = h.mlkem_first ? 0 : h.cl_pub, mdk = h.mlkem_first ? 0 : h.cl_priv;
    FUZZ_CHECK(mlkem_decaps(h.level, want_ss, ct.data() + mct, priv.data() + mdk) == MLKEM_OK, "decaps");
    const size_t mss = h.mlkem_first ? 0 : h.cl_ss;
    FUZZ_CHECK(std::memcmp(ss.data() + mss, want_ss, 32) == 0, "%s: ML-KEM half of the secret", h.name);
  } else {
    // OpenSSL 3.0's EVP_PKEY_decapsulate returns 0 for an empty ciphertext
    // before it reaches the provider, without an error; every other refusal is ours.
    FUZZ_CHECK(len == 0 || ERR_peek_error() != 0, "%s: decapsulation failed without an error", h.name);
  }
  EVP_PKEY_CTX_free(d);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  providers();
  if (size == 0) return 0;
  const Hybrid& h = kHybrids[data[0] % 3];
  Reader r(data + 1, size - 1);
  if ((data[0] / 3) % 2 == 0) client_share(h, r);
  else server_share(h, r);
  ERR_clear_error();
  return 0;
}
