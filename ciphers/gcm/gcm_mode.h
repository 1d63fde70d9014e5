// The GCM mode (NIST SP 800-38D) over a 128-bit block cipher of ciphers/,
// as a plain-data key and state with the semantics of OpenSSL's
// CRYPTO_gcm128_* (the default provider's GCM core): any IV length >= 1
// (12 bytes: J0 = IV || 0^31 1, else GHASH of the IV), AAD before data in
// any number of pieces, data in any number of pieces, a 32-bit counter
// (inc32), the same length limits, and a 16-byte tag. The provider adds the
// EVP rules on top (provider/cipher_gcm.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/block_cipher.h"
#include "ciphers/ghash/ghash.h"

namespace gpucrypto {

inline constexpr size_t kGcmMaxSchedule = 1024;  // AES (ciphers/rijndael KeySched), SM4

// Everything one key needs, chosen once at key setup: the block cipher's
// implementation and schedule, its GCM hooks when it has some that run here,
// the GHASH implementation and its key, and a fused kernel when one runs
// here. Plain data (memcpy copies it, OPENSSL_cleanse wipes it).
struct alignas(64) GcmKey {
  alignas(64) uint8_t ks[kGcmMaxSchedule];  // the block cipher's key schedule
  GhashKey gkey;
  uint8_t h[16];  // H = E_K(0^128), spec bytes
  const CipherHw* hw;
  const GhashHw* ghash;
  // hw->gcm when it runs here (key setup with H and E_K(J0), the J0 block),
  // nullptr: the composition of hw's setkey and encrypt.
  const GcmHw* gcm;
  const GcmFusedHw* fused;  // nullptr: the CTR hook and GHASH stitched per 4 KiB
  // The CTR hook of the stitched runs: fused->ctr with a fused kernel, else hw->ctr.
  void (*ctr)(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);
  // The implementations above were chosen for `algo` and `features` with no
  // names (the provider's case): a new key for them skips the choice.
  const CipherAlgo* chosen_for = nullptr;
  uint32_t chosen_features = 0;
  // E_K(j0 + i) for i < kGcmEkBlocks (ek[0] the tag mask, then the first
  // keystream blocks), computed with the key when the message's IV came with
  // it (gcm_set_key_iv, with GCM hooks); gcm_set_iv takes ek[0] for that J0,
  // and the first whole blocks of its data use the rest. has_ek0 is public.
  uint8_t j0[16];
  uint8_t ek[kGcmEkBlocks][16];
  bool has_ek0 = false;
};

// Blocks a message may gather before GHASH folds them into xi (GcmState::pend).
inline constexpr size_t kGcmPendBlocks = kGhashPowers;

// Per-message state (IV, lengths, partial blocks).
struct GcmState {
  uint8_t ctr[16];   // next counter block
  uint8_t ek0[16];   // E_K(J0), masks the tag
  uint8_t xi[16];    // running GHASH, before the pending blocks
  uint8_t kbuf[16];  // keystream of the current partial data block
  uint8_t xn[16];    // ciphertext of the current partial data block, not yet hashed
  uint64_t alen, mlen;
  unsigned ares, mres;  // bytes of the current partial AAD / data block
  // Whole blocks hashed after xi, not yet folded in: a small message's last
  // AAD block, its data blocks (up to kGcmPendBlocks - 3) and the lengths
  // block go through one GHASH call at the tag, aggregated over the key's
  // powers of H, instead of a dependent multiply each (a 16-byte TLS record
  // had three). The GHASH
  // value is xi continued over pend[0, npend). Last: set_iv clears only npend.
  unsigned npend;
  uint8_t pend[kGcmPendBlocks][16];
};

// Sets the key: `algo` must have 16-byte blocks and a schedule of at most
// kGcmMaxSchedule bytes; implementations are chosen from `features`, or
// named (tests: "ref", "pclmul", ...; nullptr = best; fused = false keeps the
// stitched path). False when a name is unknown or cannot run here.
bool gcm_set_key(GcmKey* k, const CipherAlgo& algo, uint32_t features, const uint8_t* key,
                 const char* block_impl = nullptr, const char* ghash_impl = nullptr,
                 bool fused = true);

// gcm_set_key (best implementations) for a key that comes with the first
// message's IV, as in one-shot APIs and `openssl speed` (EVP_EncryptInit_ex
// with both): for a 12-byte IV, E_K(J0) runs in the pass of GcmHw::setkey
// (AES-NI's key expansion) and gcm_set_iv takes it from the key.
bool gcm_set_key_iv(GcmKey* k, const CipherAlgo& algo, uint32_t features, const uint8_t* key,
                    const uint8_t* iv, size_t ivlen);

void gcm_set_iv(const GcmKey& k, GcmState* s, const uint8_t* iv, size_t ivlen);
// 0, or -1 (AAD over 2^61 bytes), -2 (AAD after data) as CRYPTO_gcm128_aad.
int gcm_aad(GcmKey& k, GcmState* s, const uint8_t* aad, size_t len);
// 0, or -1 (message over 2^36 - 32 bytes). in == out allowed. On the calling
// thread: gcm_crypt_begin, gcm_blocks on the whole blocks, gcm_crypt_end.
int gcm_crypt(GcmKey& k, GcmState* s, const uint8_t* in, uint8_t* out, size_t len, bool enc);
// gcm_crypt in steps, for a caller that runs the whole blocks elsewhere (the
// engine's dispatcher, on its pool). gcm_crypt_begin checks the length (-1
// as gcm_crypt, nothing changed), ends the AAD, completes a partial block
// from the start of the data (advancing in, out and len past it) and gives
// the key the powers len / 16 whole blocks need (gcm_powers) before other
// threads read it. The caller then runs those whole blocks on s->ctr
// and s->xi as gcm_blocks does, and passes the rest (len % 16 bytes) to
// gcm_crypt_end.
int gcm_crypt_begin(GcmKey& k, GcmState* s, const uint8_t*& in, uint8_t*& out, size_t& len,
                    bool enc);
void gcm_crypt_end(const GcmKey& k, GcmState* s, const uint8_t* in, uint8_t* out, size_t len,
                   bool enc);
// The full 16-byte tag (the state is finished: set a new IV to reuse it).
void gcm_tag(const GcmKey& k, GcmState* s, uint8_t tag[16]);
// Decryption: computes the tag and compares its first len (1..16) bytes with
// `expected` without a data-dependent branch or early exit; true if equal.
bool gcm_check_tag(const GcmKey& k, GcmState* s, const uint8_t* expected, size_t len);
// The comparison itself: 1 when a[0..len) == b[0..len), constant time.
unsigned ct_equal(const uint8_t* a, const uint8_t* b, size_t len);

// Adds the powers of H a run of nblocks aggregates (GhashHw::extend: up to
// 32; gcm_aad and gcm_crypt do it before each run, the fused kernels need
// min(nblocks, 32)); gcm_full_powers adds all of them.
void gcm_powers(GcmKey& k, size_t nblocks);
void gcm_full_powers(GcmKey& k);

// Whole blocks on the calling thread: CTR with inc32 from `ctr` and GHASH of
// the ciphertext into `xi` (the building block of gcm_crypt and of the
// pool's chunks).
void gcm_blocks(const GcmKey& k, uint8_t ctr[16], uint8_t xi[16], const uint8_t* in,
                uint8_t* out, size_t nblocks, bool enc);
// ctr += n in its low 32 bits (inc32 applied n times).
void gcm_ctr32_add(uint8_t ctr[16], uint64_t n);

}  // namespace gpucrypto
