// For the GPU tests: every cipher the CUDA back end has, and the CPU
// algorithm each one is checked against.
#pragma once
#include "ciphers/block_cipher.h"
#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"
#include "gpu/gpu_backend.h"

namespace gpucrypto::gpu::test_map {

inline const CipherAlgo& cpu_algo(Cipher c) {
  switch (c) {
    case Cipher::kSkinny128_256: return skinny128_256();
    case Cipher::kSkinny128_384: return skinny128_384();
    case Cipher::kSM4: return sm4();
    case Cipher::kRectangle80: return rectangle80();
    case Cipher::kRectangle128: return rectangle128();
    case Cipher::kAES128: return aes128();
    case Cipher::kAES192: return aes192();
    case Cipher::kAES256: break;
  }
  return aes256();
}

inline constexpr Cipher kAllCiphers[] = {Cipher::kSkinny128_256, Cipher::kSkinny128_384,
                                         Cipher::kSM4,           Cipher::kRectangle80,
                                         Cipher::kRectangle128,  Cipher::kAES128,
                                         Cipher::kAES192,        Cipher::kAES256};

}  // namespace gpucrypto::gpu::test_map
