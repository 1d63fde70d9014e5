// Fuzz target: ML-KEM-512/768/1024 key decoders, raw key import and
// decapsulation, through the built provider and checked against the C API.
//
// The first byte picks the level (byte % 3: 512, 768, 1024) and what the
// rest of the input is ((byte / 3) % 4):
//  0: DER (SubjectPublicKeyInfo or PrivateKeyInfo, seed or expanded form)
//     through OSSL_DECODER; a key that decodes must be of that level, carry a
//     public key that passes the FIPS 203 modulus check and, with a private
//     key, one that passes the hash check and embeds the same ek; it must
//     re-encode and decode again to the same key.
//  1: the same from PEM.
//  2: raw import of "pub", "priv" and "seed" with fuzzed lengths: accepted
//     exactly when the C API's checks accept the bytes; a seed key equals
//     mlkem_keypair_derand(seed).
//  3: decapsulation with a key from a fuzzed seed or fuzzed dk bytes and a
//     fuzzed ciphertext (of a fuzzed length): EVP_PKEY_decapsulate must fail
//     on a wrong length and otherwise equal mlkem_decaps; a real
//     encapsulation to a seeded key must round-trip.
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpucrypto/mlkem.h"
#include "test/fuzz/fuzz_common.h"

namespace {

using namespace gpucrypto::fuzz;  // providers, Reader, decode_key, encode_der, import_key
using Bytes = std::vector<uint8_t>;

struct Level {
  int level;
  const char* name;
  size_t ek, dk, ct;
};

Level level_of(uint8_t b) {
  switch (b % 3) {
    case 0: return {512, "ML-KEM-512", MLKEM512_PUBLICKEY_BYTES, MLKEM512_SECRETKEY_BYTES, MLKEM512_CIPHERTEXT_BYTES};
    case 1: return {768, "ML-KEM-768", MLKEM768_PUBLICKEY_BYTES, MLKEM768_SECRETKEY_BYTES, MLKEM768_CIPHERTEXT_BYTES};
    default: return {1024, "ML-KEM-1024", MLKEM1024_PUBLICKEY_BYTES, MLKEM1024_SECRETKEY_BYTES, MLKEM1024_CIPHERTEXT_BYTES};
  }
}

Bytes octets(EVP_PKEY* k, const char* name, size_t max) {
  Bytes b(max);
  size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(k, name, b.data(), b.size(), &len) != 1) return {};
  b.resize(len);
  return b;
}

// The invariants every ML-KEM key the provider holds must satisfy.
void check_key(const Level& l, EVP_PKEY* key) {
  FUZZ_CHECK(EVP_PKEY_is_a(key, l.name), "decoded a key of another type");
  const Bytes pub = octets(key, OSSL_PKEY_PARAM_PUB_KEY, l.ek + 1);
  FUZZ_CHECK(pub.size() == l.ek && mlkem_check_publickey(l.level, pub.data()) == MLKEM_OK,
             "%s key with an invalid public key (%zu bytes)", l.name, pub.size());
  const Bytes priv = octets(key, OSSL_PKEY_PARAM_PRIV_KEY, l.dk + 1);
  if (!priv.empty()) {
    FUZZ_CHECK(priv.size() == l.dk && mlkem_check_secretkey(l.level, priv.data()) == MLKEM_OK,
               "%s key with an invalid private key", l.name);
    const size_t off = 384 * size_t(l.level / 256);
    FUZZ_CHECK(std::memcmp(priv.data() + off, pub.data(), l.ek) == 0,
               "%s private key embeds another public key", l.name);
  }
}

void der_or_pem(const Level& l, bool pem, const uint8_t* p, size_t n) {
  EVP_PKEY* key = decode_key(pem ? "PEM" : "DER", l.name, p, n);
  if (key == nullptr) return;
  check_key(l, key);
  const bool has_priv = !octets(key, OSSL_PKEY_PARAM_PRIV_KEY, l.dk + 1).empty();
  const Bytes der = encode_der(key, has_priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY);
  FUZZ_CHECK(!der.empty(), "%s: a decoded key does not encode", l.name);
  EVP_PKEY* again = decode_key("DER", l.name, der.data(), der.size());
  FUZZ_CHECK(again != nullptr && EVP_PKEY_eq(key, again) == 1,
             "%s: encode/decode does not give the same key back", l.name);
  EVP_PKEY_free(again);
  EVP_PKEY_free(key);
}

void raw_import(const Level& l, Reader& r) {
  Bytes buf(l.dk + 2);
  // pub
  size_t len = r.u16() % (l.ek + 2);
  std::fill(buf.begin(), buf.end(), 0);
  r.bytes(buf.data(), len);
  EVP_PKEY* k = import_key(l.name, OSSL_PKEY_PARAM_PUB_KEY, buf.data(), len, EVP_PKEY_PUBLIC_KEY);
  bool valid = len == l.ek && mlkem_check_publickey(l.level, buf.data()) == MLKEM_OK;
  FUZZ_CHECK((k != nullptr) == valid, "%s pub import %s what the C API %s", l.name,
             k ? "accepted" : "rejected", valid ? "accepts" : "rejects");
  if (k != nullptr) check_key(l, k);
  EVP_PKEY_free(k);
  // priv (the expanded dk)
  len = r.u16() % (l.dk + 2);
  std::fill(buf.begin(), buf.end(), 0);
  r.bytes(buf.data(), len);
  k = import_key(l.name, OSSL_PKEY_PARAM_PRIV_KEY, buf.data(), len, EVP_PKEY_KEYPAIR);
  const size_t off = 384 * size_t(l.level / 256);
  valid = len == l.dk && mlkem_check_secretkey(l.level, buf.data()) == MLKEM_OK &&
          mlkem_check_publickey(l.level, buf.data() + off) == MLKEM_OK;
  FUZZ_CHECK((k != nullptr) == valid, "%s priv import %s what the C API %s", l.name,
             k ? "accepted" : "rejected", valid ? "accepts" : "rejects");
  if (k != nullptr) check_key(l, k);
  EVP_PKEY_free(k);
  // seed (d || z): any 64 bytes are a key, and it is KeyGen_internal(d, z)
  len = r.byte() % (MLKEM_KEYGEN_SEED_BYTES + 2);
  std::fill(buf.begin(), buf.end(), 0);
  r.bytes(buf.data(), len);
  k = import_key(l.name, "seed", buf.data(), len, EVP_PKEY_KEYPAIR);
  FUZZ_CHECK((k != nullptr) == (len == MLKEM_KEYGEN_SEED_BYTES), "%s seed import of %zu bytes %s",
             l.name, len, k ? "accepted" : "rejected");
  if (k != nullptr) {
    check_key(l, k);
    Bytes ek(l.ek), dk(l.dk);
    FUZZ_CHECK(mlkem_keypair_derand(l.level, ek.data(), dk.data(), buf.data()) == MLKEM_OK, "keygen");
    FUZZ_CHECK(octets(k, OSSL_PKEY_PARAM_PUB_KEY, l.ek + 1) == ek, "%s seed key differs from KeyGen", l.name);
    FUZZ_CHECK(octets(k, OSSL_PKEY_PARAM_PRIV_KEY, l.dk + 1) == dk, "%s seed dk differs from KeyGen", l.name);
  }
  EVP_PKEY_free(k);
}

void decapsulate(const Level& l, Reader& r) {
  Bytes ek(l.ek), dk(l.dk);
  const uint8_t mode = r.byte();
  if (mode & 1) {
    uint8_t seed[MLKEM_KEYGEN_SEED_BYTES];
    r.bytes(seed, sizeof seed);
    FUZZ_CHECK(mlkem_keypair_derand(l.level, ek.data(), dk.data(), seed) == MLKEM_OK, "keygen");
  } else {
    r.bytes(dk.data(), dk.size());
  }
  EVP_PKEY* key = import_key(l.name, OSSL_PKEY_PARAM_PRIV_KEY, dk.data(), dk.size(), EVP_PKEY_KEYPAIR);
  if (key == nullptr) return;  // invalid bytes: raw_import's business
  Bytes ct(l.ct + 2, 0);
  r.bytes(ct.data(), l.ct);
  const size_t ctlen = (mode & 2) ? l.ct - 1 + r.byte() % 3 : l.ct;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(providers().lib, key, nullptr);
  uint8_t ss[MLKEM_SHARED_SECRET_BYTES], want[MLKEM_SHARED_SECRET_BYTES];
  size_t sslen = sizeof ss;
  FUZZ_CHECK(ctx != nullptr && EVP_PKEY_decapsulate_init(ctx, nullptr) == 1, "decapsulate_init");
  const int rc = EVP_PKEY_decapsulate(ctx, ss, &sslen, ct.data(), ctlen);
  FUZZ_CHECK((rc == 1) == (ctlen == l.ct), "%s decapsulate of %zu bytes returned %d", l.name, ctlen, rc);
  if (rc == 1) {
    FUZZ_CHECK(mlkem_decaps(l.level, want, ct.data(), dk.data()) == MLKEM_OK, "C decaps");
    FUZZ_CHECK(sslen == sizeof ss && std::memcmp(ss, want, sizeof ss) == 0,
               "%s: EVP and C API decapsulation disagree", l.name);
  }
  if ((mode & 1) == 0) {
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(key);
    return;
  }
  uint8_t m[MLKEM_ENCAPS_SEED_BYTES], ss2[MLKEM_SHARED_SECRET_BYTES];
  r.bytes(m, sizeof m);
  Bytes ct2(l.ct);
  FUZZ_CHECK(mlkem_encaps_derand(l.level, ct2.data(), ss2, ek.data(), m) == MLKEM_OK, "encaps");
  check_round_trip_and_free(ctx, key, ct2.data(), ct2.size(), ss2, sizeof ss2, l.name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  providers();
  if (size == 0) return 0;
  const Level l = level_of(data[0]);
  Reader r(data + 1, size - 1);
  switch ((data[0] / 3) % 4) {
    case 0: der_or_pem(l, false, data + 1, size - 1); break;
    case 1: der_or_pem(l, true, data + 1, size - 1); break;
    case 2: raw_import(l, r); break;
    case 3: decapsulate(l, r); break;
  }
  ERR_clear_error();
  return 0;
}
