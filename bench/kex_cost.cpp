// gpucrypto-kex: the key exchange of one TLS 1.3 handshake, as libssl 3.x
// drives it through EVP, per group, without the rest of the handshake
// (certificates, signatures, records: gpucrypto-tls-rate measures those too).
//
//   client: keygen, get1_encoded_public_key
//   server: a key of the group (paramgen), set1_encoded_public_key(client's share), then
//           ECDH groups: keygen + derive; KEM groups: encapsulate
//   client: ECDH groups: the server's share into a key + derive; KEM groups: decapsulate
//
// Both sides' secrets are compared every time. Every round runs every group
// once, the order alternating; cells are the median microseconds per
// exchange with the fastest and slowest round. Run it under another
// OpenSSL's libraries (scripts/openssl35.sh's runner) to measure that line.
//
//   gpucrypto-kex [-iters N] [-rounds R] [-propquery Q] [group ...]
//                 (default: 300 iterations, 7 rounds, X25519 X25519MLKEM768 MLKEM768)
//
// -propquery sets the default properties as openssl.cnf's default_properties
// would ("?provider=gpucrypto" prefers ours where both providers serve a group).
// Pin it to one core (taskset -c 1).
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
struct BytesFree {
  void operator()(unsigned char* p) const { OPENSSL_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using Ctx = std::unique_ptr<EVP_PKEY_CTX, CtxFree>;
using Bytes = std::unique_ptr<unsigned char, BytesFree>;

[[noreturn]] void fail(const std::string& group, const char* what) {
  std::fprintf(stderr, "%s: %s failed\n", group.c_str(), what);
  ERR_print_errors_fp(stderr);
  std::exit(1);
}

Pkey keygen(const std::string& g) {
  Ctx c(EVP_PKEY_CTX_new_from_name(nullptr, g.c_str(), nullptr));
  EVP_PKEY* k = nullptr;
  if (c == nullptr || EVP_PKEY_keygen_init(c.get()) <= 0 || EVP_PKEY_keygen(c.get(), &k) <= 0)
    fail(g, "keygen");
  return Pkey(k);
}

// libssl's ssl_generate_param_group + EVP_PKEY_set1_encoded_public_key.
Pkey peer_key(const std::string& g, const unsigned char* share, size_t n) {
  Ctx c(EVP_PKEY_CTX_new_from_name(nullptr, g.c_str(), nullptr));
  EVP_PKEY* k = nullptr;
  if (c == nullptr || EVP_PKEY_paramgen_init(c.get()) <= 0 || EVP_PKEY_paramgen(c.get(), &k) <= 0)
    fail(g, "paramgen");
  Pkey key(k);
  if (EVP_PKEY_set1_encoded_public_key(key.get(), share, n) <= 0) fail(g, "set1_encoded_public_key");
  return key;
}

std::vector<unsigned char> derive(const std::string& g, EVP_PKEY* own, EVP_PKEY* peer) {
  Ctx c(EVP_PKEY_CTX_new_from_pkey(nullptr, own, nullptr));
  size_t n = 0;
  if (c == nullptr || EVP_PKEY_derive_init(c.get()) <= 0 || EVP_PKEY_derive_set_peer(c.get(), peer) <= 0 ||
      EVP_PKEY_derive(c.get(), nullptr, &n) <= 0)
    fail(g, "derive");
  std::vector<unsigned char> ss(n);
  if (EVP_PKEY_derive(c.get(), ss.data(), &n) <= 0) fail(g, "derive");
  ss.resize(n);
  return ss;
}

Bytes share_of(const std::string& g, EVP_PKEY* k, size_t* n) {
  unsigned char* p = nullptr;
  *n = EVP_PKEY_get1_encoded_public_key(k, &p);
  if (*n == 0) fail(g, "get1_encoded_public_key");
  return Bytes(p);
}

// One exchange; true when both sides hold the same secret.
bool exchange(const std::string& g, bool kem) {
  Pkey client = keygen(g);
  size_t n = 0;
  Bytes share = share_of(g, client.get(), &n);
  Pkey peer = peer_key(g, share.get(), n);
  std::vector<unsigned char> s_secret, c_secret;
  if (!kem) {
    Pkey server = keygen(g);
    s_secret = derive(g, server.get(), peer.get());
    size_t sn = 0;
    Bytes sshare = share_of(g, server.get(), &sn);
    Pkey server_pub = peer_key(g, sshare.get(), sn);
    c_secret = derive(g, client.get(), server_pub.get());
  } else {
    Ctx e(EVP_PKEY_CTX_new_from_pkey(nullptr, peer.get(), nullptr));
    size_t ctlen = 0, sslen = 0;
    if (e == nullptr || EVP_PKEY_encapsulate_init(e.get(), nullptr) <= 0 ||
        EVP_PKEY_encapsulate(e.get(), nullptr, &ctlen, nullptr, &sslen) <= 0)
      fail(g, "encapsulate");
    std::vector<unsigned char> ct(ctlen);
    s_secret.resize(sslen);
    if (EVP_PKEY_encapsulate(e.get(), ct.data(), &ctlen, s_secret.data(), &sslen) <= 0)
      fail(g, "encapsulate");
    Ctx d(EVP_PKEY_CTX_new_from_pkey(nullptr, client.get(), nullptr));
    size_t clen = 0;
    if (d == nullptr || EVP_PKEY_decapsulate_init(d.get(), nullptr) <= 0 ||
        EVP_PKEY_decapsulate(d.get(), nullptr, &clen, ct.data(), ctlen) <= 0)
      fail(g, "decapsulate");
    c_secret.resize(clen);
    if (EVP_PKEY_decapsulate(d.get(), c_secret.data(), &clen, ct.data(), ctlen) <= 0)
      fail(g, "decapsulate");
    c_secret.resize(clen);
  }
  return !s_secret.empty() && s_secret == c_secret;
}

// Whether libssl runs a group as a KEM: the TLS-GROUP capability of the
// providers that serve it (OSSL_CAPABILITY_TLS_GROUP_IS_KEM), as libssl reads
// it. X25519 on OpenSSL 3.5 has a KEM too (DHKEM for HPKE); TLS does ECDH.
struct GroupQuery {
  const std::string* name;
  int is_kem = -1;  // -1: no provider lists the group
};

int group_cb(const OSSL_PARAM params[], void* arg) {
  auto* q = static_cast<GroupQuery*>(arg);
  const OSSL_PARAM* n = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_NAME);
  const OSSL_PARAM* k = OSSL_PARAM_locate_const(params, OSSL_CAPABILITY_TLS_GROUP_IS_KEM);
  const char* name = nullptr;
  unsigned int kem = 0;
  if (n != nullptr && OSSL_PARAM_get_utf8_string_ptr(n, &name) == 1 && OPENSSL_strcasecmp(name, q->name->c_str()) == 0)
    q->is_kem = k != nullptr && OSSL_PARAM_get_uint(k, &kem) == 1 && kem != 0 ? 1 : 0;
  return 1;
}

int provider_cb(OSSL_PROVIDER* p, void* arg) {
  OSSL_PROVIDER_get_capabilities(p, "TLS-GROUP", group_cb, arg);
  return 1;
}

bool is_kem(const std::string& g) {
  GroupQuery q{&g};
  OSSL_PROVIDER_do_all(nullptr, provider_cb, &q);
  if (q.is_kem < 0) {
    std::fprintf(stderr, "%s: no loaded provider lists it as a TLS group\n", g.c_str());
    std::exit(2);
  }
  return q.is_kem == 1;
}

}  // namespace

int main(int argc, char** argv) {
  int iters = 300, rounds = 7;
  const char* propq = nullptr;
  std::vector<std::string> groups;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-iters") == 0 && i + 1 < argc) iters = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "-rounds") == 0 && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "-propquery") == 0 && i + 1 < argc) propq = argv[++i];
    else groups.emplace_back(argv[i]);
  }
  if (groups.empty()) groups = {"X25519", "X25519MLKEM768", "MLKEM768"};
  if (iters < 1 || rounds < 1) {
    std::fprintf(stderr, "-iters and -rounds take positive numbers\n");
    return 2;
  }
  const char* dir = std::getenv("GPUCRYPTO_MODULE_DIR");
  OSSL_PROVIDER_set_default_search_path(nullptr, dir != nullptr && *dir ? dir : GPUCRYPTO_MODULE_DIR);
  if (OSSL_PROVIDER_load(nullptr, "gpucrypto") == nullptr || OSSL_PROVIDER_load(nullptr, "default") == nullptr) {
    std::fprintf(stderr, "cannot load gpucrypto and default\n");
    ERR_print_errors_fp(stderr);
    return 1;
  }
  if (propq != nullptr && EVP_set_default_properties(nullptr, propq) != 1) {
    std::fprintf(stderr, "bad -propquery %s\n", propq);
    return 2;
  }
  std::vector<bool> kem;
  for (const std::string& g : groups) kem.push_back(is_kem(g));
  std::vector<std::vector<double>> us(groups.size());
  for (int r = 0; r < rounds; ++r) {
    for (size_t j = 0; j < groups.size(); ++j) {
      const size_t gi = (r % 2) != 0 ? groups.size() - 1 - j : j;  // alternate the order
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < iters; ++i)
        if (!exchange(groups[gi], kem[gi])) {
          std::fprintf(stderr, "%s: the two sides' secrets differ\n", groups[gi].c_str());
          return 1;
        }
      us[gi].push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                       iters);
    }
  }
  std::printf("OpenSSL %s; %d rounds x %d exchanges; default properties %s\n", OpenSSL_version(OPENSSL_VERSION_STRING),
              rounds, iters, propq != nullptr ? propq : "(none)");
  std::printf("%-20s %4s %12s %20s\n", "group", "kind", "us/exchange", "[fastest-slowest]");
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<double> v = us[g];
    std::sort(v.begin(), v.end());
    std::printf("%-20s %4s %12.1f %9.1f-%-9.1f\n", groups[g].c_str(), kem[g] ? "KEM" : "ECDH", v[v.size() / 2],
                v.front(), v.back());
  }
  return 0;
}
