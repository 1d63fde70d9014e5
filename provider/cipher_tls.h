// TLS record mode of the generic block-cipher layer (cipher_generic.cpp), as
// libssl drives a provided CBC cipher for the TLS 1.2 and older CBC suites:
// it sets `tls-version` and `tls-mac-size`, hands each record to one update
// (in place), and on decryption reads the record's MAC back through
// `tls-mac`. Encryption adds the TLS padding; decryption removes the explicit
// IV (TLS 1.1 and later), the padding and the MAC in constant time
// (tls_cbc_pad.h). Every step, length and pointer follows the default
// provider's ciphercommon (ossl_cipher_generic_block_update with a TLS
// version, ossl_cipher_tlsunpadblock, the stream modes' MAC split), call for
// call: test/cbc_tls_test.cpp compares them record by record.
#pragma once
#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

#include "provider/provctx.h"

namespace gpucrypto {

struct TlsRecordMode {
  unsigned version = 0;   // `tls-version`; 0: not in record mode
  size_t mac_size = 0;    // `tls-mac-size`
  uint8_t* mac = nullptr;  // `tls-mac`: the last record's MAC, or nullptr
  // Bytes of `mac` owned by the context (the default provider's `alloced`:
  // block modes copy the MAC out, constant time); 0 when `mac` points into
  // the caller's record (stream modes) or is nullptr. Valid until the next
  // record, re-keying keeps it, free wipes it.
  size_t mac_owned = 0;
};

// Wipes and frees an owned MAC (the next record, freectx).
void tls_free_mac(TlsRecordMode* t);
// dupctx: the copy owns a copy of an owned MAC. False when out of memory (the
// copy then owns none).
bool tls_dup(TlsRecordMode* dst, const TlsRecordMode& src);

// Whole blocks of the context's mode, in place or not.
using TlsBlockFn = void (*)(void* cctx, const uint8_t* in, uint8_t* out, size_t nblocks);

// One TLS record through ECB/CBC (update while `version` != 0): the default
// provider's checks (in == out, room for the padding, padding on), padding or
// unpadding, *outl as it reports it. `prov` for errors and the DRBG.
int tls_block_update(TlsRecordMode* t, const ProvCtx* prov, bool enc, bool pad, size_t bs,
                     TlsBlockFn fn, void* cctx, unsigned char* out, size_t* outl, size_t outsize,
                     const unsigned char* in, size_t inl);
// After a stream mode decrypted a non-empty record into out[0, *outl): the MAC
// is its last mac_size bytes (no padding); *outl drops them. 0 when the record
// is shorter than the MAC (silently, as the default provider).
int tls_stream_mac(TlsRecordMode* t, unsigned char* out, size_t* outl);

// The `tls-version` and `tls-mac-size` entries of a set_ctx_params request
// (null: absent); the `tls-mac` entry of a get_ctx_params one (an octet
// pointer of mac_size bytes). The context's locate_params found them.
int tls_set_params(TlsRecordMode* t, const ProvCtx* prov, const OSSL_PARAM* version, const OSSL_PARAM* mac_size);
int tls_get_params(const TlsRecordMode& t, const ProvCtx* prov, OSSL_PARAM* mac);

// Records served in TLS record mode (block modes), all contexts; with the
// provider's `log` on, printed at teardown ("gpucrypto: TLS CBC served N
// records"), which test/cli/cbc_tls.sh reads.
uint64_t tls_cbc_records();
void tls_log_stats(const ProvCtx* p);

}  // namespace gpucrypto
