#include "kem/babykyber/sha3_hasher.h"

#include <initializer_list>

namespace gpucrypto::kem {

Sha3Hasher::~Sha3Hasher() {
  for (Slot* s : {&sha3_256_, &sha3_512_, &shake256_}) {
    EVP_MD_CTX_free(s->ctx);
    EVP_MD_free(s->md);
  }
}

bool Sha3Hasher::digest(Slot* slot, const char* name, const uint8_t* a, size_t alen,
                        const uint8_t* b, size_t blen, uint8_t* out, size_t outlen, bool xof) {
  if (slot->md == nullptr && (slot->md = EVP_MD_fetch(libctx_, name, nullptr)) == nullptr)
    return false;
  if (slot->ctx == nullptr && (slot->ctx = EVP_MD_CTX_new()) == nullptr) return false;
  EVP_MD_CTX* ctx = slot->ctx;
  if (EVP_DigestInit_ex2(ctx, slot->md, nullptr) != 1) return false;
  if (alen != 0 && EVP_DigestUpdate(ctx, a, alen) != 1) return false;
  if (blen != 0 && EVP_DigestUpdate(ctx, b, blen) != 1) return false;
  if (xof) return EVP_DigestFinalXOF(ctx, out, outlen) == 1;
  return EVP_DigestFinal_ex(ctx, out, nullptr) == 1;
}

bool Sha3Hasher::sha3_256(const uint8_t* a, size_t alen, uint8_t out[32]) {
  return digest(&sha3_256_, "SHA3-256", a, alen, nullptr, 0, out, 32, false);
}

bool Sha3Hasher::sha3_512(const uint8_t* a, size_t alen, const uint8_t* b, size_t blen,
                          uint8_t out[64]) {
  return digest(&sha3_512_, "SHA3-512", a, alen, b, blen, out, 64, false);
}

bool Sha3Hasher::shake256(const uint8_t* a, size_t alen, const uint8_t* b, size_t blen,
                          uint8_t* out, size_t outlen) {
  return digest(&shake256_, "SHAKE256", a, alen, b, blen, out, outlen, true);
}

}  // namespace gpucrypto::kem
