// Keymgmt "ML-KEM-512/768/1024": generation (optionally from a 64-byte
// "seed" = d || z for reproducible keys), import/export of "pub" (ek),
// "priv" (the expanded dk) and "seed", has/match/dup, get_params (bits,
// security-bits, max-size, encoded-pub-key) and set_params
// (encoded-pub-key: what a TLS 1.3 server does with the client's key share).
// Parameter names are those of OpenSSL 3.5's own ML-KEM keymgmt.
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstring>
#include <new>

#include "provider/kem_keymgmt.h"
#include "provider/mlkem_key.h"

namespace gpucrypto::mlkprov {

const LevelInfo kLevels[3] = {
    {512, "ML-KEM-512", "ML-KEM-512:MLKEM512:2.16.840.1.101.3.4.4.1",
     "ML-KEM-512 (FIPS 203), gpucrypto", 1, 128, MLKEM512_PUBLICKEY_BYTES,
     MLKEM512_SECRETKEY_BYTES, MLKEM512_CIPHERTEXT_BYTES},
    {768, "ML-KEM-768", "ML-KEM-768:MLKEM768:2.16.840.1.101.3.4.4.2",
     "ML-KEM-768 (FIPS 203), gpucrypto", 2, 192, MLKEM768_PUBLICKEY_BYTES,
     MLKEM768_SECRETKEY_BYTES, MLKEM768_CIPHERTEXT_BYTES},
    {1024, "ML-KEM-1024", "ML-KEM-1024:MLKEM1024:2.16.840.1.101.3.4.4.3",
     "ML-KEM-1024 (FIPS 203), gpucrypto", 3, 256, MLKEM1024_PUBLICKEY_BYTES,
     MLKEM1024_SECRETKEY_BYTES, MLKEM1024_CIPHERTEXT_BYTES},
};

namespace {

using kemglue::kKeySelect;
constexpr char kSeedParam[] = "seed";  // OSSL_PKEY_PARAM_ML_KEM_SEED in OpenSSL >= 3.5

struct GenCtx {
  ProvCtx* prov = nullptr;
  const LevelInfo* info = nullptr;
  int selection = 0;
  bool has_seed = false;
  uint8_t seed[MLKEM_KEYGEN_SEED_BYTES] = {};
};

template <int LI>
void* km_new(void* provctx) {
  return key_new(static_cast<ProvCtx*>(provctx), &kLevels[LI]);
}
void km_free(void* k) { key_free(static_cast<Key*>(k)); }

struct KmTraits {
  using Key = mlkprov::Key;
  static const uint8_t* pub(const Key& k) { return k.ek; }
  static size_t pub_bytes(const Key& k) { return k.info->ek_bytes; }
  static const uint8_t* priv(const Key& k) { return k.dk; }
  static size_t priv_bytes(const Key& k) { return k.info->dk_bytes; }
  static bool same_params(const Key& x, const Key& y) { return x.info == y.info; }
  static int security_bits(const Key& k) { return k.info->security_bits; }
  static size_t ct_bytes(const Key& k) { return k.info->ct_bytes; }
  static bool set_pub(Key* k, const uint8_t* ek, size_t len) { return key_set_pub(k, ek, len); }
  static int get_extra_params(const Key& k, OSSL_PARAM params[]) {
    OSSL_PARAM* p = OSSL_PARAM_locate(params, kSeedParam);
    if (p != nullptr && (!k.has_seed || !OSSL_PARAM_set_octet_string(p, k.seed, sizeof k.seed)))
      return 0;
    return 1;
  }
  static int add_private_extras(const Key& k, OSSL_PARAM* params, int n) {
    if (k.has_seed)
      params[n++] = OSSL_PARAM_construct_octet_string(kSeedParam, const_cast<uint8_t*>(k.seed),
                                                      sizeof k.seed);
    return n;
  }
};

template <int LI>
bool km_accept(const Key* k) {
  return k != nullptr && k->info == &kLevels[LI];
}

int km_import(void* kd, int selection, const OSSL_PARAM params[]) {
  auto* k = static_cast<Key*>(kd);
  if (k == nullptr) return 0;
  return key_import(k, selection, params);
}

void* km_dup(const void* kd, int selection) {
  const auto* src = static_cast<const Key*>(kd);
  Key* k = key_new(src->prov, src->info);
  if (k == nullptr) return nullptr;
  if ((selection & kKeySelect) != 0) {  // a private key carries its public key
    k->has_pub = src->has_pub;
    std::memcpy(k->ek, src->ek, sizeof k->ek);
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
    k->has_priv = src->has_priv;
    k->has_seed = src->has_seed;
    std::memcpy(k->dk, src->dk, sizeof k->dk);
    std::memcpy(k->seed, src->seed, sizeof k->seed);
  }
  return k;
}

template <int LI>
const char* km_query_operation_name(int) {
  return kLevels[LI].name;
}

int km_gen_set_params(void* g, const OSSL_PARAM params[]) {
  auto* gc = static_cast<GenCtx*>(g);
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, kSeedParam);
  if (p != nullptr) {
    const void* v = nullptr;
    size_t len = 0;
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len) || len != sizeof gc->seed) {
      GPUC_RAISE(gc->prov, kErrWrongLength, "%s \"seed\" must be %d bytes (d || z; got %zu)",
                 gc->info->name, MLKEM_KEYGEN_SEED_BYTES, len);
      return 0;
    }
    std::memcpy(gc->seed, v, len);
    gc->has_seed = true;
  }
  // TLS asks for the group by name (EVP_PKEY_CTX_set_group_name); it must be ours.
  if ((p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME)) != nullptr) {
    const char* name = nullptr;
    if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || name == nullptr) return 0;
    const LevelInfo& li = *gc->info;
    const char* tls_name = li.level == 512 ? "MLKEM512" : li.level == 768 ? "MLKEM768" : "MLKEM1024";
    if (OPENSSL_strcasecmp(name, li.name) != 0 && OPENSSL_strcasecmp(name, tls_name) != 0) {
      GPUC_RAISE(gc->prov, kErrBadParam, "group \"%s\" is not %s", name, li.name);
      return 0;
    }
  }
  return 1;
}

template <int LI>
void* km_gen_init(void* provctx, int selection, const OSSL_PARAM params[]) {
  auto* gc = new (std::nothrow) GenCtx;
  if (gc == nullptr) return nullptr;
  gc->prov = static_cast<ProvCtx*>(provctx);
  gc->info = &kLevels[LI];
  gc->selection = selection;
  if (!km_gen_set_params(gc, params)) {
    delete gc;
    return nullptr;
  }
  return gc;
}

const OSSL_PARAM kGenSettable[] = {OSSL_PARAM_octet_string(kSeedParam, nullptr, 0),
                                   OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, nullptr, 0),
                                   OSSL_PARAM_END};
const OSSL_PARAM* km_gen_settable(void*, void*) { return kGenSettable; }

void* km_gen(void* g, OSSL_CALLBACK*, void*) {
  auto* gc = static_cast<GenCtx*>(g);
  Key* k = key_new(gc->prov, gc->info);
  if (k == nullptr) return nullptr;
  if ((gc->selection & kKeySelect) == 0) return k;  // parameters only: an empty key
  int rc = MLKEM_OK;
  if (gc->has_seed) {
    std::memcpy(k->seed, gc->seed, sizeof k->seed);
    rc = mlkem_keypair_derand(gc->info->level, k->ek, k->dk, k->seed);
  } else {
    rc = mlkem_keypair(gc->prov->libctx, gc->info->level, k->ek, k->dk, k->seed);
  }
  if (rc != MLKEM_OK) {
    GPUC_RAISE(gc->prov, kErrInternal, "%s key generation: %s", gc->info->name,
               mlkem_strerror(rc));
    key_free(k);
    return nullptr;
  }
  k->has_pub = k->has_priv = k->has_seed = true;
  return k;
}

using Fn = void (*)();

template <int LI>
const OSSL_DISPATCH kKeymgmt[] = {
    {OSSL_FUNC_KEYMGMT_NEW, reinterpret_cast<Fn>(&km_new<LI>)},
    {OSSL_FUNC_KEYMGMT_FREE, reinterpret_cast<Fn>(&km_free)},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, reinterpret_cast<Fn>(&km_gen_init<LI>)},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, reinterpret_cast<Fn>(&km_gen_set_params)},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, reinterpret_cast<Fn>(&km_gen_settable)},
    {OSSL_FUNC_KEYMGMT_GEN, reinterpret_cast<Fn>(&km_gen)},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, reinterpret_cast<Fn>(&kemglue::km_gen_cleanup<GenCtx>)},
    {OSSL_FUNC_KEYMGMT_LOAD, reinterpret_cast<Fn>(&kemglue::km_load<Key, km_accept<LI>>)},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, reinterpret_cast<Fn>(&kemglue::km_get_params<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, reinterpret_cast<Fn>(&kemglue::km_gettable<kSeedParam>)},
    {OSSL_FUNC_KEYMGMT_SET_PARAMS, reinterpret_cast<Fn>(&kemglue::km_set_params<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, reinterpret_cast<Fn>(&kemglue::km_settable)},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, reinterpret_cast<Fn>(&km_query_operation_name<LI>)},
    {OSSL_FUNC_KEYMGMT_HAS, reinterpret_cast<Fn>(&kemglue::km_has<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_MATCH, reinterpret_cast<Fn>(&kemglue::km_match<KmTraits>)},
    {OSSL_FUNC_KEYMGMT_IMPORT, reinterpret_cast<Fn>(&km_import)},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, reinterpret_cast<Fn>(&kemglue::km_types<kSeedParam>)},
    {OSSL_FUNC_KEYMGMT_EXPORT, reinterpret_cast<Fn>(&keymgmt_export)},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, reinterpret_cast<Fn>(&kemglue::km_types<kSeedParam>)},
    {OSSL_FUNC_KEYMGMT_DUP, reinterpret_cast<Fn>(&km_dup)},
    {0, nullptr}};

}  // namespace

const OSSL_DISPATCH* keymgmt_functions(int li) {
  switch (li) {
    case 0:
      return kKeymgmt<0>;
    case 1:
      return kKeymgmt<1>;
    default:
      return kKeymgmt<2>;
  }
}

Key* key_new(ProvCtx* prov, const LevelInfo* info) {
  Key* k = new (std::nothrow) Key;
  if (k == nullptr) {
    GPUC_RAISE(prov, kErrMalloc);
    return nullptr;
  }
  k->prov = prov;
  k->info = info;
  return k;
}

void key_clear(Key* k) {
  OPENSSL_cleanse(k->dk, sizeof k->dk);
  OPENSSL_cleanse(k->seed, sizeof k->seed);
  k->has_pub = k->has_priv = k->has_seed = false;
}

void key_free(Key* k) {
  if (k == nullptr) return;
  key_clear(k);
  delete k;
}

bool key_set_pub(Key* k, const uint8_t* ek, size_t len) {
  key_clear(k);
  const LevelInfo& li = *k->info;
  if (len != li.ek_bytes) {
    GPUC_RAISE(k->prov, kErrWrongLength, "%s public key must be %zu bytes (got %zu)", li.name,
               li.ek_bytes, len);
    return false;
  }
  if (mlkem_check_publickey(li.level, ek) != MLKEM_OK) {
    GPUC_RAISE(k->prov, kErrInvalidKey,
               "%s public key fails the FIPS 203 modulus check (a coefficient >= 3329)", li.name);
    return false;
  }
  std::memcpy(k->ek, ek, len);
  k->has_pub = true;
  return true;
}

bool key_set_priv(Key* k, const uint8_t* dk, size_t len) {
  key_clear(k);
  const LevelInfo& li = *k->info;
  if (len != li.dk_bytes) {
    GPUC_RAISE(k->prov, kErrWrongLength, "%s private key must be %zu bytes (got %zu)", li.name,
               li.dk_bytes, len);
    return false;
  }
  const uint8_t* ek = dk + 384 * (li.level / 256);
  if (mlkem_check_secretkey(li.level, dk) != MLKEM_OK ||
      mlkem_check_publickey(li.level, ek) != MLKEM_OK) {
    GPUC_RAISE(k->prov, kErrInvalidKey,
               "%s private key fails the FIPS 203 checks (H(ek) mismatch or ek coefficient >= q)",
               li.name);
    return false;
  }
  std::memcpy(k->dk, dk, len);
  std::memcpy(k->ek, ek, li.ek_bytes);
  k->has_pub = k->has_priv = true;
  return true;
}

bool key_set_seed(Key* k, const uint8_t* seed, size_t len) {
  key_clear(k);
  if (len != MLKEM_KEYGEN_SEED_BYTES) {
    GPUC_RAISE(k->prov, kErrWrongLength, "%s seed must be %d bytes (d || z; got %zu)",
               k->info->name, MLKEM_KEYGEN_SEED_BYTES, len);
    return false;
  }
  std::memcpy(k->seed, seed, len);
  if (mlkem_keypair_derand(k->info->level, k->ek, k->dk, k->seed) != MLKEM_OK) {
    GPUC_RAISE(k->prov, kErrInternal, "%s key expansion failed", k->info->name);
    key_clear(k);
    return false;
  }
  k->has_pub = k->has_priv = k->has_seed = true;
  return true;
}

bool key_set_seed_and_priv(Key* k, const uint8_t* seed, size_t slen, const uint8_t* dk,
                           size_t dlen) {
  if (!key_set_seed(k, seed, slen)) return false;
  if (dlen != k->info->dk_bytes || CRYPTO_memcmp(dk, k->dk, dlen) != 0) {
    GPUC_RAISE(k->prov, kErrInvalidKey, "%s seed and expanded private key do not match",
               k->info->name);
    key_clear(k);
    return false;
  }
  return true;
}

int key_import(Key* k, int selection, const OSSL_PARAM params[]) {
  if ((selection & kKeySelect) == 0) return 1;
  const OSSL_PARAM* seed = OSSL_PARAM_locate_const(params, kSeedParam);
  const OSSL_PARAM* priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  const OSSL_PARAM* pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  const void* p = nullptr;
  size_t len = 0;
  const char* name = k->info->name;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && (seed != nullptr || priv != nullptr)) {
    bool ok;
    if (seed != nullptr) {
      if (!OSSL_PARAM_get_octet_string_ptr(seed, &p, &len)) {
        GPUC_RAISE(k->prov, kErrBadParam, "%s \"seed\" must be an octet string", name);
        return 0;
      }
      const void* d = nullptr;
      size_t dlen = 0;
      if (priv != nullptr) {
        if (!OSSL_PARAM_get_octet_string_ptr(priv, &d, &dlen)) {
          GPUC_RAISE(k->prov, kErrBadParam, "%s \"priv\" must be an octet string", name);
          return 0;
        }
        ok = key_set_seed_and_priv(k, static_cast<const uint8_t*>(p), len,
                                   static_cast<const uint8_t*>(d), dlen);
      } else {
        ok = key_set_seed(k, static_cast<const uint8_t*>(p), len);
      }
    } else {
      if (!OSSL_PARAM_get_octet_string_ptr(priv, &p, &len)) {
        GPUC_RAISE(k->prov, kErrBadParam, "%s \"priv\" must be an octet string", name);
        return 0;
      }
      ok = key_set_priv(k, static_cast<const uint8_t*>(p), len);
    }
    if (!ok) return 0;
    if (pub != nullptr) {  // must agree with the public key inside the private key
      if (!OSSL_PARAM_get_octet_string_ptr(pub, &p, &len) || len != k->info->ek_bytes ||
          std::memcmp(p, k->ek, len) != 0) {
        GPUC_RAISE(k->prov, kErrInvalidKey, "%s \"pub\" does not match the private key", name);
        key_clear(k);
        return 0;
      }
    }
    return 1;
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && pub != nullptr) {
    if (!OSSL_PARAM_get_octet_string_ptr(pub, &p, &len)) {
      GPUC_RAISE(k->prov, kErrBadParam, "%s \"pub\" must be an octet string", name);
      return 0;
    }
    return key_set_pub(k, static_cast<const uint8_t*>(p), len) ? 1 : 0;
  }
  GPUC_RAISE(k->prov, kErrInvalidKey, "no %s key material (\"pub\", \"priv\" or \"seed\") given",
             name);
  return 0;
}

int keymgmt_export(void* kd, int selection, OSSL_CALLBACK* cb, void* cbarg) {
  return kemglue::km_export<KmTraits>(kd, selection, cb, cbarg);
}

}  // namespace gpucrypto::mlkprov
