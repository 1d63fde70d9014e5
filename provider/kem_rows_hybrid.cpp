// The hybrid rows' entry points (provider/kem_table.h): X25519MLKEM768,
// SecP256r1MLKEM768 and SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem), the
// names, code points and byte layouts of OpenSSL 3.5.
//
// The ML-KEM half is the ML-KEM row's code (our kernels, this instance's
// backend cap). The classical half of X25519MLKEM768 and SecP256r1MLKEM768 is
// OpenSSL's own X25519 / EC key generation and ECDH, fetched from the
// provider's child library context (whose default properties exclude this
// provider: normally the default provider; its P-256 and X25519 are
// hand-written assembly). SecP384r1MLKEM1024's is ours (kem/p384): OpenSSL's
// P-384 took ~95 % of that hybrid's time (OpenSSL 3.5.9 on Zen 5: 3.4k ECDH/s),
// ours does the same work in ~60 %; its keys stay bytes, no EVP key is built.
//
// Layout: every part of pub, priv, ct and ss is the two halves back to back,
// ML-KEM first for X25519MLKEM768, the EC half first for the others (see
// kem/README.md, "Hybrids"). The combination is a fixed concatenation: no
// branch or index depends on a secret. EC public keys are uncompressed points
// (0x04 || x || y, checked on the curve when imported); an X25519 share whose
// shared secret is all zero (a low-order point) makes ECDH fail, which is an
// error, never a secret. Private scalars pass through buffers that are wiped;
// the ephemeral EVP keys are freed by OpenSSL, which clears them.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <cstring>
#include <memory>
#include <utility>

#include "kem/p384/p384.h"
#include "provider/kem_table.h"

namespace gpucrypto::kemprov::rows {
namespace {

// Status codes of the classical half (the ML-KEM half returns MLKEM_*).
constexpr int kErrClassicalShare = kLibErrKey;  // invalid point / key share
constexpr int kErrClassical = -20;              // EC/X25519 unavailable or failed

struct CtxFree {
  void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); }
};
using Pkey = OwnedPkey;
using PkeyCtx = std::unique_ptr<EVP_PKEY_CTX, CtxFree>;

// Where each half of a hybrid sits in its byte strings.
struct Layout {
  const KemDesc& mlkem;  // the component ML-KEM row
  const ClassicalDesc& cl;
  size_t m_pub, c_pub, m_priv, c_priv, m_ct, c_ct, m_ss, c_ss;  // offsets
};

const KemDesc& mlkem_row(int level) {
  for (const KemDesc& d : kKems)
    if (d.keygen == mlkem_keygen && d.param == level) return d;
  return kKems[0];  // unreachable: every hybrid names a level of the table
}

Layout layout(const KemDesc& d) {
  const KemDesc& m = mlkem_row(hybrid_level(d));
  const ClassicalDesc& c = classical(hybrid_classical(d));
  if (mlkem_first(d))
    return {m, c, 0, m.pub_bytes, 0, m.priv_bytes, 0, m.ct_bytes, 0, m.ss_bytes};
  return {m, c, c.pub_bytes, 0, c.priv_bytes, 0, c.pub_bytes, 0, c.ss_bytes, 0};
}

int ec_nid(const ClassicalDesc& c) { return c.priv_bytes == 32 ? NID_X9_62_prime256v1 : NID_secp384r1; }

// --- P-384, ours (kem/p384): the key bytes are the key ----------------------

bool own_p384(const ClassicalDesc& cd) { return cd.priv_bytes == p384::kScalarBytes; }

uint32_t features(const KemCall& c) { return c.prov.config.features(); }

// A private scalar uniform in [1, n-1], as OpenSSL's EC key generation draws
// it (BN_priv_rand_range): a 48-byte draw is >= n with probability 2^-190.
int p384_random_scalar(KemCall& c, uint8_t d[p384::kScalarBytes]) {
  for (int tries = 0; tries < 8; ++tries) {
    if (RAND_priv_bytes_ex(c.prov.libctx, d, p384::kScalarBytes, 0) != 1) break;
    if (p384::scalar_valid(d)) return kOk;
  }
  OPENSSL_cleanse(d, p384::kScalarBytes);
  return kErrClassical;
}

// keygen: a scalar and its public point.
int p384_keygen(KemCall& c, uint8_t* pub, uint8_t* priv) {
  int rc = p384_random_scalar(c, priv);
  if (rc == kOk && !p384::public_key(pub, priv, features(c))) rc = kErrClassical;
  return rc;
}

// encaps: an ephemeral scalar e; ct = e*G, ss = x(e*peer). The peer's point is
// checked by ecdh (a bad point: a bad key share).
int p384_encaps(KemCall& c, uint8_t* ct, uint8_t* ss, const uint8_t* peer) {
  uint8_t e[p384::kScalarBytes];
  int rc = p384_random_scalar(c, e);
  if (rc == kOk && !p384::ecdh(ss, e, peer, features(c))) rc = kErrClassicalShare;
  if (rc == kOk && !p384::public_key(ct, e, features(c))) rc = kErrClassical;
  OPENSSL_cleanse(e, sizeof e);
  return rc;
}


// A public key of the classical half (a peer's key share, or our own public
// key): EC points must be uncompressed and on the curve (EC_POINT_oct2point
// checks it during the import). With `like`, a decoded key of the same group,
// the new key copies its parameters (OpenSSL duplicates the EC_GROUP) instead
// of building the group from its name again: that took an eighth of a P-256
// hybrid decapsulation (perf, OpenSSL 3.5.9); OpenSSL 3.5's own hybrid does
// the same.
Pkey import_pub(KemCall& c, const ClassicalDesc& cd, const uint8_t* pub, const EVP_PKEY* like = nullptr) {
  if (cd.group != nullptr && pub[0] != POINT_CONVERSION_UNCOMPRESSED) return nullptr;
  if (cd.group != nullptr && like != nullptr) {
    Pkey k(EVP_PKEY_new());
    if (k == nullptr || EVP_PKEY_copy_parameters(k.get(), like) != 1 ||
        EVP_PKEY_set1_encoded_public_key(k.get(), pub, cd.pub_bytes) != 1)
      return nullptr;
    return k;
  }
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(c.prov.libctx, cd.keytype, nullptr));
  OSSL_PARAM params[3];
  int n = 0;
  if (cd.group != nullptr)
    params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
                                                   const_cast<char*>(cd.group), 0);
  params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                  const_cast<uint8_t*>(pub), cd.pub_bytes);
  params[n] = OSSL_PARAM_construct_end();
  EVP_PKEY* k = nullptr;
  if (ctx == nullptr || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &k, EVP_PKEY_PUBLIC_KEY, params) != 1)
    return nullptr;
  return Pkey(k);
}

// Our private key of the classical half. X25519: OpenSSL computes the public
// key. EC: the scalar travels as a native (little-endian) OSSL_PARAM integer
// (the byte reversal is data-independent), with the public point when the
// caller has it (ec_pub_from_priv), so the key kept with a Key is complete.
Pkey import_priv(KemCall& c, const ClassicalDesc& cd, const uint8_t* priv,
                 const uint8_t* ec_pub = nullptr) {
  if (cd.group == nullptr)
    return Pkey(EVP_PKEY_new_raw_private_key_ex(c.prov.libctx, cd.keytype, nullptr, priv,
                                                cd.priv_bytes));
  uint8_t le[48];
  for (size_t i = 0; i < cd.priv_bytes; ++i) le[i] = priv[cd.priv_bytes - 1 - i];
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_name(c.prov.libctx, cd.keytype, nullptr));
  OSSL_PARAM params[4];
  int n = 0;
  params[n++] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, const_cast<char*>(cd.group), 0);
  params[n++] = OSSL_PARAM_construct_BN(OSSL_PKEY_PARAM_PRIV_KEY, le, cd.priv_bytes);
  if (ec_pub != nullptr)
    params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
                                                    const_cast<uint8_t*>(ec_pub), cd.pub_bytes);
  params[n] = OSSL_PARAM_construct_end();
  EVP_PKEY* k = nullptr;
  if (ctx == nullptr || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &k, EVP_PKEY_KEYPAIR, params) != 1)
    k = nullptr;
  OPENSSL_cleanse(le, sizeof le);
  return Pkey(k);
}

// Writes a generated key's public and private halves in our encodings.
int export_key(const ClassicalDesc& cd, EVP_PKEY* k, uint8_t* pub, uint8_t* priv) {
  size_t len = cd.pub_bytes;
  if (cd.group == nullptr) {
    if (EVP_PKEY_get_raw_public_key(k, pub, &len) != 1 || len != cd.pub_bytes) return kErrClassical;
    len = cd.priv_bytes;
    if (priv != nullptr && (EVP_PKEY_get_raw_private_key(k, priv, &len) != 1 || len != cd.priv_bytes))
      return kErrClassical;
    return kOk;
  }
  if (EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, pub, cd.pub_bytes,
                                      &len) != 1 ||
      len != cd.pub_bytes || pub[0] != POINT_CONVERSION_UNCOMPRESSED)
    return kErrClassical;
  if (priv == nullptr) return kOk;
  BIGNUM* d = nullptr;
  const bool ok = EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1 &&
                  BN_bn2binpad(d, priv, int(cd.priv_bytes)) == int(cd.priv_bytes);
  BN_clear_free(d);
  return ok ? kOk : kErrClassical;
}

// ECDH of `own` with `peer` into ss (cd.ss_bytes). The peer was checked when
// imported (on the curve; P-256 and P-384 have cofactor 1), so OpenSSL's
// extra public-key check (a scalar multiplication by the order) is skipped.
int derive(KemCall& c, const ClassicalDesc& cd, EVP_PKEY* own, EVP_PKEY* peer, uint8_t* ss) {
  PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(c.prov.libctx, own, nullptr));
  size_t len = cd.ss_bytes;
  if (ctx == nullptr || EVP_PKEY_derive_init(ctx.get()) != 1 ||
      EVP_PKEY_derive_set_peer_ex(ctx.get(), peer, 0) != 1)
    return kErrClassical;
  // Fails for an X25519 share of low order (all-zero secret): a bad share.
  if (EVP_PKEY_derive(ctx.get(), ss, &len) != 1 || len != cd.ss_bytes) return kErrClassicalShare;
  return kOk;
}

// A new key pair of the classical half; with `like` (a key of the same
// group), its parameters are copied rather than looked up by name again.
Pkey generate(KemCall& c, const ClassicalDesc& cd, EVP_PKEY* like = nullptr) {
  if (like != nullptr) {
    PkeyCtx ctx(EVP_PKEY_CTX_new_from_pkey(c.prov.libctx, like, nullptr));
    EVP_PKEY* k = nullptr;
    if (ctx == nullptr || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &k) != 1)
      return nullptr;
    return Pkey(k);
  }
  EVP_PKEY* k = cd.group == nullptr
                    ? EVP_PKEY_Q_keygen(c.prov.libctx, nullptr, cd.keytype)
                    : EVP_PKEY_Q_keygen(c.prov.libctx, nullptr, cd.keytype, cd.group);
  return Pkey(k);
}

// The EC public point d*G of a private scalar, after the range check
// 0 < d < n (private-key import only; OpenSSL's constant-time ladder).
int ec_pub_from_priv(KemCall& c, const ClassicalDesc& cd, const uint8_t* priv, uint8_t* pub) {
  EC_GROUP* g = EC_GROUP_new_by_curve_name_ex(c.prov.libctx, nullptr, ec_nid(cd));
  BIGNUM* d = BN_secure_new();
  EC_POINT* q = g != nullptr ? EC_POINT_new(g) : nullptr;
  int rc = kErrClassical;
  if (g != nullptr && d != nullptr && q != nullptr) {
    BN_set_flags(d, BN_FLG_CONSTTIME);
    rc = kErrClassicalShare;
    if (BN_bin2bn(priv, int(cd.priv_bytes), d) != nullptr && !BN_is_zero(d) &&
        BN_cmp(d, EC_GROUP_get0_order(g)) < 0 && EC_POINT_mul(g, q, d, nullptr, nullptr, nullptr) == 1 &&
        EC_POINT_point2oct(g, q, POINT_CONVERSION_UNCOMPRESSED, pub, cd.pub_bytes, nullptr) ==
            cd.pub_bytes)
      rc = kOk;
  }
  EC_POINT_free(q);
  BN_clear_free(d);
  EC_GROUP_free(g);
  return rc;
}

// Checks our classical private key and decodes it once: X25519 (any 32
// bytes; OpenSSL computes the public key), EC (0 < d < n, public point d*G).
// Writes the public key to pub; the decoded key pair goes to c.decoded.
int decode_priv(KemCall& c, const ClassicalDesc& cd, const uint8_t* priv, uint8_t* pub) {
  if (own_p384(cd))  // 0 < d < n and d*G; nothing to keep
    return p384::public_key(pub, priv, features(c)) ? kOk : kErrClassicalShare;
  if (cd.group != nullptr) {
    const int rc = ec_pub_from_priv(c, cd, priv, pub);
    if (rc != kOk) return rc;
  }
  Pkey k = import_priv(c, cd, priv, cd.group != nullptr ? pub : nullptr);
  if (k == nullptr) return cd.group == nullptr ? kErrClassicalShare : kErrClassical;
  if (cd.group == nullptr) {
    const int rc = export_key(cd, k.get(), pub, nullptr);
    if (rc != kOk) return rc;
  }
  c.decoded = std::move(k);
  return kOk;
}


}  // namespace

int hybrid_keygen(KemCall& c, const KemDesc& d, uint8_t* pub, uint8_t* priv, const uint8_t*, uint8_t*) {
  const Layout l = layout(d);
  int rc = l.mlkem.keygen(c, l.mlkem, pub + l.m_pub, priv + l.m_priv, nullptr, nullptr);
  if (rc != kOk) return rc;
  if (own_p384(l.cl)) {
    rc = p384_keygen(c, pub + l.c_pub, priv + l.c_priv);
    if (rc != kOk) OPENSSL_cleanse(priv, d.priv_bytes);
    return rc;
  }
  Pkey k = generate(c, l.cl);
  rc = k == nullptr ? kErrClassical : export_key(l.cl, k.get(), pub + l.c_pub, priv + l.c_priv);
  if (rc != kOk) OPENSSL_cleanse(priv, d.priv_bytes);
  else c.decoded = std::move(k);  // the key pair the Key keeps for decapsulation
  return rc;
}

// The classical halves below are the Key's decoded keys (c.classical) when it
// has them; otherwise (a public-only dup of a key pair) decoded here, once.
int hybrid_encaps(KemCall& c, const KemDesc& d, uint8_t* ct, uint8_t* ss, const uint8_t* pub) {
  const Layout l = layout(d);
  int rc = l.mlkem.encaps(c, l.mlkem, ct + l.m_ct, ss + l.m_ss, pub + l.m_pub);
  if (rc == kOk && own_p384(l.cl)) {
    rc = p384_encaps(c, ct + l.c_ct, ss + l.c_ss, pub + l.c_pub);
  } else if (rc == kOk) {
    Pkey decoded = c.classical == nullptr ? import_pub(c, l.cl, pub + l.c_pub) : nullptr;
    EVP_PKEY* peer = c.classical != nullptr ? c.classical : decoded.get();
    Pkey eph = generate(c, l.cl, peer);  // the ephemeral key: its public half is our share
    rc = peer == nullptr ? kErrClassicalShare
         : eph == nullptr ? kErrClassical
                          : export_key(l.cl, eph.get(), ct + l.c_ct, nullptr);
    if (rc == kOk) rc = derive(c, l.cl, eph.get(), peer, ss + l.c_ss);
  }
  if (rc != kOk) OPENSSL_cleanse(ss, d.ss_bytes);
  return rc;
}

int hybrid_decaps(KemCall& c, const KemDesc& d, uint8_t* ss, const uint8_t* ct, const uint8_t* priv) {
  const Layout l = layout(d);
  int rc = l.mlkem.decaps(c, l.mlkem, ss + l.m_ss, ct + l.m_ct, priv + l.m_priv);
  if (rc == kOk && own_p384(l.cl)) {
    // A bad share (the private scalar was checked when the key was set).
    rc = p384::ecdh(ss + l.c_ss, priv + l.c_priv, ct + l.c_ct, features(c)) ? kOk : kErrClassicalShare;
  } else if (rc == kOk) {
    Pkey decoded = c.classical == nullptr ? import_priv(c, l.cl, priv + l.c_priv) : nullptr;
    EVP_PKEY* own = c.classical != nullptr ? c.classical : decoded.get();
    Pkey peer = import_pub(c, l.cl, ct + l.c_ct, own);  // the peer's share: new every time
    rc = peer == nullptr ? kErrClassicalShare
         : own == nullptr ? kErrClassical
                          : derive(c, l.cl, own, peer.get(), ss + l.c_ss);
  }
  if (rc != kOk) OPENSSL_cleanse(ss, d.ss_bytes);
  return rc;
}

// What a TLS server runs on the client's key share (set1_encoded_public_key):
// the ML-KEM modulus check, and an uncompressed EC point on the curve, decoded
// here once and kept with the key for the encapsulation.
int hybrid_check_pub(KemCall& c, const KemDesc& d, const uint8_t* pub) {
  const Layout l = layout(d);
  const int rc = l.mlkem.check_pub(c, l.mlkem, pub + l.m_pub);
  if (rc != kOk) return rc;
  if (own_p384(l.cl)) return p384::point_valid(pub + l.c_pub, features(c)) ? kOk : kErrClassicalShare;
  c.decoded = import_pub(c, l.cl, pub + l.c_pub);
  return c.decoded == nullptr ? kErrClassicalShare : kOk;
}

int hybrid_check_priv(KemCall& c, const KemDesc& d, const uint8_t* priv) {
  const Layout l = layout(d);
  const int rc = l.mlkem.check_priv(c, l.mlkem, priv + l.m_priv);
  if (rc != kOk) return rc;
  uint8_t pub[97];
  return decode_priv(c, l.cl, priv + l.c_priv, pub);
}

// The classical public key from the key pair check_priv decoded (no second
// scalar multiplication), or computed from the bytes.
int hybrid_pub_from_priv(KemCall& c, const KemDesc& d, const uint8_t* priv, uint8_t* pub) {
  const Layout l = layout(d);
  std::memcpy(pub + l.m_pub, priv + l.m_priv + l.mlkem.pub_in_priv, l.mlkem.pub_bytes);
  if (c.classical != nullptr) return export_key(l.cl, c.classical, pub + l.c_pub, nullptr);
  KemCall once{c.prov};
  return decode_priv(once, l.cl, priv + l.c_priv, pub + l.c_pub);
}

// The ML-KEM half's test. The classical half needs none: its public key is
// computed from its private key (hybrid_pub_from_priv), never read.
int hybrid_pairwise(KemCall& c, const KemDesc& d, const uint8_t* pub, const uint8_t* priv,
                    PairwiseTest how) {
  const Layout l = layout(d);
  return l.mlkem.pairwise(c, l.mlkem, pub + l.m_pub, priv + l.m_priv, how);
}

const char* hybrid_strerror(int rc) {
  switch (rc) {
    case kErrClassicalShare:
      return "invalid key share (ML-KEM coefficient >= q, or an EC point not uncompressed, "
             "not on the curve, or of low order)";
    case kErrClassical:
      return "the classical half (X25519 / EC from the default provider) failed";
    default:
      return mlkem_row_strerror(rc);
  }
}

}  // namespace gpucrypto::kemprov::rows
