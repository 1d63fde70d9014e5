// Keymgmt "babyKyber": generation (optionally from a 64-byte "seed" for
// reproducible keys), import/export of "pub" (15 bytes) and "priv" (84 bytes)
// octet strings, has/match/dup, and get_params (bits, security-bits = 0,
// max-size = ciphertext bytes).
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstring>
#include <new>

#include "provider/babykyber_key.h"
#include "provider/kem_keymgmt.h"

namespace gpucrypto::bkprov {

namespace {

using kemglue::kKeySelect;
constexpr char kSeedParam[] = "seed";

struct GenCtx {
  ProvCtx* prov = nullptr;
  int selection = 0;
  bool has_seed = false;
  uint8_t seed[BABYKYBER_KEYGEN_SEED_BYTES] = {};
};

void* km_new(void* provctx) { return key_new(static_cast<ProvCtx*>(provctx)); }
void km_free(void* k) { key_free(static_cast<Key*>(k)); }

struct KmTraits {
  using Key = bkprov::Key;
  static const uint8_t* pub(const Key& k) { return k.pub; }
  static size_t pub_bytes(const Key&) { return BABYKYBER_PUBLICKEY_BYTES; }
  static const uint8_t* priv(const Key& k) { return k.priv; }
  static size_t priv_bytes(const Key&) { return BABYKYBER_SECRETKEY_BYTES; }
  static bool same_params(const Key&, const Key&) { return true; }
  static int security_bits(const Key&) { return 0; }
  static size_t ct_bytes(const Key&) { return BABYKYBER_CIPHERTEXT_BYTES; }
  static bool set_pub(Key* k, const uint8_t* pub, size_t len) { return key_set_pub(k, pub, len); }
  static int get_extra_params(const Key&, OSSL_PARAM*) { return 1; }
  static int add_private_extras(const Key&, OSSL_PARAM*, int n) { return n; }
};

bool km_accept(const Key*) { return true; }

int km_import(void* kd, int selection, const OSSL_PARAM params[]) {
  auto* k = static_cast<Key*>(kd);
  if (k == nullptr) return 0;
  if ((selection & kKeySelect) == 0) return 1;
  const OSSL_PARAM* priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  const OSSL_PARAM* pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  const void* p = nullptr;
  size_t len = 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && priv != nullptr) {
    if (!OSSL_PARAM_get_octet_string_ptr(priv, &p, &len)) {
      GPUC_RAISE(k->prov, kErrBadParam, "babyKyber \"priv\" must be an octet string");
      return 0;
    }
    if (!key_set_priv(k, static_cast<const uint8_t*>(p), len)) return 0;
    if (pub != nullptr) {  // must agree with the public key inside the private key
      if (!OSSL_PARAM_get_octet_string_ptr(pub, &p, &len) || len != sizeof k->pub ||
          std::memcmp(p, k->pub, len) != 0) {
        GPUC_RAISE(k->prov, kErrInvalidKey, "babyKyber \"pub\" does not match \"priv\"");
        key_set_priv(k, nullptr, 0);
        return 0;
      }
    }
    return 1;
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && pub != nullptr) {
    if (!OSSL_PARAM_get_octet_string_ptr(pub, &p, &len)) {
      GPUC_RAISE(k->prov, kErrBadParam, "babyKyber \"pub\" must be an octet string");
      return 0;
    }
    return key_set_pub(k, static_cast<const uint8_t*>(p), len) ? 1 : 0;
  }
  GPUC_RAISE(k->prov, kErrInvalidKey, "no babyKyber key material (\"pub\" or \"priv\") given");
  return 0;
}

void* km_dup(const void* kd, int selection) {
  const auto* src = static_cast<const Key*>(kd);
  Key* k = key_new(src->prov);
  if (k == nullptr) return nullptr;
  if ((selection & kKeySelect) != 0) {  // a private key carries its public key
    k->has_pub = src->has_pub;
    std::memcpy(k->pub, src->pub, sizeof k->pub);
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
    k->has_priv = src->has_priv;
    std::memcpy(k->priv, src->priv, sizeof k->priv);
  }
  return k;
}

const char* km_query_operation_name(int) { return "babyKyber"; }

void* km_gen_init(void* provctx, int selection, const OSSL_PARAM params[]);
int km_gen_set_params(void* g, const OSSL_PARAM params[]) {
  auto* gc = static_cast<GenCtx*>(g);
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, kSeedParam);
  if (p == nullptr) return 1;
  const void* v = nullptr;
  size_t len = 0;
  if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len) || len != sizeof gc->seed) {
    GPUC_RAISE(gc->prov, kErrWrongLength, "babyKyber \"seed\" must be %d bytes (got %zu)",
               BABYKYBER_KEYGEN_SEED_BYTES, len);
    return 0;
  }
  std::memcpy(gc->seed, v, len);
  gc->has_seed = true;
  return 1;
}

void* km_gen_init(void* provctx, int selection, const OSSL_PARAM params[]) {
  auto* gc = new (std::nothrow) GenCtx;
  if (gc == nullptr) return nullptr;
  gc->prov = static_cast<ProvCtx*>(provctx);
  gc->selection = selection;
  if (!km_gen_set_params(gc, params)) {
    delete gc;
    return nullptr;
  }
  return gc;
}

const OSSL_PARAM kGenSettable[] = {OSSL_PARAM_octet_string(kSeedParam, nullptr, 0),
                                   OSSL_PARAM_END};
const OSSL_PARAM* km_gen_settable(void*, void*) { return kGenSettable; }

void* km_gen(void* g, OSSL_CALLBACK*, void*) {
  auto* gc = static_cast<GenCtx*>(g);
  Key* k = key_new(gc->prov);
  if (k == nullptr) return nullptr;
  if ((gc->selection & kKeySelect) == 0) return k;
  const int rc = gc->has_seed
                     ? babykyber_keypair_derand(gc->prov->libctx, k->pub, k->priv, gc->seed)
                     : babykyber_keypair(gc->prov->libctx, k->pub, k->priv);
  if (rc != BABYKYBER_OK) {
    GPUC_RAISE(gc->prov, rc == BABYKYBER_ERR_HASH ? kErrFetchFailed : kErrInternal,
               "babyKyber key generation: %s", babykyber_strerror(rc));
    key_free(k);
    return nullptr;
  }
  k->has_pub = k->has_priv = true;
  return k;
}

using Fn = void (*)();

}  // namespace

Key* key_new(ProvCtx* prov) {
  Key* k = new (std::nothrow) Key;
  if (k == nullptr) {
    GPUC_RAISE(prov, kErrMalloc);
    return nullptr;
  }
  k->prov = prov;
  return k;
}

void key_free(Key* k) {
  if (k == nullptr) return;
  OPENSSL_cleanse(k->priv, sizeof k->priv);
  delete k;
}

bool key_set_pub(Key* k, const uint8_t* pub, size_t len) {
  if (len != BABYKYBER_PUBLICKEY_BYTES) {
    GPUC_RAISE(k->prov, kErrWrongLength, "babyKyber public key must be %d bytes (got %zu)",
               BABYKYBER_PUBLICKEY_BYTES, len);
    return false;
  }
  if (babykyber_check_publickey(pub) != BABYKYBER_OK) {
    GPUC_RAISE(k->prov, kErrInvalidKey, "babyKyber public key has a coefficient >= 17");
    return false;
  }
  std::memcpy(k->pub, pub, len);
  OPENSSL_cleanse(k->priv, sizeof k->priv);
  k->has_pub = true;
  k->has_priv = false;
  return true;
}

bool key_set_priv(Key* k, const uint8_t* priv, size_t len) {
  if (priv == nullptr) {  // clear
    OPENSSL_cleanse(k->priv, sizeof k->priv);
    k->has_priv = k->has_pub = false;
    return true;
  }
  if (len != BABYKYBER_SECRETKEY_BYTES) {
    GPUC_RAISE(k->prov, kErrWrongLength, "babyKyber private key must be %d bytes (got %zu)",
               BABYKYBER_SECRETKEY_BYTES, len);
    return false;
  }
  const int rc = babykyber_check_secretkey(k->prov->libctx, priv);
  if (rc != BABYKYBER_OK) {
    GPUC_RAISE(k->prov, rc == BABYKYBER_ERR_HASH ? kErrFetchFailed : kErrInvalidKey,
               "babyKyber private key: %s", babykyber_strerror(rc));
    return false;
  }
  std::memcpy(k->priv, priv, len);
  std::memcpy(k->pub, priv + BABYKYBER_PKE_SECRETKEY_BYTES, sizeof k->pub);
  k->has_pub = k->has_priv = true;
  return true;
}

int keymgmt_export(void* kd, int selection, OSSL_CALLBACK* cb, void* cbarg) {
  return kemglue::km_export<KmTraits>(kd, selection, cb, cbarg);
}

const OSSL_DISPATCH kKeymgmtFunctions[] = {
    {OSSL_FUNC_KEYMGMT_NEW, reinterpret_cast<Fn>(&km_new)},
    {OSSL_FUNC_KEYMGMT_FREE, reinterpret_cast<Fn>(&km_free)},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, reinterpret_cast<Fn>(&km_gen_init)},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, reinterpret_cast<Fn>(&km_gen_set_params)},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, reinterpret_cast<Fn>(&km_gen_settable)},
    {OSSL_FUNC_KEYMGMT_GEN, reinterpret_cast<Fn>(&km_gen)},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, reinterpret_cast<Fn>(&kemglue::km_gen_cleanup<GenCtx>)},
    {OSSL_FUNC_KEYMGMT_LOAD, reinterpret_cast<Fn>(&kemglue::km_load<Key, km_accept>)},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, reinterpret_cast<Fn>(&kemglue::km_get_params<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, reinterpret_cast<Fn>(&kemglue::km_gettable<nullptr>)},
    {OSSL_FUNC_KEYMGMT_SET_PARAMS, reinterpret_cast<Fn>(&kemglue::km_set_params<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, reinterpret_cast<Fn>(&kemglue::km_settable)},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, reinterpret_cast<Fn>(&km_query_operation_name)},
    {OSSL_FUNC_KEYMGMT_HAS, reinterpret_cast<Fn>(&kemglue::km_has<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_MATCH, reinterpret_cast<Fn>(&kemglue::km_match<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_IMPORT, reinterpret_cast<Fn>(&km_import)},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, reinterpret_cast<Fn>(&kemglue::km_types<nullptr>)},
    {OSSL_FUNC_KEYMGMT_EXPORT, reinterpret_cast<Fn>(&keymgmt_export)},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, reinterpret_cast<Fn>(&kemglue::km_types<nullptr>)},
    {OSSL_FUNC_KEYMGMT_DUP, reinterpret_cast<Fn>(&km_dup)},
    {0, nullptr}};

}  // namespace gpucrypto::bkprov
