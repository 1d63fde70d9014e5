// Key objects of every KEM row: allocation, the validating installs and
// keymgmt import/export (parameter names are those of OpenSSL 3.5's ML-KEM
// keymgmt: "pub", "priv", "seed").
#include "provider/kem_key.h"

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <new>

namespace gpucrypto::kemprov {

namespace {
constexpr char kSeedParam[] = "seed";  // OSSL_PKEY_PARAM_ML_KEM_SEED in OpenSSL >= 3.5
constexpr int kKeySelect = OSSL_KEYMGMT_SELECT_KEYPAIR;

bool octets(const OSSL_PARAM* p, const uint8_t** v, size_t* len) {
  const void* ptr = nullptr;
  if (!OSSL_PARAM_get_octet_string_ptr(p, &ptr, len)) return false;
  *v = static_cast<const uint8_t*>(ptr);
  return true;
}
}  // namespace

void PkeyFree::operator()(EVP_PKEY* p) const noexcept { EVP_PKEY_free(p); }

int reason_for(int rc, int otherwise) {
  if (rc == kLibErrKey || rc == kErrDkHash || rc == kErrEkModulus || rc == kErrPairwise)
    return kErrInvalidKey;
  return rc == kLibErrHash ? kErrFetchFailed : otherwise;
}

Key* key_new(ProvCtx* prov, const KemDesc* d) {
  const size_t seed = d->stores_seed ? d->seed_bytes : 0;
  const size_t bytes = sizeof(Key) + d->pub_bytes + d->priv_bytes + seed;
  void* mem = OPENSSL_zalloc(bytes);
  if (mem == nullptr) {
    GPUC_RAISE(prov, kErrMalloc);
    return nullptr;
  }
  Key* k = new (mem) Key;
  k->prov = prov;
  k->desc = d;
  k->alloc_bytes = bytes;
  k->pub = static_cast<uint8_t*>(mem) + sizeof(Key);
  k->priv = k->pub + d->pub_bytes;
  k->seed = seed != 0 ? k->priv + d->priv_bytes : nullptr;
  return k;
}

void key_free(Key* k) {
  if (k == nullptr) return;
  EVP_PKEY_free(k->classical);
  OPENSSL_clear_free(k, k->alloc_bytes);  // the rest of Key is trivially destructible
}

namespace {
// Keeps what a row decoded from the key material being installed.
void keep_decoded(Key* k, KemCall& call) {
  EVP_PKEY_free(k->classical);
  k->classical = call.decoded.release();
}
}  // namespace

Key* key_dup(const Key& src, int selection) {
  Key* k = key_new(src.prov, src.desc);
  if (k == nullptr) return nullptr;
  const KemDesc& d = *src.desc;
  if ((selection & kKeySelect) != 0) {  // a private key carries its public key
    k->has_pub = src.has_pub;
    std::memcpy(k->pub, src.pub, d.pub_bytes);
  }
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
    k->has_priv = src.has_priv;
    k->has_seed = src.has_seed;
    std::memcpy(k->priv, src.priv, d.priv_bytes);
    if (src.seed != nullptr) std::memcpy(k->seed, src.seed, d.seed_bytes);
  }
  // The decoded classical half goes along unless it would carry a private key
  // the dup does not have.
  if (src.classical != nullptr && (selection & kKeySelect) != 0 && (!src.has_priv || k->has_priv) &&
      EVP_PKEY_up_ref(src.classical) == 1)
    k->classical = src.classical;
  return k;
}

void key_clear(Key* k) {
  OPENSSL_cleanse(k->priv, k->desc->priv_bytes);
  if (k->seed != nullptr) OPENSSL_cleanse(k->seed, k->desc->seed_bytes);
  EVP_PKEY_free(k->classical);
  k->classical = nullptr;
  k->has_pub = k->has_priv = k->has_seed = false;
}

namespace {
// The length check, then the row's check `rc` (run only on the right
// length) in `call`, which keeps what the row decoded; raises and returns
// false on failure.
template <class Check>
bool checked(Key* k, KemCall& call, const char* what, size_t len, size_t want, const Check& check) {
  const KemDesc& d = *k->desc;
  if (len != want) {
    GPUC_RAISE(k->prov, kErrWrongLength, "%s %s must be %zu bytes (got %zu)", d.name, what, want, len);
    return false;
  }
  const int rc = check(call);
  if (rc != kOk) {
    GPUC_RAISE(k->prov, reason_for(rc, kErrInvalidKey), "%s %s: %s", d.name, what, d.strerror(rc));
    return false;
  }
  return true;
}
}  // namespace

bool key_pairwise(const Key& k, const uint8_t* pub, const uint8_t* priv, PairwiseTest how) {
  const KemDesc& d = *k.desc;
  if (d.pairwise == nullptr) return true;
  KemCall call{*k.prov};
  const int rc = d.pairwise(call, d, pub, priv, how);
  // OpenSSL 3.5's words (PROV_R_INVALID_KEY there too), which name the
  // ML-KEM key also for a hybrid's half; ours add the hybrid.
  if (rc == kErrPairwise && std::strncmp(d.name, "ML-KEM-", 7) == 0)
    GPUC_RAISE(k.prov, kErrInvalidKey, "public part of %s private key fails to match private", d.name);
  else if (rc == kErrPairwise)
    GPUC_RAISE(k.prov, kErrInvalidKey,
               "public part of ML-KEM-%d private key fails to match private (the ML-KEM half of %s)",
               d.bits, d.name);
  else if (rc != kOk)
    GPUC_RAISE(k.prov, kErrInternal, "%s pairwise test could not run: %s", d.name, d.strerror(rc));
  return rc == kOk;
}

// Checked before anything is cleared: a refused key leaves the key as it was.
bool key_set_pub(Key* k, const uint8_t* pub, size_t len) {
  const KemDesc& d = *k->desc;
  KemCall call{*k->prov};
  if (!checked(k, call, "public key", len, d.pub_bytes, [&](KemCall& c) { return d.check_pub(c, d, pub); }))
    return false;
  key_clear(k);
  std::memcpy(k->pub, pub, len);
  keep_decoded(k, call);
  k->has_pub = true;
  return true;
}

bool key_set_priv(Key* k, const uint8_t* priv, size_t len) {
  key_clear(k);
  const KemDesc& d = *k->desc;
  KemCall call{*k->prov};
  if (!checked(k, call, "private key", len, d.priv_bytes, [&](KemCall& c) { return d.check_priv(c, d, priv); }))
    return false;
  if (d.pub_from_priv == nullptr) {
    std::memcpy(k->pub, priv + d.pub_in_priv, d.pub_bytes);
  } else {
    call.classical = call.decoded.get();  // the public half of what check_priv decoded
    const int rc = d.pub_from_priv(call, d, priv, k->pub);
    if (rc != kOk) {
      GPUC_RAISE(k->prov, reason_for(rc, kErrInvalidKey), "%s private key: %s", d.name, d.strerror(rc));
      return false;
    }
  }
  // OpenSSL 3.5 runs its pairwise test on every expanded private key it
  // imports or decodes (ml_kem_import, ml_kem_load); a key from its seed
  // (key_set_seed) is consistent by construction and skips it.
  if (!key_pairwise(*k, k->pub, priv, k->prov->config.mlkem_import_pct)) return false;
  std::memcpy(k->priv, priv, len);
  keep_decoded(k, call);
  k->has_pub = k->has_priv = true;
  return true;
}

bool key_set_seed(Key* k, const uint8_t* seed, size_t len) {
  key_clear(k);
  const KemDesc& d = *k->desc;
  if (k->seed == nullptr || len != d.seed_bytes) {
    GPUC_RAISE(k->prov, kErrWrongLength, "%s seed must be %zu bytes (got %zu)", d.name,
               d.seed_bytes, len);
    return false;
  }
  std::memcpy(k->seed, seed, len);
  KemCall call{*k->prov};
  if (d.keygen(call, d, k->pub, k->priv, k->seed, nullptr) != kOk) {
    GPUC_RAISE(k->prov, kErrInternal, "%s key expansion failed", d.name);
    key_clear(k);
    return false;
  }
  keep_decoded(k, call);
  k->has_pub = k->has_priv = k->has_seed = true;
  return true;
}

bool key_set_seed_and_priv(Key* k, const uint8_t* seed, size_t slen, const uint8_t* priv,
                           size_t plen) {
  if (!key_set_seed(k, seed, slen)) return false;
  if (plen != k->desc->priv_bytes || CRYPTO_memcmp(priv, k->priv, plen) != 0) {
    GPUC_RAISE(k->prov, kErrInvalidKey, "%s seed and expanded private key do not match",
               k->desc->name);
    key_clear(k);
    return false;
  }
  return true;
}

// OpenSSL 3.5's ML-KEM import rules: key material goes only into an empty
// key; "seed"/"priv" count when the selection names the private key; "pub"
// counts whenever a key part is selected -- 3.5's hybrid keymgmt imports its
// ML-KEM half as "pub" with DOMAIN_PARAMETERS | PRIVATE_KEY.
int key_import(Key* k, int selection, const OSSL_PARAM params[]) {
  if ((selection & kKeySelect) == 0) return 1;
  const KemDesc& d = *k->desc;
  if (k->has_pub) {
    GPUC_RAISE(k->prov, kErrInvalidKey, "%s keys cannot be mutated", d.name);
    return 0;
  }
  const OSSL_PARAM* seed = d.stores_seed ? OSSL_PARAM_locate_const(params, kSeedParam) : nullptr;
  const OSSL_PARAM* priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
  const OSSL_PARAM* pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
  const uint8_t *p = nullptr, *q = nullptr;
  size_t len = 0, qlen = 0;
  auto bad_type = [&](const char* what) {
    GPUC_RAISE(k->prov, kErrBadParam, "%s \"%s\" must be an octet string", d.name, what);
    return 0;
  };
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && (seed != nullptr || priv != nullptr)) {
    if (seed != nullptr && !octets(seed, &p, &len)) return bad_type("seed");
    if (priv != nullptr && !octets(priv, &q, &qlen)) return bad_type("priv");
    const bool ok = seed == nullptr   ? key_set_priv(k, q, qlen)
                    : priv == nullptr ? key_set_seed(k, p, len)
                                      : key_set_seed_and_priv(k, p, len, q, qlen);
    if (!ok) return 0;
    if (pub != nullptr) {  // must agree with the public key inside the private key
      if (!octets(pub, &p, &len) || len != d.pub_bytes || std::memcmp(p, k->pub, len) != 0) {
        GPUC_RAISE(k->prov, kErrInvalidKey, "%s \"pub\" does not match the private key", d.name);
        key_clear(k);
        return 0;
      }
    }
    return 1;
  }
  if (pub != nullptr) {
    if (!octets(pub, &p, &len)) return bad_type("pub");
    return key_set_pub(k, p, len) ? 1 : 0;
  }
  GPUC_RAISE(k->prov, kErrInvalidKey, "no %s key material (\"pub\", \"priv\"%s) given", d.name,
             d.stores_seed ? " or \"seed\"" : "");
  return 0;
}

int key_export(const Key* k, int selection, OSSL_CALLBACK* cb, void* cbarg) {
  if (k == nullptr || (selection & kKeySelect) == 0) return 0;
  const KemDesc& d = *k->desc;
  // Points at the key's own bytes: no copy of the private key to clean up.
  OSSL_PARAM params[4];
  int n = 0;
  if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && k->has_pub)
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, k->pub, d.pub_bytes);
  if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && k->has_priv) {
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, k->priv, d.priv_bytes);
    if (k->has_seed)
      params[n++] = OSSL_PARAM_construct_octet_string(kSeedParam, k->seed, d.seed_bytes);
  }
  params[n] = OSSL_PARAM_construct_end();
  return cb(params, cbarg);
}

}  // namespace gpucrypto::kemprov
