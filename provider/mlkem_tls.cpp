// TLS-GROUP capability entries for ML-KEM (see mlkem_tls.h). The fields are
// those of provider-base(7) "TLS-GROUP"; a KEM group has is-kem = 1, TLS 1.3
// only, no DTLS. OpenSSL 3.0 and 3.1 read this capability but only use it
// for key-exchange (DH-style) groups: a provider KEM group is usable in a
// handshake from OpenSSL 3.2 on (see kem/README.md).
#include "provider/mlkem_tls.h"

#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>

#include <cstring>

namespace gpucrypto {
namespace {

struct Group {
  const char* tls_name;  // IANA TLS Supported Groups name
  const char* alg;       // our keymgmt/KEM name
  unsigned int id;       // IANA codepoint
  unsigned int secbits;
};

// draft-connolly-tls-mlkem-key-agreement; IANA: MLKEM512 = 0x0200,
// MLKEM768 = 0x0201, MLKEM1024 = 0x0202.
const Group kGroups[] = {{"MLKEM512", "ML-KEM-512", 0x0200, 128},
                         {"MLKEM768", "ML-KEM-768", 0x0201, 192},
                         {"MLKEM1024", "ML-KEM-1024", 0x0202, 256}};

int report(const Group& g, OSSL_CALLBACK* cb, void* arg) {
  unsigned int id = g.id, secbits = g.secbits, is_kem = 1;
  int min_tls = TLS1_3_VERSION, max_tls = 0, min_dtls = -1, max_dtls = -1;
  OSSL_PARAM params[] = {
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME, const_cast<char*>(g.tls_name),
                             std::strlen(g.tls_name) + 1),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL,
                             const_cast<char*>(g.alg), std::strlen(g.alg) + 1),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG, const_cast<char*>(g.alg),
                             std::strlen(g.alg) + 1),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_ID, &id),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, &secbits),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &min_tls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &max_tls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &min_dtls),
      OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &max_dtls),
      OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &is_kem),
      OSSL_PARAM_END};
  return cb(params, arg);
}

}  // namespace

int mlkem_get_capabilities(void*, const char* capability, OSSL_CALLBACK* cb, void* arg) {
  if (capability == nullptr || OPENSSL_strcasecmp(capability, "TLS-GROUP") != 0) return 1;
  for (const Group& g : kGroups)
    if (!report(g, cb, arg)) return 0;
  return 1;
}

}  // namespace gpucrypto
