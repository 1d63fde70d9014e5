// TLS-GROUP capability for ML-KEM (so OpenSSL >= 3.2's TLS 1.3 can negotiate
// the hybrid-free "MLKEM768" group, IANA codepoint 0x0201, and MLKEM512 /
// MLKEM1024, 0x0200 / 0x0202, through this provider's KEM).
//
// To be wired as the provider's OSSL_FUNC_PROVIDER_GET_CAPABILITIES (in
// provider.cpp's dispatch table); it answers "TLS-GROUP" and returns 1 for
// any other capability name (nothing to report).
#pragma once
#include <openssl/core.h>

namespace gpucrypto {
int mlkem_get_capabilities(void* provctx, const char* capability, OSSL_CALLBACK* cb, void* arg);
}  // namespace gpucrypto
