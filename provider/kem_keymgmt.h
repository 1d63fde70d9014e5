// Keymgmt plumbing shared by babyKyber and ML-KEM, written once over a
// traits struct T that supplies:
//   using Key;                 prov, has_pub, has_priv
//   pub(k), pub_bytes(k), priv(k), priv_bytes(k)   the key bytes
//   same_params(x, y)          whether two keys are of the same parameter set
//   security_bits(k), ct_bytes(k)
//   set_pub(k, bytes, len)     validating install (raises on failure)
//   get_extra_params(k, params), add_private_extras(k, params, n)
//                              algorithm-specific extra params ("seed")
// The import/export and gettable lists take that extra name as a template
// argument (nullptr when there is none).
#pragma once
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstddef>
#include <cstdint>

#include "provider/provctx.h"

namespace gpucrypto::kemglue {

inline constexpr int kKeySelect = OSSL_KEYMGMT_SELECT_KEYPAIR;

template <class T>
int km_has(const void* kd, int selection) {
  const auto* k = static_cast<const typename T::Key*>(kd);
  if (k == nullptr) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !k->has_pub) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !k->has_priv) return 0;
  return 1;
}

template <class T>
int km_match(const void* a, const void* b, int selection) {
  const auto* x = static_cast<const typename T::Key*>(a);
  const auto* y = static_cast<const typename T::Key*>(b);
  if (!T::same_params(*x, *y)) return 0;
  if ((selection & kKeySelect) == 0) return 1;  // no key parts asked: domain params match
  // The public key decides a key pair: the private key embeds it.
  bool ok = x->has_pub && y->has_pub &&
            CRYPTO_memcmp(T::pub(*x), T::pub(*y), T::pub_bytes(*x)) == 0;
  if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && x->has_priv && y->has_priv)
    ok = CRYPTO_memcmp(T::priv(*x), T::priv(*y), T::priv_bytes(*x)) == 0;
  return ok ? 1 : 0;
}

template <class T>
int km_get_params(void* kd, OSSL_PARAM params[]) {
  auto* k = static_cast<typename T::Key*>(kd);
  OSSL_PARAM* p;
  // As OpenSSL 3.5 reports ML-KEM: bits = 8 * |public key|, max-size = |ct|.
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != nullptr &&
      !OSSL_PARAM_set_int(p, int(8 * T::pub_bytes(*k))))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != nullptr &&
      !OSSL_PARAM_set_int(p, T::security_bits(*k)))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != nullptr &&
      !OSSL_PARAM_set_int(p, int(T::ct_bytes(*k))))
    return 0;
  for (const char* name : {OSSL_PKEY_PARAM_PUB_KEY, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY}) {
    if ((p = OSSL_PARAM_locate(params, name)) != nullptr) {
      if (!k->has_pub || !OSSL_PARAM_set_octet_string(p, T::pub(*k), T::pub_bytes(*k))) return 0;
    }
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != nullptr) {
    if (!k->has_priv || !OSSL_PARAM_set_octet_string(p, T::priv(*k), T::priv_bytes(*k)))
      return 0;
  }
  return T::get_extra_params(*k, params);
}

// An entry for the optional algorithm-specific octet string `Extra` ("seed"),
// or a second terminator when there is none.
template <const char* Extra>
inline constexpr OSSL_PARAM kExtraParam = {Extra, Extra != nullptr ? OSSL_PARAM_OCTET_STRING : 0u,
                                           nullptr, 0, Extra != nullptr ? OSSL_PARAM_UNMODIFIED : 0};

inline const OSSL_PARAM kPubTypes[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0),
                                       OSSL_PARAM_END};
template <const char* Extra>
inline const OSSL_PARAM kKeyTypes[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, nullptr, 0), kExtraParam<Extra>,
    OSSL_PARAM_END};

// The import/export types: a private key travels with its public key.
template <const char* Extra>
const OSSL_PARAM* km_types(int selection) {
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) return kKeyTypes<Extra>;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) return kPubTypes;
  return kPubTypes + 1;  // empty
}

template <const char* Extra>
inline const OSSL_PARAM kGettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, nullptr),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, nullptr),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, nullptr),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0),
    kExtraParam<Extra>,
    OSSL_PARAM_END};
template <const char* Extra>
const OSSL_PARAM* km_gettable(void*) {
  return kGettable<Extra>;
}

inline const OSSL_PARAM kKmSettable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0), OSSL_PARAM_END};
inline const OSSL_PARAM* km_settable(void*) { return kKmSettable; }

// EVP_PKEY_set1_encoded_public_key: installs a public key (drops any private one).
template <class T>
int km_set_params(void* kd, const OSSL_PARAM params[]) {
  auto* k = static_cast<typename T::Key*>(kd);
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
  if (p == nullptr) return 1;
  const void* v = nullptr;
  size_t len = 0;
  if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len)) return 0;
  return T::set_pub(k, static_cast<const uint8_t*>(v), len) ? 1 : 0;
}

template <class GenCtx>
void km_gen_cleanup(void* g) {
  auto* gc = static_cast<GenCtx*>(g);
  if (gc == nullptr) return;
  OPENSSL_cleanse(gc->seed, sizeof gc->seed);
  delete gc;
}

// The decoders pass a key by reference (its address); the keymgmt takes it
// if `accept` says it is of this keymgmt's parameter set.
template <class Key, bool (*Accept)(const Key*)>
void* km_load(const void* reference, size_t size) {
  if (reference == nullptr || size != sizeof(Key*)) return nullptr;
  Key** ref = static_cast<Key**>(const_cast<void*>(reference));
  Key* k = *ref;
  if (!Accept(k)) return nullptr;
  *ref = nullptr;
  return k;
}

template <class T>
int km_export(void* kd, int selection, OSSL_CALLBACK* cb, void* cbarg) {
  auto* k = static_cast<typename T::Key*>(kd);
  if (k == nullptr || (selection & kKeySelect) == 0) return 0;
  // Points at the key's own bytes: no copy of the private key to clean up.
  OSSL_PARAM params[4];
  int n = 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && k->has_pub)
    params[n++] = OSSL_PARAM_construct_octet_string(
        OSSL_PKEY_PARAM_PUB_KEY, const_cast<uint8_t*>(T::pub(*k)), T::pub_bytes(*k));
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && k->has_priv) {
    params[n++] = OSSL_PARAM_construct_octet_string(
        OSSL_PKEY_PARAM_PRIV_KEY, const_cast<uint8_t*>(T::priv(*k)), T::priv_bytes(*k));
    n = T::add_private_extras(*k, params, n);
  }
  params[n] = OSSL_PARAM_construct_end();
  return cb(params, cbarg);
}

}  // namespace gpucrypto::kemglue
