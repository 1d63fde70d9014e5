// The one key object of every KEM row (provider/kem_table.h), shared by the
// keymgmt, the KEM operation and the encoders/decoders: the row it belongs
// to and its parts, stored after the header in one allocation sized by the
// row (wiped whole on free).
#pragma once
#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

#include "provider/kem_table.h"

namespace gpucrypto::kemprov {

struct Key {
  ProvCtx* prov = nullptr;
  const KemDesc* desc = nullptr;
  bool has_pub = false;
  bool has_priv = false;
  bool has_seed = false;  // the private key came from (or was made from) its seed
  uint8_t* pub = nullptr;   // desc->pub_bytes
  uint8_t* priv = nullptr;  // desc->priv_bytes
  uint8_t* seed = nullptr;  // desc->seed_bytes when desc->stores_seed, else none
  size_t alloc_bytes = 0;
  // A hybrid's classical half, decoded and checked once when the key material
  // was installed (KemCall::decoded): the peer's EC/X25519 public key, or our
  // key pair; shared by reference between dups, read-only, freed (and so
  // cleared by OpenSSL) with the key. nullptr for other rows, and for a
  // public-only dup of a key pair (the entry points then decode the bytes).
  EVP_PKEY* classical = nullptr;
};

Key* key_new(ProvCtx* prov, const KemDesc* desc);
void key_free(Key* key);
Key* key_dup(const Key& src, int selection);
// Forgets the key material (wiping the secrets).
void key_clear(Key* key);
// Install key material after the row's checks (length, then check_pub /
// check_priv; a seed is expanded). Each raises a provider error on failure;
// key_set_pub then leaves the key unchanged, the others leave it empty.
bool key_set_pub(Key* key, const uint8_t* pub, size_t len);
bool key_set_priv(Key* key, const uint8_t* priv, size_t len);
bool key_set_seed(Key* key, const uint8_t* seed, size_t len);
// seed and private key together (PKCS#8 "both"): they must agree.
bool key_set_seed_and_priv(Key* key, const uint8_t* seed, size_t slen, const uint8_t* priv,
                           size_t plen);
// The row's pairwise consistency test (KemDesc::pairwise) on a private key
// and its public key; true when the row has none or `how` is kNone. Raises
// OpenSSL 3.5's "public part of <name> private key fails to match private"
// on a mismatch.
bool key_pairwise(const Key& key, const uint8_t* pub, const uint8_t* priv, PairwiseTest how);
// Keymgmt import/export of "pub", "priv" and (stores_seed rows) "seed",
// reused by the encoders and decoders.
int key_import(Key* key, int selection, const OSSL_PARAM params[]);
int key_export(const Key* key, int selection, OSSL_CALLBACK* cb, void* cbarg);

// A provider reason for an entry point's status code.
int reason_for(int rc, int otherwise);

}  // namespace gpucrypto::kemprov
