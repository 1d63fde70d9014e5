// The release line of the libcrypto the module runs in. The provider ABI is
// the same from 3.0 on, but OpenSSL's own default provider changed a few
// behaviours between lines; where ours mirrors one of them it follows the
// line it is loaded into, so that it matches the default provider it
// replaces (README, "OpenSSL 3.0 and 3.5: behaviour that differs"). Checked
// on 3.0.19 and 3.5.9; the lines in between take the newer behaviour from
// 3.5 on (the ones we could not run).
#pragma once
#include <openssl/crypto.h>

namespace gpucrypto {

// OpenSSL_version_num() of the running libcrypto (0xMNN00PP0 from 3.0 on) is
// at least major.minor.
inline bool openssl_line_at_least(unsigned major, unsigned minor) {
  return OpenSSL_version_num() >= ((static_cast<unsigned long>(major) << 28) |
                                   (static_cast<unsigned long>(minor) << 20));
}

// 3.5's default provider: GCM reports `iv-generated`.
inline bool openssl_35_rules() {
  static const bool v = openssl_line_at_least(3, 5);
  return v;
}

}  // namespace gpucrypto
