// babyKyber KEM (C API of gpucrypto/babykyber.h): the FO transform checked
// step by step against SHA-3 computed here through the default provider,
// round trips, implicit rejection, input checks, and batch == one by one
// for every vector back end.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstring>

#include "platform/cpu_features.h"
#include "gpucrypto/babykyber.h"
#include "kem/core/babykyber_pke.h"
#include "kem/babykyber/batch_impl.h"
#include "test/test_util.h"

namespace {

namespace bk = gpucrypto::kem::babykyber;
using gpucrypto::test::Bytes;
using gpucrypto::test::random_bytes;

constexpr size_t kPk = BABYKYBER_PUBLICKEY_BYTES, kSk = BABYKYBER_SECRETKEY_BYTES,
                 kCt = BABYKYBER_CIPHERTEXT_BYTES, kSs = BABYKYBER_SHARED_SECRET_BYTES;

Bytes digest(const char* name, const Bytes& in, size_t outlen) {
  Bytes out(outlen);
  EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EXPECT_EQ(EVP_DigestInit_ex2(ctx, md, nullptr), 1);
  EXPECT_EQ(EVP_DigestUpdate(ctx, in.data(), in.size()), 1);
  if (EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) {
    EXPECT_EQ(EVP_DigestFinalXOF(ctx, out.data(), outlen), 1);
  } else {
    EXPECT_EQ(EVP_DigestFinal_ex(ctx, out.data(), nullptr), 1);
  }
  EVP_MD_CTX_free(ctx);
  EVP_MD_free(md);
  return out;
}

Bytes cat(const Bytes& a, const Bytes& b) {
  Bytes r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

Bytes sub(const uint8_t* p, size_t n) { return Bytes(p, p + n); }

TEST(BabyKyberKem, KeygenFollowsSpec) {
  const Bytes seed = random_bytes(64);
  uint8_t pk[kPk], sk[kSk];
  ASSERT_EQ(babykyber_keypair_derand(nullptr, pk, sk, seed.data()), BABYKYBER_OK);
  // coins = SHAKE256(d || 0x02, 35); (ek, s) = PKE.KeyGen(coins)
  const Bytes coins = digest("SHAKE256", cat(sub(seed.data(), 32), Bytes{2}), 35);
  uint8_t ek[bk::kEkBytes], dk[bk::kDkBytes];
  bk::keygen(ek, dk, coins.data());
  EXPECT_EQ(sub(pk, kPk), sub(ek, sizeof ek));
  // dk = s || ek || SHA3-256(ek) || z
  EXPECT_EQ(sub(sk, 5), sub(dk, 5));
  EXPECT_EQ(sub(sk + 5, kPk), sub(pk, kPk));
  EXPECT_EQ(sub(sk + 20, 32), digest("SHA3-256", sub(pk, kPk), 32));
  EXPECT_EQ(sub(sk + 52, 32), sub(seed.data() + 32, 32));
  EXPECT_EQ(babykyber_check_secretkey(nullptr, sk), BABYKYBER_OK);
  EXPECT_EQ(babykyber_check_publickey(pk), BABYKYBER_OK);
}

TEST(BabyKyberKem, EncapsDecapsFollowSpec) {
  uint8_t pk[kPk], sk[kSk];
  ASSERT_EQ(babykyber_keypair(nullptr, pk, sk), BABYKYBER_OK);
  for (uint8_t m = 0; m < 16; ++m) {
    uint8_t ct[kCt], ss[kSs], ss2[kSs];
    ASSERT_EQ(babykyber_encaps_derand(nullptr, ct, ss, pk, m), BABYKYBER_OK);
    // (K, c) = SHA3-512(m || SHA3-256(ek)); ct = PKE.Encrypt(ek, m, c[0..3]); ss = K
    const Bytes g = digest("SHA3-512", cat(Bytes{m}, digest("SHA3-256", sub(pk, kPk), 32)), 64);
    uint8_t ect[kCt];
    ASSERT_NE(bk::encrypt(ect, pk, m, g.data() + 32), 0u);
    EXPECT_EQ(sub(ct, kCt), sub(ect, kCt));
    EXPECT_EQ(sub(ss, kSs), sub(g.data(), 32));
    ASSERT_EQ(babykyber_decaps(nullptr, ss2, ct, sk), BABYKYBER_OK);
    EXPECT_EQ(sub(ss2, kSs), sub(ss, kSs)) << int(m);
  }
}

TEST(BabyKyberKem, TamperedCiphertextGivesImplicitRejection) {
  uint8_t pk[kPk], sk[kSk], ct[kCt], ss[kSs];
  ASSERT_EQ(babykyber_keypair(nullptr, pk, sk), BABYKYBER_OK);
  ASSERT_EQ(babykyber_encaps(nullptr, ct, ss, pk), BABYKYBER_OK);
  // The toy scheme has 16 messages and 8-byte ciphertexts, so a flipped bit
  // now and then lands on the (deterministic) encryption of another message:
  // FO then rightly accepts it. Every valid ciphertext of this key, to tell.
  uint8_t valid_ct[16][kCt], valid_ss[16][kSs];
  for (uint8_t m = 0; m < 16; ++m)
    ASSERT_EQ(babykyber_encaps_derand(nullptr, valid_ct[m], valid_ss[m], pk, m), BABYKYBER_OK);
  for (size_t bit = 0; bit < 8 * kCt; ++bit) {
    uint8_t bad[kCt];
    std::memcpy(bad, ct, kCt);
    bad[bit / 8] ^= uint8_t(1u << (bit % 8));
    uint8_t r1[kSs], r2[kSs];
    ASSERT_EQ(babykyber_decaps(nullptr, r1, bad, sk), BABYKYBER_OK);
    ASSERT_EQ(babykyber_decaps(nullptr, r2, bad, sk), BABYKYBER_OK);
    EXPECT_EQ(sub(r1, kSs), sub(r2, kSs)) << bit;  // deterministic
    int other = -1;
    for (int m = 0; m < 16; ++m)
      if (std::memcmp(valid_ct[m], bad, kCt) == 0) other = m;
    if (other >= 0) {  // a genuine ciphertext of message `other`
      EXPECT_EQ(sub(r1, kSs), sub(valid_ss[other], kSs)) << bit;
      continue;
    }
    // K_bar = SHAKE256(z || ct'), 32 bytes: different from K.
    const Bytes kbar = digest("SHAKE256", cat(sub(sk + 52, 32), sub(bad, kCt)), 32);
    EXPECT_EQ(sub(r1, kSs), kbar) << bit;
    EXPECT_NE(sub(r1, kSs), sub(ss, kSs)) << bit;
  }
}

TEST(BabyKyberKem, RoundTrips100k) {
  const size_t n = 100000;
  Bytes pk(n * kPk), sk(n * kSk), ct(n * kCt), ss(n * kSs), ss2(n * kSs);
  ASSERT_EQ(babykyber_keypair_batch(nullptr, n, pk.data(), sk.data(), nullptr, 0), BABYKYBER_OK);
  ASSERT_EQ(babykyber_encaps_batch(nullptr, n, ct.data(), ss.data(), pk.data(), nullptr, 0),
            BABYKYBER_OK);
  ASSERT_EQ(babykyber_decaps_batch(nullptr, n, ss2.data(), ct.data(), sk.data(), 0), BABYKYBER_OK);
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i)
    mismatches += std::memcmp(ss.data() + i * kSs, ss2.data() + i * kSs, kSs) != 0;
  EXPECT_EQ(mismatches, 0u);
  // Distinct keys: the DRBG feeds every instance.
  EXPECT_NE(sub(sk.data() + 52, 32), sub(sk.data() + kSk + 52, 32));
}

TEST(BabyKyberKem, InputChecks) {
  uint8_t pk[kPk], sk[kSk], ct[kCt], ss[kSs];
  ASSERT_EQ(babykyber_keypair(nullptr, pk, sk), BABYKYBER_OK);
  EXPECT_EQ(babykyber_encaps_derand(nullptr, ct, ss, pk, 16), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_encaps(nullptr, ct, nullptr, pk), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_decaps(nullptr, ss, nullptr, sk), BABYKYBER_ERR_ARGS);
  EXPECT_EQ(babykyber_keypair(nullptr, nullptr, sk), BABYKYBER_ERR_ARGS);
  // A coefficient of 17..31 in the public key (the last 5 bits: t[1][3]).
  uint8_t bad[kPk];
  std::memcpy(bad, pk, kPk);
  bad[14] = uint8_t((bad[14] & 0x07) | (17u << 3));
  EXPECT_EQ(babykyber_check_publickey(bad), BABYKYBER_ERR_KEY);
  std::memset(ct, 0xaa, kCt);
  EXPECT_EQ(babykyber_encaps(nullptr, ct, ss, bad), BABYKYBER_ERR_KEY);
  EXPECT_EQ(sub(ct, kCt), Bytes(kCt, 0));  // nothing usable left behind
  // A private key whose stored H(ek) does not match.
  uint8_t sk2[kSk];
  std::memcpy(sk2, sk, kSk);
  sk2[30] ^= 1;
  EXPECT_EQ(babykyber_check_secretkey(nullptr, sk2), BABYKYBER_ERR_KEY);
  std::memcpy(sk2, sk, kSk);
  sk2[0] = uint8_t((sk2[0] & 0xe0) | 2);  // s coefficient 2: not ternary
  EXPECT_EQ(babykyber_check_secretkey(nullptr, sk2), BABYKYBER_ERR_KEY);
  EXPECT_STRNE(babykyber_strerror(BABYKYBER_ERR_KEY), "unknown error");
}

TEST(BabyKyberKem, BatchEqualsOneByOne) {
  for (size_t n : {1u, 15u, 16u, 17u, 1000u, 5003u}) {
    const Bytes seeds = random_bytes(n * 64);
    Bytes ms = random_bytes(n);
    for (auto& m : ms) m &= 15;
    for (unsigned threads : {1u, 2u}) {
      Bytes pk(n * kPk), sk(n * kSk), ct(n * kCt), ss(n * kSs), ss2(n * kSs);
      ASSERT_EQ(babykyber_keypair_batch(nullptr, n, pk.data(), sk.data(), seeds.data(), threads),
                BABYKYBER_OK);
      ASSERT_EQ(babykyber_encaps_batch(nullptr, n, ct.data(), ss.data(), pk.data(), ms.data(), threads),
                BABYKYBER_OK);
      // Tamper with every third ciphertext so both decaps branches are compared.
      for (size_t i = 0; i < n; i += 3) ct[i * kCt + i % kCt] ^= 0x10;
      ASSERT_EQ(babykyber_decaps_batch(nullptr, n, ss2.data(), ct.data(), sk.data(), threads),
                BABYKYBER_OK);
      for (size_t i = 0; i < n; i += (n > 100 ? 7 : 1)) {
        uint8_t p1[kPk], s1[kSk], c1[kCt], k1[kSs], k2[kSs];
        ASSERT_EQ(babykyber_keypair_derand(nullptr, p1, s1, seeds.data() + i * 64), BABYKYBER_OK);
        ASSERT_EQ(sub(p1, kPk), sub(pk.data() + i * kPk, kPk)) << n << " " << i;
        ASSERT_EQ(sub(s1, kSk), sub(sk.data() + i * kSk, kSk)) << n << " " << i;
        ASSERT_EQ(babykyber_encaps_derand(nullptr, c1, k1, p1, ms[i]), BABYKYBER_OK);
        ASSERT_EQ(sub(k1, kSs), sub(ss.data() + i * kSs, kSs)) << n << " " << i;
        ASSERT_EQ(babykyber_decaps(nullptr, k2, ct.data() + i * kCt, s1), BABYKYBER_OK);
        ASSERT_EQ(sub(k2, kSs), sub(ss2.data() + i * kSs, kSs)) << n << " " << i;
        ASSERT_EQ(i % 3 != 0, std::memcmp(k1, k2, kSs) == 0) << n << " " << i;
      }
    }
  }
}

// Every compiled vector back end this CPU runs equals the reference, with
// tails (n not a multiple of the lane count) and instance strides as the
// KEM uses them.
TEST(BabyKyberKem, PkeBackEndsEqualReference) {
  const auto& ref = *gpucrypto::kem::pke_batch_find("ref");
  const uint32_t f = gpucrypto::cpu_features_detected();
  int compared = 0;
  for (const auto* impl : gpucrypto::kem::pke_batch_impls()) {
    if ((impl->required & f) != impl->required || impl == &ref) continue;
    ++compared;
    for (size_t n : {0u, 1u, 7u, 8u, 9u, 16u, 31u, 33u, 4099u}) {
      const Bytes kc = random_bytes(n * 35 + 1), ec = random_bytes(n * 64 + 1);
      Bytes ms = random_bytes(n + 16);
      for (auto& m : ms) m &= 15;
      Bytes ek1(n * kPk + 1), ek2(n * kPk + 1), dk1(n * kSk + 1), dk2(n * kSk + 1);
      impl->keygen(n, kc.data(), 35, ek1.data(), kPk, dk1.data(), kSk);
      ref.keygen(n, kc.data(), 35, ek2.data(), kPk, dk2.data(), kSk);
      ASSERT_EQ(ek1, ek2) << impl->name << " " << n;
      ASSERT_EQ(dk1, dk2) << impl->name << " " << n;
      Bytes ct1(n * kCt + 1), ct2(n * kCt + 1);
      ASSERT_TRUE(impl->encrypt(n, ct1.data(), kCt, ek1.data(), kPk, ms.data(), ec.data() + 32, 64));
      ASSERT_TRUE(ref.encrypt(n, ct2.data(), kCt, ek1.data(), kPk, ms.data(), ec.data() + 32, 64));
      ASSERT_EQ(ct1, ct2) << impl->name << " " << n;
      // Random ciphertexts too (non-canonical coefficients are reduced alike).
      const Bytes rct = random_bytes(n * kCt + 1);
      Bytes m1(n + 1), m2(n + 1);
      impl->decrypt(n, m1.data(), ct1.data(), kCt, dk1.data(), kSk);
      ref.decrypt(n, m2.data(), ct1.data(), kCt, dk1.data(), kSk);
      ASSERT_EQ(m1, m2) << impl->name << " " << n;
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(m1[i], ms[i]);
      impl->decrypt(n, m1.data(), rct.data(), kCt, dk1.data(), kSk);
      ref.decrypt(n, m2.data(), rct.data(), kCt, dk1.data(), kSk);
      ASSERT_EQ(m1, m2) << impl->name << " " << n;
      // A malformed key anywhere in the batch is reported.
      if (n > 0) {
        Bytes bad = ek1;
        bad[(n - 1) * kPk + 14] = 0xff;  // last instance, t[1][3] = 31
        EXPECT_FALSE(impl->encrypt(n, ct1.data(), kCt, bad.data(), kPk, ms.data(), ec.data(), 64));
        EXPECT_FALSE(ref.encrypt(n, ct2.data(), kCt, bad.data(), kPk, ms.data(), ec.data(), 64));
        ASSERT_EQ(ct1, ct2);
      }
    }
  }
  if (compared == 0) GTEST_SKIP() << "no vector back end runs on this CPU";
}

TEST(BabyKyberKem, PkeBatchApi) {
  const size_t n = 10000;
  const Bytes kc = random_bytes(n * BABYKYBER_PKE_KEYGEN_COINS_BYTES);
  const Bytes ec = random_bytes(n * BABYKYBER_PKE_ENCRYPT_COINS_BYTES);
  Bytes ms = random_bytes(n);
  for (auto& m : ms) m &= 15;
  Bytes pk(n * kPk), dk(n * 5), ct(n * kCt), m2(n);
  ASSERT_EQ(babykyber_pke_keygen_batch(n, pk.data(), dk.data(), kc.data(), 2), BABYKYBER_OK);
  ASSERT_EQ(babykyber_pke_encrypt_batch(n, ct.data(), pk.data(), ms.data(), ec.data(), 2), BABYKYBER_OK);
  ASSERT_EQ(babykyber_pke_decrypt_batch(n, m2.data(), ct.data(), dk.data(), 2), BABYKYBER_OK);
  EXPECT_EQ(ms, m2);
  ms[5] = 16;
  EXPECT_EQ(babykyber_pke_encrypt_batch(n, ct.data(), pk.data(), ms.data(), ec.data(), 2),
            BABYKYBER_ERR_ARGS);
}

}  // namespace
