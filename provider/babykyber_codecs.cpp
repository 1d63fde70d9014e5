// babyKyber encoders (DER/PEM SubjectPublicKeyInfo and PrivateKeyInfo, text)
// and decoders (DER SubjectPublicKeyInfo and PrivateKeyInfo; the default
// provider's PEM-to-DER decoder comes first in a chain), so `openssl genpkey`,
// `openssl pkey -text` and `openssl pkey -pubout` work on OpenSSL 3.0.
//
// The DER is fixed-size: the encoders write the one canonical encoding and
// the decoders accept exactly it (anything else is "not ours", and the
// decoder chain moves on). Unencrypted PrivateKeyInfo only.
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/pem.h>

#include <cstring>
#include <string>

#include "kem/babykyber_pke.h"
#include "provider/babykyber_key.h"

namespace gpucrypto::bkprov {
namespace {

namespace bk = kem::babykyber;

// DER of OBJECT IDENTIFIER 1.3.6.1.4.1.99999.1.1 (kOid): 99999 in base 128
// is 6.13.31 -> 86 8d 1f.
constexpr uint8_t kOidDer[] = {0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01,
                               0x86, 0x8d, 0x1f, 0x01, 0x01};
constexpr uint8_t kAlgIdDer[] = {0x30, sizeof kOidDer};

constexpr size_t kPub = BABYKYBER_PUBLICKEY_BYTES, kPriv = BABYKYBER_SECRETKEY_BYTES;
constexpr size_t kAlgIdBytes = sizeof kAlgIdDer + sizeof kOidDer;
static_assert(kSpkiBytes == 2 + kAlgIdBytes + 3 + kPub);
static_assert(kPkiBytes == 2 + 3 + kAlgIdBytes + 2 + kPriv);
static_assert(kSpkiBytes - 2 < 128 && kPkiBytes - 2 < 128, "short-form DER lengths");

// Everything before the key bytes.
size_t spki_prefix(uint8_t* o) {
  size_t n = 0;
  o[n++] = 0x30;
  o[n++] = uint8_t(kSpkiBytes - 2);
  std::memcpy(o + n, kAlgIdDer, sizeof kAlgIdDer), n += sizeof kAlgIdDer;
  std::memcpy(o + n, kOidDer, sizeof kOidDer), n += sizeof kOidDer;
  o[n++] = 0x03;  // BIT STRING, no unused bits
  o[n++] = uint8_t(kPub + 1);
  o[n++] = 0x00;
  return n;
}

size_t pki_prefix(uint8_t* o) {
  size_t n = 0;
  o[n++] = 0x30;
  o[n++] = uint8_t(kPkiBytes - 2);
  o[n++] = 0x02;  // INTEGER 0 (version v1)
  o[n++] = 0x01;
  o[n++] = 0x00;
  std::memcpy(o + n, kAlgIdDer, sizeof kAlgIdDer), n += sizeof kAlgIdDer;
  std::memcpy(o + n, kOidDer, sizeof kOidDer), n += sizeof kOidDer;
  o[n++] = 0x04;  // OCTET STRING: the 84-byte private key
  o[n++] = uint8_t(kPriv);
  return n;
}

// ---------------------------------------------------------------- encoders

enum class Format { kDer, kPem, kText };
enum class Structure { kSpki, kPki, kNone };

struct EncCtx {
  ProvCtx* prov;
};

void* enc_newctx(void* provctx) {
  auto* c = new (std::nothrow) EncCtx;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}
void enc_freectx(void* c) { delete static_cast<EncCtx*>(c); }

void* enc_import_object(void* vctx, int selection, const OSSL_PARAM params[]) {
  auto* c = static_cast<EncCtx*>(vctx);
  Key* k = key_new(c->prov);
  if (k == nullptr) return nullptr;
  const void* p = nullptr;
  size_t len = 0;
  const OSSL_PARAM* priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  const OSSL_PARAM* pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  bool ok = false;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && priv != nullptr)
    ok = OSSL_PARAM_get_octet_string_ptr(priv, &p, &len) &&
         key_set_priv(k, static_cast<const uint8_t*>(p), len);
  else if (pub != nullptr)
    ok = OSSL_PARAM_get_octet_string_ptr(pub, &p, &len) &&
         key_set_pub(k, static_cast<const uint8_t*>(p), len);
  if (!ok) {
    key_free(k);
    return nullptr;
  }
  return k;
}
void enc_free_object(void* k) { key_free(static_cast<Key*>(k)); }

std::string hex_block(const uint8_t* p, size_t n, const char* indent) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i % 15 == 0) s += indent;
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
    if (i + 1 < n) s += ':';
    if (i % 15 == 14 || i + 1 == n) s += '\n';
  }
  return s;
}

std::string poly_text(const bk::Poly& a) {
  std::string s = "[";
  for (int i = 0; i < bk::P::n; ++i) {
    s += std::to_string(a.c[i]);
    s += i + 1 < bk::P::n ? ", " : "]";
  }
  return s;
}

std::string key_text(const Key& k, bool with_priv) {
  std::string s = with_priv ? "babyKyber Private-Key:\n" : "babyKyber Public-Key:\n";
  s += "WARNING: toy parameters (n=4, q=17, k=2), NO SECURITY: only 16 possible messages.\n";
  s += "         For teaching, testing and throughput experiments only.\n";
  if (with_priv) {
    s += "priv:\n" + hex_block(k.priv, sizeof k.priv, "    ");
  }
  s += "pub:\n" + hex_block(k.pub, sizeof k.pub, "    ");
  bk::PolyMat A;
  bk::PolyVec t;
  (void)bk::decode_ek(A, t, k.pub);
  s += "coefficients (c0, c1, c2, c3; mod 17):\n";
  for (int i = 0; i < bk::P::k; ++i)
    for (int j = 0; j < bk::P::k; ++j)
      s += "    A[" + std::to_string(i) + "][" + std::to_string(j) + "] = " + poly_text(A.a[i][j]) + "\n";
  for (int i = 0; i < bk::P::k; ++i)
    s += "    t[" + std::to_string(i) + "]    = " + poly_text(t.p[i]) + "\n";
  if (with_priv) {
    bk::PolyVec sv;
    (void)bk::decode_dk(sv, k.priv);
    for (int i = 0; i < bk::P::k; ++i)
      s += "    s[" + std::to_string(i) + "]    = " + poly_text(sv.p[i]) + "\n";
  }
  return s;
}

template <Format F, Structure S>
int enc_does_selection(void*, int selection) {
  if constexpr (S == Structure::kPki) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  if constexpr (S == Structure::kSpki) return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0;
}

template <Format F, Structure S>
int enc_encode(void* vctx, OSSL_CORE_BIO* cout, const void* obj_raw, const OSSL_PARAM obj_abstract[],
               int selection, OSSL_PASSPHRASE_CALLBACK*, void*) {
  auto* c = static_cast<EncCtx*>(vctx);
  if (obj_abstract != nullptr || obj_raw == nullptr) return 0;  // core imports first
  const auto* k = static_cast<const Key*>(obj_raw);
  const bool priv = S == Structure::kPki ||
                    (S == Structure::kNone && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0);
  if (priv ? !k->has_priv : !k->has_pub) {
    GPUC_RAISE(c->prov, kErrInvalidKey, "babyKyber key has no %s part to encode",
               priv ? "private" : "public");
    return 0;
  }
  BIO* out = BIO_new_from_core_bio(c->prov->libctx, cout);
  if (out == nullptr) return 0;
  int ok = 0;
  if constexpr (F == Format::kText) {
    const std::string s = key_text(*k, priv);
    ok = BIO_write(out, s.data(), int(s.size())) == int(s.size());
  } else {
    uint8_t der[kPkiBytes];
    size_t n;
    if constexpr (S == Structure::kPki) {
      n = pki_prefix(der);
      std::memcpy(der + n, k->priv, kPriv);
      n += kPriv;
    } else {
      n = spki_prefix(der);
      std::memcpy(der + n, k->pub, kPub);
      n += kPub;
    }
    if constexpr (F == Format::kDer) {
      ok = BIO_write(out, der, int(n)) == int(n);
    } else {
      ok = PEM_write_bio(out, S == Structure::kPki ? PEM_STRING_PKCS8INF : PEM_STRING_PUBLIC, "",
                         der, long(n)) > 0;
    }
    OPENSSL_cleanse(der, sizeof der);
  }
  BIO_free(out);
  return ok;
}

using Fn = void (*)();

template <Format F, Structure S>
const OSSL_DISPATCH kEncoder[] = {
    {OSSL_FUNC_ENCODER_NEWCTX, reinterpret_cast<Fn>(&enc_newctx)},
    {OSSL_FUNC_ENCODER_FREECTX, reinterpret_cast<Fn>(&enc_freectx)},
    {OSSL_FUNC_ENCODER_DOES_SELECTION, reinterpret_cast<Fn>(&enc_does_selection<F, S>)},
    {OSSL_FUNC_ENCODER_ENCODE, reinterpret_cast<Fn>(&enc_encode<F, S>)},
    {OSSL_FUNC_ENCODER_IMPORT_OBJECT, reinterpret_cast<Fn>(&enc_import_object)},
    {OSSL_FUNC_ENCODER_FREE_OBJECT, reinterpret_cast<Fn>(&enc_free_object)},
    {0, nullptr}};

// ---------------------------------------------------------------- decoders

struct DecCtx {
  ProvCtx* prov;
};

void* dec_newctx(void* provctx) {
  auto* c = new (std::nothrow) DecCtx;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}
void dec_freectx(void* c) { delete static_cast<DecCtx*>(c); }

template <Structure S>
int dec_does_selection(void*, int selection) {
  if (selection == 0) return 1;
  if constexpr (S == Structure::kPki) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
}

template <Structure S>
int dec_decode(void* vctx, OSSL_CORE_BIO* cin, int selection, OSSL_CALLBACK* data_cb,
               void* data_cbarg, OSSL_PASSPHRASE_CALLBACK*, void*) {
  auto* c = static_cast<DecCtx*>(vctx);
  if (selection != 0 && !dec_does_selection<S>(vctx, selection)) return 1;  // not for us
  BIO* in = BIO_new_from_core_bio(c->prov->libctx, cin);
  if (in == nullptr) return 0;
  // One more byte than our encoding, to tell "exactly ours" from "longer".
  uint8_t der[kPkiBytes + 1];
  size_t len = 0;
  int r;
  while (len < sizeof der && (r = BIO_read(in, der + len, int(sizeof der - len))) > 0) len += size_t(r);
  BIO_free(in);
  const uint8_t* payload =
      S == Structure::kPki ? pki_payload(der, len) : spki_payload(der, len);
  if (payload == nullptr) {
    OPENSSL_cleanse(der, sizeof der);
    return 1;  // not a babyKyber structure: let the next decoder try
  }
  Key* k = key_new(c->prov);
  bool ok = k != nullptr && (S == Structure::kPki ? key_set_priv(k, payload, kPriv)
                                                  : key_set_pub(k, payload, kPub));
  OPENSSL_cleanse(der, sizeof der);
  if (!ok) {
    key_free(k);
    return 0;  // ours but invalid: a real error
  }
  int object_type = OSSL_OBJECT_PKEY;
  OSSL_PARAM params[4];
  params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &object_type);
  params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE,
                                               const_cast<char*>("babyKyber"), 0);
  params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof k);
  params[3] = OSSL_PARAM_construct_end();
  const int rc = data_cb(params, data_cbarg);
  key_free(k);  // nullptr when the keymgmt's load() took it
  return rc;
}

int dec_export_object(void*, const void* reference, size_t reference_sz, OSSL_CALLBACK* export_cb,
                      void* export_cbarg) {
  if (reference == nullptr || reference_sz != sizeof(Key*)) return 0;
  Key* k = *static_cast<Key* const*>(reference);
  return keymgmt_export(k, OSSL_KEYMGMT_SELECT_KEYPAIR, export_cb, export_cbarg);
}

template <Structure S>
const OSSL_DISPATCH kDecoder[] = {
    {OSSL_FUNC_DECODER_NEWCTX, reinterpret_cast<Fn>(&dec_newctx)},
    {OSSL_FUNC_DECODER_FREECTX, reinterpret_cast<Fn>(&dec_freectx)},
    {OSSL_FUNC_DECODER_DOES_SELECTION, reinterpret_cast<Fn>(&dec_does_selection<S>)},
    {OSSL_FUNC_DECODER_DECODE, reinterpret_cast<Fn>(&dec_decode<S>)},
    {OSSL_FUNC_DECODER_EXPORT_OBJECT, reinterpret_cast<Fn>(&dec_export_object)},
    {0, nullptr}};

}  // namespace

void spki_encode(const Key& key, uint8_t out[kSpkiBytes]) {
  const size_t n = spki_prefix(out);
  std::memcpy(out + n, key.pub, kPub);
}

void pki_encode(const Key& key, uint8_t out[kPkiBytes]) {
  const size_t n = pki_prefix(out);
  std::memcpy(out + n, key.priv, kPriv);
}

const uint8_t* spki_payload(const uint8_t* der, size_t len) {
  uint8_t prefix[kSpkiBytes];
  const size_t n = spki_prefix(prefix);
  if (len != kSpkiBytes || std::memcmp(der, prefix, n) != 0) return nullptr;
  return der + n;
}

const uint8_t* pki_payload(const uint8_t* der, size_t len) {
  uint8_t prefix[kPkiBytes];
  const size_t n = pki_prefix(prefix);
  if (len != kPkiBytes || std::memcmp(der, prefix, n) != 0) return nullptr;
  return der + n;
}

const OSSL_DISPATCH* encoder_spki_der() { return kEncoder<Format::kDer, Structure::kSpki>; }
const OSSL_DISPATCH* encoder_spki_pem() { return kEncoder<Format::kPem, Structure::kSpki>; }
const OSSL_DISPATCH* encoder_pki_der() { return kEncoder<Format::kDer, Structure::kPki>; }
const OSSL_DISPATCH* encoder_pki_pem() { return kEncoder<Format::kPem, Structure::kPki>; }
const OSSL_DISPATCH* encoder_text() { return kEncoder<Format::kText, Structure::kNone>; }
const OSSL_DISPATCH* decoder_spki() { return kDecoder<Structure::kSpki>; }
const OSSL_DISPATCH* decoder_pki() { return kDecoder<Structure::kPki>; }

}  // namespace gpucrypto::bkprov
