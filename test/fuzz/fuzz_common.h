// Shared by the fuzz targets: one library context with gpucrypto and the
// default provider, loaded once per process, and a reader over the input.
#pragma once
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace gpucrypto::fuzz {

struct Providers {
  OSSL_LIB_CTX* lib = nullptr;
  OSSL_PROVIDER* ours = nullptr;
  OSSL_PROVIDER* def = nullptr;
};

inline const Providers& providers() {
  static const Providers p = [] {
    Providers r;
    r.lib = OSSL_LIB_CTX_new();
    const char* dir = std::getenv("GPUCRYPTO_MODULE_DIR");
    OSSL_PROVIDER_set_default_search_path(r.lib, dir != nullptr && *dir ? dir : GPUCRYPTO_MODULE_DIR);
    r.ours = OSSL_PROVIDER_load(r.lib, "gpucrypto");
    r.def = OSSL_PROVIDER_load(r.lib, "default");
    if (r.ours == nullptr || r.def == nullptr) {
      std::fprintf(stderr, "fuzz: cannot load gpucrypto from %s\n", GPUCRYPTO_MODULE_DIR);
      std::abort();
    }
    return r;
  }();
  return p;
}

// Consumes the input front to back; past the end it yields zeros.
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t byte() { return pos_ < n_ ? p_[pos_++] : 0; }
  uint16_t u16() { return uint16_t(byte() | byte() << 8); }
  void bytes(uint8_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = byte();
  }
  size_t left() const { return n_ - pos_; }
  const uint8_t* rest() const { return p_ + pos_; }

 private:
  const uint8_t* p_;
  size_t n_, pos_ = 0;
};

// A key of type `keytype` decoded from DER or PEM ("input_type") through
// OSSL_DECODER in the fuzz library context, or nullptr. `consumed` (may be
// null): how many input bytes the decoder chain used (OpenSSL's DER
// pre-decoders stop after the first element; trailing bytes are left over).
inline EVP_PKEY* decode_key(const char* input_type, const char* keytype, const uint8_t* p, size_t n,
                            size_t* consumed = nullptr) {
  EVP_PKEY* key = nullptr;
  OSSL_DECODER_CTX* d = OSSL_DECODER_CTX_new_for_pkey(&key, input_type, nullptr, keytype, 0,
                                                      providers().lib, nullptr);
  if (d == nullptr) return nullptr;
  const unsigned char* q = p;
  size_t left = n;
  if (OSSL_DECODER_from_data(d, &q, &left) != 1) key = nullptr;
  if (consumed != nullptr) *consumed = n - left;
  OSSL_DECODER_CTX_free(d);
  return key;
}

// DER: PrivateKeyInfo for a key pair, SubjectPublicKeyInfo for a public key.
inline std::vector<uint8_t> encode_der(EVP_PKEY* key, int selection) {
  OSSL_ENCODER_CTX* e = OSSL_ENCODER_CTX_new_for_pkey(
      key, selection, "DER",
      selection == EVP_PKEY_KEYPAIR ? "PrivateKeyInfo" : "SubjectPublicKeyInfo", nullptr);
  unsigned char* out = nullptr;
  size_t len = 0;
  std::vector<uint8_t> v;
  if (e != nullptr && OSSL_ENCODER_to_data(e, &out, &len) == 1) v.assign(out, out + len);
  OPENSSL_free(out);
  OSSL_ENCODER_CTX_free(e);
  return v;
}

// A gpucrypto key of type `keytype` from one octet-string parameter, or nullptr.
inline EVP_PKEY* import_key(const char* keytype, const char* param, const uint8_t* p, size_t n,
                            int selection) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(providers().lib, keytype, "provider=gpucrypto");
  EVP_PKEY* key = nullptr;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_octet_string(param, const_cast<uint8_t*>(p), n),
                         OSSL_PARAM_END};
  if (ctx == nullptr || EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &key, selection, params) != 1)
    key = nullptr;
  EVP_PKEY_CTX_free(ctx);
  return key;
}

// A failed check: print and abort so that libFuzzer saves the input.
#define FUZZ_CHECK(cond, ...)                                   \
  do {                                                          \
    if (!(cond)) {                                              \
      std::fprintf(stderr, "FUZZ CHECK FAILED: %s: ", #cond);   \
      std::fprintf(stderr, __VA_ARGS__);                        \
      std::fprintf(stderr, "\n");                               \
      std::abort();                                             \
    }                                                           \
  } while (0)

// A real encapsulation (ct, ss_want) decapsulates through ctx to the same
// secret; then ctx and key are freed. `what` names the KEM in the message.
inline void check_round_trip_and_free(EVP_PKEY_CTX* ctx, EVP_PKEY* key, const uint8_t* ct, size_t ctlen,
                                      const uint8_t* ss_want, size_t sslen_want, const char* what) {
  uint8_t ss[64];
  size_t sslen = sizeof ss;
  FUZZ_CHECK(EVP_PKEY_decapsulate(ctx, ss, &sslen, ct, ctlen) == 1, "%s decapsulate", what);
  FUZZ_CHECK(sslen == sslen_want && std::memcmp(ss, ss_want, sslen) == 0, "%s encaps/decaps round trip failed",
             what);
  EVP_PKEY_CTX_free(ctx);
  EVP_PKEY_free(key);
}

}  // namespace gpucrypto::fuzz
