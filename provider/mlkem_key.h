// ML-KEM key objects shared by the provider's keymgmt, KEM, encoders and
// decoders, the per-level names/OIDs, and the DER forms of the keys
// (kem/README.md, "ML-KEM key formats").
#pragma once
#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

#include "gpucrypto/mlkem.h"
#include "provider/provctx.h"

namespace gpucrypto::mlkprov {

struct LevelInfo {
  int level;                // 512, 768, 1024
  const char* name;         // canonical OpenSSL name, e.g. "ML-KEM-768"
  const char* names;        // the OSSL_ALGORITHM name list (name, alias, dotted OID)
  const char* description;
  uint8_t oid_last;         // 2.16.840.1.101.3.4.4.<oid_last>
  int security_bits;
  size_t ek_bytes, dk_bytes, ct_bytes;
};

// Index 0, 1, 2 = ML-KEM-512, -768, -1024.
extern const LevelInfo kLevels[3];

struct Key {
  ProvCtx* prov = nullptr;
  const LevelInfo* info = nullptr;
  bool has_pub = false;
  bool has_priv = false;
  bool has_seed = false;  // the private key came from (or was made from) d || z
  uint8_t ek[MLKEM_MAX_PUBLICKEY_BYTES] = {};
  uint8_t dk[MLKEM_MAX_SECRETKEY_BYTES] = {};
  uint8_t seed[MLKEM_KEYGEN_SEED_BYTES] = {};
};

Key* key_new(ProvCtx* prov, const LevelInfo* info);
void key_free(Key* key);
// Install key material after the FIPS 203 section 7 checks (length and
// modulus check for ek; length and hash check for dk; a seed is expanded).
// Each raises a provider error and leaves the key empty on failure.
bool key_set_pub(Key* key, const uint8_t* ek, size_t len);
bool key_set_priv(Key* key, const uint8_t* dk, size_t len);
bool key_set_seed(Key* key, const uint8_t* seed, size_t len);
// seed and expanded dk together (PKCS#8 "both"): they must agree.
bool key_set_seed_and_priv(Key* key, const uint8_t* seed, size_t slen, const uint8_t* dk,
                           size_t dlen);
void key_clear(Key* key);

// Keymgmt import/export, reused by the encoders and decoders.
int key_import(Key* key, int selection, const OSSL_PARAM params[]);
int keymgmt_export(void* keydata, int selection, OSSL_CALLBACK* cb, void* cbarg);

// Keymgmt dispatch tables, one per level.
const OSSL_DISPATCH* keymgmt_functions(int level_index);
extern const OSSL_DISPATCH* const kKemFunctions;

// Encoder and decoder dispatch tables (mlkem_codecs.cpp), per level.
const OSSL_DISPATCH* encoder_spki_der(int level_index);
const OSSL_DISPATCH* encoder_spki_pem(int level_index);
const OSSL_DISPATCH* encoder_pki_der(int level_index);
const OSSL_DISPATCH* encoder_pki_pem(int level_index);
const OSSL_DISPATCH* encoder_text(int level_index);
const OSSL_DISPATCH* decoder_spki(int level_index);
const OSSL_DISPATCH* decoder_pki(int level_index);

}  // namespace gpucrypto::mlkprov
