// Every block cipher the provider serves, as the constant-time checks
// (ct_harness, dudect) enumerate them: each with all its implementations.
#pragma once
#include <vector>

#include "ciphers/block_cipher.h"
#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"

namespace gpucrypto::ct {

inline std::vector<const CipherAlgo*> all_algos() {
  std::vector<const CipherAlgo*> v = {&skinny128_256(), &skinny128_384(), &sm4(), &rectangle80(),
                                      &rectangle128()};
  for (unsigned b : {128u, 192u, 256u})
    for (unsigned k : {128u, 192u, 256u}) v.push_back(&rijndael(b, k));
  return v;
}

}  // namespace gpucrypto::ct
