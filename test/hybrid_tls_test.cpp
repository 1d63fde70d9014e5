// TLS 1.3 handshakes in-process (test/hybrid_tls_util.h) through libssl with
// gpucrypto loaded next to the default provider, for every group the
// provider advertises: the negotiated group is the one offered (by its IANA
// code point), also when the client's first key share is X25519 and the
// server asks again (HelloRetryRequest), and the TLS-GROUP capability lists
// the six groups with OpenSSL 3.5's values. Runs under ASan in CI (the
// provider's whole handshake path, both roles).
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/prov_ssl.h>

#include <map>
#include <string>

#include "test/hybrid_tls_util.h"
#include "test_util.h"

namespace gpucrypto::test {
namespace {

struct Group {
  const char* name;
  int id, secbits;
};
const Group kGroups[] = {{"MLKEM512", 0x0200, 128},          {"MLKEM768", 0x0201, 192},
                         {"MLKEM1024", 0x0202, 256},         {"X25519MLKEM768", 0x11EC, 192},
                         {"SecP256r1MLKEM768", 0x11EB, 192}, {"SecP384r1MLKEM1024", 0x11ED, 256}};

class TlsGroups : public ::testing::TestWithParam<Group> {
 protected:
  void SetUp() override {
    if (!prov_.ok()) GTEST_SKIP() << "gpucrypto provider not loadable from " << module_dir();
  }
  ProviderFixture prov_;
};

TEST_P(TlsGroups, HandshakeNegotiatesTheGroup) {
  const Group& g = GetParam();
  TlsPair pair(prov_.libctx(), g.name, g.name);
  ASSERT_TRUE(pair.ok()) << g.name << " not settable as a group list";
  for (int i = 0; i < 3; ++i) {
    std::string err;
    EXPECT_EQ(pair.handshake(&err), g.id) << err;
  }
}

TEST_P(TlsGroups, AfterHelloRetryRequest) {
  const Group& g = GetParam();
  const std::string client = std::string("X25519:") + g.name;
  TlsPair pair(prov_.libctx(), g.name, client.c_str());
  ASSERT_TRUE(pair.ok());
  std::string err;
  EXPECT_EQ(pair.handshake(&err), g.id) << err;
}

TEST_P(TlsGroups, ServerPrefersTheHybridOverX25519) {
  const Group& g = GetParam();
  const std::string list = std::string(g.name) + ":X25519";
  TlsPair pair(prov_.libctx(), list.c_str(), list.c_str());
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(pair.handshake(), g.id);
}

INSTANTIATE_TEST_SUITE_P(All, TlsGroups, ::testing::ValuesIn(kGroups),
                         [](const auto& info) { return std::string(info.param.name); });

// The capability as libssl reads it. OpenSSL 3.0's default provider has no
// ML-KEM group, so all six are ours; 3.5's advertises all six itself, and we
// then advertise none (libssl would hold each group twice), the algorithms
// staying served for `?provider=gpucrypto` (TlsGroups above, and
// test/cli/pq_tls.sh under 3.5). The values are checked against our own rows
// on every line: the fields are OpenSSL 3.5's.
TEST(TlsGroupCapability, SixGroupsWithOpenSsl35Values) {
  ProviderFixture fx;
  ASSERT_TRUE(fx.ok());
  std::map<std::string, std::map<std::string, long>> seen;
  auto cb = [](const OSSL_PARAM params[], void* arg) -> int {
    auto& m = *static_cast<std::map<std::string, std::map<std::string, long>>*>(arg);
    const char* name = nullptr;
    OSSL_PARAM_get_utf8_string_ptr(OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME), &name);
    auto& fields = m[name];
    for (const char* f : {OSSL_CAPABILITY_TLS_GROUP_ID, OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS,
                          OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, OSSL_CAPABILITY_TLS_GROUP_MAX_TLS,
                          OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS,
                          OSSL_CAPABILITY_TLS_GROUP_IS_KEM}) {
      long v = -99;
      const OSSL_PARAM* p = OSSL_PARAM_locate_const(params, f);
      if (p != nullptr) OSSL_PARAM_get_long(p, &v);
      fields[f] = v;
    }
    return 1;
  };
  ASSERT_EQ(OSSL_PROVIDER_get_capabilities(fx.provider(), "TLS-GROUP", cb, &seen), 1);
  if (OpenSSL_version_num() >= 0x30500000UL) {
    EXPECT_TRUE(seen.empty()) << "OpenSSL 3.5's default provider has these groups: ours must not repeat them";
    std::map<std::string, std::map<std::string, long>> def;
    ASSERT_EQ(OSSL_PROVIDER_get_capabilities(fx.default_provider(), "TLS-GROUP", cb, &def), 1);
    for (const Group& g : kGroups) {
      SCOPED_TRACE(g.name);
      ASSERT_EQ(def.count(g.name), 1u) << "3.5's default provider lacks the group";
      EXPECT_EQ(def[g.name][OSSL_CAPABILITY_TLS_GROUP_ID], g.id);
      EXPECT_EQ(def[g.name][OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS], g.secbits);
    }
    return;
  }
  ASSERT_EQ(seen.size(), std::size(kGroups));
  for (const Group& g : kGroups) {
    SCOPED_TRACE(g.name);
    ASSERT_EQ(seen.count(g.name), 1u);
    auto& f = seen[g.name];
    EXPECT_EQ(f[OSSL_CAPABILITY_TLS_GROUP_ID], g.id);
    EXPECT_EQ(f[OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS], g.secbits);
    EXPECT_EQ(f[OSSL_CAPABILITY_TLS_GROUP_MIN_TLS], TLS1_3_VERSION);
    EXPECT_EQ(f[OSSL_CAPABILITY_TLS_GROUP_MAX_TLS], 0);
    EXPECT_EQ(f[OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS], -1);
    EXPECT_EQ(f[OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS], -1);
    EXPECT_EQ(f[OSSL_CAPABILITY_TLS_GROUP_IS_KEM], 1);
  }
}

}  // namespace
}  // namespace gpucrypto::test
