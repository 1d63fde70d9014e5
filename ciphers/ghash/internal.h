// Internal to ciphers/ghash: the implementations impls.cpp lists (defined by
// their instruction-set files). Declarations only: included by ISA files.
#pragma once
#include "ciphers/ghash/ghash.h"

namespace gpucrypto::ghash_impl {

extern const GhashHw kGhashRef;         // ghash_ref.cpp: portable, bitwise, no tables
extern const GhashHw kGhashPclmul;      // ghash_pclmul.cpp: PCLMULQDQ, 4 blocks per reduction
extern const GhashHw kGhashVpclmul512;  // ghash_vpclmul512.cpp: VPCLMULQDQ zmm, 32 blocks

}  // namespace gpucrypto::ghash_impl
