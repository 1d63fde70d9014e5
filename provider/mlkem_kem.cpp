// KEM "ML-KEM-512/768/1024": EVP_PKEY_encapsulate / EVP_PKEY_decapsulate.
// NULL output buffers ask for the lengths; a buffer shorter than needed or a
// ciphertext of another length is an error. Decapsulation of a well-formed
// ciphertext never fails (implicit rejection); the private key was checked
// when it was imported or generated.
#include <openssl/core_dispatch.h>
#include <openssl/params.h>

#include <new>

#include "provider/mlkem_key.h"

namespace gpucrypto::mlkprov {
namespace {

struct KemCtx {
  ProvCtx* prov = nullptr;
  Key* key = nullptr;  // borrowed: the EVP_PKEY outlives the operation
  bool decap = false;
};

void* kem_newctx(void* provctx) {
  auto* c = new (std::nothrow) KemCtx;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}

void kem_freectx(void* vctx) { delete static_cast<KemCtx*>(vctx); }

void* kem_dupctx(void* vctx) { return new (std::nothrow) KemCtx(*static_cast<KemCtx*>(vctx)); }

int kem_init(void* vctx, void* vkey, bool decap) {
  auto* c = static_cast<KemCtx*>(vctx);
  auto* k = static_cast<Key*>(vkey);
  if (c == nullptr || k == nullptr) return 0;
  if (decap ? !k->has_priv : !k->has_pub) {
    GPUC_RAISE(c->prov, kErrInvalidKey, "%s %s needs a %s key", k->info->name,
               decap ? "decapsulation" : "encapsulation", decap ? "private" : "public");
    return 0;
  }
  c->key = k;
  c->decap = decap;
  return 1;
}

int kem_encapsulate_init(void* vctx, void* vkey, const OSSL_PARAM*) { return kem_init(vctx, vkey, false); }
int kem_decapsulate_init(void* vctx, void* vkey, const OSSL_PARAM*) { return kem_init(vctx, vkey, true); }

int kem_encapsulate(void* vctx, unsigned char* out, size_t* outlen, unsigned char* secret,
                    size_t* secretlen) {
  auto* c = static_cast<KemCtx*>(vctx);
  if (c->key == nullptr || c->decap) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "encapsulate without encapsulate_init");
    return 0;
  }
  const LevelInfo& li = *c->key->info;
  if (out == nullptr || secret == nullptr) {
    if (outlen != nullptr) *outlen = li.ct_bytes;
    if (secretlen != nullptr) *secretlen = MLKEM_SHARED_SECRET_BYTES;
    return outlen != nullptr || secretlen != nullptr;
  }
  if (outlen == nullptr || secretlen == nullptr || *outlen < li.ct_bytes ||
      *secretlen < MLKEM_SHARED_SECRET_BYTES) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall,
               "%s needs %zu ciphertext bytes and %d secret bytes (got %zu and %zu)", li.name,
               li.ct_bytes, MLKEM_SHARED_SECRET_BYTES, outlen != nullptr ? *outlen : size_t{0},
               secretlen != nullptr ? *secretlen : size_t{0});
    return 0;
  }
  const int rc = mlkem_encaps(c->prov->libctx, li.level, out, secret, c->key->ek);
  if (rc != MLKEM_OK) {
    GPUC_RAISE(c->prov, rc == MLKEM_ERR_KEY ? kErrInvalidKey : kErrInternal,
               "%s encapsulation: %s", li.name, mlkem_strerror(rc));
    return 0;
  }
  *outlen = li.ct_bytes;
  *secretlen = MLKEM_SHARED_SECRET_BYTES;
  return 1;
}

int kem_decapsulate(void* vctx, unsigned char* out, size_t* outlen, const unsigned char* in,
                    size_t inlen) {
  auto* c = static_cast<KemCtx*>(vctx);
  if (c->key == nullptr || !c->decap) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "decapsulate without decapsulate_init");
    return 0;
  }
  const LevelInfo& li = *c->key->info;
  if (outlen == nullptr) return 0;
  if (out == nullptr) {
    *outlen = MLKEM_SHARED_SECRET_BYTES;
    return 1;
  }
  if (in == nullptr || inlen != li.ct_bytes) {
    GPUC_RAISE(c->prov, kErrWrongLength, "%s ciphertext must be %zu bytes (got %zu)", li.name,
               li.ct_bytes, inlen);
    return 0;
  }
  if (*outlen < MLKEM_SHARED_SECRET_BYTES) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall, "%s shared secret needs %d bytes (got %zu)", li.name,
               MLKEM_SHARED_SECRET_BYTES, *outlen);
    return 0;
  }
  const int rc = mlkem_decaps(li.level, out, in, c->key->dk);
  if (rc != MLKEM_OK) {
    GPUC_RAISE(c->prov, kErrInternal, "%s decapsulation: %s", li.name, mlkem_strerror(rc));
    return 0;
  }
  *outlen = MLKEM_SHARED_SECRET_BYTES;
  return 1;
}

const OSSL_PARAM kNoParams[] = {OSSL_PARAM_END};
const OSSL_PARAM* kem_params_list(void*, void*) { return kNoParams; }
int kem_get_ctx_params(void*, OSSL_PARAM*) { return 1; }
int kem_set_ctx_params(void*, const OSSL_PARAM*) { return 1; }

using Fn = void (*)();

}  // namespace

const OSSL_DISPATCH kKemFunctions[] = {
    {OSSL_FUNC_KEM_NEWCTX, reinterpret_cast<Fn>(&kem_newctx)},
    {OSSL_FUNC_KEM_FREECTX, reinterpret_cast<Fn>(&kem_freectx)},
    {OSSL_FUNC_KEM_DUPCTX, reinterpret_cast<Fn>(&kem_dupctx)},
    {OSSL_FUNC_KEM_ENCAPSULATE_INIT, reinterpret_cast<Fn>(&kem_encapsulate_init)},
    {OSSL_FUNC_KEM_ENCAPSULATE, reinterpret_cast<Fn>(&kem_encapsulate)},
    {OSSL_FUNC_KEM_DECAPSULATE_INIT, reinterpret_cast<Fn>(&kem_decapsulate_init)},
    {OSSL_FUNC_KEM_DECAPSULATE, reinterpret_cast<Fn>(&kem_decapsulate)},
    {OSSL_FUNC_KEM_GET_CTX_PARAMS, reinterpret_cast<Fn>(&kem_get_ctx_params)},
    {OSSL_FUNC_KEM_GETTABLE_CTX_PARAMS, reinterpret_cast<Fn>(&kem_params_list)},
    {OSSL_FUNC_KEM_SET_CTX_PARAMS, reinterpret_cast<Fn>(&kem_set_ctx_params)},
    {OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, reinterpret_cast<Fn>(&kem_params_list)},
    {0, nullptr}};

}  // namespace gpucrypto::mlkprov
