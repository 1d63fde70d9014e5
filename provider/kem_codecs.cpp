// Encoders (DER/PEM SubjectPublicKeyInfo and PrivateKeyInfo, text) and
// decoders (DER SubjectPublicKeyInfo and PrivateKeyInfo; the default
// provider's PEM-to-DER decoder comes first in a chain) of every KEM row, so
// `openssl genpkey`, `openssl pkey -text` and `openssl pkey -pubout` work on
// OpenSSL 3.0, which knows neither the algorithms nor their OIDs.
//
// Formats (kem/README.md, "Key formats"; for ML-KEM the IETF LAMPS
// "Algorithm Identifiers for ML-KEM"), AlgorithmIdentifier parameters absent:
//   SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID }, BIT STRING pub }
//   PrivateKeyInfo: SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING p }
// where p is, by the row's PrivForm,
//   kRaw:          the private key bytes;
//   kSeedExpanded: ML-KEM-PrivateKey ::= CHOICE {
//                    seed        [0] IMPLICIT OCTET STRING (SIZE (64)),   -- d || z
//                    expandedKey OCTET STRING,                            -- dk
//                    both        SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
//                  written as the seed when the key has it (always for keys
//                  we generate), else expandedKey; all three are read (for
//                  "both" the two must agree), and OpenSSL 3.5's other input
//                  forms too (parse_mlkem_private). Lengths must be minimal DER.
// A der_exact row's decoders accept exactly the canonical encoding (anything
// else is "not ours" and the chain moves on); the others parse the DER and
// call a structure with our OID holding a bad key an error. Unencrypted
// PrivateKeyInfo only.
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/pem.h>

#include <array>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "provider/kem_dispatch.h"
#include "provider/kem_key.h"

namespace gpucrypto::kemprov {
namespace {

using Bytes = std::vector<uint8_t>;

// What a decoder made of its input: not our structure (the chain moves on),
// a key, or our structure holding an invalid key (a real error).
enum class Parsed { kNotOurs, kOk, kInvalid };

// --- DER writing ---------------------------------------------------------------

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

Bytes alg_id(const KemDesc& d) {
  Bytes oid, a;
  put_tlv(oid, 0x06, d.oid, d.oid_len);
  put_tlv(a, 0x30, oid);
  return a;
}

Bytes spki_der(const KemDesc& d, const uint8_t* pub) {
  Bytes bits{0x00};  // no unused bits
  bits.insert(bits.end(), pub, pub + d.pub_bytes);
  Bytes body = alg_id(d);
  put_tlv(body, 0x03, bits);
  Bytes out;
  put_tlv(out, 0x30, body);
  return out;
}

// Holds the private key: the caller cleanses it. `seed` is nullptr for the
// expanded (or raw) form.
Bytes pki_der(const KemDesc& d, const uint8_t* priv, const uint8_t* seed) {
  Bytes inner;
  if (d.priv_form == PrivForm::kRaw) inner.assign(priv, priv + d.priv_bytes);
  else if (seed != nullptr) put_tlv(inner, 0x80, seed, d.seed_bytes);
  else put_tlv(inner, 0x04, priv, d.priv_bytes);
  Bytes body{0x02, 0x01, 0x00};  // INTEGER 0 (version v1)
  const Bytes a = alg_id(d);
  body.insert(body.end(), a.begin(), a.end());
  put_tlv(body, 0x04, inner);
  Bytes out;
  put_tlv(out, 0x30, body);
  OPENSSL_cleanse(inner.data(), inner.size());
  OPENSSL_cleanse(body.data(), body.size());
  return out;
}

// --- DER reading ---------------------------------------------------------------

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
      // DER: the shortest length form only (no 81 xx below 0x80, no 82 00 xx).
      if (len < (nb == 1 ? 0x80u : 0x100u)) return false;
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
bool read_alg_id(Der& d, const KemDesc& desc) {
  Der alg, oid;
  if (!d.next(0x30, &alg) || !alg.next(0x06, &oid) || !alg.empty()) return false;
  return oid.size() == desc.oid_len && std::memcmp(oid.p, desc.oid, oid.size()) == 0;
}

// der_exact rows: the key bytes when `der` is exactly the canonical framing of
// `canonical` (an encoding of an all-zero key), else nullptr.
const uint8_t* exact_payload(const Bytes& canonical, size_t key_bytes, const uint8_t* der,
                             size_t len) {
  const size_t prefix = canonical.size() - key_bytes;
  if (len != canonical.size() || std::memcmp(der, canonical.data(), prefix) != 0) return nullptr;
  return der + prefix;
}

Parsed installed(bool ok) { return ok ? Parsed::kOk : Parsed::kInvalid; }

Parsed parse_spki(Key* k, const uint8_t* der, size_t len) {
  const KemDesc& d = *k->desc;
  if (d.der_exact) {
    const Bytes zero(d.pub_bytes, 0);
    const uint8_t* pub = exact_payload(spki_der(d, zero.data()), d.pub_bytes, der, len);
    return pub == nullptr ? Parsed::kNotOurs : installed(key_set_pub(k, pub, d.pub_bytes));
  }
  Der in{der, der + len}, seq, bits;
  if (!in.next(0x30, &seq) || !in.empty() || !read_alg_id(seq, d)) return Parsed::kNotOurs;
  if (!seq.next(0x03, &bits) || !seq.empty() || bits.size() < 1 || bits.p[0] != 0)
    return Parsed::kInvalid;
  return installed(key_set_pub(k, bits.p + 1, bits.size() - 1));
}

// ML-KEM-PrivateKey: the three forms of the LAMPS draft and the three
// others OpenSSL 3.5 reads (its "oqskeypair": expandedKey || ek in one OCTET
// STRING; "bare-seed" and "bare-priv": the 64-byte seed or the dk without any
// DER). Each alternative is tried on the whole octets, and must consume all
// of them: an element before or after the key is not one of the forms.
Parsed parse_mlkem_private(Key* k, const Der& octets) {
  const KemDesc& d = *k->desc;
  const size_t n = octets.size();
  Der in = octets, inner;
  if (in.next(0x80, &inner) && in.empty()) return installed(key_set_seed(k, inner.p, inner.size()));
  in = octets;
  if (in.next(0x04, &inner) && in.empty()) {
    if (inner.size() != d.priv_bytes + d.pub_bytes)  // expandedKey
      return installed(key_set_priv(k, inner.p, inner.size()));
    if (!key_set_priv(k, inner.p, d.priv_bytes)) return Parsed::kInvalid;
    if (CRYPTO_memcmp(k->pub, inner.p + d.priv_bytes, d.pub_bytes) == 0) return Parsed::kOk;
    GPUC_RAISE(k->prov, kErrInvalidKey, "%s key pair: the public key does not match", d.name);
    return Parsed::kInvalid;
  }
  in = octets;
  Der both, seed, dk;
  if (in.next(0x30, &both) && in.empty() && both.next(0x04, &seed) && both.next(0x04, &dk) &&
      both.empty())
    return installed(key_set_seed_and_priv(k, seed.p, seed.size(), dk.p, dk.size()));
  if (n == d.seed_bytes) return installed(key_set_seed(k, octets.p, n));
  if (n == d.priv_bytes) return installed(key_set_priv(k, octets.p, n));
  GPUC_RAISE(k->prov, kErrInvalidKey, "%s PrivateKeyInfo holds none of the private key forms", d.name);
  return Parsed::kInvalid;
}

Parsed parse_pki(Key* k, const uint8_t* der, size_t len) {
  const KemDesc& d = *k->desc;
  if (d.der_exact) {
    const Bytes zero(d.priv_bytes, 0);
    Bytes canonical = pki_der(d, zero.data(), nullptr);
    const uint8_t* priv = exact_payload(canonical, d.priv_bytes, der, len);
    return priv == nullptr ? Parsed::kNotOurs : installed(key_set_priv(k, priv, d.priv_bytes));
  }
  Der in{der, der + len}, seq, ver, priv;
  if (!in.next(0x30, &seq) || !in.empty() || !seq.next(0x02, &ver)) return Parsed::kNotOurs;
  if (!read_alg_id(seq, d)) return Parsed::kNotOurs;
  // Version 0 (v1) or 1 (v2, OneAsymmetricKey); trailing attributes and
  // publicKey fields are allowed and ignored (the key embeds its public key).
  if (ver.size() != 1 || ver.p[0] > 1 || !seq.next(0x04, &priv)) return Parsed::kInvalid;
  if (d.priv_form == PrivForm::kRaw) return installed(key_set_priv(k, priv.p, priv.size()));
  return parse_mlkem_private(k, priv);
}

// --- text ----------------------------------------------------------------------

// Key bytes as the text encoders print them: 15 colon-separated hex bytes a
// line, indented by four spaces.
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

// The layout of OpenSSL 3.5's ML-KEM text output: header, seed, private key,
// public key; a row may add a note after the header and lines at the end.
std::string key_text(const Key& k, bool with_priv) {
  const KemDesc& d = *k.desc;
  std::string s = std::string(d.name) + (with_priv ? " Private-Key:\n" : " Public-Key:\n");
  if (d.text_note != nullptr) s += d.text_note;
  if (with_priv) {
    if (k.has_seed) s += "seed:\n" + hex_block(k.seed, d.seed_bytes);
    s += std::string(d.priv_label) + ":\n" + hex_block(k.priv, d.priv_bytes);
  }
  s += std::string(d.pub_label) + ":\n" + hex_block(k.pub, d.pub_bytes);
  if (d.text_extra != nullptr) d.text_extra(k, with_priv, s);
  return s;
}

// --- the OSSL_DISPATCH functions ---------------------------------------------------

struct CodecCtx {
  ProvCtx* prov;
};

void* codec_newctx(void* provctx) {
  auto* c = new (std::nothrow) CodecCtx;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}
void codec_freectx(void* c) { delete static_cast<CodecCtx*>(c); }

template <size_t R>
void* enc_import_object(void* vctx, int selection, const OSSL_PARAM params[]) {
  auto* c = static_cast<CodecCtx*>(vctx);
  Key* k = key_new(c->prov, &kKems[R]);
  if (k != nullptr && !key_import(k, selection, params)) {
    key_free(k);
    return nullptr;
  }
  return k;
}

void enc_free_object(void* k) { key_free(static_cast<Key*>(k)); }

template <Structure S>
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
    GPUC_RAISE(c->prov, kErrInvalidKey, "%s key has no %s part to encode", k->desc->name,
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
    Bytes der = S == Structure::kPki ? pki_der(*k->desc, k->priv, k->has_seed ? k->seed : nullptr)
                                     : spki_der(*k->desc, k->pub);
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

template <Structure S>
int dec_does_selection(void*, int selection) {
  if (selection == 0) return 1;
  if constexpr (S == Structure::kPki) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
}

template <size_t R, Structure S>
int dec_decode(void* vctx, OSSL_CORE_BIO* cin, int selection, OSSL_CALLBACK* data_cb,
               void* data_cbarg, OSSL_PASSPHRASE_CALLBACK*, void*) {
  const KemDesc& d = kKems[R];
  auto* c = static_cast<CodecCtx*>(vctx);
  if (selection != 0 && !dec_does_selection<S>(vctx, selection)) return 1;  // not for us
  BIO* in = BIO_new_from_core_bio(c->prov->libctx, cin);
  if (in == nullptr) return 0;
  // One more byte than the longest encoding, to tell "ours" from "longer".
  Bytes der(d.max_der + 1);
  size_t len = 0;
  int r;
  while (len < der.size() && (r = BIO_read(in, der.data() + len, int(der.size() - len))) > 0)
    len += size_t(r);
  BIO_free(in);
  Key* k = nullptr;
  Parsed res = Parsed::kNotOurs;
  if (len <= d.max_der && (k = key_new(c->prov, &d)) != nullptr)
    res = S == Structure::kPki ? parse_pki(k, der.data(), len) : parse_spki(k, der.data(), len);
  OPENSSL_cleanse(der.data(), der.size());
  if (res != Parsed::kOk) {
    key_free(k);
    return res == Parsed::kNotOurs ? 1 : 0;  // not ours: let the next decoder try
  }
  int object_type = OSSL_OBJECT_PKEY;
  OSSL_PARAM params[4];
  params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &object_type);
  params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, const_cast<char*>(d.name), 0);
  params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof k);
  params[3] = OSSL_PARAM_construct_end();
  const int rc = data_cb(params, data_cbarg);
  key_free(k);  // nullptr when the keymgmt's load() took it
  return rc;
}

int dec_export_object(void*, const void* reference, size_t reference_sz, OSSL_CALLBACK* export_cb,
                      void* export_cbarg) {
  if (reference == nullptr || reference_sz != sizeof(Key*)) return 0;
  const Key* k = *static_cast<Key* const*>(reference);
  return key_export(k, OSSL_KEYMGMT_SELECT_KEYPAIR, export_cb, export_cbarg);
}

using Fn = void (*)();

template <size_t R, Format F, Structure S>
const OSSL_DISPATCH kEncoder[] = {
    {OSSL_FUNC_ENCODER_NEWCTX, reinterpret_cast<Fn>(&codec_newctx)},
    {OSSL_FUNC_ENCODER_FREECTX, reinterpret_cast<Fn>(&codec_freectx)},
    {OSSL_FUNC_ENCODER_DOES_SELECTION, reinterpret_cast<Fn>(&enc_does_selection<S>)},
    {OSSL_FUNC_ENCODER_ENCODE, reinterpret_cast<Fn>(&enc_encode<F, S>)},
    {OSSL_FUNC_ENCODER_IMPORT_OBJECT, reinterpret_cast<Fn>(&enc_import_object<R>)},
    {OSSL_FUNC_ENCODER_FREE_OBJECT, reinterpret_cast<Fn>(&enc_free_object)},
    {0, nullptr}};

template <size_t R, Structure S>
const OSSL_DISPATCH kDecoder[] = {
    {OSSL_FUNC_DECODER_NEWCTX, reinterpret_cast<Fn>(&codec_newctx)},
    {OSSL_FUNC_DECODER_FREECTX, reinterpret_cast<Fn>(&codec_freectx)},
    {OSSL_FUNC_DECODER_DOES_SELECTION, reinterpret_cast<Fn>(&dec_does_selection<S>)},
    {OSSL_FUNC_DECODER_DECODE, reinterpret_cast<Fn>(&dec_decode<R, S>)},
    {OSSL_FUNC_DECODER_EXPORT_OBJECT, reinterpret_cast<Fn>(&dec_export_object)},
    {0, nullptr}};

// Per row: the five encoders, then the two decoders, in kSlots order.
constexpr int slot(Format f, Structure s) {
  return f == Format::kText ? 4 : (s == Structure::kSpki ? 0 : 2) + (f == Format::kPem ? 1 : 0);
}
constexpr int kDecoderSlot[] = {5, 6};  // Structure::kSpki, kPki
using RowCodecs = std::array<const OSSL_DISPATCH*, 7>;
template <size_t R>
constexpr RowCodecs row_codecs() {
  RowCodecs t{};
  t[slot(Format::kDer, Structure::kSpki)] = kEncoder<R, Format::kDer, Structure::kSpki>;
  t[slot(Format::kPem, Structure::kSpki)] = kEncoder<R, Format::kPem, Structure::kSpki>;
  t[slot(Format::kDer, Structure::kPki)] = kEncoder<R, Format::kDer, Structure::kPki>;
  t[slot(Format::kPem, Structure::kPki)] = kEncoder<R, Format::kPem, Structure::kPki>;
  t[slot(Format::kText, Structure::kNone)] = kEncoder<R, Format::kText, Structure::kNone>;
  t[kDecoderSlot[0]] = kDecoder<R, Structure::kSpki>;
  t[kDecoderSlot[1]] = kDecoder<R, Structure::kPki>;
  return t;
}
template <size_t... R>
constexpr std::array<RowCodecs, kKemCount> codec_tables(std::index_sequence<R...>) {
  return {row_codecs<R>()...};
}
constexpr auto kCodecs = codec_tables(std::make_index_sequence<kKemCount>());

}  // namespace

const OSSL_DISPATCH* encoder_dispatch(size_t row, Format f, Structure s) {
  return kCodecs[row][slot(f, s)];
}

const OSSL_DISPATCH* decoder_dispatch(size_t row, Structure s) {
  return kCodecs[row][kDecoderSlot[s == Structure::kSpki ? 0 : 1]];
}

}  // namespace gpucrypto::kemprov
