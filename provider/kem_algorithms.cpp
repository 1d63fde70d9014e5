// Placeholder until the babyKyber glue lands: no KEM algorithms yet.
#include "provider/kem_algorithms.h"

namespace gpucrypto {
const OSSL_ALGORITHM* kem_algorithms(int) { return nullptr; }
}  // namespace gpucrypto
