// babyKyber encoders (DER/PEM SubjectPublicKeyInfo and PrivateKeyInfo, text)
// and decoders (DER SubjectPublicKeyInfo and PrivateKeyInfo; the default
// provider's PEM-to-DER decoder comes first in a chain), so `openssl genpkey`,
// `openssl pkey -text` and `openssl pkey -pubout` work on OpenSSL 3.0. The
// scaffolding is provider/kem_codecs.h; this file holds the babyKyber parts.
//
// The DER is fixed-size: the encoders write the one canonical encoding and
// the decoders accept exactly it (anything else is "not ours", and the
// decoder chain moves on). Unencrypted PrivateKeyInfo only.
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstring>
#include <string>

#include "kem/core/babykyber_pke.h"
#include "provider/babykyber_key.h"
#include "provider/kem_codecs.h"

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

using kemglue::Bytes;
using kemglue::Format;
using kemglue::hex_block;
using kemglue::Parsed;
using kemglue::Structure;

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
    s += "priv:\n" + hex_block(k.priv, sizeof k.priv);
  }
  s += "pub:\n" + hex_block(k.pub, sizeof k.pub);
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

// The encoders take "priv" when the private part is selected, else "pub".
bool import_key(Key* k, int selection, const OSSL_PARAM params[]) {
  const void* p = nullptr;
  size_t len = 0;
  const OSSL_PARAM* priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  const OSSL_PARAM* pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && priv != nullptr)
    return OSSL_PARAM_get_octet_string_ptr(priv, &p, &len) &&
           key_set_priv(k, static_cast<const uint8_t*>(p), len);
  if (pub != nullptr)
    return OSSL_PARAM_get_octet_string_ptr(pub, &p, &len) &&
           key_set_pub(k, static_cast<const uint8_t*>(p), len);
  return false;
}

// The payload is checked before a key is made; a key that cannot be made or
// installed from our own framing is an error.
Parsed decode(ProvCtx* prov, const uint8_t* payload, bool pki, Key** out) {
  if (payload == nullptr) return Parsed::kNotOurs;
  Key* k = key_new(prov);
  *out = k;
  const bool ok = k != nullptr && (pki ? key_set_priv(k, payload, kPriv)
                                       : key_set_pub(k, payload, kPub));
  return ok ? Parsed::kOk : Parsed::kInvalid;
}

struct CodecTraits {
  using Key = bkprov::Key;
  static const char* data_type() { return "babyKyber"; }
  static constexpr size_t kMaxDer = kPkiBytes;
  static Key* new_key(ProvCtx* prov) { return key_new(prov); }
  static void free_key(Key* k) { key_free(k); }
  static const char* name(const Key&) { return "babyKyber"; }
  static bool import(Key* k, int selection, const OSSL_PARAM params[]) {
    return import_key(k, selection, params);
  }
  static std::string text(const Key& k, bool with_priv) { return key_text(k, with_priv); }
  static Bytes spki_der(const Key& k) {
    Bytes der(kSpkiBytes);
    spki_encode(k, der.data());
    return der;
  }
  static Bytes pki_der(const Key& k) {
    Bytes der(kPkiBytes);
    pki_encode(k, der.data());
    return der;
  }
  static Parsed decode_spki(ProvCtx* prov, const uint8_t* der, size_t len, Key** out) {
    return decode(prov, spki_payload(der, len), false, out);
  }
  static Parsed decode_pki(ProvCtx* prov, const uint8_t* der, size_t len, Key** out) {
    return decode(prov, pki_payload(der, len), true, out);
  }
  static int export_key(Key* k, int selection, OSSL_CALLBACK* cb, void* cbarg) {
    return keymgmt_export(k, selection, cb, cbarg);
  }
};

template <Format F, Structure S>
constexpr const OSSL_DISPATCH* kEncoder = kemglue::kEncoder<CodecTraits, F, S>;
template <Structure S>
constexpr const OSSL_DISPATCH* kDecoder = kemglue::kDecoder<CodecTraits, S>;

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
