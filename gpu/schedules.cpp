// Host-side key schedules and tables for the kernels (the device never
// expands keys: the schedule travels in the launch parameters).
#include <openssl/crypto.h>

#include <cstring>

#include "ciphers/sm4/ref.h"
#include "gpu/kernels/aes.cuh"
#include "gpu/kernels/aes_ct.cuh"
#include "gpu/kernels/bitslice.cuh"
#include "gpu/kernels/host_tables.h"
#include "gpu/kernels/rectangle.cuh"
#include "gpu/kernels/skinny.cuh"
#include "gpu/kernels/sm4.cuh"
#include "gpu/launch.h"

namespace gpucrypto::gpu {
namespace kern {
namespace {

uint32_t load_be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

// The S-box layers of the host key schedules run the kernels' circuits on one
// word (the other seven plane inputs are zero): key bytes never index a table
// (test/ct/ct_harness.cpp checks the schedules with the key undefined).
uint32_t sbox_word(uint32_t a, void (*circuit)(uint32_t (&)[8])) {
  uint32_t q[8] = {a};
  bs_transpose(q);
  circuit(q);
  bs_transpose(q);
  return q[0];
}

uint32_t sm4_tau(uint32_t a) { return sbox_word(a, bs_sm4_sbox); }

uint32_t sm4_l(uint32_t b) {
  return b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
}

Tables make_tables() {
  Tables t{};
  uint8_t inv[256];
  for (int x = 0; x < 256; ++x) inv[kAesSbox[x]] = uint8_t(x);
  for (int x = 0; x < 256; ++x) {
    uint8_t s = kAesSbox[x], si = inv[x];
    t.aes_sbox[x] = s;
    t.aes_inv_sbox[x] = si;
    t.aes_te0[x] = uint32_t(gf_mul(s, 2)) | uint32_t(s) << 8 | uint32_t(s) << 16 |
                   uint32_t(gf_mul(s, 3)) << 24;
    t.aes_td0[x] = uint32_t(gf_mul(si, 14)) | uint32_t(gf_mul(si, 9)) << 8 |
                   uint32_t(gf_mul(si, 13)) << 16 | uint32_t(gf_mul(si, 11)) << 24;
    t.sm4_t0[x] = sm4_l(sm4_sbox()[x]);
    t.skinny_srep[x] = skinny_sbox4(uint32_t(x) * 0x01010101u);
  }
  return t;
}

uint32_t aes_sub_word(uint32_t w) { return sbox_word(w, bs_aes_sbox); }

uint32_t aes_inv_mix_column(uint32_t w) {
  uint8_t a[4] = {uint8_t(w), uint8_t(w >> 8), uint8_t(w >> 16), uint8_t(w >> 24)};
  uint32_t r = 0;
  for (int i = 0; i < 4; ++i) {
    uint8_t v = gf_mul(a[i], 14) ^ gf_mul(a[(i + 1) & 3], 11) ^ gf_mul(a[(i + 2) & 3], 13) ^
                gf_mul(a[(i + 3) & 3], 9);
    r |= uint32_t(v) << (8 * i);
  }
  return r;
}

}  // namespace

const std::array<uint8_t, 256>& sm4_sbox() {
  static const std::array<uint8_t, 256> sbox = [] {
    std::array<uint8_t, 256> s{};
    for (int x = 0; x < 256; ++x) s[x] = sm4_impl::ref_sbox(uint8_t(x));
    return s;
  }();
  return sbox;
}

const Tables& host_tables() {
  static const Tables tables = make_tables();
  return tables;
}

void sm4_setkey(KeySched& ks, const uint8_t key[16]) {
  static constexpr uint32_t kFK[4] = {0xa3b1bac6, 0x56aa3350, 0x677d9197, 0xb27022dc};
  uint32_t k[4];
  for (int i = 0; i < 4; ++i) k[i] = load_be32(key + 4 * i) ^ kFK[i];
  for (int i = 0; i < 32; ++i) {
    uint32_t ck = 0;  // CK_i byte j = (4i + j) * 7 mod 256
    for (int j = 0; j < 4; ++j) ck = ck << 8 | uint32_t(((4 * i + j) * 7) & 0xff);
    uint32_t b = sm4_tau(k[1] ^ k[2] ^ k[3] ^ ck);
    uint32_t rk = k[0] ^ b ^ rotl32(b, 13) ^ rotl32(b, 23);
    ks.w[i] = rk;
    k[0] = k[1], k[1] = k[2], k[2] = k[3], k[3] = rk;
  }
  OPENSSL_cleanse(k, sizeof k);
}

void rectangle_setkey(KeySched& ks, const uint8_t* key, int keylen) {
  static constexpr uint8_t kRC[25] = {0x01, 0x02, 0x04, 0x09, 0x12, 0x05, 0x0B, 0x16, 0x0C,
                                      0x19, 0x13, 0x07, 0x0F, 0x1F, 0x1E, 0x1C, 0x18, 0x11,
                                      0x03, 0x06, 0x0D, 0x1B, 0x17, 0x0E, 0x1D};
  if (keylen == 10) {
    uint32_t r[5];
    for (int i = 0; i < 5; ++i) r[i] = uint32_t(key[2 * i]) << 8 | key[2 * i + 1];
    for (int round = 0; round <= 25; ++round) {
      ks.w[2 * round] = r[0] | r[1] << 16;
      ks.w[2 * round + 1] = r[2] | r[3] << 16;
      if (round == 25) break;
      uint32_t a0 = r[0], a1 = r[1], a2 = r[2], a3 = r[3];
      rectangle_sbox(a0, a1, a2, a3);  // only columns 0..3 are replaced
      r[0] = (r[0] & ~0xfu) | (a0 & 0xf), r[1] = (r[1] & ~0xfu) | (a1 & 0xf);
      r[2] = (r[2] & ~0xfu) | (a2 & 0xf), r[3] = (r[3] & ~0xfu) | (a3 & 0xf);
      uint32_t n0 = rot16(r[0], 8) ^ r[1], n3 = rot16(r[3], 12) ^ r[4];
      r[4] = r[0], r[1] = r[2], r[2] = r[3], r[3] = n3, r[0] = n0 ^ kRC[round];
    }
  } else {
    uint32_t r[4];
    for (int i = 0; i < 4; ++i) r[i] = load_be32(key + 4 * i);
    for (int round = 0; round <= 25; ++round) {
      ks.w[2 * round] = (r[0] & 0xffff) | r[1] << 16;
      ks.w[2 * round + 1] = (r[2] & 0xffff) | r[3] << 16;
      if (round == 25) break;
      uint32_t a0 = r[0], a1 = r[1], a2 = r[2], a3 = r[3];
      rectangle_sbox(a0, a1, a2, a3);  // columns 0..7
      r[0] = (r[0] & ~0xffu) | (a0 & 0xff), r[1] = (r[1] & ~0xffu) | (a1 & 0xff);
      r[2] = (r[2] & ~0xffu) | (a2 & 0xff), r[3] = (r[3] & ~0xffu) | (a3 & 0xff);
      uint32_t n0 = rotl32(r[0], 8) ^ r[1], n2 = rotl32(r[2], 16) ^ r[3];
      r[3] = r[0], r[1] = r[2], r[2] = n2, r[0] = n0 ^ kRC[round];
    }
  }
}

void aes_setkey(KeySched& ks, const uint8_t* key, int keylen) {
  const int nk = keylen / 4, nr = nk + 6, total = 4 * (nr + 1);
  uint32_t* w = ks.w;
  for (int i = 0; i < nk; ++i) std::memcpy(&w[i], key + 4 * i, 4);  // little-endian column
  uint8_t rcon = 1;
  for (int i = nk; i < total; ++i) {
    uint32_t t = w[i - 1];
    if (i % nk == 0) {
      t = aes_sub_word(rotl32(t, 24)) ^ rcon;  // RotWord = rotate bytes down by one
      rcon = gf_mul(rcon, 2);
    } else if (nk > 6 && i % nk == 4) {
      t = aes_sub_word(t);
    }
    w[i] = w[i - nk] ^ t;
  }
  // Bit-sliced keys (aes_ct.cuh): round key r for both blocks, in planes.
  for (int r = 0; r <= nr; ++r) {
    uint32_t q[8];
    for (int c = 0; c < 4; ++c) q[c] = q[4 + c] = w[4 * r + c];
    bs_transpose(q);
    for (int b = 0; b < 8; ++b) ks.w[kAesBsOffset + 8 * r + b] = q[b];
  }
  uint32_t* d = ks.w + kAesDecOffset;
  for (int r = 0; r <= nr; ++r)
    for (int c = 0; c < 4; ++c) {
      uint32_t v = w[4 * (nr - r) + c];
      d[4 * r + c] = (r == 0 || r == nr) ? v : aes_inv_mix_column(v);
    }
}

}  // namespace kern

size_t block_bytes(Cipher c) {
  return (c == Cipher::kRectangle80 || c == Cipher::kRectangle128) ? 8 : 16;
}

size_t key_bytes(Cipher c) {
  switch (c) {
    case Cipher::kSkinny128_256: return 32;
    case Cipher::kSkinny128_384: return 48;
    case Cipher::kSM4: return 16;
    case Cipher::kRectangle80: return 10;
    case Cipher::kRectangle128: return 16;
    case Cipher::kAES128: return 16;
    case Cipher::kAES192: return 24;
    case Cipher::kAES256: return 32;
  }
  return 0;
}

const char* cipher_name(Cipher c) {
  switch (c) {
    case Cipher::kSkinny128_256: return "SKINNY-128-256";
    case Cipher::kSkinny128_384: return "SKINNY-128-384";
    case Cipher::kSM4: return "SM4";
    case Cipher::kRectangle80: return "RECTANGLE-80";
    case Cipher::kRectangle128: return "RECTANGLE-128";
    case Cipher::kAES128: return "AES-128";
    case Cipher::kAES192: return "AES-192";
    case Cipher::kAES256: return "AES-256";
  }
  return "?";
}

bool build_schedule(Cipher c, const uint8_t* key, size_t keylen, kern::KeySched* ks) {
  if (keylen != key_bytes(c)) return false;
  *ks = kern::KeySched{};
  switch (c) {
    case Cipher::kSkinny128_256: kern::skinny_setkey(*ks, key, 2, 48); break;
    case Cipher::kSkinny128_384: kern::skinny_setkey(*ks, key, 3, 56); break;
    case Cipher::kSM4: kern::sm4_setkey(*ks, key); break;
    case Cipher::kRectangle80:
    case Cipher::kRectangle128: kern::rectangle_setkey(*ks, key, int(keylen)); break;
    case Cipher::kAES128:
    case Cipher::kAES192:
    case Cipher::kAES256: kern::aes_setkey(*ks, key, int(keylen)); break;
  }
  return true;
}

}  // namespace gpucrypto::gpu
