// The KEM operation (EVP_PKEY_encapsulate / EVP_PKEY_decapsulate) shared by
// babyKyber and ML-KEM, written once over a traits struct T that supplies:
//   using Key;                           has_pub, has_priv
//   name(const Key&), ct_bytes(const Key&), kSecretBytes
//   kCheckCtBeforeQuery                  decapsulate rejects a bad ciphertext
//                                        length before answering a length query
//   encaps(ProvCtx*, const Key&, ct, ss), decaps(ProvCtx*, const Key&, ss, ct)
//                                        return the library's status code;
//   kOk, strerror(rc), encaps_reason(rc), decaps_reason(rc)
// NULL output buffers ask for the lengths; a buffer shorter than needed or a
// ciphertext of another length is an error.
#pragma once
#include <openssl/core_dispatch.h>
#include <openssl/params.h>

#include <cstddef>
#include <new>

#include "provider/provctx.h"

namespace gpucrypto::kemglue {

template <class T>
struct KemCtx {
  ProvCtx* prov = nullptr;
  typename T::Key* key = nullptr;  // borrowed: the EVP_PKEY outlives the operation
  bool decap = false;
};

template <class T>
void* kem_newctx(void* provctx) {
  auto* c = new (std::nothrow) KemCtx<T>;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}

template <class T>
void kem_freectx(void* vctx) {
  delete static_cast<KemCtx<T>*>(vctx);
}

template <class T>
void* kem_dupctx(void* vctx) {
  return new (std::nothrow) KemCtx<T>(*static_cast<KemCtx<T>*>(vctx));
}

template <class T, bool Decap>
int kem_init(void* vctx, void* vkey, const OSSL_PARAM*) {
  auto* c = static_cast<KemCtx<T>*>(vctx);
  auto* k = static_cast<typename T::Key*>(vkey);
  if (c == nullptr || k == nullptr) return 0;
  if (Decap ? !k->has_priv : !k->has_pub) {
    GPUC_RAISE(c->prov, kErrInvalidKey, "%s %s needs a %s key", T::name(*k),
               Decap ? "decapsulation" : "encapsulation", Decap ? "private" : "public");
    return 0;
  }
  c->key = k;
  c->decap = Decap;
  return 1;
}

template <class T>
int kem_encapsulate(void* vctx, unsigned char* out, size_t* outlen, unsigned char* secret,
                    size_t* secretlen) {
  auto* c = static_cast<KemCtx<T>*>(vctx);
  if (c->key == nullptr || c->decap) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "encapsulate without encapsulate_init");
    return 0;
  }
  const auto& k = *c->key;
  const size_t ct_bytes = T::ct_bytes(k);
  const size_t ss_bytes = T::kSecretBytes;
  if (out == nullptr || secret == nullptr) {
    if (outlen != nullptr) *outlen = ct_bytes;
    if (secretlen != nullptr) *secretlen = ss_bytes;
    return outlen != nullptr || secretlen != nullptr;
  }
  if (outlen == nullptr || secretlen == nullptr || *outlen < ct_bytes || *secretlen < ss_bytes) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall,
               "%s needs %zu ciphertext bytes and %zu secret bytes (got %zu and %zu)",
               T::name(k), ct_bytes, ss_bytes, outlen != nullptr ? *outlen : size_t{0},
               secretlen != nullptr ? *secretlen : size_t{0});
    return 0;
  }
  const int rc = T::encaps(c->prov, k, out, secret);
  if (rc != T::kOk) {
    GPUC_RAISE(c->prov, T::encaps_reason(rc), "%s encapsulation: %s", T::name(k),
               T::strerror(rc));
    return 0;
  }
  *outlen = ct_bytes;
  *secretlen = ss_bytes;
  return 1;
}

template <class T>
int kem_decapsulate(void* vctx, unsigned char* out, size_t* outlen, const unsigned char* in,
                    size_t inlen) {
  auto* c = static_cast<KemCtx<T>*>(vctx);
  if (c->key == nullptr || !c->decap) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "decapsulate without decapsulate_init");
    return 0;
  }
  const auto& k = *c->key;
  const size_t ct_bytes = T::ct_bytes(k);
  const size_t ss_bytes = T::kSecretBytes;
  const bool ct_ok = in != nullptr && inlen == ct_bytes;
  if (ct_ok || !T::kCheckCtBeforeQuery) {  // a length query may be answered
    if (outlen == nullptr) {
      GPUC_RAISE(c->prov, kErrBadParam, "decapsulate needs an output length pointer");
      return 0;
    }
    if (out == nullptr) {
      *outlen = ss_bytes;
      return 1;
    }
  }
  if (!ct_ok) {
    GPUC_RAISE(c->prov, kErrWrongLength, "%s ciphertext must be %zu bytes (got %zu)", T::name(k),
               ct_bytes, inlen);
    return 0;
  }
  if (*outlen < ss_bytes) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall, "%s shared secret needs %zu bytes (got %zu)",
               T::name(k), ss_bytes, *outlen);
    return 0;
  }
  const int rc = T::decaps(c->prov, k, out, in);
  if (rc != T::kOk) {
    GPUC_RAISE(c->prov, T::decaps_reason(rc), "%s decapsulation: %s", T::name(k),
               T::strerror(rc));
    return 0;
  }
  *outlen = ss_bytes;
  return 1;
}

inline const OSSL_PARAM kNoKemParams[] = {OSSL_PARAM_END};
inline const OSSL_PARAM* kem_params_list(void*, void*) { return kNoKemParams; }
inline int kem_get_ctx_params(void*, OSSL_PARAM*) { return 1; }
inline int kem_set_ctx_params(void*, const OSSL_PARAM*) { return 1; }

using DispatchFn = void (*)();

template <class T>
inline const OSSL_DISPATCH kKemDispatch[] = {
    {OSSL_FUNC_KEM_NEWCTX, reinterpret_cast<DispatchFn>(&kem_newctx<T>)},
    {OSSL_FUNC_KEM_FREECTX, reinterpret_cast<DispatchFn>(&kem_freectx<T>)},
    {OSSL_FUNC_KEM_DUPCTX, reinterpret_cast<DispatchFn>(&kem_dupctx<T>)},
    {OSSL_FUNC_KEM_ENCAPSULATE_INIT, reinterpret_cast<DispatchFn>(&kem_init<T, false>)},
    {OSSL_FUNC_KEM_ENCAPSULATE, reinterpret_cast<DispatchFn>(&kem_encapsulate<T>)},
    {OSSL_FUNC_KEM_DECAPSULATE_INIT, reinterpret_cast<DispatchFn>(&kem_init<T, true>)},
    {OSSL_FUNC_KEM_DECAPSULATE, reinterpret_cast<DispatchFn>(&kem_decapsulate<T>)},
    {OSSL_FUNC_KEM_GET_CTX_PARAMS, reinterpret_cast<DispatchFn>(&kem_get_ctx_params)},
    {OSSL_FUNC_KEM_GETTABLE_CTX_PARAMS, reinterpret_cast<DispatchFn>(&kem_params_list)},
    {OSSL_FUNC_KEM_SET_CTX_PARAMS, reinterpret_cast<DispatchFn>(&kem_set_ctx_params)},
    {OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, reinterpret_cast<DispatchFn>(&kem_params_list)},
    {0, nullptr}};

}  // namespace gpucrypto::kemglue
