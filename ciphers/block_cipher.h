// The per-algorithm "hw" hook struct every block cipher implementation fills
// in (one per instruction set), and the algorithm descriptor that lists them.
// The provider's generic mode layer (ECB, CTR, CBC, CFB, OFB, CFB8, CFB1), the
// GCM mode (ciphers/gcm, through the CTR and encrypt hooks, or an
// implementation's own GCM hooks, GcmHw) and the dispatcher only see these.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace gpucrypto {

inline constexpr size_t kMaxBlockBytes = 32;  // Rijndael-256

struct GhashKey;  // ciphers/ghash/ghash.h
struct GcmHw;

// One implementation of one block cipher on one instruction set.
// Contract for every hook:
//  * The key schedule lives in caller-owned storage of `ks_bytes` bytes,
//    64-byte aligned, zero-initialised before setkey. It must be plain data
//    (copyable with memcpy, no pointers into itself): contexts are duplicated
//    by copying it, and freed by OPENSSL_cleanse + free.
//  * encrypt/decrypt/ctr accept any nblocks >= 0 (SIMD paths handle their own
//    tails), any alignment, and in == out (but never partial overlap).
//  * They may be called concurrently from several threads on the same
//    schedule (read-only after setkey).
//  * Constant time: no branch or memory index depends on key or data.
struct CipherHw {
  const char* name;     // "ref", "aesni", "vaes512", "avx512-gfni", ...
  uint32_t required;    // CpuFeature bits this implementation needs
  size_t ks_bytes;      // key schedule size
  size_t batch_blocks;  // blocks processed per inner iteration (1 for scalar)
  // Expands `key` (keylen bytes, already checked by the caller against the
  // algorithm's key length). `with_decrypt`: also prepare decryption.
  void (*setkey)(void* ks, const uint8_t* key, size_t keylen, bool with_decrypt);
  void (*encrypt)(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
  void (*decrypt)(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks);
  // CTR: out = in XOR E(ctr), E(ctr+1), ... for nblocks whole blocks; `ctr`
  // (block_bytes, big-endian integer) is advanced by nblocks modulo
  // 2^(8*block_bytes).
  void (*ctr)(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);

  // Optional chained-mode kernels; nullptr: the mode layer composes the mode
  // from encrypt/decrypt (engine/block_modes.cpp), with the same results.
  // `reg` (block_bytes) is the chaining register: the IV (or the state the
  // mode left) on entry, on return what the mode leaves: CBC and CFB the last
  // ciphertext block, OFB the last keystream block. CBC/CFB encryption and
  // OFB are sequential by definition: a kernel keeps the chaining value in
  // registers instead of making one encrypt call per block. CBC and CFB
  // (full-block feedback) decryption are parallel: out[i] = D(in[i]) ^ in[i-1]
  // and out[i] = in[i] ^ E(in[i-1]), in[-1] = reg; a kernel fuses the batch
  // transform with its XOR in one pass (the mode layer would stage the
  // transform through a buffer and XOR in a second pass). in == out is
  // allowed: a kernel reads every ciphertext block it still needs (as the
  // XOR operand, the next block's transform input or the final `reg`)
  // before it stores over it. Any nblocks >= 0; n == 0 leaves reg as it is.
  using ChainFn = void (*)(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out,
                           size_t nblocks);
  ChainFn cbc_encrypt = nullptr;
  ChainFn cfb_encrypt = nullptr;
  ChainFn ofb = nullptr;
  ChainFn cbc_decrypt = nullptr;
  ChainFn cfb_decrypt = nullptr;
  // CFB1 over `nbits` bits (engine/block_modes.h cfb1_crypt: bit 7 of in[0]
  // first, output bits past nbits keep their value, reg the shift register),
  // one encryption per bit with the register kept in registers; nullptr: one
  // single-block encrypt call per bit. in == out is allowed.
  using BitFn = void (*)(const void* ks, uint8_t* reg, const uint8_t* in, uint8_t* out, size_t nbits,
                         bool encrypt);
  BitFn cfb1 = nullptr;

  // GCM hooks of this implementation (16-byte blocks only); nullptr: the GCM
  // mode composes GCM from setkey, encrypt(0^128) for H, encrypt for E_K(J0)
  // and ctr with a GHASH implementation, with the same results.
  const GcmHw* gcm = nullptr;
};

// A fused GCM bulk kernel: CTR with a 32-bit counter and GHASH of the
// ciphertext in one pass, so the cipher and carry-less-multiply units
// overlap. Contract, besides CipherHw's (constant time, concurrent calls on
// one read-only schedule, in == out allowed):
//  * `ks` is the schedule GcmHw::setkey wrote; `key` a GhashKey with at
//    least min(nblocks, kGhashPowers) powers (ciphers/ghash/ghash.h), set by any
//    GHASH implementation (the kernel reads its layout, which all share).
//  * The caller guarantees that the low 32 bits of `ctr` do not wrap inside
//    a call and that nblocks >= min_blocks; `ctr` is advanced by nblocks
//    (full carry, as CipherHw::ctr), `xi` (spec byte order) absorbs the
//    ciphertext blocks.
struct GcmFusedHw {
  const char* name;   // "vaes512-vpclmul"
  uint32_t required;  // CpuFeature bits the kernel needs
  // Shorter runs cost more here than in `ctr` below plus a GHASH hook.
  size_t min_blocks;
  using Fn = void (*)(const void* ks, const GhashKey* key, uint8_t xi[16], uint8_t ctr[16],
                      const uint8_t* in, uint8_t* out, size_t nblocks);
  Fn encrypt;
  Fn decrypt;
  // The CTR (CipherHw::ctr's contract) that the mode stitches with GHASH for
  // the runs the kernel does not take (fewer than min_blocks, or a key
  // without all its powers).
  void (*ctr)(const void* ks, uint8_t* ctr, const uint8_t* in, uint8_t* out, size_t nblocks);
};

// An implementation's own GCM key setup (as OpenSSL's PROV_GCM_HW setkey:
// the per-key work fused into one pass) and bulk kernel. Chosen once per key
// with the CipherHw it belongs to, when `required` is in the features.
// Blocks GcmHw::setkey encrypts from J0 on: E_K(J0) and the keystream of a
// message's first four data blocks.
inline constexpr size_t kGcmEkBlocks = 5;

struct GcmHw {
  uint32_t required;  // CpuFeature bits setkey and encrypt_block need
  // Writes the encryption schedule into `ks` (the CipherHw's layout and
  // size; the parts encryption reads, whatever the schedule held before:
  // no zeroing is needed first), h = E_K(0^128) and, when j0 is not null,
  // ek[i] = E_K(j0 + i) (inc32) for i < kGcmEkBlocks: the tag mask of a
  // message whose IV came with the key and the keystream of its first blocks.
  // The result serves the CipherHw's encrypt and ctr hooks too.
  void (*setkey)(void* ks, const uint8_t* key, size_t keylen, uint8_t h[16], const uint8_t* j0,
                 uint8_t ek[][16]);
  // One block, out = E_K(in), on that schedule (E_K(J0) per message).
  void (*encrypt_block)(const void* ks, const uint8_t in[16], uint8_t out[16]);
  // nullptr: the mode stitches the CipherHw's ctr and GHASH per 4 KiB.
  const GcmFusedHw* fused;
};

// A block cipher: its sizes and its implementations, best first; the last
// entry is the portable reference (required == 0).
struct CipherAlgo {
  const char* name;  // "SKINNY-128-256", "SM4", "AES-128", ...
  size_t block_bytes;
  size_t key_bytes;
  std::span<const CipherHw* const> impls;
};

// Best implementation whose `required` bits are all in `features`, and the
// one called `name` (nullptr when absent): platform/isa_select.h's best_for
// and find_by_name over algo.impls.
const CipherHw& select_hw(const CipherAlgo& algo, uint32_t features);
const CipherHw* find_hw(const CipherAlgo& algo, const char* name);

// --- small shared helpers (out of line: safe to call from ISA files) -------

// ctr += n as a big-endian integer of `len` bytes, modulo 2^(8*len).
void ctr_add(uint8_t* ctr, size_t len, uint64_t n);
// Generic CTR over an ECB encrypt hook, for reference paths and tails:
// builds counter blocks in batches, encrypts them, XORs into out.
void ctr_via_encrypt(void (*encrypt)(const void*, const uint8_t*, uint8_t*, size_t),
                     const void* ks, size_t block_bytes, uint8_t* ctr,
                     const uint8_t* in, uint8_t* out, size_t nblocks);
// out[i] = in[i] ^ ks[i]
void xor_bytes(uint8_t* out, const uint8_t* in, const uint8_t* ks, size_t n);

}  // namespace gpucrypto
