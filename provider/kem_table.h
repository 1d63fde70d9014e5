// The KEMs this provider serves, as data: one row per algorithm (names, OID,
// sizes, security, encodings, and the C entry points behind it). The one
// keymgmt, KEM operation and encoder/decoder set (provider/kem_*.cpp) read
// only this table, so a new KEM is a new row plus its entry points
// (docs/ARCHITECTURE.md, "How to add a KEM").
//
// Entry points take the row and a KemCall (the provider instance: library
// context and engine configuration), so a row whose operations are a
// composition of other rows (a hybrid such as X25519MLKEM768) fits the same
// shape: its functions call the component rows'.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>

#include <openssl/types.h>

#include "gpucrypto/babykyber.h"
#include "gpucrypto/mlkem.h"
#include "provider/provctx.h"

namespace gpucrypto::kemprov {

struct Key;
struct KemDesc;

struct PkeyFree {
  void operator()(EVP_PKEY* p) const noexcept;  // EVP_PKEY_free
};
using OwnedPkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

// One call into a row's entry points.
struct KemCall {
  explicit KemCall(const ProvCtx& p) : prov(p) {}
  const ProvCtx& prov;        // libctx (randomness, SHA-3) and config (the backend cap)
  const char* kernels = nullptr;  // out: the kernel set that ran ("ref", "avx2", "avx512")
  // A hybrid's classical half as an OpenSSL key, decoded once per key (other
  // rows leave both alone). `classical` (in: encaps, decaps, pub_from_priv)
  // is what the key keeps -- the peer's public key, or our key pair -- or
  // nullptr, and then the entry point decodes the bytes itself. `decoded`
  // (out: keygen, check_pub, check_priv) is the key the entry point built
  // while checking or generating, for the Key to keep (Key::classical).
  EVP_PKEY* classical = nullptr;
  OwnedPkey decoded;
};

// The kernel set an entry point runs, recorded in the call: `impl` is chosen
// from call.prov.config.features() (the instance's backend cap).
template <class Impl>
const Impl& uses(KemCall& call, const Impl& impl) {
  call.kernels = impl.name;
  return impl;
}

// Status codes of the entry points: the C APIs' (0 = ok; both KEM headers
// use these values).
inline constexpr int kOk = 0, kLibErrKey = -2, kLibErrHash = -3;
// A private key whose own encapsulation it does not decapsulate (the
// pairwise test): the provider's code, not a C API's.
inline constexpr int kErrPairwise = -30;
// Which of FIPS 203's checks refused an ML-KEM private key (the C API says
// only MLKEM_ERR_KEY): section 7.3's hash check, or 7.2's modulus check on
// the embedded ek.
inline constexpr int kErrDkHash = -31, kErrEkModulus = -32;

// What PrivateKeyInfo's privateKey OCTET STRING holds.
enum class PrivForm : uint8_t {
  kRaw,           // the private key bytes themselves (babyKyber)
  kSeedExpanded,  // ML-KEM-PrivateKey: [0] seed, expandedKey OCTET STRING, or both
};

struct KemDesc {
  // --- names ------------------------------------------------------------
  const char* name;         // canonical name: keymgmt/KEM/decoder data type, messages
  const char* names;        // OSSL_ALGORITHM name list: name, aliases, dotted OID
  const char* description;
  const char* tls_group;    // TLS group name accepted as keygen "group" (nullptr: none)
  unsigned tls_id;          // its IANA TLS Supported Groups code point (0: none)
  // --- AlgorithmIdentifier: the OID's DER contents (parameters absent) ----
  // oid_len 0: no standard key format (the hybrids, as in OpenSSL 3.5): the
  // row gets no encoders or decoders.
  uint8_t oid_len;
  uint8_t oid[15];
  // --- sizes and strength ----------------------------------------------
  int security_bits;
  int bits;                 // EVP_PKEY_get_bits: what OpenSSL 3.5 reports (ML-KEM-768: 768;
                            // a hybrid: its ML-KEM part's)
  size_t pub_bytes, priv_bytes, ct_bytes, ss_bytes;
  size_t seed_bytes;        // keygen "seed" (deterministic keys)
  size_t pub_in_priv;       // offset of the public key inside the private key (when
                            // pub_from_priv is nullptr)
  // --- encodings ---------------------------------------------------------
  bool stores_seed;         // the seed is key material: import/export/get "seed",
                            // seed-form PKCS#8 when known
  PrivForm priv_form;
  bool der_exact;           // decoders accept only the one canonical DER, anything
                            // else is "not ours" (the decoder chain moves on)
  size_t max_der;           // longer decoder input is "not ours"
  const char* text_note;    // printed after the text header (nullptr: none)
  const char* pub_label;    // text labels of the key parts
  const char* priv_label;
  int param;                // passed through to the entry points (ML-KEM level)
  // --- C entry points (return kOk or the C API's negative code) -----------
  // seed_in: seed_bytes, or nullptr for a random key; seed_out (nullptr or
  // seed_bytes) receives the seed a stores_seed key keeps.
  int (*keygen)(KemCall&, const KemDesc&, uint8_t* pub, uint8_t* priv, const uint8_t* seed_in,
                uint8_t* seed_out);
  int (*encaps)(KemCall&, const KemDesc&, uint8_t* ct, uint8_t* ss, const uint8_t* pub);
  int (*decaps)(KemCall&, const KemDesc&, uint8_t* ss, const uint8_t* ct, const uint8_t* priv);
  int (*check_pub)(KemCall&, const KemDesc&, const uint8_t* pub);
  int (*check_priv)(KemCall&, const KemDesc&, const uint8_t* priv);  // incl. the embedded pub
  // The public key of a checked private key (nullptr: the pub_bytes at
  // pub_in_priv). A hybrid computes its classical half.
  int (*pub_from_priv)(KemCall&, const KemDesc&, const uint8_t* priv, uint8_t* pub);
  // The pairwise consistency test of a checked expanded private key and its
  // public key (kOk, kErrPairwise, or a C API code when it could not run);
  // nullptr: the row has none (babyKyber). Run on every private key imported
  // or decoded in expanded form, as `how` (the instance's
  // ml-kem.import_pct_type) says, and by validate (always random).
  int (*pairwise)(KemCall&, const KemDesc&, const uint8_t* pub, const uint8_t* priv,
                  PairwiseTest how);
  const char* (*strerror)(int rc);
  // Appends algorithm-specific text output (nullptr: none).
  void (*text_extra)(const Key&, bool with_priv, std::string& out);
};

// --- the rows' entry points (provider/kem_rows_babykyber.cpp, kem_rows_mlkem.cpp)
namespace rows {
int bk_keygen(KemCall&, const KemDesc&, uint8_t*, uint8_t*, const uint8_t*, uint8_t*);
int bk_encaps(KemCall&, const KemDesc&, uint8_t*, uint8_t*, const uint8_t*);
int bk_decaps(KemCall&, const KemDesc&, uint8_t*, const uint8_t*, const uint8_t*);
int bk_check_pub(KemCall&, const KemDesc&, const uint8_t*);
int bk_check_priv(KemCall&, const KemDesc&, const uint8_t*);
void bk_text(const Key&, bool, std::string&);
int mlkem_keygen(KemCall&, const KemDesc&, uint8_t*, uint8_t*, const uint8_t*, uint8_t*);
int mlkem_encaps(KemCall&, const KemDesc&, uint8_t*, uint8_t*, const uint8_t*);
int mlkem_decaps(KemCall&, const KemDesc&, uint8_t*, const uint8_t*, const uint8_t*);
int mlkem_check_pub(KemCall&, const KemDesc&, const uint8_t*);
int mlkem_check_priv(KemCall&, const KemDesc&, const uint8_t*);
int mlkem_pairwise(KemCall&, const KemDesc&, const uint8_t*, const uint8_t*, PairwiseTest);
const char* mlkem_row_strerror(int rc);

// ML-KEM-<level>: 2.16.840.1.101.3.4.4.<arc> (NIST kems arc); ek = 384k + 32
// bytes sits at offset 384k inside dk.
constexpr KemDesc mlkem(int level, const char* name, const char* names, const char* description,
                        const char* tls_group, unsigned tls_id, uint8_t arc, int security_bits,
                        size_t ek, size_t dk, size_t ct) {
  return {.name = name, .names = names, .description = description, .tls_group = tls_group,
          .tls_id = tls_id,
          .oid_len = 9, .oid = {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, arc},
          .security_bits = security_bits, .bits = level,
          .pub_bytes = ek, .priv_bytes = dk, .ct_bytes = ct, .ss_bytes = MLKEM_SHARED_SECRET_BYTES,
          .seed_bytes = MLKEM_KEYGEN_SEED_BYTES, .pub_in_priv = size_t(384 * (level / 256)),
          .stores_seed = true, .priv_form = PrivForm::kSeedExpanded, .der_exact = false,
          // The largest structure (a 3168-byte dk in "both" form) is under
          // 3300 bytes: anything much longer is not ours.
          .max_der = 4096, .text_note = nullptr, .pub_label = "ek", .priv_label = "dk",
          .param = level, .keygen = mlkem_keygen, .encaps = mlkem_encaps, .decaps = mlkem_decaps,
          .check_pub = mlkem_check_pub, .check_priv = mlkem_check_priv, .pub_from_priv = nullptr,
          .pairwise = mlkem_pairwise, .strerror = mlkem_row_strerror, .text_extra = nullptr};
}

// --- hybrids (provider/kem_rows_hybrid.cpp): ML-KEM + ECDH, draft-ietf-tls-ecdhe-mlkem,
// names, code points and layouts of OpenSSL 3.5.
enum class Classical : uint8_t { kX25519, kP256, kP384 };
struct ClassicalDesc {
  const char* keytype;  // EVP key type in the default provider
  const char* group;    // EC group name (nullptr for X25519)
  size_t pub_bytes;     // X25519 raw key; an uncompressed EC point 04 || x || y
  size_t priv_bytes;    // raw X25519 key; the EC scalar, big-endian, fixed length
  size_t ss_bytes;      // ECDH output: X25519's 32 bytes; the EC x-coordinate
};
constexpr ClassicalDesc kClassical[] = {{"X25519", nullptr, 32, 32, 32},
                                        {"EC", "P-256", 65, 32, 32},
                                        {"EC", "P-384", 97, 48, 48}};
constexpr const ClassicalDesc& classical(Classical c) { return kClassical[size_t(c)]; }

int hybrid_keygen(KemCall&, const KemDesc&, uint8_t*, uint8_t*, const uint8_t*, uint8_t*);
int hybrid_encaps(KemCall&, const KemDesc&, uint8_t*, uint8_t*, const uint8_t*);
int hybrid_decaps(KemCall&, const KemDesc&, uint8_t*, const uint8_t*, const uint8_t*);
int hybrid_check_pub(KemCall&, const KemDesc&, const uint8_t*);
int hybrid_check_priv(KemCall&, const KemDesc&, const uint8_t*);
int hybrid_pub_from_priv(KemCall&, const KemDesc&, const uint8_t*, uint8_t*);
int hybrid_pairwise(KemCall&, const KemDesc&, const uint8_t*, const uint8_t*, PairwiseTest);
const char* hybrid_strerror(int rc);

// `param` packs the parts: ML-KEM level * 4 + Classical. X25519MLKEM768 puts
// ML-KEM first (key share, ciphertext and secret alike); the EC hybrids put the
// EC part first. Every part of pub, priv, ct and ss follows that order (the
// private key as OpenSSL 3.5 exports it: ML-KEM dk and the classical key).
constexpr KemDesc hybrid(const char* name, const char* description, unsigned tls_id, int level,
                         Classical cl, int security_bits, size_t ek, size_t dk, size_t ct) {
  const ClassicalDesc& c = classical(cl);
  return {.name = name, .names = name, .description = description, .tls_group = name,
          .tls_id = tls_id, .oid_len = 0, .oid = {}, .security_bits = security_bits,
          .bits = level, .pub_bytes = ek + c.pub_bytes, .priv_bytes = dk + c.priv_bytes,
          .ct_bytes = ct + c.pub_bytes, .ss_bytes = MLKEM_SHARED_SECRET_BYTES + c.ss_bytes,
          .seed_bytes = 0, .pub_in_priv = 0, .stores_seed = false,
          .priv_form = PrivForm::kRaw, .der_exact = true, .max_der = 0, .text_note = nullptr,
          .pub_label = "pub", .priv_label = "priv", .param = level * 4 + int(cl),
          .keygen = hybrid_keygen, .encaps = hybrid_encaps, .decaps = hybrid_decaps,
          .check_pub = hybrid_check_pub, .check_priv = hybrid_check_priv,
          .pub_from_priv = hybrid_pub_from_priv, .pairwise = hybrid_pairwise,
          .strerror = hybrid_strerror, .text_extra = nullptr};
}
constexpr int hybrid_level(const KemDesc& d) { return d.param / 4; }
constexpr Classical hybrid_classical(const KemDesc& d) { return Classical(d.param % 4); }
constexpr bool mlkem_first(const KemDesc& d) { return hybrid_classical(d) == Classical::kX25519; }
}  // namespace rows

inline constexpr KemDesc kKems[] = {
    // babyKyber: toy sizes (kem/README.md). PLACEHOLDER OID under the
    // private-enterprise arc 1.3.6.1.4.1: enterprise number 99999 is NOT
    // registered to this project; it only labels babyKyber keys in files this
    // provider writes. The dotted OID is also a name: OpenSSL 3.0's
    // SubjectPublicKeyInfo pre-decoder names an unregistered algorithm by it.
    {.name = "babyKyber", .names = "babyKyber:1.3.6.1.4.1.99999.1.1",
     .description = "babyKyber toy KEM (n=4, q=17, k=2; NO SECURITY: 16 possible messages)",
     .tls_group = nullptr, .tls_id = 0,
     // 99999 in base 128 is 6.13.31 -> 86 8d 1f.
     .oid_len = 10, .oid = {0x2b, 0x06, 0x01, 0x04, 0x01, 0x86, 0x8d, 0x1f, 0x01, 0x01},
     .security_bits = 0, .bits = 8 * BABYKYBER_PUBLICKEY_BYTES,
     .pub_bytes = BABYKYBER_PUBLICKEY_BYTES, .priv_bytes = BABYKYBER_SECRETKEY_BYTES,
     .ct_bytes = BABYKYBER_CIPHERTEXT_BYTES, .ss_bytes = BABYKYBER_SHARED_SECRET_BYTES,
     .seed_bytes = BABYKYBER_KEYGEN_SEED_BYTES, .pub_in_priv = BABYKYBER_PKE_SECRETKEY_BYTES,
     .stores_seed = false, .priv_form = PrivForm::kRaw, .der_exact = true, .max_der = 105,
     .text_note = "WARNING: toy parameters (n=4, q=17, k=2), NO SECURITY: only 16 possible messages.\n"
                  "         For teaching, testing and throughput experiments only.\n",
     .pub_label = "pub", .priv_label = "priv", .param = 0,
     .keygen = rows::bk_keygen, .encaps = rows::bk_encaps, .decaps = rows::bk_decaps,
     .check_pub = rows::bk_check_pub, .check_priv = rows::bk_check_priv, .pub_from_priv = nullptr,
     .pairwise = nullptr, .strerror = babykyber_strerror, .text_extra = rows::bk_text},
    rows::mlkem(512, "ML-KEM-512", "ML-KEM-512:MLKEM512:2.16.840.1.101.3.4.4.1",
                "ML-KEM-512 (FIPS 203), gpucrypto", "MLKEM512", 0x0200, 1, 128,
                MLKEM512_PUBLICKEY_BYTES, MLKEM512_SECRETKEY_BYTES, MLKEM512_CIPHERTEXT_BYTES),
    rows::mlkem(768, "ML-KEM-768", "ML-KEM-768:MLKEM768:2.16.840.1.101.3.4.4.2",
                "ML-KEM-768 (FIPS 203), gpucrypto", "MLKEM768", 0x0201, 2, 192,
                MLKEM768_PUBLICKEY_BYTES, MLKEM768_SECRETKEY_BYTES, MLKEM768_CIPHERTEXT_BYTES),
    rows::mlkem(1024, "ML-KEM-1024", "ML-KEM-1024:MLKEM1024:2.16.840.1.101.3.4.4.3",
                "ML-KEM-1024 (FIPS 203), gpucrypto", "MLKEM1024", 0x0202, 3, 256,
                MLKEM1024_PUBLICKEY_BYTES, MLKEM1024_SECRETKEY_BYTES, MLKEM1024_CIPHERTEXT_BYTES),
    // Security bits are the ML-KEM part's (OpenSSL 3.5's TLS group table).
    rows::hybrid("X25519MLKEM768", "X25519MLKEM768 hybrid KEM (ML-KEM-768 + X25519), gpucrypto",
                 0x11EC, 768, rows::Classical::kX25519, 192, MLKEM768_PUBLICKEY_BYTES,
                 MLKEM768_SECRETKEY_BYTES, MLKEM768_CIPHERTEXT_BYTES),
    rows::hybrid("SecP256r1MLKEM768", "SecP256r1MLKEM768 hybrid KEM (P-256 + ML-KEM-768), gpucrypto",
                 0x11EB, 768, rows::Classical::kP256, 192, MLKEM768_PUBLICKEY_BYTES,
                 MLKEM768_SECRETKEY_BYTES, MLKEM768_CIPHERTEXT_BYTES),
    rows::hybrid("SecP384r1MLKEM1024", "SecP384r1MLKEM1024 hybrid KEM (P-384 + ML-KEM-1024), gpucrypto",
                 0x11ED, 1024, rows::Classical::kP384, 256, MLKEM1024_PUBLICKEY_BYTES,
                 MLKEM1024_SECRETKEY_BYTES, MLKEM1024_CIPHERTEXT_BYTES),
};
inline constexpr size_t kKemCount = std::size(kKems);

// Largest keygen seed of any row (the keygen context holds one).
inline constexpr size_t kMaxSeedBytes = 64;
static_assert(BABYKYBER_KEYGEN_SEED_BYTES <= kMaxSeedBytes && MLKEM_KEYGEN_SEED_BYTES <= kMaxSeedBytes);
static_assert(BABYKYBER_ERR_KEY == kLibErrKey && MLKEM_ERR_KEY == kLibErrKey &&
              BABYKYBER_ERR_HASH == kLibErrHash && BABYKYBER_OK == kOk && MLKEM_OK == kOk);

}  // namespace gpucrypto::kemprov
