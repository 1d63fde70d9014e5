// The padding and MAC removal of a decrypted TLS CBC record, in constant
// time (the Lucky Thirteen class of attacks: AlFardan and Paterson 2013): no
// branch and no memory index depends on the padding, the padding length or
// the MAC position. The algorithm is the one of OpenSSL's ssl/record/tls_pad.c
// (ssl3_cbc_remove_padding_and_mac, tls1_cbc_remove_padding_and_mac,
// ssl3_cbc_copy_mac), with the MAC rotation done without a secret index
// (tls_pad.c's default rotation indexes a cache-line-aligned buffer with the
// secret offset). No OpenSSL dependency: test/ct builds it into ct_harness and
// dudect as it is.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::tls {

inline constexpr size_t kMaxMacBytes = 64;  // EVP_MAX_MD_SIZE
inline constexpr size_t kMaxPadding = 256;  // TLS padding, length byte included

// Constant-time helpers, in the shape of OpenSSL's internal/constant_time.h
// (not a public header): masks are all ones (true) or all zeros (false).
// value_barrier keeps the compiler from turning a mask back into a branch.
inline size_t value_barrier(size_t a) {
  __asm__("" : "+r"(a));
  return a;
}
inline size_t ct_msb(size_t a) { return size_t(0) - (a >> (sizeof a * 8 - 1)); }
inline size_t ct_lt(size_t a, size_t b) { return ct_msb(a ^ ((a ^ b) | ((a - b) ^ b))); }
inline size_t ct_ge(size_t a, size_t b) { return ~ct_lt(a, b); }
inline size_t ct_is_zero(size_t a) { return ct_msb(~a & (a - 1)); }
inline size_t ct_eq(size_t a, size_t b) { return ct_is_zero(a ^ b); }
inline size_t ct_select(size_t mask, size_t a, size_t b) {
  mask = value_barrier(mask);
  return (mask & a) | (~mask & b);
}
inline uint8_t ct_select_8(uint8_t mask, uint8_t a, uint8_t b) {
  return uint8_t(ct_select(size_t(0) - size_t(mask & 1), a, b));
}

struct Unpadded {
  bool publicly_valid;  // false: too short for the MAC and padding (public lengths)
  size_t good;          // all ones: the padding is well formed (secret until the MAC is checked)
};

// rec[0, *len): a decrypted record, its explicit IV already skipped (TLS 1.1
// and later). `ssl3` picks SSL 3.0's rule (only the padding length is
// checked, and it must be below the block size) over TLS's (every padding byte
// equals the length byte; up to 255 of them). On return *len is the payload
// length, the padding and mac_size MAC bytes off (only the MAC's when the
// padding is bad), and mac[0, mac_size) the record's MAC, or randmac when the
// padding is bad, so that the MAC check fails without a branch here.
// mac_size <= kMaxMacBytes; block_size > 1. When the record is publicly
// invalid, *len and mac are left as they are.
Unpadded remove_padding_and_mac(bool ssl3, const uint8_t* rec, size_t* len, size_t block_size,
                                size_t mac_size, const uint8_t* randmac, uint8_t* mac);

}  // namespace gpucrypto::tls
