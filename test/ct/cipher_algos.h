// Every block cipher the provider serves, as the constant-time checks
// (ct_harness, dudect) enumerate them: the rows of engine/cipher_registry.h,
// each with all its implementations.
#pragma once
#include <vector>

#include "engine/cipher_registry.h"

namespace gpucrypto::ct {

inline std::vector<const CipherAlgo*> all_algos() {
  std::vector<const CipherAlgo*> v;
  for (const CipherRow& r : cipher_rows()) v.push_back(&r.algo());
  return v;
}

}  // namespace gpucrypto::ct
