// Encoder/decoder scaffolding shared by babyKyber and ML-KEM: DER/PEM
// SubjectPublicKeyInfo and PrivateKeyInfo encoders, a text encoder, and DER
// SubjectPublicKeyInfo/PrivateKeyInfo decoders that pass the key to the
// keymgmt by reference. Written once over a traits struct T that supplies:
//   using Key;  new_key(prov), free_key(k), name(k), data_type() (decoded type)
//   import(k, selection, params)       the encoders' import_object
//   text(k, with_priv)                 the text encoder's output
//   spki_der(k), pki_der(k)            the DER (a Bytes the caller cleanses)
//   kMaxDer                            longer input is "not ours"
//   decode_spki/decode_pki(prov, der, len, &key) -> Parsed
//   export_key(k, selection, cb, cbarg)
// Unencrypted PrivateKeyInfo only.
#pragma once
#include <openssl/bio.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/pem.h>

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "provider/provctx.h"

namespace gpucrypto::kemglue {

using Bytes = std::vector<uint8_t>;

enum class Format { kDer, kPem, kText };
enum class Structure { kSpki, kPki, kNone };
// What a decoder made of its input: not our structure (the chain moves on),
// a key, or our structure holding an invalid key (a real error).
enum class Parsed { kNotOurs, kOk, kInvalid };

struct CodecCtx {
  ProvCtx* prov;
};

// Key bytes as the text encoders print them: 15 colon-separated hex bytes a
// line, indented by four spaces.
inline std::string hex_block(const uint8_t* p, size_t n) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i % 15 == 0) s += "    ";
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
    if (i + 1 < n) s += ':';
    if (i % 15 == 14 || i + 1 == n) s += '\n';
  }
  return s;
}

inline void* codec_newctx(void* provctx) {
  auto* c = new (std::nothrow) CodecCtx;
  if (c != nullptr) c->prov = static_cast<ProvCtx*>(provctx);
  return c;
}
inline void codec_freectx(void* c) { delete static_cast<CodecCtx*>(c); }

template <class T>
void* enc_import_object(void* vctx, int selection, const OSSL_PARAM params[]) {
  auto* c = static_cast<CodecCtx*>(vctx);
  typename T::Key* k = T::new_key(c->prov);
  if (k == nullptr) return nullptr;
  if (!T::import(k, selection, params)) {
    T::free_key(k);
    return nullptr;
  }
  return k;
}

template <class T>
void enc_free_object(void* k) {
  T::free_key(static_cast<typename T::Key*>(k));
}

template <Structure S>
int enc_does_selection(void*, int selection) {
  if constexpr (S == Structure::kPki) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  if constexpr (S == Structure::kSpki) return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0;
}

template <class T, Format F, Structure S>
int enc_encode(void* vctx, OSSL_CORE_BIO* cout, const void* obj_raw, const OSSL_PARAM obj_abstract[],
               int selection, OSSL_PASSPHRASE_CALLBACK*, void*) {
  auto* c = static_cast<CodecCtx*>(vctx);
  if (obj_abstract != nullptr || obj_raw == nullptr) return 0;  // core imports first
  const auto* k = static_cast<const typename T::Key*>(obj_raw);
  const bool priv = S == Structure::kPki ||
                    (S == Structure::kNone && (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0);
  if (priv ? !k->has_priv : !k->has_pub) {
    GPUC_RAISE(c->prov, kErrInvalidKey, "%s key has no %s part to encode", T::name(*k),
               priv ? "private" : "public");
    return 0;
  }
  BIO* out = BIO_new_from_core_bio(c->prov->libctx, cout);
  if (out == nullptr) return 0;
  int ok = 0;
  if constexpr (F == Format::kText) {
    std::string s = T::text(*k, priv);
    ok = BIO_write(out, s.data(), int(s.size())) == int(s.size());
    OPENSSL_cleanse(s.data(), s.size());
  } else {
    Bytes der = S == Structure::kPki ? T::pki_der(*k) : T::spki_der(*k);
    if constexpr (F == Format::kDer) {
      ok = BIO_write(out, der.data(), int(der.size())) == int(der.size());
    } else {
      ok = PEM_write_bio(out, S == Structure::kPki ? PEM_STRING_PKCS8INF : PEM_STRING_PUBLIC, "",
                         der.data(), long(der.size())) > 0;
    }
    OPENSSL_cleanse(der.data(), der.size());
  }
  BIO_free(out);
  return ok;
}

using CodecFn = void (*)();

template <class T, Format F, Structure S>
inline const OSSL_DISPATCH kEncoder[] = {
    {OSSL_FUNC_ENCODER_NEWCTX, reinterpret_cast<CodecFn>(&codec_newctx)},
    {OSSL_FUNC_ENCODER_FREECTX, reinterpret_cast<CodecFn>(&codec_freectx)},
    {OSSL_FUNC_ENCODER_DOES_SELECTION, reinterpret_cast<CodecFn>(&enc_does_selection<S>)},
    {OSSL_FUNC_ENCODER_ENCODE, reinterpret_cast<CodecFn>(&enc_encode<T, F, S>)},
    {OSSL_FUNC_ENCODER_IMPORT_OBJECT, reinterpret_cast<CodecFn>(&enc_import_object<T>)},
    {OSSL_FUNC_ENCODER_FREE_OBJECT, reinterpret_cast<CodecFn>(&enc_free_object<T>)},
    {0, nullptr}};

template <Structure S>
int dec_does_selection(void*, int selection) {
  if (selection == 0) return 1;
  if constexpr (S == Structure::kPki) return (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0;
  return (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0;
}

template <class T, Structure S>
int dec_decode(void* vctx, OSSL_CORE_BIO* cin, int selection, OSSL_CALLBACK* data_cb,
               void* data_cbarg, OSSL_PASSPHRASE_CALLBACK*, void*) {
  auto* c = static_cast<CodecCtx*>(vctx);
  if (selection != 0 && !dec_does_selection<S>(vctx, selection)) return 1;  // not for us
  BIO* in = BIO_new_from_core_bio(c->prov->libctx, cin);
  if (in == nullptr) return 0;
  // One more byte than the longest encoding, to tell "ours" from "longer".
  Bytes der(T::kMaxDer + 1);
  size_t len = 0;
  int r;
  while (len < der.size() && (r = BIO_read(in, der.data() + len, int(der.size() - len))) > 0)
    len += size_t(r);
  BIO_free(in);
  typename T::Key* k = nullptr;
  const Parsed res = len > T::kMaxDer           ? Parsed::kNotOurs
                     : S == Structure::kPki ? T::decode_pki(c->prov, der.data(), len, &k)
                                            : T::decode_spki(c->prov, der.data(), len, &k);
  OPENSSL_cleanse(der.data(), der.size());
  if (res != Parsed::kOk) {
    T::free_key(k);
    return res == Parsed::kNotOurs ? 1 : 0;  // not ours: let the next decoder try
  }
  int object_type = OSSL_OBJECT_PKEY;
  OSSL_PARAM params[4];
  params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &object_type);
  params[1] = OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE,
                                               const_cast<char*>(T::data_type()), 0);
  params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &k, sizeof k);
  params[3] = OSSL_PARAM_construct_end();
  const int rc = data_cb(params, data_cbarg);
  T::free_key(k);  // nullptr when the keymgmt's load() took it
  return rc;
}

template <class T>
int dec_export_object(void*, const void* reference, size_t reference_sz, OSSL_CALLBACK* export_cb,
                      void* export_cbarg) {
  if (reference == nullptr || reference_sz != sizeof(typename T::Key*)) return 0;
  auto* k = *static_cast<typename T::Key* const*>(reference);
  return T::export_key(k, OSSL_KEYMGMT_SELECT_KEYPAIR, export_cb, export_cbarg);
}

template <class T, Structure S>
inline const OSSL_DISPATCH kDecoder[] = {
    {OSSL_FUNC_DECODER_NEWCTX, reinterpret_cast<CodecFn>(&codec_newctx)},
    {OSSL_FUNC_DECODER_FREECTX, reinterpret_cast<CodecFn>(&codec_freectx)},
    {OSSL_FUNC_DECODER_DOES_SELECTION, reinterpret_cast<CodecFn>(&dec_does_selection<S>)},
    {OSSL_FUNC_DECODER_DECODE, reinterpret_cast<CodecFn>(&dec_decode<T, S>)},
    {OSSL_FUNC_DECODER_EXPORT_OBJECT, reinterpret_cast<CodecFn>(&dec_export_object<T>)},
    {0, nullptr}};

}  // namespace gpucrypto::kemglue
