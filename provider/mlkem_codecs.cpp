// ML-KEM encoders (DER/PEM SubjectPublicKeyInfo and PrivateKeyInfo, text)
// and decoders (DER SubjectPublicKeyInfo and PrivateKeyInfo; the default
// provider's PEM-to-DER decoder comes first in a chain), so `openssl genpkey`,
// `openssl pkey -text` and `openssl pkey -pubout` work on OpenSSL 3.0, which
// knows neither the algorithm nor its OIDs.
//
// Formats (IETF LAMPS "Algorithm Identifiers for ML-KEM", FIPS 203 keys):
//   SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID id-alg-ml-kem-N }, BIT STRING ek }
//   PrivateKeyInfo: SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING ML-KEM-PrivateKey }
//   ML-KEM-PrivateKey ::= CHOICE {
//       seed        [0] IMPLICIT OCTET STRING (SIZE (64)),   -- d || z
//       expandedKey OCTET STRING,                            -- dk
//       both        SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
// We write the seed form when the key has its seed (always for keys we
// generate), else expandedKey; we read all three (for "both" the two must
// agree). Parameters are absent in the AlgorithmIdentifier.
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/pem.h>

#include <cstring>
#include <string>
#include <vector>

#include "provider/mlkem_key.h"

namespace gpucrypto::mlkprov {
namespace {

using Bytes = std::vector<uint8_t>;

// DER of OBJECT IDENTIFIER 2.16.840.1.101.3.4.4.<last> (NIST arc, kems).
Bytes oid_der(uint8_t last) { return {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, last}; }

void put_tlv(Bytes& out, uint8_t tag, const uint8_t* v, size_t n) {
  out.push_back(tag);
  if (n < 0x80) {
    out.push_back(uint8_t(n));
  } else if (n < 0x100) {
    out.push_back(0x81);
    out.push_back(uint8_t(n));
  } else {
    out.push_back(0x82);
    out.push_back(uint8_t(n >> 8));
    out.push_back(uint8_t(n));
  }
  out.insert(out.end(), v, v + n);
}
void put_tlv(Bytes& out, uint8_t tag, const Bytes& v) { put_tlv(out, tag, v.data(), v.size()); }

Bytes alg_id(const LevelInfo& li) {
  Bytes a;
  put_tlv(a, 0x30, oid_der(li.oid_last));
  return a;
}

Bytes spki_der(const Key& k) {
  Bytes bits{0x00};
  bits.insert(bits.end(), k.ek, k.ek + k.info->ek_bytes);
  Bytes body = alg_id(*k.info);
  put_tlv(body, 0x03, bits);
  Bytes out;
  put_tlv(out, 0x30, body);
  return out;
}

// Holds the private key: the caller cleanses it.
Bytes pki_der(const Key& k) {
  Bytes inner;
  if (k.has_seed) put_tlv(inner, 0x80, k.seed, sizeof k.seed);
  else put_tlv(inner, 0x04, k.dk, k.info->dk_bytes);
  Bytes body{0x02, 0x01, 0x00};
  const Bytes a = alg_id(*k.info);
  body.insert(body.end(), a.begin(), a.end());
  put_tlv(body, 0x04, inner);
  Bytes out;
  put_tlv(out, 0x30, body);
  OPENSSL_cleanse(inner.data(), inner.size());
  OPENSSL_cleanse(body.data(), body.size());
  return out;
}

// A DER reader over [p, end): one TLV at a time, definite lengths only.
struct Der {
  const uint8_t* p;
  const uint8_t* end;
  bool next(uint8_t tag, Der* value) {
    if (end - p < 2 || p[0] != tag) return false;
    size_t len = p[1];
    const uint8_t* v = p + 2;
    if (len & 0x80) {
      const size_t nb = len & 0x7f;
      if (nb == 0 || nb > 2 || size_t(end - v) < nb) return false;
      len = 0;
      for (size_t i = 0; i < nb; ++i) len = (len << 8) | *v++;
    }
    if (size_t(end - v) < len) return false;
    *value = {v, v + len};
    p = v + len;
    return true;
  }
  bool empty() const { return p == end; }
  size_t size() const { return size_t(end - p); }
};

// True when `d` starts with our AlgorithmIdentifier (parameters absent).
bool read_alg_id(Der& d, const LevelInfo& li) {
  Der alg, oid;
  if (!d.next(0x30, &alg) || !alg.next(0x06, &oid) || !alg.empty()) return false;
  const Bytes want = oid_der(li.oid_last);
  return oid.size() == want.size() - 2 && std::memcmp(oid.p, want.data() + 2, oid.size()) == 0;
}

// ---------------------------------------------------------------- encoders

enum class Format { kDer, kPem, kText };
enum class Structure { kSpki, kPki, kNone };

struct CodecCtx {
  ProvCtx* prov;
};

void* ctx_new(void* provctx) {
  auto* c = new (std::nothrow) CodecCtx;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}
void ctx_free(void* c) { delete static_cast<CodecCtx*>(c); }

template <int LI>
void* enc_import_object(void* vctx, int selection, const OSSL_PARAM params[]) {
  auto* c = static_cast<CodecCtx*>(vctx);
  Key* k = key_new(c->prov, &kLevels[LI]);
  if (k == nullptr) return nullptr;
  if (!key_import(k, selection, params)) {
    key_free(k);
    return nullptr;
  }
  return k;
}
void enc_free_object(void* k) { key_free(static_cast<Key*>(k)); }

std::string hex_block(const uint8_t* p, size_t n) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i % 15 == 0) s += "    ";
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
    if (i + 1 < n) s += ':';
    if (i % 15 == 14 || i + 1 == n) s += '\n';
  }
  return s;
}

// The layout of OpenSSL 3.5's ML-KEM text output.
std::string key_text(const Key& k, bool with_priv) {
  const LevelInfo& li = *k.info;
  std::string s = std::string(li.name) + (with_priv ? " Private-Key:\n" : " Public-Key:\n");
  if (with_priv) {
    if (k.has_seed) s += "seed:\n" + hex_block(k.seed, sizeof k.seed);
    s += "dk:\n" + hex_block(k.dk, li.dk_bytes);
  }
  s += "ek:\n" + hex_block(k.ek, li.ek_bytes);
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
  auto* c = static_cast<CodecCtx*>(vctx);
  if (obj_abstract != nullptr || obj_raw == nullptr) return 0;  // core imports first
  const auto* k = static_cast<const Key*>(obj_raw);
  const bool priv = S == Structure::kPki ||
                    (S == Structure::kNone && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0);
  if (priv ? !k->has_priv : !k->has_pub) {
    GPUC_RAISE(c->prov, kErrInvalidKey, "%s key has no %s part to encode", k->info->name,
               priv ? "private" : "public");
    return 0;
  }
  BIO* out = BIO_new_from_core_bio(c->prov->libctx, cout);
  if (out == nullptr) return 0;
  int ok = 0;
  if constexpr (F == Format::kText) {
    std::string s = key_text(*k, priv);
    ok = BIO_write(out, s.data(), int(s.size())) == int(s.size());
    OPENSSL_cleanse(s.data(), s.size());
  } else {
    Bytes der = S == Structure::kPki ? pki_der(*k) : spki_der(*k);
    if constexpr (F == Format::kDer) {
      ok = BIO_write(out, der.data(), int(der.size())) == int(der.size());
    } else {
      ok = PEM_write_bio(out, S == Structure::kPki ? PEM_STRING_PKCS8INF : PEM_STRING_PUBLIC, "",
                         der.data(), long(der.size())) > 0;
    }
    OPENSSL_cleanse(der.data(), der.size());
  }
  BIO_free(out);
  return ok;
}

using Fn = void (*)();

template <int LI, Format F, Structure S>
const OSSL_DISPATCH kEncoder[] = {
    {OSSL_FUNC_ENCODER_NEWCTX, reinterpret_cast<Fn>(&ctx_new)},
    {OSSL_FUNC_ENCODER_FREECTX, reinterpret_cast<Fn>(&ctx_free)},
    {OSSL_FUNC_ENCODER_DOES_SELECTION, reinterpret_cast<Fn>(&enc_does_selection<F, S>)},
    {OSSL_FUNC_ENCODER_ENCODE, reinterpret_cast<Fn>(&enc_encode<F, S>)},
    {OSSL_FUNC_ENCODER_IMPORT_OBJECT, reinterpret_cast<Fn>(&enc_import_object<LI>)},
    {OSSL_FUNC_ENCODER_FREE_OBJECT, reinterpret_cast<Fn>(&enc_free_object)},
    {0, nullptr}};

// ---------------------------------------------------------------- decoders

template <Structure S>
int dec_does_selection(void*, int selection) {
  if (selection == 0) return 1;
  if constexpr (S == Structure::kPki) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
}

enum class Parsed { kNotOurs, kOk, kInvalid };

Parsed parse_spki(Key* k, const Bytes& der) {
  Der d{der.data(), der.data() + der.size()}, seq, bits;
  if (!d.next(0x30, &seq) || !d.empty() || !read_alg_id(seq, *k->info)) return Parsed::kNotOurs;
  if (!seq.next(0x03, &bits) || !seq.empty() || bits.size() < 1 || bits.p[0] != 0)
    return Parsed::kInvalid;
  return key_set_pub(k, bits.p + 1, bits.size() - 1) ? Parsed::kOk : Parsed::kInvalid;
}

Parsed parse_pki(Key* k, const Bytes& der) {
  Der d{der.data(), der.data() + der.size()}, seq, ver, priv;
  if (!d.next(0x30, &seq) || !d.empty() || !seq.next(0x02, &ver)) return Parsed::kNotOurs;
  if (!read_alg_id(seq, *k->info)) return Parsed::kNotOurs;
  // Version 0 (v1) or 1 (v2, OneAsymmetricKey); trailing attributes and
  // publicKey fields are allowed and ignored (the key embeds its ek).
  if (ver.size() != 1 || ver.p[0] > 1 || !seq.next(0x04, &priv)) return Parsed::kInvalid;
  Der inner;
  if (priv.next(0x80, &inner) && priv.empty())
    return key_set_seed(k, inner.p, inner.size()) ? Parsed::kOk : Parsed::kInvalid;
  if (priv.next(0x04, &inner) && priv.empty())
    return key_set_priv(k, inner.p, inner.size()) ? Parsed::kOk : Parsed::kInvalid;
  Der both, seed, dk;
  if (priv.next(0x30, &both) && priv.empty() && both.next(0x04, &seed) && both.next(0x04, &dk) &&
      both.empty())
    return key_set_seed_and_priv(k, seed.p, seed.size(), dk.p, dk.size()) ? Parsed::kOk
                                                                           : Parsed::kInvalid;
  GPUC_RAISE(k->prov, kErrInvalidKey, "%s PrivateKeyInfo holds no seed, expandedKey or both",
             k->info->name);
  return Parsed::kInvalid;
}

template <int LI, Structure S>
int dec_decode(void* vctx, OSSL_CORE_BIO* cin, int selection, OSSL_CALLBACK* data_cb,
               void* data_cbarg, OSSL_PASSPHRASE_CALLBACK*, void*) {
  auto* c = static_cast<CodecCtx*>(vctx);
  if (selection != 0 && !dec_does_selection<S>(vctx, selection)) return 1;  // not for us
  BIO* in = BIO_new_from_core_bio(c->prov->libctx, cin);
  if (in == nullptr) return 0;
  // Our largest structure (an expanded 3168-byte dk in "both" form) is
  // under 3300 bytes: anything much longer is not ours.
  constexpr size_t kMax = 4096;
  Bytes der(kMax + 1);
  size_t len = 0;
  int r;
  while (len < der.size() && (r = BIO_read(in, der.data() + len, int(der.size() - len))) > 0)
    len += size_t(r);
  BIO_free(in);
  der.resize(len);
  Key* k = len <= kMax ? key_new(c->prov, &kLevels[LI]) : nullptr;
  const Parsed res = k == nullptr ? Parsed::kNotOurs
                     : S == Structure::kPki ? parse_pki(k, der)
                                            : parse_spki(k, der);
  OPENSSL_cleanse(der.data(), der.size());
  if (res != Parsed::kOk) {
    key_free(k);
    return res == Parsed::kNotOurs ? 1 : 0;  // not ours: let the next decoder try
  }
  int object_type = OSSL_OBJECT_PKEY;
  OSSL_PARAM params[4];
  params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &object_type);
  params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE,
                                               const_cast<char*>(kLevels[LI].name), 0);
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

template <int LI, Structure S>
const OSSL_DISPATCH kDecoder[] = {
    {OSSL_FUNC_DECODER_NEWCTX, reinterpret_cast<Fn>(&ctx_new)},
    {OSSL_FUNC_DECODER_FREECTX, reinterpret_cast<Fn>(&ctx_free)},
    {OSSL_FUNC_DECODER_DOES_SELECTION, reinterpret_cast<Fn>(&dec_does_selection<S>)},
    {OSSL_FUNC_DECODER_DECODE, reinterpret_cast<Fn>(&dec_decode<LI, S>)},
    {OSSL_FUNC_DECODER_EXPORT_OBJECT, reinterpret_cast<Fn>(&dec_export_object)},
    {0, nullptr}};

template <template <int> class Table>
const OSSL_DISPATCH* by_level(int li) {
  switch (li) {
    case 0:
      return Table<0>::value;
    case 1:
      return Table<1>::value;
    default:
      return Table<2>::value;
  }
}

template <Format F, Structure S>
struct Enc {
  template <int LI>
  struct T {
    static constexpr const OSSL_DISPATCH* value = kEncoder<LI, F, S>;
  };
};
template <Structure S>
struct Dec {
  template <int LI>
  struct T {
    static constexpr const OSSL_DISPATCH* value = kDecoder<LI, S>;
  };
};

}  // namespace

const OSSL_DISPATCH* encoder_spki_der(int li) { return by_level<Enc<Format::kDer, Structure::kSpki>::T>(li); }
const OSSL_DISPATCH* encoder_spki_pem(int li) { return by_level<Enc<Format::kPem, Structure::kSpki>::T>(li); }
const OSSL_DISPATCH* encoder_pki_der(int li) { return by_level<Enc<Format::kDer, Structure::kPki>::T>(li); }
const OSSL_DISPATCH* encoder_pki_pem(int li) { return by_level<Enc<Format::kPem, Structure::kPki>::T>(li); }
const OSSL_DISPATCH* encoder_text(int li) { return by_level<Enc<Format::kText, Structure::kNone>::T>(li); }
const OSSL_DISPATCH* decoder_spki(int li) { return by_level<Dec<Structure::kSpki>::T>(li); }
const OSSL_DISPATCH* decoder_pki(int li) { return by_level<Dec<Structure::kPki>::T>(li); }

}  // namespace gpucrypto::mlkprov
