// Our P-384 (kem/p384, the classical half of SecP384r1MLKEM1024), every
// implementation (MULX/ADX where the CPU has it, and the portable one):
//   - Project Wycheproof's ECDH vectors (test/vectors/p384_ecdh_wycheproof.txt):
//     edge-case shared secrets and scalars, invalid and compressed points;
//   - public keys and shared secrets against OpenSSL's EC (an independent
//     implementation) for random and edge-case scalars;
//   - scalars outside [1, n-1] and malformed points refused, output zeroed.
#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kem/p384/p384.h"
#include "platform/cpu_features.h"
#include "test_util.h"

namespace {

using gpucrypto::test::Bytes;
using gpucrypto::test::hex;
using gpucrypto::test::to_hex;
namespace p384 = gpucrypto::p384;

struct Impl {
  const char* name;
  uint32_t features;
};

std::vector<Impl> impls() {
  std::vector<Impl> v = {{"portable", 0}};
  if (p384::adx_usable(gpucrypto::cpu_features_detected()))
    v.push_back({"adx", gpucrypto::cpu_features_detected()});
  return v;
}

// The group order n, big-endian.
const Bytes kOrder = hex(
    "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973");

// n + delta (delta small, may be negative), 48 bytes big-endian.
Bytes order_plus(int delta) {
  BIGNUM* n = BN_bin2bn(kOrder.data(), 48, nullptr);
  BIGNUM* d = BN_new();
  BN_set_word(d, static_cast<BN_ULONG>(delta < 0 ? -delta : delta));
  if (delta < 0) BN_sub(n, n, d);
  else BN_add(n, n, d);
  Bytes out(48);
  BN_bn2binpad(n, out.data(), 48);
  BN_free(n);
  BN_free(d);
  return out;
}

Bytes small_scalar(unsigned v) {
  Bytes d(48, 0);
  for (int i = 0; i < 4; ++i) d[47 - i] = uint8_t(v >> (8 * i));
  return d;
}

// Scalars that exercise the windows: tiny, powers of two, all-15 windows,
// next to n, and random.
std::vector<Bytes> test_scalars(int random_count) {
  std::vector<Bytes> v = {small_scalar(1), small_scalar(2), small_scalar(3), small_scalar(15),
                          small_scalar(16), small_scalar(17), small_scalar(0xffff),
                          order_plus(-1), order_plus(-2), order_plus(-15), order_plus(-16)};
  for (int bit : {64, 128, 255, 256, 380, 383}) {
    Bytes d(48, 0);
    d[47 - bit / 8] = uint8_t(1u << (bit % 8));
    v.push_back(d);
  }
  Bytes f(48, 0xff);
  f[0] = 0x7f;  // every window 15 below the top (< n)
  v.push_back(f);
  for (int i = 0; i < random_count; ++i) {
    Bytes d(48);
    RAND_bytes(d.data(), 48);
    if (p384::scalar_valid(d.data())) v.push_back(d);
  }
  return v;
}

struct EcGroup {
  EC_GROUP* g = EC_GROUP_new_by_curve_name(NID_secp384r1);
  ~EcGroup() { EC_GROUP_free(g); }
};

// OpenSSL's d * P (P = nullptr: the generator), uncompressed.
Bytes openssl_mul(const EcGroup& grp, const Bytes& d, const Bytes* point) {
  BIGNUM* k = BN_bin2bn(d.data(), 48, nullptr);
  EC_POINT* r = EC_POINT_new(grp.g);
  EC_POINT* p = nullptr;
  bool ok;
  if (point == nullptr) {
    ok = EC_POINT_mul(grp.g, r, k, nullptr, nullptr, nullptr) == 1;
  } else {
    p = EC_POINT_new(grp.g);
    ok = EC_POINT_oct2point(grp.g, p, point->data(), point->size(), nullptr) == 1 &&
         EC_POINT_mul(grp.g, r, nullptr, p, k, nullptr) == 1;
  }
  Bytes out(97);
  if (!ok || EC_POINT_point2oct(grp.g, r, POINT_CONVERSION_UNCOMPRESSED, out.data(), 97, nullptr) != 97)
    out.clear();
  EC_POINT_free(p);
  EC_POINT_free(r);
  BN_free(k);
  return out;
}

TEST(P384, PublicKeysMatchOpenSsl) {
  EcGroup grp;
  const std::vector<Bytes> scalars = test_scalars(100);
  for (const Impl& impl : impls()) {
    for (const Bytes& d : scalars) {
      Bytes pub(97);
      ASSERT_TRUE(p384::public_key(pub.data(), d.data(), impl.features)) << impl.name << " " << to_hex(d);
      EXPECT_EQ(to_hex(pub), to_hex(openssl_mul(grp, d, nullptr))) << impl.name << " d=" << to_hex(d);
      EXPECT_TRUE(p384::point_valid(pub.data(), impl.features));
    }
  }
}

TEST(P384, SharedSecretsMatchOpenSsl) {
  EcGroup grp;
  const std::vector<Bytes> scalars = test_scalars(60);
  for (const Impl& impl : impls()) {
    for (size_t i = 0; i < scalars.size(); ++i) {
      // The peer: a random key's point, or the generator's small multiples.
      Bytes e(48);
      if (i % 4 == 0) e = small_scalar(unsigned(1 + i / 4));
      else
        do RAND_bytes(e.data(), 48);
        while (!p384::scalar_valid(e.data()));
      const Bytes peer = openssl_mul(grp, e, nullptr);
      Bytes ss(48), back(48);
      ASSERT_TRUE(p384::ecdh(ss.data(), scalars[i].data(), peer.data(), impl.features)) << impl.name;
      const Bytes want = openssl_mul(grp, scalars[i], &peer);
      ASSERT_EQ(want.size(), 97u);
      EXPECT_EQ(to_hex(ss), to_hex(Bytes(want.begin() + 1, want.begin() + 49)))
          << impl.name << " d=" << to_hex(scalars[i]) << " e=" << to_hex(e);
      // And the other way round, through our own public key.
      Bytes pub(97);
      ASSERT_TRUE(p384::public_key(pub.data(), scalars[i].data(), impl.features));
      ASSERT_TRUE(p384::ecdh(back.data(), e.data(), pub.data(), impl.features));
      EXPECT_EQ(to_hex(back), to_hex(ss)) << impl.name;
    }
  }
}

TEST(P384, ScalarsOutsideTheGroupRefused) {
  EcGroup grp;
  const Bytes peer = openssl_mul(grp, small_scalar(5), nullptr);
  const std::vector<Bytes> bad = {Bytes(48, 0), kOrder, order_plus(1), order_plus(2), Bytes(48, 0xff)};
  for (const Impl& impl : impls()) {
    for (const Bytes& d : bad) {
      EXPECT_FALSE(p384::scalar_valid(d.data()));
      Bytes pub(97, 0xaa), ss(48, 0xaa);
      EXPECT_FALSE(p384::public_key(pub.data(), d.data(), impl.features)) << impl.name << " " << to_hex(d);
      EXPECT_EQ(pub, Bytes(97, 0));
      EXPECT_FALSE(p384::ecdh(ss.data(), d.data(), peer.data(), impl.features)) << impl.name;
      EXPECT_EQ(ss, Bytes(48, 0));
    }
  }
}

TEST(P384, MalformedPointsRefused) {
  EcGroup grp;
  const Bytes good = openssl_mul(grp, small_scalar(7), nullptr);
  const Bytes p = hex(
      "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff");
  std::vector<Bytes> bad;
  for (uint8_t prefix : {0x00, 0x02, 0x03, 0x05, 0x06, 0x07}) {
    Bytes b = good;
    b[0] = prefix;
    bad.push_back(b);
  }
  Bytes off = good;
  off[96] ^= 1;  // y changed: off the curve
  bad.push_back(off);
  Bytes xp = good;
  std::copy(p.begin(), p.end(), xp.begin() + 1);  // x = p
  bad.push_back(xp);
  Bytes yp = good;
  std::copy(p.begin(), p.end(), yp.begin() + 49);  // y = p
  bad.push_back(yp);
  Bytes zero(97, 0);
  zero[0] = 0x04;  // (0, 0): not on the curve (b != 0)
  bad.push_back(zero);
  const Bytes d = small_scalar(3);
  for (const Impl& impl : impls()) {
    EXPECT_TRUE(p384::point_valid(good.data(), impl.features));
    for (const Bytes& b : bad) {
      EXPECT_FALSE(p384::point_valid(b.data(), impl.features)) << impl.name << " " << to_hex(b);
      Bytes ss(48, 0xaa);
      EXPECT_FALSE(p384::ecdh(ss.data(), d.data(), b.data(), impl.features)) << impl.name;
      EXPECT_EQ(ss, Bytes(48, 0));
    }
  }
}

// tcId result flags public private shared (see the file's header).
TEST(P384, WycheproofEcdhVectors) {
  std::ifstream in(gpucrypto::test::vectors_dir() + "/p384_ecdh_wycheproof.txt");
  ASSERT_TRUE(in.good()) << "test/vectors/p384_ecdh_wycheproof.txt missing";
  struct Case {
    std::string id, result, flags, pub, priv, shared;
  };
  std::vector<Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    Case c;
    ASSERT_TRUE(f >> c.id >> c.result >> c.flags >> c.pub >> c.priv >> c.shared) << line;
    cases.push_back(c);
  }
  ASSERT_GE(cases.size(), 700u);
  for (const Impl& impl : impls()) {
    int valid = 0, refused = 0;
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(impl.name) + " tcId " + c.id + " " + c.flags);
      const Bytes pub = c.pub == "-" ? Bytes() : hex(c.pub), priv = hex(c.priv);
      ASSERT_EQ(priv.size(), 48u);
      Bytes ss(48);
      // Our encoding is the 97-byte uncompressed point; anything else is refused
      // before it reaches ecdh (the hybrid's layout fixes the length).
      const bool ours = pub.size() == 97 && p384::ecdh(ss.data(), priv.data(), pub.data(), impl.features);
      if (c.result == "valid") {
        // Every valid case of this file is an uncompressed point.
        ASSERT_TRUE(ours);
        EXPECT_EQ(to_hex(ss), c.shared);
        ++valid;
      } else if (c.result == "invalid") {
        EXPECT_FALSE(ours);
        ++refused;
      } else if (ours) {  // acceptable (compressed points): refused by us, or right
        EXPECT_EQ(to_hex(ss), c.shared);
      }
    }
    EXPECT_GT(valid, 100);
    EXPECT_GT(refused, 10);
  }
}

}  // namespace
