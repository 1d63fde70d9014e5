// The GHASH implementation list, best first, and the field power used to
// combine partial GHASH values.
#include <openssl/crypto.h>

#include <cstring>

#include "ciphers/ghash/internal.h"

namespace gpucrypto {
namespace {

using namespace ghash_impl;

constexpr const GhashHw* kGhashImpls[] = {&kGhashVpclmul512, &kGhashPclmul, &kGhashRef};

}  // namespace

std::span<const GhashHw* const> ghash_impls() { return kGhashImpls; }

const GhashHw& select_ghash(uint32_t features) {
  for (const GhashHw* g : kGhashImpls) {
    if ((g->required & ~features) == 0) return *g;
  }
  return kGhashRef;
}

const GhashHw* find_ghash(const char* name) {
  for (const GhashHw* g : kGhashImpls) {
    if (std::strcmp(g->name, name) == 0) return g;
  }
  return nullptr;
}

void gf128_pow(const GhashHw& hw, uint8_t r[16], const uint8_t h[16], uint64_t e) {
  uint8_t base[16], acc[16] = {0x80};  // acc = 1 (the spec's x^0 is the first bit)
  std::memcpy(base, h, 16);
  for (; e != 0; e >>= 1) {  // e is a public length
    if (e & 1) hw.mul(acc, acc, base);
    if (e > 1) hw.mul(base, base, base);
  }
  std::memcpy(r, acc, 16);
  OPENSSL_cleanse(base, sizeof base);
  OPENSSL_cleanse(acc, sizeof acc);
}

}  // namespace gpucrypto
