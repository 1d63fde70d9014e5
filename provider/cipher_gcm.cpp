// The GCM AEAD ciphers, call for call as OpenSSL 3.0's default provider
// (providers/implementations/ciphers/ciphercommon_gcm.c): the IV state
// machine (buffered, copied, finished: no second message under one IV),
// `ivlen` 1..128 (a change invalidates the IV), tags of 1..16 bytes set
// before final on decrypt and read after final on encrypt, AAD as update
// with a NULL output, decrypted bytes released by update with final
// failing on a wrong tag, and the TLS parameters libssl uses: `tlsaad`
// (13 bytes, answers the tag padding), `tlsivfixed`, `tlsivgen`, `tlsivinv`
// and the in-place TLS 1.2 record [explicit nonce | payload | tag] through
// EVP_Cipher with the 2^64 record limit on encryption. The mode itself is
// ciphers/gcm (gcm_mode.h); the whole blocks of large calls go to the
// dispatcher (engine/dispatcher.h, dispatch_gcm), which runs them on the pool.
#include "provider/cipher_gcm.h"

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "ciphers/gcm/gcm_mode.h"
#include "engine/cipher_registry.h"
#include "engine/diag_write.h"
#include "engine/dispatcher.h"
#include "provider/cipher_table.h"
#include "provider/cipher_params.h"
#include "provider/openssl_line.h"
#include "provider/provctx.h"

namespace gpucrypto {
namespace {

constexpr size_t kIvMax = 128;           // GCM_IV_MAX_SIZE
constexpr size_t kIvDefault = 12;        // GCM_IV_DEFAULT_SIZE
constexpr size_t kTagMax = 16;           // EVP_GCM_TLS_TAG_LEN
constexpr size_t kTlsAadLen = 13;        // EVP_AEAD_TLS1_AAD_LEN
constexpr size_t kTlsFixedIv = 4;        // EVP_GCM_TLS_FIXED_IV_LEN
constexpr size_t kTlsExplicitIv = 8;     // EVP_GCM_TLS_EXPLICIT_IV_LEN
// OSSL_CIPHER_PARAM_AEAD_IV_GENERATED (not in 3.0's headers).
constexpr const char kParamIvGenerated[] = "iv-generated";
constexpr size_t kUnset = SIZE_MAX;      // UNINITIALISED_SIZET

enum class IvState { kUninitialised, kBuffered, kCopied, kFinished };

// --- served counts: one slot per thread (the first kThreadSlots threads
// that serve a message; later ones share slots picked by context address),
// each on its own cache line. A thread alone writes its slot, with a plain
// load and store: a locked add drains the store buffer, a cost every short
// message paid twice. Readers add the slots up.
struct alignas(64) Shard {
  std::atomic<uint64_t> records{0}, bytes{0};
};
constexpr size_t kThreadSlots = 256;
Shard g_slots[kThreadSlots];
Shard g_shards[16];
std::atomic<size_t> g_next_slot{0};
// This thread's slot, in a pthread key rather than a thread_local: the module
// has no ELF TLS, so a dlopen'ed and unloaded gpucrypto.so leaves no dynamic
// TLS block behind (GCC 12's LeakSanitizer faulted at exit reading one, and
// an initial-exec block could make dlopen fail where the static TLS surplus
// is used up). pthread_getspecific is a few instructions.
struct SlotKey {
  pthread_key_t key{};
  bool ok = pthread_key_create(&key, nullptr) == 0;
  ~SlotKey() {
    if (ok) pthread_key_delete(key);
  }
} g_slot_key;

// The counts are the process's own: a forked child starts from zero (an
// nginx worker reports what it served, not what its master did before the
// fork). Registered when the module is loaded; glibc drops the handler when
// the module is unloaded.
void zero_counts() {
  const auto zero = [](Shard& s) {
    s.records.store(0, std::memory_order_relaxed);
    s.bytes.store(0, std::memory_order_relaxed);
  };
  for (Shard& s : g_slots) zero(s);
  for (Shard& s : g_shards) zero(s);
}
[[maybe_unused]] const bool g_counts_per_process = pthread_atfork(nullptr, nullptr, zero_counts) == 0;

void count_served(const void* ctx, uint64_t bytes) {
  Shard* s = g_slot_key.ok ? static_cast<Shard*>(pthread_getspecific(g_slot_key.key)) : g_shards;
  if (s == nullptr) {
    const size_t i = g_next_slot.fetch_add(1, std::memory_order_relaxed);
    s = i < kThreadSlots ? &g_slots[i] : g_shards;  // g_shards: no slot left
    if (pthread_setspecific(g_slot_key.key, s) != 0) s = g_shards;
  }
  if (s != g_shards) {  // owned: no other thread writes it
    s->records.store(s->records.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    s->bytes.store(s->bytes.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
    return;
  }
  Shard& shared = g_shards[(reinterpret_cast<uintptr_t>(ctx) >> 6) % std::size(g_shards)];
  shared.records.fetch_add(1, std::memory_order_relaxed);
  shared.bytes.fetch_add(bytes, std::memory_order_relaxed);
}

struct GcmCtx {
  GcmKey key;  // first: 64-byte aligned
  GcmState st;
  const ProvCtx* prov = nullptr;
  const GcmDesc* desc = nullptr;
  const CipherAlgo* algo = nullptr;
  // Data calls below this many bytes never reach the dispatcher
  // (pool_call_limit, computed once per context).
  size_t pool_limit = SIZE_MAX;
  bool enc = true;
  bool key_set = false;
  bool iv_gen = false;
  // `iv-generated` (OpenSSL >= 3.5): this context drew a random IV itself at
  // some point. Sticky, as in 3.5.9's default provider (a later IV given at
  // init does not clear it).
  bool iv_gen_rand = false;
  IvState iv_state = IvState::kUninitialised;
  size_t ivlen = kIvDefault;
  size_t taglen = kUnset;
  size_t tls_aad_len = kUnset;
  size_t tls_aad_pad_sz = 0;
  uint64_t tls_enc_records = 0;
  uint8_t iv[kIvMax] = {};
  uint8_t buf[kTagMax] = {};  // the tag, or the TLS AAD (13 bytes)
};

void setiv(GcmCtx* c) { gcm_set_iv(c->key, &c->st, c->iv, c->ivlen); }

// --- lifecycle ---------------------------------------------------------------

void* newctx_impl(void* provctx, const GcmDesc* d) {
  auto* c = new (std::nothrow) GcmCtx();  // zeroed: the key schedule starts clean
  if (c == nullptr) return nullptr;
  c->prov = static_cast<const ProvCtx*>(provctx);
  c->desc = d;
  c->algo = &d->algo();
  c->pool_limit = pool_call_limit(c->prov->config);
  return c;
}

void freectx(void* vctx) {
  auto* c = static_cast<GcmCtx*>(vctx);
  if (c == nullptr) return;
  OPENSSL_cleanse(c, sizeof *c);
  delete c;
}

// EVP_CIPHER_CTX_copy: everything is plain data (the key schedule too).
void* dupctx(void* vctx) {
  auto* src = static_cast<GcmCtx*>(vctx);
  auto* c = new (std::nothrow) GcmCtx(*src);
  if (c == nullptr) GPUC_RAISE(src->prov, kErrMalloc);
  return c;
}

int set_ctx_params(void* vctx, const OSSL_PARAM params[]);

int init(void* vctx, const unsigned char* key, size_t keylen, const unsigned char* iv, size_t ivlen,
         const OSSL_PARAM params[], bool enc) {
  auto* c = static_cast<GcmCtx*>(vctx);
  c->enc = enc;
  if (iv != nullptr) {
    if (ivlen == 0 || ivlen > kIvMax) {
      GPUC_RAISE(c->prov, kErrWrongIvLength, "GCM IVs are 1 to %zu bytes, got %zu", kIvMax, ivlen);
      return 0;
    }
    c->ivlen = ivlen;
    std::memcpy(c->iv, iv, ivlen);
    c->iv_state = IvState::kBuffered;
  }
  if (key != nullptr) {
    if (keylen != c->algo->key_bytes) {
      GPUC_RAISE(c->prov, kErrWrongKeyLength, "%s needs a %zu-byte key, got %zu", c->algo->name,
                 c->algo->key_bytes, keylen);
      return 0;
    }
    // An IV given with the key (one-shot use) has its E_K(J0) made in the
    // key expansion's pass.
    if (!gcm_set_key_iv(&c->key, *c->algo, c->prov->config.features(), key, iv != nullptr ? c->iv : nullptr,
                        iv != nullptr ? c->ivlen : 0)) {
      GPUC_RAISE(c->prov, kErrInternal, "no GCM implementation for %s", c->algo->name);
      return 0;
    }
    // As CRYPTO_gcm128_init: a new key starts from a zero state (the state
    // stays in use: a plain memset is not elided).
    std::memset(&c->st, 0, sizeof c->st);
    c->key_set = true;
    c->tls_enc_records = 0;
  }
  return set_ctx_params(c, params);
}

int einit(void* vctx, const unsigned char* key, size_t keylen, const unsigned char* iv, size_t ivlen,
          const OSSL_PARAM params[]) {
  return init(vctx, key, keylen, iv, ivlen, params, true);
}

int dinit(void* vctx, const unsigned char* key, size_t keylen, const unsigned char* iv, size_t ivlen,
          const OSSL_PARAM params[]) {
  return init(vctx, key, keylen, iv, ivlen, params, false);
}

// --- the TLS IV fields -------------------------------------------------------

// The invocation field (last 8 bytes) + 1; it never wraps within a key's
// record limit.
void ctr64_inc(uint8_t* counter) {
  for (int n = 8; n-- > 0;) {
    if (++counter[n] != 0) return;
  }
}

// Both need an IV of at least the 8-byte invocation field. The default
// provider does not check (with `ivlen` set below 8 after `tlsivfixed` it
// writes before its IV buffer, found by fuzz_gcm); here that is refused.
bool getivgen(GcmCtx* c, uint8_t* out, size_t olen) {
  if (!c->iv_gen || !c->key_set || c->ivlen < kTlsExplicitIv) return false;
  setiv(c);
  if (olen == 0 || olen > c->ivlen) olen = c->ivlen;
  std::memcpy(out, c->iv + c->ivlen - olen, olen);
  ctr64_inc(c->iv + c->ivlen - 8);
  c->iv_state = IvState::kCopied;
  return true;
}

bool setivinv(GcmCtx* c, const uint8_t* in, size_t inl) {
  if (!c->iv_gen || !c->key_set || c->enc || inl > c->ivlen || c->ivlen < kTlsExplicitIv) return false;
  std::memcpy(c->iv + c->ivlen - inl, in, inl);
  setiv(c);
  c->iv_state = IvState::kCopied;
  return true;
}

bool tls_iv_set_fixed(GcmCtx* c, const uint8_t* iv, size_t len) {
  if (len == SIZE_MAX) {  // -1: restore the whole IV
    std::memcpy(c->iv, iv, c->ivlen);
    c->iv_gen = true;
    c->iv_state = IvState::kBuffered;
    return true;
  }
  // Fixed field at least 4 bytes, invocation field at least 8. OpenSSL 3.0
  // computes ivlen - len unsigned, so a fixed field longer than the IV passes
  // on decryption (encryption then fails drawing the random part); kept, but
  // never past the IV buffer.
  if (len < kTlsFixedIv || len > kIvMax || (len <= c->ivlen && c->ivlen - len < kTlsExplicitIv)) return false;
  if (c->enc && len > c->ivlen) return false;
  std::memcpy(c->iv, iv, len);
  if (c->enc) {
    if (RAND_bytes_ex(c->prov->libctx, c->iv + len, c->ivlen - len, 0) <= 0) return false;
    c->iv_gen_rand = true;
  }
  c->iv_gen = true;
  c->iv_state = IvState::kBuffered;
  return true;
}

// Keeps the 13-byte record header; its length field loses the explicit
// nonce (and the tag, decrypting). Returns the tag padding, 0 when invalid.
size_t tls_init(GcmCtx* c, const uint8_t* aad, size_t len) {
  if (len != kTlsAadLen) return 0;
  std::memcpy(c->buf, aad, len);
  c->tls_aad_len = len;
  size_t n = size_t(c->buf[len - 2]) << 8 | c->buf[len - 1];
  if (n < kTlsExplicitIv) return 0;
  n -= kTlsExplicitIv;
  if (!c->enc) {
    if (n < kTagMax) return 0;
    n -= kTagMax;
  }
  c->buf[len - 2] = uint8_t(n >> 8);
  c->buf[len - 1] = uint8_t(n);
  return kTagMax;
}

// --- the cipher --------------------------------------------------------------

// Data: small calls whole on the calling thread (gcm_crypt), large ones with
// their whole blocks dispatched by the engine (its pool). 0 or -1 as
// gcm_crypt.
int crypt(GcmCtx* c, const uint8_t* in, uint8_t* out, size_t len) {
  if (len < c->pool_limit) [[likely]] return gcm_crypt(c->key, &c->st, in, out, len, c->enc);
  if (gcm_crypt_begin(c->key, &c->st, in, out, len, c->enc) != 0) return -1;
  const size_t whole = len / 16;
  dispatch_gcm(c->key, c->st.ctr, c->st.xi, in, out, whole, c->enc, c->prov->config);
  gcm_crypt_end(c->key, &c->st, in + 16 * whole, out + 16 * whole, len % 16, c->enc);
  return 0;
}

// One TLS 1.2 record in place: [explicit nonce 8 | payload | tag 16].
int tls_cipher(GcmCtx* c, unsigned char* out, size_t* padlen, const unsigned char* in, size_t len) {
  int rv = 0;
  size_t plen = 0;
  if (!c->key_set || out != in || len < kTlsExplicitIv + kTagMax) goto err;
  // At most 2^64 - 1 records under one key (SP 800-38D §8, FIPS 140-2 IG A.5).
  if (c->enc && ++c->tls_enc_records == 0) {
    GPUC_RAISE(c->prov, kErrLengthOverflow, "too many TLS records under one key");
    goto err;
  }
  if (c->enc ? !getivgen(c, out, kTlsExplicitIv) : !setivinv(c, out, kTlsExplicitIv)) goto err;
  in += kTlsExplicitIv;
  out += kTlsExplicitIv;
  len -= kTlsExplicitIv + kTagMax;
  gcm_aad(c->key, &c->st, c->buf, c->tls_aad_len);
  if (crypt(c, in, out, len) != 0) goto err;
  c->taglen = kTagMax;  // as ossl_gcm_one_shot (the "tag" parameter then reads buf)
  if (c->enc) {
    gcm_tag(c->key, &c->st, out + len);
    plen = len + kTlsExplicitIv + kTagMax;
  } else {
    if (!gcm_check_tag(c->key, &c->st, in + len, kTagMax)) {
      OPENSSL_cleanse(out, len);
      goto err;
    }
    plen = len;
  }
  count_served(c, len);
  rv = 1;
err:
  c->iv_state = IvState::kFinished;
  c->tls_aad_len = kUnset;
  *padlen = plen;
  return rv;
}

// A random IV for an encryption started without one (at least 96 bits).
bool iv_generate(GcmCtx* c) {
  if (c->ivlen < kIvDefault || RAND_bytes_ex(c->prov->libctx, c->iv, c->ivlen, 0) <= 0) return false;
  c->iv_state = IvState::kBuffered;
  c->iv_gen_rand = true;
  return true;
}

// AAD (out == nullptr), data, or the final step (in == nullptr).
int cipher_internal(GcmCtx* c, unsigned char* out, size_t* padlen, const unsigned char* in, size_t len) {
  if (c->tls_aad_len != kUnset) return tls_cipher(c, out, padlen, in, len);
  *padlen = 0;
  if (!c->key_set) {
    GPUC_RAISE(c->prov, kErrNoKeySet);
    return 0;
  }
  if (c->iv_state == IvState::kFinished) {
    GPUC_RAISE(c->prov, kErrUpdateAfterFinal, "set a new IV: GCM never reuses one");
    return 0;
  }
  if (c->iv_state == IvState::kUninitialised && (!c->enc || !iv_generate(c))) {
    GPUC_RAISE(c->prov, kErrWrongIvLength, "no IV set");
    return 0;
  }
  if (c->iv_state == IvState::kBuffered) {
    setiv(c);
    c->iv_state = IvState::kCopied;
  }
  if (in != nullptr) {
    const int r = out == nullptr ? gcm_aad(c->key, &c->st, in, len) : crypt(c, in, out, len);
    if (r != 0) {
      GPUC_RAISE(c->prov, r == -2 ? kErrBadParam : kErrLengthOverflow,
                 r == -2 ? "AAD after data" : "GCM length limit");
      return 0;
    }
    *padlen = len;
    return 1;
  }
  if (c->enc) {
    gcm_tag(c->key, &c->st, c->buf);
    c->taglen = kTagMax;
  } else {
    if (c->taglen == kUnset) {
      GPUC_RAISE(c->prov, kErrBadParam, "set the expected tag before final");
      return 0;
    }
    if (!gcm_check_tag(c->key, &c->st, c->buf, c->taglen)) {
      // The return value alone, no error queued: OpenSSL's default provider
      // signals a tag that does not authenticate the same way (3.0 and 3.5),
      // and callers test final's result (libssl raises its own bad-record-MAC
      // alert, python's cryptography its InvalidTag). Forged messages are
      // expected input: queueing an error cost ~100 ns a message (half a
      // 256-byte record's decryption; `openssl speed -decrypt` decrypts with
      // a fake tag) and fills the thread's error queue.
      return 0;
    }
  }
  count_served(c, c->st.mlen);
  c->iv_state = IvState::kFinished;  // never a second message under this IV
  return 1;
}

int stream_update(void* vctx, unsigned char* out, size_t* outl, size_t outsize, const unsigned char* in,
                  size_t inl) {
  auto* c = static_cast<GcmCtx*>(vctx);
  if (inl == 0) {
    *outl = 0;
    return 1;
  }
  if (outsize < inl) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall, "need %zu bytes, have %zu", inl, outsize);
    return 0;
  }
  return cipher_internal(c, out, outl, in, inl) > 0 ? 1 : 0;
}

int stream_final(void* vctx, unsigned char* out, size_t* outl, size_t) {
  auto* c = static_cast<GcmCtx*>(vctx);
  if (cipher_internal(c, out, outl, nullptr, 0) <= 0) return 0;
  *outl = 0;
  return 1;
}

// EVP_Cipher: the TLS record path, or AAD / data / final by its arguments.
int cipher(void* vctx, unsigned char* out, size_t* outl, size_t outsize, const unsigned char* in, size_t inl) {
  auto* c = static_cast<GcmCtx*>(vctx);
  if (outsize < inl) {
    GPUC_RAISE(c->prov, kErrOutputTooSmall);
    return 0;
  }
  if (cipher_internal(c, out, outl, in, inl) <= 0) return 0;
  *outl = inl;
  return 1;
}

// --- params ------------------------------------------------------------------

// What get_ctx_params answers and set_ctx_params takes: slots of
// locate_params, in the order they are handled.
enum GetSlot { kGetIvlen, kGetKeylen, kGetTaglen, kGetIv, kGetUpdatedIv, kGetTlsAadPad, kGetTag, kGetTlsIvGen, kGetIvGenerated, kGetSlots };
constexpr std::array<std::string_view, kGetSlots> kGetNames = {
    OSSL_CIPHER_PARAM_IVLEN,        OSSL_CIPHER_PARAM_KEYLEN, OSSL_CIPHER_PARAM_AEAD_TAGLEN,
    OSSL_CIPHER_PARAM_IV,           OSSL_CIPHER_PARAM_UPDATED_IV, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD,
    OSSL_CIPHER_PARAM_AEAD_TAG,     OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, kParamIvGenerated};
enum SetSlot { kSetTag, kSetIvlen, kSetTlsAad, kSetTlsIvFixed, kSetTlsIvInv, kSetSlots };
constexpr std::array<std::string_view, kSetSlots> kSetNames = {
    OSSL_CIPHER_PARAM_AEAD_TAG, OSSL_CIPHER_PARAM_AEAD_IVLEN, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD,
    OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV};

int get_ctx_params(void* vctx, OSSL_PARAM params[]) {
  auto* c = static_cast<GcmCtx*>(vctx);
  const auto slot = locate_params(params, kGetNames);
  OSSL_PARAM* p;
  if ((p = slot[kGetIvlen]) != nullptr && !OSSL_PARAM_set_size_t(p, c->ivlen)) goto bad;
  if ((p = slot[kGetKeylen]) != nullptr && !OSSL_PARAM_set_size_t(p, c->algo->key_bytes)) goto bad;
  if ((p = slot[kGetTaglen]) != nullptr &&
      !OSSL_PARAM_set_size_t(p, c->taglen != kUnset ? c->taglen : kTagMax))
    goto bad;
  for (OSSL_PARAM* q : {slot[kGetIv], slot[kGetUpdatedIv]}) {
    if ((p = q) == nullptr) continue;
    if (c->iv_state == IvState::kUninitialised) return 0;
    if (c->ivlen > p->data_size) {
      GPUC_RAISE(c->prov, kErrWrongIvLength, "'%s' needs %zu bytes", p->key, c->ivlen);
      return 0;
    }
    if (!OSSL_PARAM_set_octet_string(p, c->iv, c->ivlen) && !OSSL_PARAM_set_octet_ptr(p, &c->iv, c->ivlen))
      goto bad;
  }
  if ((p = slot[kGetTlsAadPad]) != nullptr && !OSSL_PARAM_set_size_t(p, c->tls_aad_pad_sz)) goto bad;
  if ((p = slot[kGetTag]) != nullptr) {
    const size_t sz = p->data_size;
    if (sz == 0 || sz > kTagMax || !c->enc || c->taglen == kUnset) {
      GPUC_RAISE(c->prov, kErrBadParam, "the tag is read after final on encryption, 1 to 16 bytes");
      return 0;
    }
    if (!OSSL_PARAM_set_octet_string(p, c->buf, sz)) goto bad;
  }
  if ((p = slot[kGetTlsIvGen]) != nullptr) {
    if (p->data == nullptr || p->data_type != OSSL_PARAM_OCTET_STRING ||
        !getivgen(c, static_cast<uint8_t*>(p->data), p->data_size))
      return 0;
  }
  if (openssl_35_rules() && (p = slot[kGetIvGenerated]) != nullptr &&
      !OSSL_PARAM_set_uint(p, c->iv_gen_rand ? 1 : 0))
    goto bad;
  return 1;
bad:
  GPUC_RAISE(c->prov, kErrBadParam, "cannot return parameter '%s'", p->key);
  return 0;
}

int set_ctx_params(void* vctx, const OSSL_PARAM params[]) {
  auto* c = static_cast<GcmCtx*>(vctx);
  const auto slot = locate_params(params, kSetNames);
  const OSSL_PARAM* p;
  size_t sz;
  if ((p = slot[kSetTag]) != nullptr) {
    void* vp = c->buf;
    if (!OSSL_PARAM_get_octet_string(p, &vp, kTagMax, &sz)) {
      GPUC_RAISE(c->prov, kErrBadParam, "'tag' must be an octet string of 1 to 16 bytes");
      return 0;
    }
    if (sz == 0 || c->enc) {
      GPUC_RAISE(c->prov, kErrBadParam, "a tag is set only for decryption, 1 to 16 bytes");
      return 0;
    }
    c->taglen = sz;
  }
  if ((p = slot[kSetIvlen]) != nullptr) {
    if (!OSSL_PARAM_get_size_t(p, &sz) || sz == 0 || sz > kIvMax) {
      GPUC_RAISE(c->prov, kErrWrongIvLength, "GCM IVs are 1 to %zu bytes", kIvMax);
      return 0;
    }
    if (c->ivlen != sz) {
      // An IV already set (or generated) no longer fits: it is spent.
      if (c->iv_state != IvState::kUninitialised) c->iv_state = IvState::kFinished;
      c->ivlen = sz;
    }
  }
  if ((p = slot[kSetTlsAad]) != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING) {
      GPUC_RAISE(c->prov, kErrBadParam, "'tlsaad' must be an octet string");
      return 0;
    }
    sz = tls_init(c, static_cast<const uint8_t*>(p->data), p->data_size);
    if (sz == 0) {
      GPUC_RAISE(c->prov, kErrBadParam, "'tlsaad' must be a 13-byte TLS record header");
      return 0;
    }
    c->tls_aad_pad_sz = sz;
  }
  if ((p = slot[kSetTlsIvFixed]) != nullptr) {
    if (p->data_type != OSSL_PARAM_OCTET_STRING ||
        !tls_iv_set_fixed(c, static_cast<const uint8_t*>(p->data), p->data_size)) {
      GPUC_RAISE(c->prov, kErrBadParam, "'tlsivfixed': 4 or more bytes, 8 left for the record nonce");
      return 0;
    }
  }
  if ((p = slot[kSetTlsIvInv]) != nullptr) {
    if (p->data == nullptr || p->data_type != OSSL_PARAM_OCTET_STRING ||
        !setivinv(c, static_cast<const uint8_t*>(p->data), p->data_size))
      return 0;
  }
  return 1;
}

// The gettable list of the line we run in: 3.5 adds `iv-generated` (first).
const OSSL_PARAM kCtxGettable35[] = {
    OSSL_PARAM_uint(kParamIvGenerated, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, nullptr, 0),
    OSSL_PARAM_END};
const OSSL_PARAM* const kCtxGettable = kCtxGettable35 + 1;

const OSSL_PARAM kCtxSettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, nullptr, 0),
    OSSL_PARAM_END};


const OSSL_PARAM* ctx_gettable(void*, void*) { return openssl_35_rules() ? kCtxGettable35 : kCtxGettable; }
const OSSL_PARAM* ctx_settable(void*, void*) { return kCtxSettable; }
const OSSL_PARAM* gettable(void*) { return kAlgorithmGettable; }

// As ossl_cipher_generic_get_params(mode GCM, AEAD | CUSTOM_IV, keybits, 8, 96).
int get_params_for(const GcmDesc* d, OSSL_PARAM params[]) {
  return set_algorithm_params(params, {EVP_CIPH_GCM_MODE, d->algo().key_bytes, kIvDefault, 1, true, true});
}

}  // namespace

void* gcm_newctx(void* provctx, const GcmDesc* d) { return newctx_impl(provctx, d); }
int gcm_get_params(const GcmDesc* d, OSSL_PARAM params[]) { return get_params_for(d, params); }

using Fn = void (*)();
const OSSL_DISPATCH kGcmCommonFunctions[] = {{OSSL_FUNC_CIPHER_FREECTX, reinterpret_cast<Fn>(&freectx)},
                                             {OSSL_FUNC_CIPHER_DUPCTX, reinterpret_cast<Fn>(&dupctx)},
                                             {OSSL_FUNC_CIPHER_ENCRYPT_INIT, reinterpret_cast<Fn>(&einit)},
                                             {OSSL_FUNC_CIPHER_DECRYPT_INIT, reinterpret_cast<Fn>(&dinit)},
                                             {OSSL_FUNC_CIPHER_UPDATE, reinterpret_cast<Fn>(&stream_update)},
                                             {OSSL_FUNC_CIPHER_FINAL, reinterpret_cast<Fn>(&stream_final)},
                                             {OSSL_FUNC_CIPHER_CIPHER, reinterpret_cast<Fn>(&cipher)},
                                             {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, reinterpret_cast<Fn>(&get_ctx_params)},
                                             {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, reinterpret_cast<Fn>(&set_ctx_params)},
                                             {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, reinterpret_cast<Fn>(&gettable)},
                                             {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, reinterpret_cast<Fn>(&ctx_gettable)},
                                             {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, reinterpret_cast<Fn>(&ctx_settable)},
                                             {0, nullptr}};

void gcm_stats(uint64_t* records, uint64_t* bytes) {
  uint64_t r = 0, b = 0;
  for (const Shard& s : g_slots) {
    r += s.records.load(std::memory_order_relaxed);
    b += s.bytes.load(std::memory_order_relaxed);
  }
  for (const Shard& s : g_shards) {
    r += s.records.load(std::memory_order_relaxed);
    b += s.bytes.load(std::memory_order_relaxed);
  }
  *records = r;
  *bytes = b;
}

int gcm_get_provider_params(OSSL_PARAM params[]) {
  uint64_t r, b;
  gcm_stats(&r, &b);
  OSSL_PARAM* p;
  if ((p = OSSL_PARAM_locate(params, kParamGcmRecords)) != nullptr && !OSSL_PARAM_set_uint64(p, r)) return 0;
  if ((p = OSSL_PARAM_locate(params, kParamGcmBytes)) != nullptr && !OSSL_PARAM_set_uint64(p, b)) return 0;
  return 1;
}

// Written where it is safe (diag_write: never SIGXFSZ, nothing a sandbox
// forbids), and in a forked child only when the child served GCM itself: a
// child that never used the provider (a sandboxed helper, say) has nothing
// to report and inherited `log` from a parent that asked for it.
void gcm_log_stats(const ProvCtx* p) {
  if (!p->config.log) return;
  uint64_t r, b;
  gcm_stats(&r, &b);
  if (r == 0 && getpid() != p->pid) return;
  char line[96];
  const int n = std::snprintf(line, sizeof line, "gpucrypto: GCM served %llu records, %llu bytes\n",
                              static_cast<unsigned long long>(r), static_cast<unsigned long long>(b));
  if (n > 0) diag_write(line, std::min(size_t(n), sizeof line - 1));
}

}  // namespace gpucrypto
