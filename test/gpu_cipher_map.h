// For the GPU tests: every cipher the CUDA back end has (the registry rows
// with a kernel), and the CPU algorithm each one is checked against.
#pragma once
#include <vector>

#include "ciphers/block_cipher.h"
#include "engine/cipher_registry.h"
#include "gpu/gpu_backend.h"

namespace gpucrypto::gpu::test_map {

inline const CipherAlgo& cpu_algo(Cipher c) { return row_of(c).algo(); }

inline const std::vector<Cipher>& all_ciphers() {
  static const std::vector<Cipher> v = [] {
    std::vector<Cipher> out;
    for (const CipherRow& r : cipher_rows())
      if (r.gpu) out.push_back(*r.gpu);
    return out;
  }();
  return v;
}

}  // namespace gpucrypto::gpu::test_map
