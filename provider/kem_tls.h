// TLS-GROUP capability (provider-base(7)) for the KEM rows that name a TLS
// group (provider/kem_table.h): MLKEM512/768/1024 and the hybrids
// X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024 -- so that libssl
// (OpenSSL 3.0 on) negotiates them in TLS 1.3 through this provider's keymgmt
// and KEM. Wired as the provider's OSSL_FUNC_PROVIDER_GET_CAPABILITIES in
// provider.cpp; it answers "TLS-GROUP" and returns 1 for any other
// capability name (nothing to report).
#pragma once
#include <openssl/core.h>

namespace gpucrypto {
int kem_get_capabilities(void* provctx, const char* capability, OSSL_CALLBACK* cb, void* arg);
}  // namespace gpucrypto
