// TLS-GROUP capability entries of the KEM rows (see kem_tls.h). The fields
// are those of provider-base(7) "TLS-GROUP" with OpenSSL 3.5's values: a KEM
// group (is-kem = 1), TLS 1.3 only, no DTLS, the ML-KEM part's security bits.
// OpenSSL 3.0.19's libssl negotiates such groups (measured; see README,
// "Post-quantum TLS on OpenSSL 3.0"): the client generates a key by group
// name and sends its encoded public key, the server installs it on an empty
// key and encapsulates, the client decapsulates.
//
// Coexistence: when the running libcrypto's built-in default provider already
// advertises a group (OpenSSL >= 3.5 has all six), we do not advertise it
// again (libssl would hold the group twice); the algorithms stay served, so a
// property query such as `?provider=gpucrypto` makes libssl use ours. The
// default provider is asked once, in a private library context, on the first
// capability query (libssl asks when it builds its group list): processes
// that load the provider without TLS never pay for it.
#include "provider/kem_tls.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>
#include <openssl/provider.h>

#include <array>
#include <cstring>
#include <mutex>

#include "provider/kem_table.h"

namespace gpucrypto {
namespace {

using kemprov::kKemCount;
using kemprov::kKems;

// Rows whose group the default provider already advertises.
std::array<bool, kKemCount> g_shadowed{};
std::once_flag g_probed;

int note_group(const OSSL_PARAM params[], void*) {
  const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME);
  const char* name = nullptr;
  if (p == nullptr || !OSSL_PARAM_get_utf8_string_ptr(p, &name) || name == nullptr) return 1;
  for (size_t r = 0; r < kKemCount; ++r)
    if (kKems[r].tls_group != nullptr && OPENSSL_strcasecmp(name, kKems[r].tls_group) == 0)
      g_shadowed[r] = true;
  return 1;
}

void probe_default_provider() {
  OSSL_LIB_CTX* ctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER* def = ctx != nullptr ? OSSL_PROVIDER_load(ctx, "default") : nullptr;
  if (def != nullptr) OSSL_PROVIDER_get_capabilities(def, "TLS-GROUP", note_group, nullptr);
  OSSL_PROVIDER_unload(def);
  OSSL_LIB_CTX_free(ctx);
}

int report(const kemprov::KemDesc& d, OSSL_CALLBACK* cb, void* arg) {
  unsigned int id = d.tls_id, secbits = unsigned(d.security_bits), is_kem = 1;
  int min_tls = TLS1_3_VERSION, max_tls = 0, min_dtls = -1, max_dtls = -1;
  OSSL_PARAM params[] = {
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME, const_cast<char*>(d.tls_group),
                             std::strlen(d.tls_group) + 1),
      // The name libssl passes to keygen as "group" (our keymgmt accepts it).
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL, const_cast<char*>(d.name),
                             std::strlen(d.name) + 1),
      OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG, const_cast<char*>(d.name),
                             std::strlen(d.name) + 1),
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

int kem_get_capabilities(void*, const char* capability, OSSL_CALLBACK* cb, void* arg) {
  if (capability == nullptr || OPENSSL_strcasecmp(capability, "TLS-GROUP") != 0) return 1;
  std::call_once(g_probed, probe_default_provider);
  for (size_t r = 0; r < kKemCount; ++r)
    if (kKems[r].tls_group != nullptr && !g_shadowed[r] && !report(kKems[r], cb, arg)) return 0;
  return 1;
}

}  // namespace gpucrypto
