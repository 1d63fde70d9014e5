// RECTANGLE (Zhang, Bao, Lin, Rijmen, Yang, Verbauwhede; Sci. China Inf. Sci.
// 2015, ePrint 2014/084, final version): 64-bit block, 80- or 128-bit key,
// 25 rounds.
//
// Byte order, for users comparing with other implementations:
//  * The block is the byte string b0..b7 of the published hex (e.g. the
//    all-zero RECTANGLE-80 vector encrypts to 2d 96 e3 54 e8 b1 08 74). The
//    cipher's 4x16-bit state rows are big-endian pairs of it:
//    R_i = b[2i]*256 + b[2i+1], R0 first, and column j is bit j of each row.
//  * Keys likewise: RECTANGLE-80 is five big-endian 16-bit rows, R0 first;
//    RECTANGLE-128 is four big-endian 32-bit rows, R0 first.
//  * The designers' FELICS C code keeps each state row as a little-endian
//    uint16_t in memory (key rows likewise), so byte arrays taken from memory
//    in such code differ from ours by a byte swap inside every row: that
//    vector's rows would read 96 2d 54 e3 b1 e8 74 08 there. Swap the bytes of
//    each row when exchanging data with such implementations; the row values
//    R_i are the same.
#pragma once
#include "ciphers/block_cipher.h"

namespace gpucrypto {

const CipherAlgo& rectangle80();   // "RECTANGLE-80": block 8, key 10
const CipherAlgo& rectangle128();  // "RECTANGLE-128": block 8, key 16

}  // namespace gpucrypto
