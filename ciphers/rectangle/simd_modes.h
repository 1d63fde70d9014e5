// The ECB/CTR drivers and the CipherHw of the RECTANGLE SIMD paths, shared by
// avx2.cpp and avx512.cpp, which differ only in their kernels. ISA files only
// (platform/isa.h: everything in an anonymous namespace, so each file keeps
// its own copy compiled with its own flags).
//
// A kernel K provides:
//   kGroupBlocks, kGroups  blocks per row register, groups per batch
//   kFoldComplements       whether its S-box leaves complements for the keys
//   ecb<G, kEncrypt>(const SimdRoundKeys*, in, out)    G groups of blocks
//   ctr<G>(const SimdRoundKeys*, uint64_t ctr, in, out) out = in ^ E(ctr + i)
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/rectangle/simd.h"
#include "platform/isa.h"

namespace gpucrypto::rectangle {
namespace {

uint16_t rotr16(uint16_t x, int k) { return uint16_t(x >> k | x << (16 - k)); }
uint32_t dup16(uint16_t x) { return uint32_t(x) << 16 | x; }

// Without vpternlog (AVX2) the S-box circuits leave some outputs
// complemented; rather than spend NOTs, the complement is folded into the key
// added next:
//  * encryption: S leaves rows 1 and 2 complemented, so enc[r] (r >= 1) has
//    rows 1 and 2 complemented;
//  * decryption: S^-1 leaves rows 0 and 3 complemented, so dec[r] (r <= 24)
//    has rows 0 and 3 complemented.
template <bool kFoldComplements>
void simd_setkey(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt) {
  SimdSchedule* s = static_cast<SimdSchedule*>(ks);
  RoundKeys rk;
  expand_key(key, keylen, &rk);
  for (int r = 0; r < kRoundKeys; ++r) {
    const uint16_t* k = rk.k[r];
    const uint16_t enc_not = kFoldComplements && r != 0 ? 0xffff : 0;
    const uint16_t dec_not = kFoldComplements && r != kRounds ? 0xffff : 0;
    const bool rot = r != 0;
    s->simd.enc[r][0] = dup16(k[0]);
    s->simd.enc[r][1] = dup16(uint16_t(k[1] ^ enc_not));
    s->simd.enc[r][2] = dup16(uint16_t(k[2] ^ enc_not));
    s->simd.enc[r][3] = dup16(k[3]);
    s->simd.dec[r][0] = dup16(uint16_t(k[0] ^ dec_not));
    s->simd.dec[r][1] = dup16(rot ? rotr16(k[1], 1) : k[1]);
    s->simd.dec[r][2] = dup16(rot ? rotr16(k[2], 12) : k[2]);
    s->simd.dec[r][3] = dup16(uint16_t((rot ? rotr16(k[3], 13) : k[3]) ^ dec_not));
  }
  OPENSSL_cleanse(&rk, sizeof rk);
  ref_setkey(&s->ref, key, keylen, with_decrypt);
}

// Whole batches of kGroups groups, then whole groups, then the last partial
// group through a padded buffer.
template <class K, class Groups, class Group>
GPUCRYPTO_ALWAYS_INLINE void by_groups(const uint8_t* in, uint8_t* out, size_t nblocks,
                                       Groups&& groups, Group&& group) {
  constexpr size_t kGroup = K::kGroupBlocks;
  run_batches<kGroup * K::kGroups, 8>(in, out, nblocks, groups,
                                      [&](const uint8_t* i, uint8_t* o, size_t n) GPUCRYPTO_INLINE_LAMBDA {
    run_padded<kGroup, 8>(i, o, n, group);
  });
}

template <class K, bool kEncrypt>
void simd_ecb(const void* ks_, const uint8_t* in, uint8_t* out, size_t nblocks) {
  const SimdSchedule* ks = static_cast<const SimdSchedule*>(ks_);
  if (nblocks < kSmallCall) {
    return kEncrypt ? ref_encrypt(&ks->ref, in, out, nblocks) : ref_decrypt(&ks->ref, in, out, nblocks);
  }
  const SimdRoundKeys* rk = &ks->simd;
  by_groups<K>(
      in, out, nblocks,
      [rk](const uint8_t* i, uint8_t* o) GPUCRYPTO_INLINE_LAMBDA { K::template ecb<K::kGroups, kEncrypt>(rk, i, o); },
      [rk](const uint8_t* i, uint8_t* o) GPUCRYPTO_INLINE_LAMBDA { K::template ecb<1, kEncrypt>(rk, i, o); });
}

// The 8-byte block is the whole counter (public: it is the IV).
template <class K>
void simd_ctr(const void* ks_, uint8_t* ctr_block, const uint8_t* in, uint8_t* out,
              size_t nblocks) {
  const SimdSchedule* ks = static_cast<const SimdSchedule*>(ks_);
  if (nblocks < kSmallCall) return ref_ctr(&ks->ref, ctr_block, in, out, nblocks);
  const SimdRoundKeys* rk = &ks->simd;
  uint64_t c = load_be64(ctr_block);
  store_be64(ctr_block, c + nblocks);
  by_groups<K>(
      in, out, nblocks,
      [rk, &c](const uint8_t* i, uint8_t* o) GPUCRYPTO_INLINE_LAMBDA {
        K::template ctr<K::kGroups>(rk, c, i, o);
        c += K::kGroupBlocks * K::kGroups;
      },
      [rk, &c](const uint8_t* i, uint8_t* o) GPUCRYPTO_INLINE_LAMBDA {
        K::template ctr<1>(rk, c, i, o);
        c += K::kGroupBlocks;
      });
}

template <class K>
constexpr CipherHw simd_hw(const char* name) {
  return {name,
          compiled_features(),
          sizeof(SimdSchedule),
          K::kGroupBlocks * K::kGroups,
          simd_setkey<K::kFoldComplements>,
          simd_ecb<K, true>,
          simd_ecb<K, false>,
          simd_ctr<K>};
}

}  // namespace
}  // namespace gpucrypto::rectangle
