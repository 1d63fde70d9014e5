// The KEM operation (EVP_PKEY_encapsulate / EVP_PKEY_decapsulate) of every
// row: one dispatch table, the row comes from the key.
//
// One length rule for all KEMs, OpenSSL 3.5's ML-KEM one: a NULL output
// buffer asks for the lengths (*outlen, and for encapsulation *secretlen, are
// set and 1 is returned, whatever the ciphertext passed to decapsulation); a
// buffer shorter than needed, or a ciphertext of another length, is an error
// with a reason. Decapsulation of a well-formed ciphertext never fails
// (implicit rejection); the private key was checked when it was imported or
// generated.
//
// The context reports "gpucrypto-kernels": the kernel set ("ref", "avx2",
// "avx512") that served its last operation, chosen under this provider
// instance's backend cap.
#include <openssl/core_dispatch.h>
#include <openssl/params.h>

#include <cstddef>
#include <new>

#include "provider/kem_dispatch.h"
#include "provider/kem_key.h"

namespace gpucrypto::kemprov {
namespace {

constexpr char kKernelsParam[] = "gpucrypto-kernels";

struct KemCtx {
  ProvCtx* prov = nullptr;
  Key* key = nullptr;  // borrowed: the EVP_PKEY outlives the operation
  bool decap = false;
  const char* kernels = nullptr;
};

void* kem_newctx(void* provctx) {
  auto* c = new (std::nothrow) KemCtx;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}

void kem_freectx(void* vctx) { delete static_cast<KemCtx*>(vctx); }

void* kem_dupctx(void* vctx) { return new (std::nothrow) KemCtx(*static_cast<KemCtx*>(vctx)); }

template <bool Decap>
int kem_init(void* vctx, void* vkey, const OSSL_PARAM*) {
  auto* c = static_cast<KemCtx*>(vctx);
  auto* k = static_cast<Key*>(vkey);
  if (c == nullptr || k == nullptr) return 0;
  if (Decap ? !k->has_priv : !k->has_pub) {
    GPUC_RAISE(c->prov, kErrInvalidKey, "%s %s needs a %s key", k->desc->name,
               Decap ? "decapsulation" : "encapsulation", Decap ? "private" : "public");
    return 0;
  }
  c->key = k;
  c->decap = Decap;
  return 1;
}

// Records which kernels ran; raises when the entry point failed.
bool finished(KemCtx* c, const KemCall& call, const char* what, int rc) {
  c->kernels = call.kernels;
  if (rc == kOk) return true;
  GPUC_RAISE(c->prov, reason_for(rc, kErrInternal), "%s %s: %s", c->key->desc->name, what,
             c->key->desc->strerror(rc));
  return false;
}

int kem_encapsulate(void* vctx, unsigned char* out, size_t* outlen, unsigned char* secret,
                    size_t* secretlen) {
  auto* c = static_cast<KemCtx*>(vctx);
  if (c->key == nullptr || c->decap) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "encapsulate without encapsulate_init");
    return 0;
  }
  const Key& k = *c->key;
  const KemDesc& d = *k.desc;
  if (out == nullptr) {  // length query
    if (outlen != nullptr) *outlen = d.ct_bytes;
    if (secretlen != nullptr) *secretlen = d.ss_bytes;
    return outlen != nullptr || secretlen != nullptr;
  }
  if (secret == nullptr) {
    GPUC_RAISE(c->prov, kErrNullOutput, "%s encapsulation needs a shared-secret buffer", d.name);
    return 0;
  }
  if (outlen == nullptr || secretlen == nullptr || *outlen < d.ct_bytes || *secretlen < d.ss_bytes) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall,
               "%s needs %zu ciphertext bytes and %zu secret bytes (got %zu and %zu)", d.name,
               d.ct_bytes, d.ss_bytes, outlen != nullptr ? *outlen : size_t{0},
               secretlen != nullptr ? *secretlen : size_t{0});
    return 0;
  }
  KemCall call{*c->prov};
  call.classical = k.classical;
  if (!finished(c, call, "encapsulation", d.encaps(call, d, out, secret, k.pub))) return 0;
  *outlen = d.ct_bytes;
  *secretlen = d.ss_bytes;
  return 1;
}

int kem_decapsulate(void* vctx, unsigned char* out, size_t* outlen, const unsigned char* in,
                    size_t inlen) {
  auto* c = static_cast<KemCtx*>(vctx);
  if (c->key == nullptr || !c->decap) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "decapsulate without decapsulate_init");
    return 0;
  }
  const Key& k = *c->key;
  const KemDesc& d = *k.desc;
  if (outlen == nullptr) {
    GPUC_RAISE(c->prov, kErrBadParam, "decapsulate needs an output length pointer");
    return 0;
  }
  if (out == nullptr) {  // length query
    *outlen = d.ss_bytes;
    return 1;
  }
  if (in == nullptr || inlen != d.ct_bytes) {
    GPUC_RAISE(c->prov, kErrWrongLength, "%s ciphertext must be %zu bytes (got %zu)", d.name,
               d.ct_bytes, inlen);
    return 0;
  }
  if (*outlen < d.ss_bytes) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall, "%s shared secret needs %zu bytes (got %zu)", d.name,
               d.ss_bytes, *outlen);
    return 0;
  }
  KemCall call{*c->prov};
  call.classical = k.classical;
  if (!finished(c, call, "decapsulation", d.decaps(call, d, out, in, k.priv))) return 0;
  *outlen = d.ss_bytes;
  return 1;
}

const OSSL_PARAM kNoParams[] = {OSSL_PARAM_END};
const OSSL_PARAM kGettableCtx[] = {OSSL_PARAM_utf8_string(kKernelsParam, nullptr, 0), OSSL_PARAM_END};
const OSSL_PARAM* kem_gettable_ctx(void*, void*) { return kGettableCtx; }
const OSSL_PARAM* kem_settable_ctx(void*, void*) { return kNoParams; }

int kem_get_ctx_params(void* vctx, OSSL_PARAM* params) {
  const auto* c = static_cast<const KemCtx*>(vctx);
  OSSL_PARAM* p = OSSL_PARAM_locate(params, kKernelsParam);
  if (p == nullptr || c->kernels == nullptr) return 1;  // nothing ran yet: left unset
  return p->data_type == OSSL_PARAM_UTF8_PTR ? OSSL_PARAM_set_utf8_ptr(p, c->kernels)
                                             : OSSL_PARAM_set_utf8_string(p, c->kernels);
}
int kem_set_ctx_params(void*, const OSSL_PARAM*) { return 1; }

using Fn = void (*)();

const OSSL_DISPATCH kKem[] = {
    {OSSL_FUNC_KEM_NEWCTX, reinterpret_cast<Fn>(&kem_newctx)},
    {OSSL_FUNC_KEM_FREECTX, reinterpret_cast<Fn>(&kem_freectx)},
    {OSSL_FUNC_KEM_DUPCTX, reinterpret_cast<Fn>(&kem_dupctx)},
    {OSSL_FUNC_KEM_ENCAPSULATE_INIT, reinterpret_cast<Fn>(&kem_init<false>)},
    {OSSL_FUNC_KEM_ENCAPSULATE, reinterpret_cast<Fn>(&kem_encapsulate)},
    {OSSL_FUNC_KEM_DECAPSULATE_INIT, reinterpret_cast<Fn>(&kem_init<true>)},
    {OSSL_FUNC_KEM_DECAPSULATE, reinterpret_cast<Fn>(&kem_decapsulate)},
    {OSSL_FUNC_KEM_GET_CTX_PARAMS, reinterpret_cast<Fn>(&kem_get_ctx_params)},
    {OSSL_FUNC_KEM_GETTABLE_CTX_PARAMS, reinterpret_cast<Fn>(&kem_gettable_ctx)},
    {OSSL_FUNC_KEM_SET_CTX_PARAMS, reinterpret_cast<Fn>(&kem_set_ctx_params)},
    {OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, reinterpret_cast<Fn>(&kem_settable_ctx)},
    {0, nullptr}};

}  // namespace

const OSSL_DISPATCH* kem_dispatch() { return kKem; }

}  // namespace gpucrypto::kemprov
