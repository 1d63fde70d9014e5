#include "engine/block_modes.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <cstring>

namespace gpucrypto {
namespace {

// Staging for the parallel modes: about 4 KiB of whole batches (L1-resident
// between the hook and the XOR), at least one batch.
constexpr size_t kStageBytes = 4096;
constexpr size_t kStageCap = kStageBytes + 128 * kMaxBlockBytes;  // a 128-block batch of 32 bytes

size_t stage_blocks(const CipherHw& hw, size_t bs) {
  const size_t batch = std::max<size_t>(hw.batch_blocks, 1);
  const size_t batches = std::max<size_t>(kStageBytes / bs / batch, 1);
  return std::min(batches * batch, kStageCap / bs);
}

// y = a ^ b over n bytes (n a multiple of 8: every block size is), word at a
// time; y may equal a or b.
inline void xor_words(uint8_t* y, const uint8_t* a, const uint8_t* b, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    uint64_t u, v;
    std::memcpy(&u, a + i, 8);
    std::memcpy(&v, b + i, 8);
    u ^= v;
    std::memcpy(y + i, &u, 8);
  }
}

// The shared body of CBC and CFB decryption where the implementation has no
// fused kernel (CipherHw::cbc_decrypt / cfb_decrypt): out[i] = T(x_i) ^ y_i where, for
// CBC, T = decrypt, x_i = in[i], y_i = in[i-1]; for CFB, T = encrypt,
// x_i = in[i-1], y_i = in[i] (in[-1] = reg). Each stage of blocks is
// transformed into `stage`, XORed, and copied out, so in == out never reads
// a block it has already overwritten (CBC out of place decrypts straight
// into out); `reg` ends as in[n-1].
template <bool kCfb>
void chained_decrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg,
                     const uint8_t* in, uint8_t* out, size_t n) {
  if (n == 0) return;
  alignas(64) uint8_t stage[kStageCap];
  const size_t per = stage_blocks(hw, bs);
  const size_t used = std::min(per, n) * bs;
  uint8_t prev[kMaxBlockBytes];
  std::memcpy(prev, reg, bs);
  for (size_t s = 0; s < n; s += per) {
    const size_t k = std::min(per, n - s);
    const uint8_t* x = in + s * bs;
    uint8_t* y = out + s * bs;
    const size_t bytes = k * bs;
    if constexpr (kCfb) {
      // Keystream block i = E(ciphertext block i-1).
      std::memcpy(stage, prev, bs);
      std::memcpy(stage + bs, x, bytes - bs);
      hw.encrypt(ks, stage, stage, k);
      std::memcpy(prev, x + bytes - bs, bs);
      xor_words(y, x, stage, bytes);
    } else if (x != y) {
      // Out of place (never partially overlapping): straight into out.
      hw.decrypt(ks, x, y, k);
      xor_words(y, y, prev, bs);
      xor_words(y + bs, y + bs, x, bytes - bs);
      std::memcpy(prev, x + bytes - bs, bs);
    } else {
      hw.decrypt(ks, x, stage, k);
      xor_words(stage, stage, prev, bs);
      xor_words(stage + bs, stage + bs, x, bytes - bs);
      std::memcpy(prev, x + bytes - bs, bs);
      std::memcpy(y, stage, bytes);
    }
  }
  std::memcpy(reg, prev, bs);
  if (kCfb || in == out) OPENSSL_cleanse(stage, used);
}

}  // namespace

namespace composed {

void cbc_encrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks) {
  if (nblocks == 0) return;
  const uint8_t* prev = reg;
  for (size_t i = 0; i < nblocks; ++i, in += bs, out += bs) {
    xor_words(out, in, prev, bs);
    hw.encrypt(ks, out, out, 1);
    prev = out;
  }
  std::memcpy(reg, prev, bs);
}

void cfb_encrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks) {
  for (size_t i = 0; i < nblocks; ++i, in += bs, out += bs) {
    hw.encrypt(ks, reg, reg, 1);
    xor_words(reg, reg, in, bs);  // the register becomes the ciphertext block
    std::memcpy(out, reg, bs);
  }
}

void ofb_crypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
               uint8_t* out, size_t nblocks) {
  for (size_t i = 0; i < nblocks; ++i, in += bs, out += bs) {
    hw.encrypt(ks, reg, reg, 1);
    xor_words(out, in, reg, bs);
  }
}

void cbc_decrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks) {
  chained_decrypt<false>(hw, ks, bs, reg, in, out, nblocks);
}

void cfb_decrypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                 uint8_t* out, size_t nblocks) {
  chained_decrypt<true>(hw, ks, bs, reg, in, out, nblocks);
}

}  // namespace composed

void cfb8_crypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                uint8_t* out, size_t n, bool encrypt) {
  if (n == 0) return;
  uint8_t k[kMaxBlockBytes];
  for (size_t i = 0; i < n; ++i) {
    hw.encrypt(ks, reg, k, 1);
    const uint8_t x = in[i], y = uint8_t(x ^ k[0]);
    out[i] = y;
    std::memmove(reg, reg + 1, bs - 1);
    reg[bs - 1] = encrypt ? y : x;  // the ciphertext byte shifts in (direction is public)
  }
  OPENSSL_cleanse(k, sizeof k);
}

void cfb1_crypt(const CipherHw& hw, const void* ks, size_t bs, uint8_t* reg, const uint8_t* in,
                uint8_t* out, size_t nbits, bool encrypt) {
  if (nbits == 0) return;
  if (hw.cfb1 != nullptr) return hw.cfb1(ks, reg, in, out, nbits, encrypt);
  uint8_t k[kMaxBlockBytes];
  for (size_t n = 0; n < nbits; ++n) {
    hw.encrypt(ks, reg, k, 1);
    const unsigned shift = 7 - unsigned(n % 8);
    const unsigned x = (unsigned(in[n / 8]) >> shift) & 1u;
    const unsigned y = x ^ (unsigned(k[0]) >> 7);
    // Only this bit of the output byte changes (masks, no data branch).
    const unsigned mask = 1u << shift;
    out[n / 8] = uint8_t((unsigned(out[n / 8]) & ~mask) | (y << shift));
    const unsigned c = encrypt ? y : x;  // the ciphertext bit shifts in
    for (size_t i = 0; i + 1 < bs; ++i) reg[i] = uint8_t((reg[i] << 1) | (reg[i + 1] >> 7));
    reg[bs - 1] = uint8_t((reg[bs - 1] << 1) | c);
  }
  OPENSSL_cleanse(k, sizeof k);
}

}  // namespace gpucrypto
