#include "provider/cipher_generic.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>

#include "engine/dispatcher.h"
#include "provider/cipher_params.h"
#include "provider/cipher_tls.h"
#include "provider/provctx.h"

namespace gpucrypto {
namespace {

constexpr size_t kMaxKeyBytes = 64;

// What each mode is, as the generic code asks it.
constexpr bool block_mode(Mode m) { return m == Mode::kECB || m == Mode::kCBC; }  // padding
constexpr bool has_iv(Mode m) { return m != Mode::kECB; }
constexpr bool needs_decrypt_schedule(Mode m) { return m == Mode::kECB || m == Mode::kCBC; }
// Re-init without an IV restarts these at the IV given last (the default
// provider does; CTR instead continues at the next unused counter block).
constexpr bool iv_resets(Mode m) { return m != Mode::kECB && m != Mode::kCTR; }

unsigned evp_mode(Mode m) {
  switch (m) {
    case Mode::kECB: return EVP_CIPH_ECB_MODE;
    case Mode::kCTR: return EVP_CIPH_CTR_MODE;
    case Mode::kCBC: return EVP_CIPH_CBC_MODE;
    case Mode::kCFB:
    case Mode::kCFB1:
    case Mode::kCFB8: return EVP_CIPH_CFB_MODE;
    case Mode::kOFB: return EVP_CIPH_OFB_MODE;
  }
  return 0;
}

// The engine job a mode and direction hand to the dispatcher for whole
// blocks; none for the sequential ones (CBC/CFB encryption, OFB, CFB8,
// CFB1), which run engine/block_modes.h inline and never dispatch.
std::optional<JobKind> job_kind(Mode m, bool enc) {
  switch (m) {
    case Mode::kECB: return enc ? JobKind::kEcbEncrypt : JobKind::kEcbDecrypt;
    case Mode::kCTR: return JobKind::kCtr;
    case Mode::kCBC: return enc ? std::nullopt : std::optional(JobKind::kCbcDecrypt);
    case Mode::kCFB: return enc ? std::nullopt : std::optional(JobKind::kCfbDecrypt);
    default: return std::nullopt;
  }
}

struct CipherCtx {
  const ProvCtx* prov = nullptr;
  const CipherDesc* desc = nullptr;
  const CipherAlgo* algo = nullptr;
  const CipherHw* hw = nullptr;
  void* ks = nullptr;  // hw->ks_bytes, 64-byte aligned
  size_t ks_size = 0;
  uint8_t key[kMaxKeyBytes] = {};  // raw key, for the GPU hand-off
  size_t keylen = 0;
  bool key_set = false;
  bool has_dec_keys = false;
  bool enc = true;
  bool pad = true;
  bool iv_set = false;    // an IV was given (re-init without one restarts at it)
  bool use_bits = false;  // CFB1: update lengths count bits (EVP_CIPH_FLAG_LENGTH_BITS)
  std::optional<JobKind> kind;  // job_kind(mode, enc): none for the sequential modes
  uint8_t oiv[kMaxBlockBytes] = {};  // IV as given at init
  // `updated-iv`. CTR: next counter block not yet started. CBC: the last
  // ciphertext block. CFB: OpenSSL's register (after a partial block, its
  // first `num` bytes are ciphertext, the rest the block's keystream). OFB:
  // the current keystream block. CFB8/CFB1: the shift register.
  uint8_t reg[kMaxBlockBytes] = {};
  uint8_t buf[kMaxBlockBytes] = {};  // ECB/CBC: partial block
  size_t bufsz = 0;                  // ECB/CBC: bytes in buf
  size_t num = 0;                    // streams: bytes of the current block already used
  // CTR: keystream generated ahead, up to one batch of the implementation
  // (so a stream of small updates costs one batch per batch of bytes):
  // kstream[kpos, klen) is the keystream from the current stream position on.
  // `ctr` and `num` always describe the bytes consumed, never those generated.
  uint8_t* kstream = nullptr;  // kstream_cap bytes, wiped on free, re-key, re-IV
  size_t kstream_cap = 0;
  size_t kpos = 0, klen = 0;
  size_t kdirty = 0;       // kstream[0, kdirty) may hold keystream; the rest is wiped
  size_t kgen_blocks = 0;  // blocks generated at the last refill (grows while streaming)

  // Calls moving fewer bytes than this run the hook inline
  // (small_call_limit(), engine/dispatcher.h, computed once per context).
  size_t inline_limit = 0;
  // ECB/CBC's whole-block hook for this key and direction (set at init with
  // the key; at most one of them): a small update of whole blocks with
  // nothing buffered goes straight to it (block_update). CBC decryption
  // without a fused hook has none: it composes through the dispatcher.
  void (*small_ecb)(const void* ks, const uint8_t* in, uint8_t* out, size_t nblocks) = nullptr;
  CipherHw::ChainFn small_chain = nullptr;
  unsigned bs_shift = 0;  // log2(block bytes), or kNotPow2 (Rijndael-192)
  TlsRecordMode tls;      // `tls-version`, `tls-mac-size`, `tls-mac` (cipher_tls.h)

  size_t bs() const { return algo->block_bytes; }
  // n / bs and n % bs without a division for power-of-two blocks: they sit on
  // the per-call path of every small update.
  static constexpr unsigned kNotPow2 = ~0u;
  size_t blocks_in(size_t n) const { return bs_shift != kNotPow2 ? n >> bs_shift : n / bs(); }
  size_t rem_in(size_t n) const { return bs_shift != kNotPow2 ? n & (bs() - 1) : n % bs(); }
};

void wipe_ks(CipherCtx* c) {
  if (c->ks != nullptr) {
    OPENSSL_cleanse(c->ks, c->ks_size);
    std::free(c->ks);
  }
  c->ks = nullptr;
  c->ks_size = 0;
}

// Drops the buffered keystream (re-key, re-IV, free). Only the bytes written
// since the last wipe: a new IV per small message must not cost a wipe of
// the whole batch-sized buffer.
void wipe_kstream(CipherCtx* c) {
  if (c->kstream != nullptr && c->kdirty != 0) OPENSSL_cleanse(c->kstream, c->kdirty);
  c->kdirty = 0;
  c->kpos = c->klen = 0;
  c->kgen_blocks = 0;
}

void free_kstream(CipherCtx* c) {
  wipe_kstream(c);
  std::free(c->kstream);
  c->kstream = nullptr;
  c->kstream_cap = 0;
}

void* alloc_ks(size_t n) {
  const size_t rounded = (n + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (p != nullptr) std::memset(p, 0, rounded == 0 ? 64 : rounded);
  return p;
}

// True when [out, out+len) and [in, in+len) overlap without being equal.
bool partially_overlapping(const void* out, const void* in, size_t len) {
  const uintptr_t o = reinterpret_cast<uintptr_t>(out), i = reinterpret_cast<uintptr_t>(in);
  if (len == 0 || o == i) return false;
  return o < i ? i - o < len : o - i < len;
}

// Whole blocks of ECB, CBC, CTR or CFB decryption: the dispatcher's job
// (inline below the context's small-call limit). CBC encryption is
// sequential by definition: one single-block hook call per block, inline.
void run(CipherCtx* c, const uint8_t* in, uint8_t* out, size_t nblocks) {
  if (nblocks == 0) return;
  if (!c->kind) {  // CBC encryption (the only sequential mode that gets here)
    cbc_encrypt(*c->hw, c->ks, c->bs(), c->reg, in, out, nblocks);
    return;
  }
  const CipherJob job{c->hw, c->ks, c->bs(), *c->kind, c->reg, in, out,
                      nblocks, c->desc->gpu, c->key, c->keylen};
  dispatch(job, c->prov->config, c->inline_limit);
}

// Makes room for `blocks` blocks of keystream (at most one batch).
bool reserve_kstream(CipherCtx* c, size_t blocks) {
  const size_t need = blocks * c->bs();
  if (c->kstream_cap >= need) return true;
  free_kstream(c);
  const size_t cap = (std::max<size_t>(c->hw->batch_blocks, 1) * c->bs() + 63) / 64 * 64;
  c->kstream = static_cast<uint8_t*>(std::aligned_alloc(64, cap));
  if (c->kstream == nullptr) return false;
  c->kstream_cap = cap;
  return true;
}

// Fills the keystream buffer with `blocks` blocks from counter `from`
// (the buffer is empty, or holds only consumed bytes).
void fill_kstream(CipherCtx* c, const uint8_t* from, size_t blocks) {
  uint8_t ctr[kMaxBlockBytes];
  std::memcpy(ctr, from, c->bs());
  std::memset(c->kstream, 0, blocks * c->bs());
  c->hw->ctr(c->ks, ctr, c->kstream, c->kstream, blocks);
  c->kpos = 0;
  c->klen = blocks * c->bs();
  c->kdirty = std::max(c->kdirty, c->klen);
}

// The stream moved on by t bytes: advance `ctr`/`num` exactly as if those
// bytes had been processed one call at a time (blocks started, bytes used).
void advance_stream(CipherCtx* c, size_t t) {
  const size_t bs = c->bs();
  if (c->num != 0) {
    const size_t left = bs - c->num;
    if (t < left) {
      c->num += t;
      return;
    }
    t -= left;
    c->num = 0;
  }
  const size_t rem = c->rem_in(t);
  ctr_add(c->reg, bs, c->blocks_in(t) + (rem != 0 ? 1 : 0));
  c->num = rem;
}

// XORs up to n bytes of buffered keystream; returns how many.
size_t use_kstream(CipherCtx* c, const uint8_t* in, uint8_t* out, size_t n) {
  const size_t t = std::min(n, c->klen - c->kpos);
  if (t == 0) return 0;
  xor_bytes(out, in, c->kstream + c->kpos, t);
  c->kpos += t;
  advance_stream(c, t);
  return t;
}

int do_init(void* vctx, const unsigned char* key, size_t keylen, const unsigned char* iv,
            size_t ivlen, const OSSL_PARAM params[], bool enc);
int set_ctx_params(void* vctx, const OSSL_PARAM params[]);

// --- lifecycle ---------------------------------------------------------------

void freectx(void* vctx) {
  auto* c = static_cast<CipherCtx*>(vctx);
  if (c == nullptr) return;
  wipe_ks(c);
  free_kstream(c);
  tls_free_mac(&c->tls);
  OPENSSL_cleanse(c, sizeof *c);
  delete c;
}

void* dupctx(void* vctx) {
  auto* src = static_cast<CipherCtx*>(vctx);
  auto* c = new (std::nothrow) CipherCtx(*src);
  if (c == nullptr) {
    GPUC_RAISE(src->prov, kErrMalloc);
    return nullptr;
  }
  // The copy owns its own key schedule and keystream buffer (freectx wipes
  // and frees both; a null pointer is skipped).
  c->ks = nullptr;
  c->ks_size = 0;
  c->kstream = nullptr;
  c->kstream_cap = 0;
  if (src->kstream != nullptr) {
    c->kstream = static_cast<uint8_t*>(std::aligned_alloc(64, src->kstream_cap));
    if (c->kstream != nullptr) {
      std::memcpy(c->kstream, src->kstream, src->kstream_cap);
      c->kstream_cap = src->kstream_cap;
    }
  }
  if (src->ks != nullptr) {
    c->ks = alloc_ks(src->ks_size);
    if (c->ks != nullptr) {
      std::memcpy(c->ks, src->ks, src->ks_size);
      c->ks_size = src->ks_size;
    }
  }
  const bool tls_ok = tls_dup(&c->tls, src->tls);
  if ((src->kstream != nullptr && c->kstream == nullptr) || (src->ks != nullptr && c->ks == nullptr) ||
      !tls_ok) {
    freectx(c);
    GPUC_RAISE(src->prov, kErrMalloc);
    return nullptr;
  }
  return c;
}

// The hooks block_update's small whole-block calls reach directly: the ones
// run() would end at for this mode and direction (ECB: the batch hook; CBC:
// the fused chained hook, when the implementation has one).
void set_small_hooks(CipherCtx* c) {
  c->small_ecb = nullptr;
  c->small_chain = nullptr;
  if (!c->key_set) return;
  const Mode m = c->desc->mode;
  if (m == Mode::kECB) c->small_ecb = c->enc ? c->hw->encrypt : c->hw->decrypt;
  if (m == Mode::kCBC) c->small_chain = c->enc ? c->hw->cbc_encrypt : c->hw->cbc_decrypt;
}

int do_init(void* vctx, const unsigned char* key, size_t keylen, const unsigned char* iv,
            size_t ivlen, const OSSL_PARAM params[], bool enc) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const Mode m = c->desc->mode;
  c->enc = enc;
  c->kind = job_kind(m, enc);
  c->small_ecb = nullptr;  // until the key and direction are settled below
  c->small_chain = nullptr;
  c->bufsz = 0;
  c->num = 0;
  wipe_kstream(c);
  if (iv != nullptr && has_iv(m)) {
    if (ivlen != c->bs()) {
      GPUC_RAISE(c->prov, kErrWrongIvLength, "%s needs a %zu-byte IV, got %zu",
                 c->algo->name, c->bs(), ivlen);
      return 0;
    }
    std::memcpy(c->oiv, iv, ivlen);
    std::memcpy(c->reg, c->oiv, c->bs());
    c->iv_set = true;
  } else if (iv == nullptr && c->iv_set && iv_resets(m)) {
    // CBC, CFB and OFB restart at the IV given last, as the default provider
    // does (the register's chaining or keystream bytes are overwritten).
    std::memcpy(c->reg, c->oiv, c->bs());
  }
  // A CTR re-init without an IV keeps the counter where the stream stopped
  // (the next unused block), as the default provider does: restarting at the
  // old IV under the same key would hand out the same keystream twice.
  if (key != nullptr) {
    if (keylen != c->algo->key_bytes) {
      GPUC_RAISE(c->prov, kErrWrongKeyLength, "%s needs a %zu-byte key, got %zu",
                 c->algo->name, c->algo->key_bytes, keylen);
      return 0;
    }
    const CipherHw& hw = select_hw(*c->algo, c->prov->config.features());
    if (c->ks == nullptr || c->ks_size != hw.ks_bytes) {
      wipe_ks(c);
      c->ks = alloc_ks(hw.ks_bytes);
      if (c->ks == nullptr) {
        GPUC_RAISE(c->prov, kErrMalloc);
        return 0;
      }
      c->ks_size = hw.ks_bytes;
    } else {
      // Re-key: the hook contract's zeroed schedule, and no trace of the old
      // one. A plain memset suffices here (it cannot be elided: the setkey
      // hook below is an opaque call that reads the storage) and runs at
      // vector width; OPENSSL_cleanse's 8-byte loop over ~1 KiB was a quarter
      // of an AES re-key + 16-byte update (a DRBG generate, a TLS record key).
      std::memset(c->ks, 0, c->ks_size);
    }
    c->hw = &hw;
    c->has_dec_keys = needs_decrypt_schedule(m) && !enc;
    hw.setkey(c->ks, key, keylen, c->has_dec_keys);
    OPENSSL_cleanse(c->key, sizeof c->key);
    std::memcpy(c->key, key, keylen);
    c->keylen = keylen;
    c->key_set = true;
  } else if (c->key_set && needs_decrypt_schedule(m) && !enc && !c->has_dec_keys) {
    // Switching an encrypt context to decrypt with the same key.
    c->hw->setkey(c->ks, c->key, c->keylen, true);
    c->has_dec_keys = true;
  }
  set_small_hooks(c);
  return set_ctx_params(c, params);
}

int einit(void* vctx, const unsigned char* key, size_t keylen, const unsigned char* iv,
          size_t ivlen, const OSSL_PARAM params[]) {
  return do_init(vctx, key, keylen, iv, ivlen, params, true);
}

int dinit(void* vctx, const unsigned char* key, size_t keylen, const unsigned char* iv,
          size_t ivlen, const OSSL_PARAM params[]) {
  return do_init(vctx, key, keylen, iv, ivlen, params, false);
}

// Common argument checks of update/cipher.
// Raises the reason a check_update() argument set is bad (out of line: the
// per-call path only evaluates the conditions).
[[gnu::cold, gnu::noinline]] bool update_error(CipherCtx* c, unsigned char* out,
                                               const unsigned char* in, size_t inl,
                                               size_t out_shift) {
  if (!c->key_set) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "%s: set a key with EVP_CipherInit before update",
               c->algo->name);
  } else if (out == nullptr || in == nullptr) {
    GPUC_RAISE(c->prov, kErrNullOutput);
  } else if (inl > SIZE_MAX / 2 ||
             reinterpret_cast<uintptr_t>(in) + inl < reinterpret_cast<uintptr_t>(in)) {
    GPUC_RAISE(c->prov, kErrLengthOverflow, "input length %zu", inl);
  } else if (partially_overlapping(out + out_shift, in, inl)) {
    GPUC_RAISE(c->prov, kErrOverlap);
  } else {
    return true;
  }
  return false;
}

inline bool check_update(CipherCtx* c, unsigned char* out, const unsigned char* in, size_t inl,
                         size_t out_shift) {
  if (c->key_set &&
      (inl == 0 || (out != nullptr && in != nullptr && inl <= SIZE_MAX / 2 &&
                    reinterpret_cast<uintptr_t>(in) + inl >= reinterpret_cast<uintptr_t>(in) &&
                    !partially_overlapping(out + out_shift, in, inl)))) [[likely]]
    return true;
  return update_error(c, out, in, inl, out_shift);
}

// --- ECB and CBC: padding, the held-back block -------------------------------

void run_blocks(void* c, const uint8_t* in, uint8_t* out, size_t nblocks) {
  run(static_cast<CipherCtx*>(c), in, out, nblocks);
}

// TLS record mode (libssl set `tls-version`): each update is one record,
// padded or unpadded on its own (cipher_tls.h).
int tls_record_update(CipherCtx* c, unsigned char* out, size_t* outl, size_t outsize,
                      const unsigned char* in, size_t inl) {
  if (!c->key_set) {
    GPUC_RAISE(c->prov, kErrNoKeySet, "%s: set a key with EVP_CipherInit before update",
               c->algo->name);
    return 0;
  }
  return tls_block_update(&c->tls, c->prov, c->enc, c->pad, c->bs(), run_blocks, c, out, outl,
                          outsize, in, inl);
}

int block_update(void* vctx, unsigned char* out, size_t* outl, size_t outsize,
               const unsigned char* in, size_t inl) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const size_t bs = c->bs();
  *outl = 0;
  if (c->tls.version > 0) return tls_record_update(c, out, outl, outsize, in, inl);
  // The shape of a stream of small updates (`openssl speed`, a record at a
  // time): whole blocks, nothing buffered, nothing held back, below the
  // inline limit, out == in or apart. What the general path below does for
  // it is run() on all of it, which ends at this hook: called directly, the
  // dispatcher's job is never built.
  if ((c->small_ecb != nullptr || c->small_chain != nullptr) && c->bufsz == 0 && inl != 0 &&
      c->rem_in(inl) == 0 && inl < c->inline_limit && inl <= outsize && (c->enc || !c->pad) &&
      out != nullptr && in != nullptr && !partially_overlapping(out, in, inl)) [[likely]] {
    const size_t blocks = c->blocks_in(inl);
    if (c->small_ecb != nullptr) c->small_ecb(c->ks, in, out, blocks);
    else c->small_chain(c->ks, c->reg, in, out, blocks);
    *outl = inl;
    return 1;
  }
  // With bytes buffered, output runs bufsz bytes behind input: "in place" is
  // out + bufsz == in.
  if (!check_update(c, out, in, inl, c->bufsz)) return 0;
  // No early return for inl == 0: a block held back while decrypting with
  // padding is released by any update once padding is off (as the default
  // provider does; found by fuzz_cipher).
  size_t produced = 0;
  if (c->bufsz != 0 && inl != 0) {
    const size_t take = inl < bs - c->bufsz ? inl : bs - c->bufsz;
    std::memcpy(c->buf + c->bufsz, in, take);
    c->bufsz += take;
    in += take;
    inl -= take;
  }
  // Decrypting with padding: hold the last full block back for final().
  const bool hold = !c->enc && c->pad;
  if (c->bufsz == bs && (!hold || inl > 0)) {
    if (outsize < bs) {
      GPUC_RAISE(c->prov, kErrOutputTooSmall);
      return 0;
    }
    run(c, c->buf, out, 1);
    c->bufsz = 0;
    produced = bs;
    out += bs;
  }
  size_t blocks = c->blocks_in(inl);
  if (hold && blocks > 0 && blocks * bs == inl) --blocks;
  if (blocks > 0) {
    if (outsize - produced < blocks * bs) {
      GPUC_RAISE(c->prov, kErrOutputTooSmall, "need %zu bytes, have %zu", produced + blocks * bs,
                 outsize);
      return 0;
    }
    run(c, in, out, blocks);
    produced += blocks * bs;
    in += blocks * bs;
    inl -= blocks * bs;
  }
  if (inl != 0) {  // at most one block remains to buffer
    std::memcpy(c->buf + c->bufsz, in, inl);
    c->bufsz += inl;
  }
  *outl = produced;
  return 1;
}

int block_final(void* vctx, unsigned char* out, size_t* outl, size_t outsize) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const size_t bs = c->bs();
  *outl = 0;
  if (!c->key_set) {
    GPUC_RAISE(c->prov, kErrNoKeySet);
    return 0;
  }
  if (c->tls.version > 0) {  // records are whole updates: nothing to finish
    GPUC_RAISE(c->prov, kErrTlsRecord, "no final in TLS record mode");
    return 0;
  }
  if (c->enc) {
    if (c->pad) {
      const uint8_t padv = uint8_t(bs - c->bufsz);
      std::memset(c->buf + c->bufsz, padv, bs - c->bufsz);
      c->bufsz = bs;
    } else if (c->bufsz == 0) {
      return 1;
    } else if (c->bufsz != bs) {
      GPUC_RAISE(c->prov, kErrWrongFinalBlockLength,
                 "%zu bytes left over with padding disabled (block size %zu)", c->bufsz, bs);
      return 0;
    }
    if (out == nullptr || outsize < bs) {
      GPUC_RAISE(c->prov, kErrOutputTooSmall);
      return 0;
    }
    run(c, c->buf, out, 1);
    c->bufsz = 0;
    *outl = bs;
    return 1;
  }
  if (c->bufsz != bs) {
    if (c->bufsz == 0 && !c->pad) return 1;
    GPUC_RAISE(c->prov, kErrWrongFinalBlockLength,
               "ciphertext length is not a multiple of the block size (%zu)", bs);
    return 0;
  }
  uint8_t block[kMaxBlockBytes];
  run(c, c->buf, block, 1);
  c->bufsz = 0;
  size_t len = bs;
  if (c->pad) {
    // Check PKCS#7 without branching on the plaintext bytes.
    const unsigned padv = block[bs - 1];
    unsigned bad = unsigned(padv == 0) | unsigned(padv > bs);
    for (size_t i = 0; i < bs; ++i) {
      const unsigned in_pad = unsigned(i >= bs - padv);  // padv <= bs checked via `bad`
      bad |= in_pad & unsigned(block[i] != padv);
    }
    if (bad != 0) {
      OPENSSL_cleanse(block, sizeof block);
      GPUC_RAISE(c->prov, kErrBadDecrypt);
      return 0;
    }
    len = bs - padv;
  }
  if (len > 0 && (out == nullptr || outsize < len)) {
    OPENSSL_cleanse(block, sizeof block);
    GPUC_RAISE(c->prov, kErrOutputTooSmall);
    return 0;
  }
  if (len > 0) std::memcpy(out, block, len);
  OPENSSL_cleanse(block, sizeof block);
  *outl = len;
  return 1;
}

// --- CTR ---------------------------------------------------------------------

int ctr_update(void* vctx, unsigned char* out, size_t* outl, size_t outsize,
               const unsigned char* in, size_t inl) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const size_t bs = c->bs();
  *outl = 0;
  if (!check_update(c, out, in, inl, 0)) return 0;
  if (inl == 0) return 1;
  if (outsize < inl) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall, "need %zu bytes, have %zu", inl, outsize);
    return 0;
  }
  // Buffered keystream first; then at least a batch of whole blocks goes
  // straight through the dispatcher; what is left comes from a refill. Refills
  // grow (the blocks needed, then twice the last refill, up to one batch)
  // while a stream of small updates keeps draining them, so a one-shot
  // message generates only what it uses.
  size_t done = use_kstream(c, in, out, inl);
  const size_t batch = std::max<size_t>(c->hw->batch_blocks, 1);
  // The first update after an init (a one-shot message) runs its whole
  // blocks straight through as well: nothing to buffer for them; later
  // refills grow from there.
  if (c->kgen_blocks == 0 && c->num == 0 && inl - done >= bs) {
    const size_t blocks = c->blocks_in(inl - done);
    run(c, in + done, out + done, blocks);
    done += blocks * bs;
    c->kgen_blocks = std::min(batch, blocks);
  } else if (inl - done >= batch * bs) {
    const size_t blocks = c->blocks_in(inl - done);
    run(c, in + done, out + done, blocks);  // advances ctr by blocks
    done += blocks * bs;
  }
  if (done < inl) {
    const size_t need = c->blocks_in(inl - done + bs - 1);
    const size_t want = std::min(batch, std::max(need, c->kgen_blocks * 2));
    if (!reserve_kstream(c, want)) {
      GPUC_RAISE(c->prov, kErrMalloc);
      return 0;
    }
    c->kgen_blocks = want;
    fill_kstream(c, c->reg, want);
    done += use_kstream(c, in + done, out + done, inl - done);
  }
  *outl = inl;
  return 1;
}

int ctr_final(void* vctx, unsigned char*, size_t* outl, size_t) {
  auto* c = static_cast<CipherCtx*>(vctx);
  *outl = 0;
  if (!c->key_set) {
    GPUC_RAISE(c->prov, kErrNoKeySet);
    return 0;
  }
  return 1;
}

// --- CFB, OFB, CFB8, CFB1: streams over the register ------------------------

// CFB and OFB over n bytes, exactly as OpenSSL's CRYPTO_cfb128_encrypt /
// CRYPTO_ofb128_encrypt (for any block size): the rest of the current block
// from the register, whole blocks through engine/block_modes.h (CFB
// decryption through the dispatcher: it is parallel), a partial last block
// from one more register block.
void register_stream(CipherCtx* c, const uint8_t* in, uint8_t* out, size_t n) {
  const size_t bs = c->bs();
  const bool cfb = c->desc->mode == Mode::kCFB;
  size_t num = c->num;
  while (num != 0 && n != 0) {
    const uint8_t x = *in++, y = uint8_t(x ^ c->reg[num]);
    *out++ = y;
    if (cfb) c->reg[num] = c->enc ? y : x;  // the ciphertext byte (direction is public)
    --n;
    if (++num == bs) num = 0;
  }
  const size_t blocks = c->blocks_in(n);
  if (blocks != 0) {
    if (!cfb) ofb_crypt(*c->hw, c->ks, bs, c->reg, in, out, blocks);
    else if (c->enc) cfb_encrypt(*c->hw, c->ks, bs, c->reg, in, out, blocks);
    else run(c, in, out, blocks);
    in += blocks * bs;
    out += blocks * bs;
    n -= blocks * bs;
  }
  if (n != 0) {
    c->hw->encrypt(c->ks, c->reg, c->reg, 1);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t x = in[i], y = uint8_t(x ^ c->reg[i]);
      out[i] = y;
      if (cfb) c->reg[i] = c->enc ? y : x;
    }
    num = n;
  }
  c->num = num;
}

// Bits per CFB1 call when lengths are bytes (inl * 8 must not overflow).
constexpr size_t kCfb1ChunkBytes = size_t(1) << 20;

int stream_update(void* vctx, unsigned char* out, size_t* outl, size_t outsize,
                  const unsigned char* in, size_t inl) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const Mode m = c->desc->mode;
  *outl = 0;
  // CFB1 with use-bits: inl (and the reported length) count bits, as in the
  // default provider; the buffers hold ceil(inl / 8) bytes.
  const bool bits = m == Mode::kCFB1 && c->use_bits;
  const size_t nbytes = bits ? inl / 8 + (inl % 8 != 0) : inl;
  if (!check_update(c, out, in, nbytes, 0)) return 0;
  if (inl == 0) return 1;
  if (outsize < inl) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall, "need %zu bytes, have %zu", inl, outsize);
    return 0;
  }
  const size_t bs = c->bs();
  switch (m) {
    case Mode::kCFB8:
      cfb8_crypt(*c->hw, c->ks, bs, c->reg, in, out, inl, c->enc);
      break;
    case Mode::kCFB1:
      if (bits) {
        cfb1_crypt(*c->hw, c->ks, bs, c->reg, in, out, inl, c->enc);
        break;
      }
      for (size_t done = 0; done < inl; done += kCfb1ChunkBytes) {
        const size_t k = std::min(kCfb1ChunkBytes, inl - done);
        cfb1_crypt(*c->hw, c->ks, bs, c->reg, in + done, out + done, k * 8, c->enc);
      }
      break;
    default:
      register_stream(c, in, out, inl);
      break;
  }
  *outl = inl;
  return 1;
}

int update(void* vctx, unsigned char* out, size_t* outl, size_t outsize, const unsigned char* in,
           size_t inl) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const Mode m = c->desc->mode;
  if (block_mode(m)) return block_update(vctx, out, outl, outsize, in, inl);
  if (c->tls.version > 0 && m == Mode::kCFB1 && c->use_bits) {
    GPUC_RAISE(c->prov, kErrTlsRecord, "CFB1 with use-bits counts bits, not record bytes");
    return 0;
  }
  const int ok = m == Mode::kCTR ? ctr_update(vctx, out, outl, outsize, in, inl)
                                 : stream_update(vctx, out, outl, outsize, in, inl);
  // A stream in TLS record mode: the record's MAC is its tail (cipher_tls.h).
  if (ok && c->tls.version > 0 && !c->enc && inl != 0) return tls_stream_mac(&c->tls, out, outl);
  return ok;
}

}  // namespace

CipherUpdateFn cipher_update_fn(Mode m) { return block_mode(m) ? &block_update : &update; }

namespace {

// Streams have nothing left over at final: only the key check (ctr_final).
int final(void* vctx, unsigned char* out, size_t* outl, size_t outsize) {
  auto* c = static_cast<CipherCtx*>(vctx);
  return block_mode(c->desc->mode) ? block_final(vctx, out, outl, outsize)
                                   : ctr_final(vctx, out, outl, outsize);
}

// EVP_Cipher(): one shot, no padding logic; ECB and CBC need whole blocks
// (the default provider returns inl for a partial one, leaving the tail
// unprocessed on ECB and writing or reading a whole block past it on CBC:
// README, Differences from the default provider).
int cipher(void* vctx, unsigned char* out, size_t* outl, size_t outsize, const unsigned char* in,
           size_t inl) {
  auto* c = static_cast<CipherCtx*>(vctx);
  if (!block_mode(c->desc->mode)) return update(vctx, out, outl, outsize, in, inl);
  *outl = 0;
  if (!check_update(c, out, in, inl, 0)) return 0;
  if (inl % c->bs() != 0) {
    GPUC_RAISE(c->prov, kErrWrongFinalBlockLength, "EVP_Cipher on %s needs whole blocks",
               mode_suffix(c->desc->mode));
    return 0;
  }
  if (outsize < inl) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall);
    return 0;
  }
  run(c, in, out, inl / c->bs());
  *outl = inl;
  return 1;
}

// --- params ------------------------------------------------------------------

// What get_ctx_params answers and set_ctx_params takes: slots of
// locate_params, in the order they are handled.
enum GetSlot { kGetKeylen, kGetIvlen, kGetBlockSize, kGetMode, kGetPadding, kGetNum, kGetIv, kGetUpdatedIv, kGetTlsMac, kGetSlots };
constexpr std::array<std::string_view, kGetSlots> kGetNames = {
    OSSL_CIPHER_PARAM_KEYLEN,  OSSL_CIPHER_PARAM_IVLEN, OSSL_CIPHER_PARAM_BLOCK_SIZE,
    OSSL_CIPHER_PARAM_MODE,    OSSL_CIPHER_PARAM_PADDING, OSSL_CIPHER_PARAM_NUM,
    OSSL_CIPHER_PARAM_IV,      OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_CIPHER_PARAM_TLS_MAC};
enum SetSlot { kSetPadding, kSetNum, kSetUseBits, kSetKeylen, kSetIvlen, kSetTlsVersion, kSetTlsMacSize, kSetSlots };
constexpr std::array<std::string_view, kSetSlots> kSetNames = {
    OSSL_CIPHER_PARAM_PADDING, OSSL_CIPHER_PARAM_NUM, OSSL_CIPHER_PARAM_USE_BITS,
    OSSL_CIPHER_PARAM_KEYLEN,  OSSL_CIPHER_PARAM_IVLEN, OSSL_CIPHER_PARAM_TLS_VERSION,
    OSSL_CIPHER_PARAM_TLS_MAC_SIZE};

int get_ctx_params(void* vctx, OSSL_PARAM params[]) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const auto slot = locate_params(params, kGetNames);
  OSSL_PARAM* p;
  const Mode m = c->desc->mode;
  const size_t ivlen = has_iv(m) ? c->bs() : 0;
  if ((p = slot[kGetKeylen]) != nullptr && !OSSL_PARAM_set_size_t(p, c->algo->key_bytes)) goto bad;
  if ((p = slot[kGetIvlen]) != nullptr && !OSSL_PARAM_set_size_t(p, ivlen)) goto bad;
  if ((p = slot[kGetBlockSize]) != nullptr && !OSSL_PARAM_set_size_t(p, block_mode(m) ? c->bs() : 1))
    goto bad;
  if ((p = slot[kGetMode]) != nullptr && !OSSL_PARAM_set_uint(p, evp_mode(m))) goto bad;
  if ((p = slot[kGetPadding]) != nullptr && !OSSL_PARAM_set_uint(p, c->pad ? 1 : 0)) goto bad;
  if ((p = slot[kGetNum]) != nullptr && !OSSL_PARAM_set_uint(p, unsigned(c->num))) goto bad;
  if ((p = slot[kGetIv]) != nullptr &&
      !OSSL_PARAM_set_octet_string(p, c->oiv, ivlen) && !OSSL_PARAM_set_octet_ptr(p, c->oiv, ivlen))
    goto bad;
  if ((p = slot[kGetUpdatedIv]) != nullptr &&
      !OSSL_PARAM_set_octet_string(p, c->reg, ivlen) && !OSSL_PARAM_set_octet_ptr(p, c->reg, ivlen))
    goto bad;
  return tls_get_params(c->tls, c->prov, slot[kGetTlsMac]);
bad:
  GPUC_RAISE(c->prov, kErrBadParam, "cannot return parameter '%s'", p->key);
  return 0;
}

// Whether `num` = v is taken, as the default provider of the libcrypto we run
// under takes it (README, Differences from the default provider). Up to
// 3.0.19 it takes any value; from the fix for openssl#30284 on (3.5.9 has
// it; March 2026 in every maintained line, so 3.0.20 on) it refuses v >= the
// EVP block size: below the block size on ECB/CBC (stored, unused), only 0 on
// the streams. Where num indexes the register (CTR, CFB, OFB) we refuse v >=
// the block size on 3.0.19 too: the default provider reads and writes out of
// bounds there.
bool num_accepted(const CipherCtx* c, unsigned v) {
  static const bool unbounded = OpenSSL_version_num() < 0x30000140UL;  // <= 3.0.19
  const Mode m = c->desc->mode;
  if (!unbounded) return v < (block_mode(m) ? c->bs() : 1);
  const bool indexes_register = m == Mode::kCTR || m == Mode::kCFB || m == Mode::kOFB;
  return !indexes_register || v < c->bs();
}

// CTR resuming a stream at byte v of the block before ctr: that block's
// keystream, from byte v on (ctr itself stays: it is the next block).
bool resume_ctr(CipherCtx* c, unsigned v) {
  wipe_kstream(c);
  if (v == 0 || !c->key_set) return true;
  uint8_t prev[kMaxBlockBytes];
  std::memcpy(prev, c->reg, c->bs());
  // prev = ctr - 1 (mod 2^(8*bs)); the counter is public, so the early exit is fine.
  for (size_t i = c->bs(); i-- > 0;) {
    if (prev[i]-- != 0) break;
  }
  if (!reserve_kstream(c, 1)) {
    GPUC_RAISE(c->prov, kErrMalloc);
    return false;
  }
  fill_kstream(c, prev, 1);
  c->kpos = v;
  c->kgen_blocks = 1;
  return true;
}

// p's unsigned value into *v, or false with an error naming the parameter.
bool uint_param(const CipherCtx* c, const OSSL_PARAM* p, unsigned* v) {
  if (OSSL_PARAM_get_uint(p, v)) return true;
  GPUC_RAISE(c->prov, kErrBadParam, "'%s' must be an unsigned integer", p->key);
  return false;
}

int set_ctx_params(void* vctx, const OSSL_PARAM params[]) {
  auto* c = static_cast<CipherCtx*>(vctx);
  const auto slot = locate_params(params, kSetNames);
  const OSSL_PARAM* p;
  unsigned v;
  if ((p = slot[kSetPadding]) != nullptr) {
    if (!uint_param(c, p, &v)) return 0;
    c->pad = v != 0;
  }
  if ((p = slot[kSetNum]) != nullptr) {
    if (!uint_param(c, p, &v)) return 0;
    if (!num_accepted(c, v)) {
      GPUC_RAISE(c->prov, kErrBadParam, "'num' %u is out of range for %s on OpenSSL %s", v,
                 mode_suffix(c->desc->mode), OpenSSL_version(OPENSSL_VERSION_STRING));
      return 0;
    }
    // CFB and OFB resume from the register itself (it holds the current
    // block's keystream); ECB, CBC, CFB8 and CFB1 keep num, unused, as the
    // default provider does.
    if (c->desc->mode == Mode::kCTR && !resume_ctr(c, v)) return 0;
    c->num = v;
  }
  if ((p = slot[kSetUseBits]) != nullptr) {
    if (!uint_param(c, p, &v)) return 0;
    c->use_bits = v != 0;
  }
  if ((p = slot[kSetKeylen]) != nullptr) {
    size_t n;
    if (!OSSL_PARAM_get_size_t(p, &n) || n != c->algo->key_bytes) {
      GPUC_RAISE(c->prov, kErrWrongKeyLength, "%s has a fixed %zu-byte key", c->algo->name,
                 c->algo->key_bytes);
      return 0;
    }
  }
  if ((p = slot[kSetIvlen]) != nullptr) {
    size_t n;
    const size_t ivlen = has_iv(c->desc->mode) ? c->bs() : 0;
    if (!OSSL_PARAM_get_size_t(p, &n) || n != ivlen) {
      GPUC_RAISE(c->prov, kErrWrongIvLength, "%s has a fixed %zu-byte IV", c->algo->name, ivlen);
      return 0;
    }
  }
  return tls_set_params(&c->tls, c->prov, slot[kSetTlsVersion], slot[kSetTlsMacSize]);
}

const OSSL_PARAM kCtxGettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, nullptr, 0),
    OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, nullptr, 0),
    OSSL_PARAM_END};

const OSSL_PARAM kCtxSettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_USE_BITS, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_TLS_VERSION, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, nullptr),
    OSSL_PARAM_END};


const OSSL_PARAM* ctx_gettable(void*, void*) { return kCtxGettable; }
const OSSL_PARAM* ctx_settable(void*, void*) { return kCtxSettable; }
const OSSL_PARAM* gettable(void*) { return kAlgorithmGettable; }

// Algorithm-level parameters, as OpenSSL's ossl_cipher_generic_get_params.
int get_params_for(const CipherDesc* d, OSSL_PARAM params[]) {
  const CipherAlgo& a = d->algo();
  return set_algorithm_params(params, {evp_mode(d->mode), a.key_bytes,
                                       has_iv(d->mode) ? a.block_bytes : 0,
                                       block_mode(d->mode) ? a.block_bytes : 1, false, false});
}

void* newctx_for(void* provctx, const CipherDesc* d) {
  auto* c = new (std::nothrow) CipherCtx;
  if (c == nullptr) return nullptr;
  c->prov = static_cast<const ProvCtx*>(provctx);
  c->desc = d;
  c->algo = &d->algo();
  c->inline_limit = small_call_limit(c->prov->config);
  const size_t bs = c->bs();
  c->bs_shift = (bs & (bs - 1)) == 0 ? unsigned(std::countr_zero(bs)) : CipherCtx::kNotPow2;
  return c;
}

}  // namespace

void* cipher_newctx(void* provctx, const CipherDesc* d) { return newctx_for(provctx, d); }
int cipher_get_params(const CipherDesc* d, OSSL_PARAM params[]) { return get_params_for(d, params); }

const OSSL_DISPATCH kCipherCommonFunctions[] = {
    {OSSL_FUNC_CIPHER_FREECTX, reinterpret_cast<void (*)()>(&freectx)},
    {OSSL_FUNC_CIPHER_DUPCTX, reinterpret_cast<void (*)()>(&dupctx)},
    {OSSL_FUNC_CIPHER_ENCRYPT_INIT, reinterpret_cast<void (*)()>(&einit)},
    {OSSL_FUNC_CIPHER_DECRYPT_INIT, reinterpret_cast<void (*)()>(&dinit)},
    {OSSL_FUNC_CIPHER_UPDATE, reinterpret_cast<void (*)()>(&update)},
    {OSSL_FUNC_CIPHER_FINAL, reinterpret_cast<void (*)()>(&final)},
    {OSSL_FUNC_CIPHER_CIPHER, reinterpret_cast<void (*)()>(&cipher)},
    {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, reinterpret_cast<void (*)()>(&get_ctx_params)},
    {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, reinterpret_cast<void (*)()>(&set_ctx_params)},
    {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, reinterpret_cast<void (*)()>(&gettable)},
    {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, reinterpret_cast<void (*)()>(&ctx_gettable)},
    {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, reinterpret_cast<void (*)()>(&ctx_settable)},
    {0, nullptr}};

}  // namespace gpucrypto
