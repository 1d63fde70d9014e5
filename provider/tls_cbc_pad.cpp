#include "provider/tls_cbc_pad.h"

#include <cstring>

namespace gpucrypto::tls {
namespace {

// A public index, opaque to the optimiser. In the loops below GCC otherwise
// shares one induction variable between a mask and an address: it walked
// rec[len - 1 - i] as (rec + len - 1 - pad) + (pad - i), and randmac[k] as
// (randmac - rotate_offset) + (rotate_offset + k). The secret cancels, but
// the address is then computed from it (ct_harness reports exactly that), and
// whether it cancels is up to the compiler.
inline size_t pub(size_t i) { return value_barrier(i); }

// Copies the mac_size bytes that end at *len (secret, within 256 + mac_size
// bytes of the record's end) to mac, or randmac when good is 0. Every byte
// of that window is read and every MAC position tried, as ssl3_cbc_copy_mac.
void copy_mac(const uint8_t* rec, size_t orig_len, size_t mac_end, size_t mac_size, size_t good,
              const uint8_t* randmac, uint8_t* mac) {
  uint8_t rotated[kMaxMacBytes] = {};
  const size_t mac_start = mac_end - mac_size;
  // The MAC can only start in the last 255 + 1 + mac_size bytes (public).
  const size_t scan_start = orig_len > mac_size + kMaxPadding ? orig_len - (mac_size + kMaxPadding) : 0;
  // rotated[j] collects the byte at i when i - scan_start = j (mod mac_size):
  // the MAC lands rotated by rotate_offset, the j it started at.
  size_t in_mac = 0, rotate_offset = 0, j = 0;
  for (size_t i = scan_start; i < orig_len; ++i) {
    const size_t started = ct_eq(i, mac_start);
    in_mac |= started;
    in_mac &= ct_lt(i, mac_end);
    rotate_offset |= j & started;
    rotated[pub(j)] |= uint8_t(rec[pub(i)] & in_mac);
    if (++j == mac_size) j = 0;  // j follows i: public
  }
  // mac[k] = rotated[(rotate_offset + k) mod mac_size], each output byte an OR
  // over every position so that no address depends on rotate_offset. The
  // barrier on the mask keeps GCC from seeing that exactly one i matches and
  // loading rotated[want] (it did: ct_harness reported the secret address).
  const uint8_t good8 = uint8_t(good);
  for (size_t k = 0; k < mac_size; ++k) {
    size_t want = rotate_offset + k;  // < 2 * mac_size
    want -= mac_size & ct_ge(want, mac_size);
    uint8_t b = 0;
    for (size_t i = 0; i < mac_size; ++i) b |= uint8_t(rotated[pub(i)] & value_barrier(ct_eq(i, want)));
    const size_t at = pub(k);
    mac[at] = ct_select_8(good8, b, randmac[at]);
  }
  volatile uint8_t* wipe = rotated;  // the candidate MAC bytes (plaintext)
  for (size_t i = 0; i < sizeof rotated; ++i) wipe[i] = 0;
}

}  // namespace

Unpadded remove_padding_and_mac(bool ssl3, const uint8_t* rec, size_t* len, size_t block_size,
                                size_t mac_size, const uint8_t* randmac, uint8_t* mac) {
  const size_t orig_len = *len;
  const size_t overhead = 1 + mac_size;  // the padding length byte and the MAC
  if (mac_size > kMaxMacBytes || overhead > orig_len) return {false, 0};  // public
  const size_t pad = rec[orig_len - 1];
  size_t good = ct_ge(orig_len, overhead + pad);
  if (ssl3) {
    // SSL 3.0 padding is arbitrary bytes, but must be minimal.
    good &= ct_ge(block_size, pad + 1);
  } else {
    // Each of the last pad + 1 bytes must equal pad. Checking only those would
    // tell pad by the time: always check the most there can be (public).
    const size_t to_check = orig_len < kMaxPadding ? orig_len : kMaxPadding;
    size_t diff = 0;
    for (size_t i = 0; i < to_check; ++i)
      diff |= ct_ge(pad, i) & (pad ^ rec[pub(orig_len - 1 - i)]);
    good &= ct_is_zero(diff & 0xff);
  }
  const size_t payload_and_mac = orig_len - (good & (pad + 1));
  if (mac_size != 0) copy_mac(rec, orig_len, payload_and_mac, mac_size, good, randmac, mac);
  *len = payload_and_mac - mac_size;
  return {true, good};
}

}  // namespace gpucrypto::tls
