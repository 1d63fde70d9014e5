// SM4 (GB/T 32907-2016): 128-bit block, 128-bit key, 32 rounds. Words are
// big-endian in the byte strings, as in the standard.
#pragma once
#include "ciphers/block_cipher.h"

namespace gpucrypto {

// "SM4": block 16, key 16; impls best first, "ref" last.
const CipherAlgo& sm4();

}  // namespace gpucrypto
