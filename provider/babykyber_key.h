// babyKyber key objects shared by the provider's keymgmt, KEM, encoders and
// decoders, and the fixed DER framing of its SubjectPublicKeyInfo and
// PrivateKeyInfo (see kem/README.md, "Key formats").
#pragma once
#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

#include "gpucrypto/babykyber.h"
#include "provider/provctx.h"

namespace gpucrypto::bkprov {

// PLACEHOLDER OID under the private-enterprise arc 1.3.6.1.4.1: enterprise
// number 99999 is NOT registered to this project. It only labels babyKyber
// keys in files this provider writes; change it before any interoperable use.
inline constexpr char kOid[] = "1.3.6.1.4.1.99999.1.1";
// Names of the keymgmt/KEM/encoders/decoders: the canonical name, then the
// dotted OID (OpenSSL 3.0's SubjectPublicKeyInfo pre-decoder names an
// unregistered algorithm by its dotted OID, so decoders must answer to it).
inline constexpr char kNames[] = "babyKyber:1.3.6.1.4.1.99999.1.1";
inline constexpr char kDescription[] =
    "babyKyber toy KEM (n=4, q=17, k=2; NO SECURITY: 16 possible messages)";

struct Key {
  ProvCtx* prov = nullptr;
  bool has_pub = false;
  bool has_priv = false;
  uint8_t pub[BABYKYBER_PUBLICKEY_BYTES] = {};
  uint8_t priv[BABYKYBER_SECRETKEY_BYTES] = {};
};

Key* key_new(ProvCtx* prov);
void key_free(Key* key);
// Validates and installs key material (raises a provider error on failure).
bool key_set_pub(Key* key, const uint8_t* pub, size_t len);
bool key_set_priv(Key* key, const uint8_t* priv, size_t len);

// Keymgmt export, reused by the decoders' export_object.
int keymgmt_export(void* keydata, int selection, OSSL_CALLBACK* cb, void* cbarg);

// DER framing: SEQUENCE { SEQUENCE { OID }, BIT STRING (0 unused bits) pub }
// and SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING priv }, parameters
// absent. Exactly these encodings are accepted when decoding.
inline constexpr size_t kSpkiBytes = 34;
inline constexpr size_t kPkiBytes = 105;
void spki_encode(const Key& key, uint8_t out[kSpkiBytes]);
void pki_encode(const Key& key, uint8_t out[kPkiBytes]);
// The key bytes inside `der` when it is exactly our framing, else nullptr.
const uint8_t* spki_payload(const uint8_t* der, size_t len);
const uint8_t* pki_payload(const uint8_t* der, size_t len);

// Encoder and decoder dispatch tables (babykyber_codecs.cpp).
const OSSL_DISPATCH* encoder_spki_der();
const OSSL_DISPATCH* encoder_spki_pem();
const OSSL_DISPATCH* encoder_pki_der();
const OSSL_DISPATCH* encoder_pki_pem();
const OSSL_DISPATCH* encoder_text();
const OSSL_DISPATCH* decoder_spki();
const OSSL_DISPATCH* decoder_pki();

extern const OSSL_DISPATCH kKeymgmtFunctions[];
extern const OSSL_DISPATCH* const kKemFunctions;

}  // namespace gpucrypto::bkprov
