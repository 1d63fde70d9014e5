// SKINNY-128 tweakable block cipher (Beierle et al., CRYPTO 2016), used here
// as a plain block cipher whose whole tweakey is the key. Byte j of the
// block and of each tweakey array is cell j, cells row by row.
#pragma once
#include "ciphers/block_cipher.h"

namespace gpucrypto {

// "SKINNY-128-256": block 16, key 32 (TK1 || TK2), 48 rounds.
const CipherAlgo& skinny128_256();
// "SKINNY-128-384": block 16, key 48 (TK1 || TK2 || TK3), 56 rounds.
const CipherAlgo& skinny128_384();

}  // namespace gpucrypto
