#include "provider/cipher_tls.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>
#include <openssl/rand.h>

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "engine/diag_write.h"
#include "provider/tls_cbc_pad.h"

namespace gpucrypto {
namespace {

// Raises why a record cannot be processed; 0 for the update to return.
#define TLS_FAIL(prov, ...) (GPUC_RAISE((prov), kErrTlsRecord, __VA_ARGS__), 0)

// Sharded by context address, as cipher_gcm.cpp's counts: connections on
// different threads do not share a cache line.
struct alignas(64) Shard {
  std::atomic<uint64_t> records{0};
};
Shard g_shards[16];

// A forked child counts from zero, as cipher_gcm.cpp's counts.
void zero_counts() {
  for (Shard& s : g_shards) s.records.store(0, std::memory_order_relaxed);
}
[[maybe_unused]] const bool g_counts_per_process = pthread_atfork(nullptr, nullptr, zero_counts) == 0;

void count_record(const void* ctx) {
  g_shards[(reinterpret_cast<uintptr_t>(ctx) >> 6) % std::size(g_shards)].records.fetch_add(
      1, std::memory_order_relaxed);
}

// What ossl_cipher_tlsunpadblock does per version: 1 = the record opens with
// an explicit IV block, 0 = none, -1 = not a version it knows.
int explicit_iv(unsigned version) {
  switch (version) {
    case SSL3_VERSION:
    case TLS1_VERSION: return 0;
    case TLS1_1_VERSION:
    case TLS1_2_VERSION:
    case DTLS1_VERSION:
    case DTLS1_2_VERSION:
    case DTLS1_BAD_VER: return 1;
    default: return -1;
  }
}

// Decryption's second half: out[0, *outl) is the decrypted record.
int unpad_record(TlsRecordMode* t, const ProvCtx* prov, size_t bs, unsigned char* out,
                 size_t* outl) {
  const int eiv = explicit_iv(t->version);
  if (eiv < 0) return TLS_FAIL(prov, "TLS version 0x%x has no CBC record format", t->version);
  unsigned char* rec = out;
  if (eiv == 1) {
    // The first block is the explicit IV: not part of the payload. (The
    // default provider does not check that the record holds it, and reads
    // before the buffer on an empty one.)
    if (*outl < bs) return TLS_FAIL(prov, "a %zu-byte record has no explicit IV block", *outl);
    rec += bs;
    *outl -= bs;
  }
  if (t->mac_size > tls::kMaxMacBytes || 1 + t->mac_size > *outl)
    return TLS_FAIL(prov, "a %zu-byte record cannot hold a %zu-byte MAC and the padding length",
                  *outl, t->mac_size);
  uint8_t randmac[tls::kMaxMacBytes];
  uint8_t* mac = nullptr;
  if (t->mac_size != 0) {
    // The MAC handed back when the padding is bad: the MAC check then fails
    // as for any forged record, without a branch on the padding here.
    if (RAND_bytes_ex(prov->libctx, randmac, t->mac_size, 0) <= 0)
      return TLS_FAIL(prov, "no random MAC for a bad padding");
    mac = static_cast<uint8_t*>(OPENSSL_malloc(t->mac_size));
    if (mac == nullptr) {
      OPENSSL_cleanse(randmac, sizeof randmac);
      GPUC_RAISE(prov, kErrMalloc);
      return 0;
    }
  }
  const tls::Unpadded r = tls::remove_padding_and_mac(t->version == SSL3_VERSION, rec, outl, bs,
                                                      t->mac_size, randmac, mac);
  OPENSSL_cleanse(randmac, sizeof randmac);
  if (mac != nullptr) {
    t->mac = mac;
    t->mac_owned = t->mac_size;
  }
  // Without a MAC (encrypt-then-MAC: libssl checked it over the ciphertext
  // already) a bad padding is an error straight away, as in tls_pad.c.
  if (t->mac_size == 0 && r.good == 0) return TLS_FAIL(prov, "bad record padding");
  return 1;
}

}  // namespace

void tls_free_mac(TlsRecordMode* t) {
  if (t->mac_owned != 0) OPENSSL_clear_free(t->mac, t->mac_owned);
  t->mac = nullptr;
  t->mac_owned = 0;
}

bool tls_dup(TlsRecordMode* dst, const TlsRecordMode& src) {
  if (src.mac_owned == 0) return true;  // nullptr, or into the caller's record: shared as is
  dst->mac = static_cast<uint8_t*>(OPENSSL_memdup(src.mac, src.mac_owned));
  dst->mac_owned = dst->mac != nullptr ? src.mac_owned : 0;
  return dst->mac != nullptr;
}

int tls_block_update(TlsRecordMode* t, const ProvCtx* prov, bool enc, bool pad, size_t bs,
                     TlsBlockFn fn, void* cctx, unsigned char* out, size_t* outl, size_t outsize,
                     const unsigned char* in, size_t inl) {
  // Each update is one whole record, in place (libssl's record buffers).
  if (in == nullptr || in != out || outsize < inl || !pad)
    return TLS_FAIL(prov, "a TLS record goes through in place, with padding on (%zu of %zu bytes)",
                  inl, outsize);
  size_t len = inl;
  if (enc) {
    // TLS padding: 1..bs bytes, each holding their count - 1; SSL 3.0's are
    // zeros before that length byte (as the default provider writes them).
    const size_t padnum = bs - inl % bs;
    if (outsize - inl < padnum)
      return TLS_FAIL(prov, "no room for %zu bytes of TLS padding after %zu", padnum, inl);
    if (padnum > tls::kMaxPadding) return TLS_FAIL(prov, "%zu bytes of padding", padnum);
    std::memset(out + inl, t->version == SSL3_VERSION ? 0 : int(padnum - 1), padnum - 1);
    out[inl + padnum - 1] = uint8_t(padnum - 1);
    len += padnum;
  }
  if (len % bs != 0)
    return TLS_FAIL(prov, "a %zu-byte record is not whole %zu-byte blocks", len, bs);
  fn(cctx, in, out, len / bs);
  tls_free_mac(t);  // the previous record's
  *outl = len;
  if (!enc && !unpad_record(t, prov, bs, out, outl)) return 0;
  count_record(cctx);
  return 1;
}

int tls_stream_mac(TlsRecordMode* t, unsigned char* out, size_t* outl) {
  if (t->mac_size == 0) return 1;
  if (*outl < t->mac_size) return 0;
  tls_free_mac(t);
  t->mac = out + *outl - t->mac_size;
  *outl -= t->mac_size;
  return 1;
}

int tls_set_params(TlsRecordMode* t, const ProvCtx* prov, const OSSL_PARAM* version, const OSSL_PARAM* mac_size) {
  if (version != nullptr && !OSSL_PARAM_get_uint(version, &t->version)) {
    GPUC_RAISE(prov, kErrBadParam, "'tls-version' must be an unsigned integer");
    return 0;
  }
  if (mac_size != nullptr && !OSSL_PARAM_get_size_t(mac_size, &t->mac_size)) {
    GPUC_RAISE(prov, kErrBadParam, "'tls-mac-size' must be a size_t");
    return 0;
  }
  return 1;
}

int tls_get_params(const TlsRecordMode& t, const ProvCtx* prov, OSSL_PARAM* mac) {
  if (mac != nullptr && !OSSL_PARAM_set_octet_ptr(mac, t.mac, t.mac_size)) {
    GPUC_RAISE(prov, kErrBadParam, "cannot return parameter 'tls-mac'");
    return 0;
  }
  return 1;
}

uint64_t tls_cbc_records() {
  uint64_t n = 0;
  for (const Shard& s : g_shards) n += s.records.load(std::memory_order_relaxed);
  return n;
}

// As gcm_log_stats: through diag_write (never SIGXFSZ, nothing a sandbox
// forbids), and in a forked child only when the child served records itself.
void tls_log_stats(const ProvCtx* p) {
  if (!p->config.log) return;
  const uint64_t n = tls_cbc_records();
  if (n == 0 && getpid() != p->pid) return;
  char line[64];
  const int len = std::snprintf(line, sizeof line, "gpucrypto: TLS CBC served %llu records\n",
                                static_cast<unsigned long long>(n));
  if (len > 0) diag_write(line, std::min(size_t(len), sizeof line - 1));
}

}  // namespace gpucrypto
#undef TLS_FAIL
