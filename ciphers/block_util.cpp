#include <openssl/crypto.h>

#include <cstring>

#include "ciphers/block_cipher.h"
#include "platform/isa_select.h"

namespace gpucrypto {

const CipherHw& select_hw(const CipherAlgo& algo, uint32_t features) {
  return best_for(algo.impls, features);
}

const CipherHw* find_hw(const CipherAlgo& algo, const char* name) {
  return find_by_name(algo.impls, name);
}

void ctr_add(uint8_t* ctr, size_t len, uint64_t n) {
  // 64-bit big-endian limbs from the least significant end, then any
  // remaining bytes. Counters are public (derived from the IV), so stopping
  // once the carry dies leaks nothing.
  size_t i = len;
  uint64_t carry = n;
  while (i >= 8 && carry != 0) {
    i -= 8;
    uint64_t w;
    std::memcpy(&w, ctr + i, 8);
    w = __builtin_bswap64(w);
    const uint64_t sum = w + carry;
    carry = sum < w ? 1 : 0;
    w = __builtin_bswap64(sum);
    std::memcpy(ctr + i, &w, 8);
  }
  while (i > 0 && carry != 0) {
    --i;
    const unsigned sum = unsigned(ctr[i]) + unsigned(carry);
    ctr[i] = uint8_t(sum);
    carry = sum >> 8;
  }
}

void xor_bytes(uint8_t* out, const uint8_t* in, const uint8_t* ks, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = in[i] ^ ks[i];
}

void ctr_via_encrypt(void (*encrypt)(const void*, const uint8_t*, uint8_t*, size_t),
                     const void* ks, size_t bs, uint8_t* ctr, const uint8_t* in,
                     uint8_t* out, size_t nblocks) {
  constexpr size_t kBatchBytes = 1024;
  alignas(64) uint8_t buf[kBatchBytes];
  const size_t per = kBatchBytes / bs;
  const size_t used = (nblocks < per ? nblocks : per) * bs;
  while (nblocks > 0) {
    const size_t n = nblocks < per ? nblocks : per;
    for (size_t i = 0; i < n; ++i) {
      std::memcpy(buf + i * bs, ctr, bs);
      ctr_add(ctr, bs, 1);
    }
    encrypt(ks, buf, buf, n);
    xor_bytes(out, in, buf, n * bs);
    in += n * bs;
    out += n * bs;
    nblocks -= n;
  }
  // The keystream is secret-derived; do not leave it on the stack.
  OPENSSL_cleanse(buf, used);
}

}  // namespace gpucrypto
