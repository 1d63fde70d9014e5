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
// agree). Parameters are absent in the AlgorithmIdentifier. The scaffolding
// is provider/kem_codecs.h; this file holds the ML-KEM parts.
#include <openssl/crypto.h>

#include <cstring>
#include <string>

#include "provider/kem_codecs.h"
#include "provider/mlkem_key.h"

namespace gpucrypto::mlkprov {
namespace {

using kemglue::Bytes;
using kemglue::Format;
using kemglue::hex_block;
using kemglue::Parsed;
using kemglue::Structure;

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

Parsed parse_spki(Key* k, const uint8_t* der, size_t len) {
  Der d{der, der + len}, seq, bits;
  if (!d.next(0x30, &seq) || !d.empty() || !read_alg_id(seq, *k->info)) return Parsed::kNotOurs;
  if (!seq.next(0x03, &bits) || !seq.empty() || bits.size() < 1 || bits.p[0] != 0)
    return Parsed::kInvalid;
  return key_set_pub(k, bits.p + 1, bits.size() - 1) ? Parsed::kOk : Parsed::kInvalid;
}

Parsed parse_pki(Key* k, const uint8_t* der, size_t len) {
  Der d{der, der + len}, seq, ver, priv;
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

template <int LI>
struct CodecTraits {
  using Key = mlkprov::Key;
  static const char* data_type() { return kLevels[LI].name; }
  // Our largest structure (an expanded 3168-byte dk in "both" form) is
  // under 3300 bytes: anything much longer is not ours.
  static constexpr size_t kMaxDer = 4096;
  static Key* new_key(ProvCtx* prov) { return key_new(prov, &kLevels[LI]); }
  static void free_key(Key* k) { key_free(k); }
  static const char* name(const Key& k) { return k.info->name; }
  static bool import(Key* k, int selection, const OSSL_PARAM params[]) {
    return key_import(k, selection, params) != 0;
  }
  static std::string text(const Key& k, bool with_priv) { return key_text(k, with_priv); }
  static Bytes spki_der(const Key& k) { return mlkprov::spki_der(k); }
  static Bytes pki_der(const Key& k) { return mlkprov::pki_der(k); }
  static Parsed decode_spki(ProvCtx* prov, const uint8_t* der, size_t len, Key** out) {
    *out = new_key(prov);
    return *out == nullptr ? Parsed::kNotOurs : parse_spki(*out, der, len);
  }
  static Parsed decode_pki(ProvCtx* prov, const uint8_t* der, size_t len, Key** out) {
    *out = new_key(prov);
    return *out == nullptr ? Parsed::kNotOurs : parse_pki(*out, der, len);
  }
  static int export_key(Key* k, int selection, OSSL_CALLBACK* cb, void* cbarg) {
    return keymgmt_export(k, selection, cb, cbarg);
  }
};

template <int LI, Format F, Structure S>
constexpr const OSSL_DISPATCH* kEncoder = kemglue::kEncoder<CodecTraits<LI>, F, S>;
template <int LI, Structure S>
constexpr const OSSL_DISPATCH* kDecoder = kemglue::kDecoder<CodecTraits<LI>, S>;

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
