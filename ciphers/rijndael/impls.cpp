// The nine Rijndael algorithms and their implementation lists, best first,
// the portable reference last. All implementations of one block size share
// the key schedule layout (internal.h), so any of them can run on a context.
#include <stdexcept>

#include "ciphers/rijndael/internal.h"
#include "ciphers/rijndael/rijndael.h"

namespace gpucrypto {
namespace {

using namespace rijndael_impl;

constexpr size_t kKs = sizeof(KeySched);

// The SIMD implementations are defined by their instruction-set files
// (internal.h); only the references are built here.
constexpr CipherHw kAesRef{"ref", 0, kKs, 4, setkey_nb4, ref_encrypt, ref_decrypt, ref_ctr};
constexpr CipherHw kNb6Ref{"ref", 0, kKs, 2, setkey_nb6, ref_encrypt, ref_decrypt, ref_ctr};
constexpr CipherHw kNb8Ref{"ref", 0, kKs, 2, setkey_nb8, ref_encrypt, ref_decrypt, ref_ctr};

constexpr const CipherHw* kAesImpls[] = {&kAesVaes512Hw, &kAesAesniHw, &kAesRef};
constexpr const CipherHw* kNb6Impls[] = {&kNb6Vaes512Hw, &kNb6AesniHw, &kNb6Ref};
constexpr const CipherHw* kNb8Impls[] = {&kNb8Vaes512Hw, &kNb8AesniHw, &kNb8Ref};

constexpr const GcmFusedHw* kAesGcmImpls[] = {&kAesGcmVaes512};

constexpr CipherAlgo kAlgos[3][3] = {
    {{"AES-128", 16, 16, kAesImpls}, {"AES-192", 16, 24, kAesImpls}, {"AES-256", 16, 32, kAesImpls}},
    {{"RIJNDAEL-192-128", 24, 16, kNb6Impls},
     {"RIJNDAEL-192-192", 24, 24, kNb6Impls},
     {"RIJNDAEL-192-256", 24, 32, kNb6Impls}},
    {{"RIJNDAEL-256-128", 32, 16, kNb8Impls},
     {"RIJNDAEL-256-192", 32, 24, kNb8Impls},
     {"RIJNDAEL-256-256", 32, 32, kNb8Impls}},
};

int size_index(unsigned bits) {
  switch (bits) {
    case 128: return 0;
    case 192: return 1;
    case 256: return 2;
    default: return -1;
  }
}

}  // namespace

const CipherAlgo& rijndael(unsigned block_bits, unsigned key_bits) {
  const int b = size_index(block_bits), k = size_index(key_bits);
  if (b < 0 || k < 0) throw std::invalid_argument("rijndael: block and key bits must be 128, 192 or 256");
  return kAlgos[b][k];
}

std::span<const AesGcmHw* const> aes_gcm_impls() { return kAesGcmImpls; }

const AesGcmHw* select_aes_gcm(uint32_t features) {
  for (const AesGcmHw* g : kAesGcmImpls) {
    if ((g->required & ~features) == 0) return g;
  }
  return nullptr;
}

}  // namespace gpucrypto
