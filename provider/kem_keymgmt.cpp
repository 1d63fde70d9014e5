// The keymgmt of every KEM row: generation (optionally from the row's
// "seed" for reproducible keys; "group" for TLS where the row names one),
// import/export of "pub", "priv" (and "seed" where the row keeps it),
// has/match/validate/dup/load, get_params (bits, security-bits, max-size = ciphertext
// bytes, pub, priv, encoded-pub-key, seed) and set_params (encoded-pub-key:
// what a TLS 1.3 server does with the client's key share).
//
// Functions that receive a key read its row from the key; those that do not
// (new, gen_init, gen_settable, load, query_operation_name, the parameter
// lists) are templates over the row index, one dispatch table per row.
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <array>
#include <cstring>
#include <new>
#include <utility>

#include "provider/kem_dispatch.h"
#include "provider/kem_key.h"

namespace gpucrypto::kemprov {
namespace {

constexpr char kSeedParam[] = "seed";
constexpr int kKeySelect = OSSL_KEYMGMT_SELECT_KEYPAIR;

int km_has(const void* kd, int selection) {
  const auto* k = static_cast<const Key*>(kd);
  if (k == nullptr) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !k->has_pub) return 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !k->has_priv) return 0;
  return 1;
}

// EVP_PKEY_check and friends: OpenSSL 3.5's ml_kem_validate -- the parts
// asked for are present and, for a key pair, the pairwise test passes (with
// a random m, whatever the import setting). Installed keys already passed
// the row's checks.
int km_validate(const void* kd, int selection, int) {
  if (!km_has(kd, selection)) return 0;
  const auto* k = static_cast<const Key*>(kd);
  if ((selection & kKeySelect) != kKeySelect) return 1;
  return key_pairwise(*k, k->pub, k->priv, PairwiseTest::kRandom) ? 1 : 0;
}

int km_match(const void* a, const void* b, int selection) {
  const auto* x = static_cast<const Key*>(a);
  const auto* y = static_cast<const Key*>(b);
  if (x->desc != y->desc) return 0;
  if ((selection & kKeySelect) == 0) return 1;  // no key parts asked: domain params match
  // The public key decides a key pair: the private key embeds it.
  bool ok = x->has_pub && y->has_pub && CRYPTO_memcmp(x->pub, y->pub, x->desc->pub_bytes) == 0;
  if (ok && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && x->has_priv && y->has_priv)
    ok = CRYPTO_memcmp(x->priv, y->priv, x->desc->priv_bytes) == 0;
  return ok ? 1 : 0;
}

int km_get_params(void* kd, OSSL_PARAM params[]) {
  const auto* k = static_cast<const Key*>(kd);
  const KemDesc& d = *k->desc;
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS)) != nullptr && !OSSL_PARAM_set_int(p, d.bits))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS)) != nullptr &&
      !OSSL_PARAM_set_int(p, d.security_bits))
    return 0;
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE)) != nullptr &&
      !OSSL_PARAM_set_int(p, int(d.ct_bytes)))
    return 0;
  for (const char* name : {OSSL_PKEY_PARAM_PUB_KEY, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY}) {
    if ((p = OSSL_PARAM_locate(params, name)) != nullptr &&
        (!k->has_pub || !OSSL_PARAM_set_octet_string(p, k->pub, d.pub_bytes)))
      return 0;
  }
  if ((p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY)) != nullptr &&
      (!k->has_priv || !OSSL_PARAM_set_octet_string(p, k->priv, d.priv_bytes)))
    return 0;
  if (d.stores_seed && (p = OSSL_PARAM_locate(params, kSeedParam)) != nullptr &&
      (!k->has_seed || !OSSL_PARAM_set_octet_string(p, k->seed, d.seed_bytes)))
    return 0;
  return 1;
}

// EVP_PKEY_set1_encoded_public_key (what a TLS 1.3 server does with the
// client's key share on an empty key): OpenSSL 3.5's rules -- a share of the
// wrong type or length or failing the row's check is refused, and so is any
// share for a key that already holds key material ("keys cannot be
// mutated"); a refused call leaves the key as it was.
int km_set_params(void* kd, const OSSL_PARAM params[]) {
  auto* k = static_cast<Key*>(kd);
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
  if (p == nullptr) return 1;
  const void* v = nullptr;
  size_t len = 0;
  const KemDesc& d = *k->desc;
  if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len) || len != d.pub_bytes) {
    GPUC_RAISE(k->prov, kErrWrongLength, "%s encoded public key must be %zu bytes (got %zu)", d.name,
               d.pub_bytes, len);
    return 0;
  }
  if (k->has_pub) {
    GPUC_RAISE(k->prov, kErrInvalidKey, "%s keys cannot be mutated", d.name);
    return 0;
  }
  return key_set_pub(k, static_cast<const uint8_t*>(v), len) ? 1 : 0;
}

// Parameter lists: with the row's "seed" entry, or without.
constexpr OSSL_PARAM kPubTypes[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0),
                                OSSL_PARAM_END};
constexpr OSSL_PARAM kKeyTypes[] = {OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0),
                                OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, nullptr, 0),
                                OSSL_PARAM_octet_string(kSeedParam, nullptr, 0), OSSL_PARAM_END};
constexpr OSSL_PARAM kGettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, nullptr),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, nullptr),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, nullptr),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0),
    OSSL_PARAM_octet_string(kSeedParam, nullptr, 0),
    OSSL_PARAM_END};
constexpr OSSL_PARAM kGenSettable[] = {OSSL_PARAM_octet_string(kSeedParam, nullptr, 0),
                                   OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, nullptr, 0),
                                   OSSL_PARAM_END};
const OSSL_PARAM kSettable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0), OSSL_PARAM_END};

// The lists per row, built once when the module loads (not constexpr: the
// filter compares parameter-name pointers, which clang does not accept in a
// constant expression): a row without a stored seed (or without a TLS group)
// gets the list without that entry.
struct RowLists {
  OSSL_PARAM key_types[4];
  OSSL_PARAM gettable[8];
  OSSL_PARAM gen_settable[3];
};
RowLists row_lists(const KemDesc& d) {
  RowLists r{};
  size_t n = 0;
  for (const OSSL_PARAM& p : kKeyTypes)
    if (p.key != kSeedParam || d.stores_seed)
      r.key_types[n++] = p;
  n = 0;
  for (const OSSL_PARAM& p : kGettable)
    if (p.key != kSeedParam || d.stores_seed)
      r.gettable[n++] = p;
  n = 0;
  if (d.seed_bytes != 0) r.gen_settable[n++] = kGenSettable[0];
  if (d.tls_group != nullptr) r.gen_settable[n++] = kGenSettable[1];
  r.gen_settable[n] = kGenSettable[2];
  return r;
}
template <size_t R>
inline const RowLists kRowLists = row_lists(kKems[R]);

template <size_t R>
const OSSL_PARAM* km_types(int selection) {
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) return kRowLists<R>.key_types;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) return kPubTypes;
  return kPubTypes + 1;  // empty
}
template <size_t R>
const OSSL_PARAM* km_gettable(void*) {
  return kRowLists<R>.gettable;
}
template <size_t R>
const OSSL_PARAM* km_gen_settable(void*, void*) {
  return kRowLists<R>.gen_settable;
}
const OSSL_PARAM* km_settable(void*) { return kSettable; }

template <size_t R>
void* km_new(void* provctx) {
  return key_new(static_cast<ProvCtx*>(provctx), &kKems[R]);
}
void km_free(void* k) { key_free(static_cast<Key*>(k)); }
void* km_dup(const void* kd, int selection) { return key_dup(*static_cast<const Key*>(kd), selection); }

int km_import(void* kd, int selection, const OSSL_PARAM params[]) {
  auto* k = static_cast<Key*>(kd);
  return k != nullptr ? key_import(k, selection, params) : 0;
}
int km_export(void* kd, int selection, OSSL_CALLBACK* cb, void* cbarg) {
  return key_export(static_cast<const Key*>(kd), selection, cb, cbarg);
}

template <size_t R>
const char* km_query_operation_name(int) {
  return kKems[R].name;
}

// The decoders pass a key by reference (its address); the keymgmt takes it
// when it is of this keymgmt's row.
template <size_t R>
void* km_load(const void* reference, size_t size) {
  if (reference == nullptr || size != sizeof(Key*)) return nullptr;
  Key** ref = static_cast<Key**>(const_cast<void*>(reference));
  Key* k = *ref;
  if (k == nullptr || k->desc != &kKems[R]) return nullptr;
  *ref = nullptr;
  return k;
}

struct GenCtx {
  ProvCtx* prov = nullptr;
  const KemDesc* desc = nullptr;
  int selection = 0;
  bool has_seed = false;
  uint8_t seed[kMaxSeedBytes] = {};
};

int km_gen_set_params(void* g, const OSSL_PARAM params[]) {
  auto* gc = static_cast<GenCtx*>(g);
  const KemDesc& d = *gc->desc;
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, kSeedParam);
  if (p != nullptr) {
    const void* v = nullptr;
    size_t len = 0;
    if (d.seed_bytes == 0) {
      GPUC_RAISE(gc->prov, kErrBadParam, "%s key generation takes no \"seed\"", d.name);
      return 0;
    }
    if (!OSSL_PARAM_get_octet_string_ptr(p, &v, &len) || len != d.seed_bytes) {
      GPUC_RAISE(gc->prov, kErrWrongLength, "%s \"seed\" must be %zu bytes (got %zu)", d.name,
                 d.seed_bytes, len);
      return 0;
    }
    std::memcpy(gc->seed, v, len);
    gc->has_seed = true;
  }
  // TLS asks for the group by name (EVP_PKEY_CTX_set_group_name): the TLS
  // group table's internal name, ours on OpenSSL 3.0, "" in OpenSSL 3.5's
  // (whose libssl then passes the empty name on); any other name is an error.
  if (d.tls_group != nullptr &&
      (p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME)) != nullptr) {
    const char* name = nullptr;
    if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || name == nullptr) return 0;
    if (name[0] != '\0' && OPENSSL_strcasecmp(name, d.name) != 0 &&
        OPENSSL_strcasecmp(name, d.tls_group) != 0) {
      GPUC_RAISE(gc->prov, kErrBadParam, "group \"%s\" is not %s", name, d.name);
      return 0;
    }
  }
  return 1;
}

template <size_t R>
void* km_gen_init(void* provctx, int selection, const OSSL_PARAM params[]) {
  auto* gc = new (std::nothrow) GenCtx;
  if (gc == nullptr) return nullptr;
  gc->prov = static_cast<ProvCtx*>(provctx);
  gc->desc = &kKems[R];
  gc->selection = selection;
  if (!km_gen_set_params(gc, params)) {
    delete gc;
    return nullptr;
  }
  return gc;
}

void* km_gen(void* g, OSSL_CALLBACK*, void*) {
  auto* gc = static_cast<GenCtx*>(g);
  const KemDesc& d = *gc->desc;
  Key* k = key_new(gc->prov, &d);
  if (k == nullptr) return nullptr;
  if ((gc->selection & kKeySelect) == 0) return k;  // parameters only: an empty key
  KemCall call{*gc->prov};
  const int rc = d.keygen(call, d, k->pub, k->priv, gc->has_seed ? gc->seed : nullptr, k->seed);
  if (rc != kOk) {
    GPUC_RAISE(gc->prov, reason_for(rc, kErrInternal), "%s key generation: %s", d.name,
               d.strerror(rc));
    key_free(k);
    return nullptr;
  }
  k->classical = call.decoded.release();  // a hybrid's classical key pair, for decapsulation
  k->has_pub = k->has_priv = true;
  k->has_seed = k->seed != nullptr;
  return k;
}

void km_gen_cleanup(void* g) {
  auto* gc = static_cast<GenCtx*>(g);
  if (gc == nullptr) return;
  OPENSSL_cleanse(gc->seed, sizeof gc->seed);
  delete gc;
}

using Fn = void (*)();

template <size_t R>
const OSSL_DISPATCH kKeymgmt[] = {
    {OSSL_FUNC_KEYMGMT_NEW, reinterpret_cast<Fn>(&km_new<R>)},
    {OSSL_FUNC_KEYMGMT_FREE, reinterpret_cast<Fn>(&km_free)},
    {OSSL_FUNC_KEYMGMT_GEN_INIT, reinterpret_cast<Fn>(&km_gen_init<R>)},
    {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, reinterpret_cast<Fn>(&km_gen_set_params)},
    {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, reinterpret_cast<Fn>(&km_gen_settable<R>)},
    {OSSL_FUNC_KEYMGMT_GEN, reinterpret_cast<Fn>(&km_gen)},
    {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, reinterpret_cast<Fn>(&km_gen_cleanup)},
    {OSSL_FUNC_KEYMGMT_LOAD, reinterpret_cast<Fn>(&km_load<R>)},
    {OSSL_FUNC_KEYMGMT_GET_PARAMS, reinterpret_cast<Fn>(&km_get_params)},
    {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, reinterpret_cast<Fn>(&km_gettable<R>)},
    {OSSL_FUNC_KEYMGMT_SET_PARAMS, reinterpret_cast<Fn>(&km_set_params)},
    {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, reinterpret_cast<Fn>(&km_settable)},
    {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, reinterpret_cast<Fn>(&km_query_operation_name<R>)},
    {OSSL_FUNC_KEYMGMT_HAS, reinterpret_cast<Fn>(&km_has)},
    {OSSL_FUNC_KEYMGMT_MATCH, reinterpret_cast<Fn>(&km_match)},
    {OSSL_FUNC_KEYMGMT_VALIDATE, reinterpret_cast<Fn>(&km_validate)},
    {OSSL_FUNC_KEYMGMT_IMPORT, reinterpret_cast<Fn>(&km_import)},
    {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, reinterpret_cast<Fn>(&km_types<R>)},
    {OSSL_FUNC_KEYMGMT_EXPORT, reinterpret_cast<Fn>(&km_export)},
    {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, reinterpret_cast<Fn>(&km_types<R>)},
    {OSSL_FUNC_KEYMGMT_DUP, reinterpret_cast<Fn>(&km_dup)},
    {0, nullptr}};

template <size_t... R>
constexpr std::array<const OSSL_DISPATCH*, kKemCount> keymgmt_tables(std::index_sequence<R...>) {
  return {kKeymgmt<R>...};
}
constexpr auto kKeymgmtTables = keymgmt_tables(std::make_index_sequence<kKemCount>());

}  // namespace

const OSSL_DISPATCH* keymgmt_dispatch(size_t row) { return kKeymgmtTables[row]; }

}  // namespace gpucrypto::kemprov
