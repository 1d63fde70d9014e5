// GCM over the block-cipher hooks and GHASH (gcm_mode.h). Lengths, counters
// and partial-block positions are public; everything secret goes through the
// constant-time hooks, and the byte loops below index only by position.
#include "ciphers/gcm/gcm_mode.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>

namespace gpucrypto {
namespace {

constexpr uint8_t kZero[16] = {};
// Stitched path: CTR then GHASH (or GHASH then CTR) per piece this size, so
// the second pass reads what the first left in L1.
constexpr size_t kStitchBlocks = 256;

void gmult(const GcmKey& k, uint8_t xi[16]) { k.ghash->ghash(&k.gkey, xi, kZero, 1); }

// Folds the pending blocks into xi: one GHASH call, aggregated over the
// powers the key has (GcmState::pend).
void pend_flush(const GcmKey& k, GcmState* s) {
  if (s->npend == 0) return;
  k.ghash->ghash(&k.gkey, s->xi, s->pend[0], s->npend);
  s->npend = 0;
}

// Queues n whole blocks after the pending ones (n <= kGcmPendBlocks). Block
// by block: a fixed 16-byte copy is two moves, where one memcpy of 16 n
// bytes became `rep movsq` (its start-up was 20 % of a 64-byte record's
// gcm_crypt on Zen 5).
void pend_blocks(const GcmKey& k, GcmState* s, const uint8_t* in, size_t n) {
  if (s->npend + n > kGcmPendBlocks) pend_flush(k, s);
  for (size_t b = 0; b < n; ++b) std::memcpy(s->pend[s->npend + b], in + 16 * b, 16);
  s->npend += unsigned(n);
}

uint32_t load_be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

void store_be32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}

void store_be64(uint8_t* p, uint64_t v) {
  store_be32(p, uint32_t(v >> 32));
  store_be32(p + 4, uint32_t(v));
}

// The first blocks after J0 of the key's IV have their keystream from the
// key (GcmKey::ek): the index in ek of ctr's block when all n of them do,
// else 0. The counter is public.
uint32_t ek_first(const GcmKey& k, const uint8_t ctr[16], size_t n) {
  if (!k.has_ek0 || n >= kGcmEkBlocks || std::memcmp(ctr, k.j0, 12) != 0) return 0;
  const uint32_t first = load_be32(ctr + 12) - load_be32(k.j0 + 12);
  return first != 0 && first + n <= kGcmEkBlocks ? first : 0;
}

// A block at a time through a local copy: out may alias in, so a direct byte
// loop stays a byte loop; this is one 16-byte XOR per block.
void ek_xor(const GcmKey& k, uint32_t first, const uint8_t* in, uint8_t* out, size_t n) {
  for (size_t b = 0; b < n; ++b) {
    uint8_t t[16];
    std::memcpy(t, in + 16 * b, 16);
    for (int i = 0; i < 16; ++i) t[i] ^= k.ek[first + b][i];
    std::memcpy(out + 16 * b, t, 16);
  }
}

// Runs f(n) over nblocks in runs whose low counter word does not wrap: the
// counter is public (IV-derived), and splitting there keeps the hooks'
// full-carry CTR equal to inc32. ctr is advanced past each run.
template <class F>
void by_runs(uint8_t ctr[16], size_t nblocks, F&& f) {
  while (nblocks != 0) {
    const uint32_t lo = load_be32(ctr + 12);
    const uint64_t room = (uint64_t(1) << 32) - lo;
    const size_t n = size_t(std::min<uint64_t>(nblocks, room));
    uint8_t upper[12];
    std::memcpy(upper, ctr, 12);
    f(n);
    std::memcpy(ctr, upper, 12);
    store_be32(ctr + 12, uint32_t(lo + uint32_t(n)));
    nblocks -= n;
  }
}

// CTR alone over one run (GHASH is the caller's).
void ctr_run(const GcmKey& k, uint8_t ctr[16], const uint8_t* in, uint8_t* out, size_t n) {
  if (const uint32_t first = ek_first(k, ctr, n); first != 0) {
    ek_xor(k, first, in, out, n);
    gcm_ctr32_add(ctr, n);
  } else {
    k.ctr(k.ks, ctr, in, out, n);
  }
}

// One run whose low counter word does not wrap.
void segment(const GcmKey& k, uint8_t ctr[16], uint8_t xi[16], const uint8_t* in, uint8_t* out,
             size_t n, bool enc) {
  // A few blocks: the kernel's own short-run CTR for them (for VAES: AES-NI
  // on xmm up to four blocks, then VAES on the registers the blocks fill)
  // and a GHASH hook. k.ctr is that CTR (GcmFusedHw::ctr).
  if (k.fused != nullptr && n >= k.fused->min_blocks && k.gkey.npowers >= std::min(n, kGhashPowers)) {
    (enc ? k.fused->encrypt : k.fused->decrypt)(k.ks, &k.gkey, xi, ctr, in, out, n);
    return;
  }
  if (const uint32_t first = ek_first(k, ctr, n); first != 0) {
    if (!enc) k.ghash->ghash(&k.gkey, xi, in, n);  // before an in-place write
    ek_xor(k, first, in, out, n);
    if (enc) k.ghash->ghash(&k.gkey, xi, out, n);
    gcm_ctr32_add(ctr, n);
    return;
  }
  while (n != 0) {
    const size_t m = std::min(n, kStitchBlocks);
    if (!enc) k.ghash->ghash(&k.gkey, xi, in, m);  // before an in-place write
    k.ctr(k.ks, ctr, in, out, m);
    if (enc) k.ghash->ghash(&k.gkey, xi, out, m);
    in += 16 * m;
    out += 16 * m;
    n -= m;
  }
}

// One keystream block for a partial data block.
void next_kbuf(const GcmKey& k, GcmState* s) {
  k.hw->encrypt(k.ks, s->ctr, s->kbuf, 1);
  gcm_ctr32_add(s->ctr, 1);
}

// Bytes at position n.. of the current partial block; returns the new
// position. The block's ciphertext waits in xn until it is complete (as
// OpenSSL's Xn), so a tag taken mid-block hashes it padded without changing
// what later bytes do.
unsigned partial(const GcmKey& k, GcmState* s, unsigned n, const uint8_t*& in, uint8_t*& out,
                 size_t& len, bool enc) {
  while (len != 0) {
    const uint8_t i = *in++;
    const uint8_t o = uint8_t(i ^ s->kbuf[n]);
    *out++ = o;
    s->xn[n] = enc ? o : i;
    --len;
    if (++n == 16) {
      pend_blocks(k, s, s->xn, 1);
      return 0;
    }
  }
  return n;
}

}  // namespace

void gcm_powers(GcmKey& k, size_t nblocks) {
  const size_t want = std::min(nblocks, kGhashPowers);
  if (k.gkey.npowers < want) k.ghash->extend(&k.gkey, uint32_t(want));
}

void gcm_full_powers(GcmKey& k) { gcm_powers(k, kGhashPowers); }

void gcm_ctr32_add(uint8_t ctr[16], uint64_t n) {
  store_be32(ctr + 12, uint32_t(load_be32(ctr + 12) + uint32_t(n)));
}

namespace {

// J0 of a 12-byte IV: IV || 0^31 || 1.
void j0_of_iv12(uint8_t j0[16], const uint8_t* iv) {
  std::memcpy(j0, iv, 12);
  j0[12] = j0[13] = j0[14] = 0;
  j0[15] = 1;
}

bool set_key(GcmKey* k, const CipherAlgo& algo, uint32_t features, const uint8_t* key,
             const char* block_impl, const char* ghash_impl, bool fused, const uint8_t* j0) {
  const bool named = block_impl != nullptr || ghash_impl != nullptr || !fused;
  if (named || k->chosen_for != &algo || k->chosen_features != features) {
    if (algo.block_bytes != 16) return false;
    const CipherHw* hw = block_impl != nullptr ? find_hw(algo, block_impl) : &select_hw(algo, features);
    const GhashHw* gh = ghash_impl != nullptr ? find_ghash(ghash_impl) : &select_ghash(features);
    if (hw == nullptr || gh == nullptr || hw->ks_bytes > kGcmMaxSchedule ||
        (hw->required & ~features) != 0 || (gh->required & ~features) != 0)
      return false;
    k->hw = hw;
    k->ghash = gh;
    k->gcm = hw->gcm != nullptr && (hw->gcm->required & ~features) == 0 ? hw->gcm : nullptr;
    // Named implementations (tests) keep the stitched path.
    const GcmFusedHw* f = k->gcm != nullptr && fused && block_impl == nullptr && ghash_impl == nullptr
                              ? k->gcm->fused
                              : nullptr;
    k->fused = f != nullptr && (f->required & ~features) == 0 ? f : nullptr;
    k->ctr = k->fused != nullptr ? k->fused->ctr : hw->ctr;
    k->chosen_for = named ? nullptr : &algo;
    k->chosen_features = features;
  }
  k->has_ek0 = false;
  if (k->gcm != nullptr) {
    // The implementation's own pass: the schedule GCM reads, H, and E_K(J0)
    // when the IV came with the key.
    if (j0 != nullptr) std::memcpy(k->j0, j0, 16);
    k->gcm->setkey(k->ks, key, algo.key_bytes, k->h, j0 != nullptr ? k->j0 : nullptr, k->ek);
    k->has_ek0 = j0 != nullptr;
  } else {
    // The block cipher's own key setup (SM4's GFNI implementations: the GFNI
    // S-box schedule, ciphers/sm4/keys_gfni.cpp).
    // The hook contract's zeroed schedule, no trace of a previous key: a
    // memset the opaque setkey call below keeps (OPENSSL_cleanse's 8-byte
    // loop over 1 KiB is a per-message cost when every message sets a key).
    std::memset(k->ks, 0, sizeof k->ks);
    k->hw->setkey(k->ks, key, algo.key_bytes, false);
    k->hw->encrypt(k->ks, kZero, k->h, 1);
  }
  k->ghash->init(&k->gkey, k->h);
  return true;
}

}  // namespace

bool gcm_set_key(GcmKey* k, const CipherAlgo& algo, uint32_t features, const uint8_t* key,
                 const char* block_impl, const char* ghash_impl, bool fused) {
  return set_key(k, algo, features, key, block_impl, ghash_impl, fused, nullptr);
}

bool gcm_set_key_iv(GcmKey* k, const CipherAlgo& algo, uint32_t features, const uint8_t* key,
                    const uint8_t* iv, size_t ivlen) {
  uint8_t j0[16];
  if (ivlen == 12) j0_of_iv12(j0, iv);
  return set_key(k, algo, features, key, nullptr, nullptr, true, ivlen == 12 ? j0 : nullptr);
}

namespace {

// E_K(J0) into s->ek0: the key pass's block when J0 is the one it was given
// (keys_j0), otherwise J0 (in s->ctr) through the implementation's one-block
// encryption or the block cipher's.
void set_ek0(const GcmKey& k, GcmState* s, bool keys_j0) {
  if (keys_j0) {
    std::memcpy(s->ek0, k.ek[0], 16);
  } else if (k.gcm != nullptr) {
    k.gcm->encrypt_block(k.ks, s->ctr, s->ek0);
  } else {
    k.hw->encrypt(k.ks, s->ctr, s->ek0, 1);
  }
}

}  // namespace

void gcm_set_iv(const GcmKey& k, GcmState* s, const uint8_t* iv, size_t ivlen) {
  // Field by field, fixed sizes: one memset of the header became `rep stosq`,
  // a quarter of this function's time per TLS record on Zen 5.
  std::memset(s->xi, 0, 16);
  std::memset(s->kbuf, 0, 16);
  std::memset(s->xn, 0, 16);
  s->alen = s->mlen = 0;
  s->ares = s->mres = 0;
  s->npend = 0;
  if (ivlen == 12) {
    // J0 = IV || 0^31 || 1 built in registers and compared with the key's
    // there: J0 stored bytewise and read back as qwords stalls on store
    // forwarding (the other half of this function's time). J0 is public.
    uint64_t lo;
    uint32_t mid;
    std::memcpy(&lo, iv, 8);
    std::memcpy(&mid, iv + 8, 4);
    // Bytes 8..15 of J0 (and of inc32(J0)) as the qword memcpy reads.
    const auto tail = [mid](uint64_t last) {
      return std::endian::native == std::endian::little ? uint64_t(mid) | last << 56
                                                        : uint64_t(mid) << 32 | last;
    };
    const uint64_t hi = tail(1);
    uint64_t klo, khi;
    std::memcpy(&klo, k.j0, 8);
    std::memcpy(&khi, k.j0 + 8, 8);
    const bool keys_j0 = k.has_ek0 && lo == klo && hi == khi;
    if (!keys_j0) {
      std::memcpy(s->ctr, &lo, 8);
      std::memcpy(s->ctr + 8, &hi, 8);
    }
    set_ek0(k, s, keys_j0);
    const uint64_t next = tail(2);  // inc32(J0)
    std::memcpy(s->ctr, &lo, 8);
    std::memcpy(s->ctr + 8, &next, 8);
    return;
  }
  // J0 = GHASH(IV || 0^s || 0^64 || [len(IV)]_64)
  std::memset(s->ctr, 0, 16);
  const size_t whole = ivlen / 16, rest = ivlen % 16;
  k.ghash->ghash(&k.gkey, s->ctr, iv, whole);
  if (rest != 0) {
    uint8_t last[16] = {};
    std::memcpy(last, iv + 16 * whole, rest);
    k.ghash->ghash(&k.gkey, s->ctr, last, 1);
  }
  uint8_t lens[16] = {};
  store_be64(lens + 8, uint64_t(ivlen) * 8);
  k.ghash->ghash(&k.gkey, s->ctr, lens, 1);
  set_ek0(k, s, k.has_ek0 && std::memcmp(k.j0, s->ctr, 16) == 0);  // J0 is public
  gcm_ctr32_add(s->ctr, 1);
}

int gcm_aad(GcmKey& k, GcmState* s, const uint8_t* aad, size_t len) {
  if (s->mlen != 0) return -2;
  const uint64_t alen = s->alen + len;
  if (alen > (uint64_t(1) << 61) || alen < len) return -1;
  s->alen = alen;
  pend_flush(k, s);  // xi takes the AAD bytes below (a partial block waits there)
  unsigned n = s->ares;
  if (n != 0) {
    while (n != 0 && len != 0) {
      s->xi[n] ^= *aad++;
      --len;
      n = (n + 1) % 16;
    }
    if (n != 0) {
      s->ares = n;
      return 0;
    }
    gmult(k, s->xi);
  }
  const size_t whole = len / 16;
  gcm_powers(k, whole);
  k.ghash->ghash(&k.gkey, s->xi, aad, whole);
  aad += 16 * whole;
  len -= 16 * whole;
  for (size_t i = 0; i < len; ++i) s->xi[i] ^= aad[i];
  s->ares = unsigned(len);
  return 0;
}

namespace {

// gcm_crypt_begin; inline in gcm_crypt, the per-message path.
[[gnu::always_inline]] inline int crypt_begin(GcmKey& k, GcmState* s, const uint8_t*& in, uint8_t*& out,
                                     size_t& len, bool enc) {
  const uint64_t mlen = s->mlen + len;
  if (mlen > (uint64_t(1) << 36) - 32 || mlen < len) return -1;
  s->mlen = mlen;
  if (s->ares != 0) {  // the first data ends the AAD
    // xi = X ^ the padded last AAD block, waiting for its product by H:
    // that block becomes the first pending one (none pend here: gcm_aad
    // flushed them) over xi = 0, so the product joins the data's.
    std::memcpy(s->pend[0], s->xi, 16);
    std::memset(s->xi, 0, 16);
    s->npend = 1;
    s->ares = 0;
  }
  if (s->mres != 0) {
    s->mres = partial(k, s, s->mres, in, out, len, enc);
    if (s->mres != 0) return 0;  // len is 0
  }
  gcm_powers(k, len / 16);  // before any pool thread reads the key
  return 0;
}

[[gnu::always_inline]] inline void crypt_end(const GcmKey& k, GcmState* s, const uint8_t* in, uint8_t* out,
                                    size_t len, bool enc) {
  if (len != 0) {
    next_kbuf(k, s);
    s->mres = partial(k, s, 0, in, out, len, enc);
  }
}

}  // namespace

int gcm_crypt_begin(GcmKey& k, GcmState* s, const uint8_t*& in, uint8_t*& out, size_t& len,
                    bool enc) {
  if (crypt_begin(k, s, in, out, len, enc) != 0) return -1;
  pend_flush(k, s);  // the caller's runs continue s->xi
  return 0;
}

void gcm_crypt_end(const GcmKey& k, GcmState* s, const uint8_t* in, uint8_t* out, size_t len,
                   bool enc) {
  crypt_end(k, s, in, out, len, enc);
}

int gcm_crypt(GcmKey& k, GcmState* s, const uint8_t* in, uint8_t* out, size_t len, bool enc) {
  if (crypt_begin(k, s, in, out, len, enc) != 0) return -1;
  const size_t whole = len / 16;
  if (whole != 0 && s->npend + whole + 2 <= kGcmPendBlocks) {
    // A small message: CTR now, its blocks pend with the ones before them
    // and the tag's last two (a partial block and the lengths), so the tag
    // hashes them all in one call, aggregated over the powers the key has
    // (crypt_begin added those its whole blocks need). No more are added
    // here: where every message sets a key (`openssl speed` under 3.5) that
    // cost more than the reductions it saved.
    if (!enc) pend_blocks(k, s, in, whole);  // before an in-place write
    by_runs(s->ctr, whole, [&](size_t n) {
      ctr_run(k, s->ctr, in, out, n);
      in += 16 * n;
      out += 16 * n;
    });
    if (enc) pend_blocks(k, s, out - 16 * whole, whole);
    len -= 16 * whole;
  } else if (whole != 0) {
    pend_flush(k, s);
    gcm_blocks(k, s->ctr, s->xi, in, out, whole, enc);
    in += 16 * whole;
    out += 16 * whole;
    len -= 16 * whole;
  }
  crypt_end(k, s, in, out, len, enc);
  return 0;
}

// As CRYPTO_gcm128_finish: the running value becomes the tag (xi ^= E(J0)),
// and the partial-block position stays, so a context used on after a failed
// check (the default provider allows it under the same IV) continues exactly
// as OpenSSL's does (found by fuzz_gcm).
void gcm_tag(const GcmKey& k, GcmState* s, uint8_t tag[16]) {
  // After the pending blocks: [the last partial block, padded, or a zero
  // block after a partial AAD block in xi (no block pends then),] then the
  // lengths block; one GHASH call for all of them.
  if (s->npend + 2 > kGcmPendBlocks) pend_flush(k, s);
  if (s->mres != 0 || s->ares != 0) {
    uint8_t* last = s->pend[s->npend++];
    std::memset(last, 0, 16);
    std::memcpy(last, s->xn, s->mres);
  }
  uint8_t* lens = s->pend[s->npend++];
  store_be64(lens, s->alen * 8);
  store_be64(lens + 8, s->mlen * 8);
  pend_flush(k, s);
  for (int i = 0; i < 16; ++i) s->xi[i] ^= s->ek0[i];
  std::memcpy(tag, s->xi, 16);
}

unsigned ct_equal(const uint8_t* a, const uint8_t* b, size_t len) {
  unsigned d = 0;
  for (size_t i = 0; i < len; ++i) d |= unsigned(a[i] ^ b[i]);
  return 1u & ((d - 1) >> 8);  // d in 0..255: 1 exactly when d == 0
}

bool gcm_check_tag(const GcmKey& k, GcmState* s, const uint8_t* expected, size_t len) {
  uint8_t tag[16];
  gcm_tag(k, s, tag);
  const unsigned eq = ct_equal(tag, expected, len);
  OPENSSL_cleanse(tag, sizeof tag);
  return eq == 1;
}

void gcm_blocks(const GcmKey& k, uint8_t ctr[16], uint8_t xi[16], const uint8_t* in, uint8_t* out,
                size_t nblocks, bool enc) {
  by_runs(ctr, nblocks, [&](size_t n) {
    segment(k, ctr, xi, in, out, n, enc);
    in += 16 * n;
    out += 16 * n;
  });
}

}  // namespace gpucrypto
