// gpucrypto-tls-rate: full TLS 1.3 handshakes per second on one core, client
// and server in the same thread (test/hybrid_tls_util.h: BIO pair, no
// tickets, a P-256 certificate, ECDSA signature), per group, with gpucrypto
// loaded next to the default provider. Groups served by the default provider
// (X25519, P-256) run the same harness as the baseline.
//
//   gpucrypto-tls-rate [-seconds S | -n N] [-propquery Q] [-no-gpucrypto] [group ...]
//                      (default: X25519 X25519MLKEM768, 2 s each)
//
// -n N runs exactly N handshakes per group (after one untimed), for
// instruction counts: valgrind --tool=callgrind at two values of N gives the
// cost of one handshake as the difference. -no-gpucrypto loads the default provider alone: the host's own OpenSSL,
// the baseline for "does loading gpucrypto slow down a handshake that it
// takes no part in" (X25519, P-256).
//
// -propquery sets the library context's default properties, as openssl.cnf's
// default_properties would: "?provider=gpucrypto" prefers ours where both
// providers serve a group (OpenSSL 3.5's default has the hybrids and ML-KEM),
// "?provider=default" prefers OpenSSL's own.
//
// Pin it to one core (taskset -c 0) for a one-core figure.
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test/hybrid_tls_util.h"

int main(int argc, char** argv) {
  double seconds = 2;
  const char* propq = nullptr;
  bool with_ours = true;
  long count = 0;  // 0: timed by -seconds
  std::vector<std::string> groups;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "-seconds") == 0 && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "-propquery") == 0 && i + 1 < argc) propq = argv[++i];
    else if (std::strcmp(argv[i], "-n") == 0 && i + 1 < argc) count = std::atol(argv[++i]);
    else if (std::strcmp(argv[i], "-no-gpucrypto") == 0) with_ours = false;
    else groups.emplace_back(argv[i]);
  }
  if (groups.empty()) groups = {"X25519", "X25519MLKEM768"};
  const char* env_dir = std::getenv("GPUCRYPTO_MODULE_DIR");
  const char* dir = env_dir != nullptr && *env_dir ? env_dir : GPUCRYPTO_MODULE_DIR;
  OSSL_PROVIDER_set_default_search_path(nullptr, dir);
  if ((with_ours && OSSL_PROVIDER_load(nullptr, "gpucrypto") == nullptr) ||
      OSSL_PROVIDER_load(nullptr, "default") == nullptr) {
    std::fprintf(stderr, "cannot load the providers (gpucrypto from %s)\n", dir);
    return 1;
  }
  if (propq != nullptr && EVP_set_default_properties(nullptr, propq) != 1) {
    std::fprintf(stderr, "bad -propquery %s\n", propq);
    return 1;
  }
  std::printf("%-20s %12s %10s\n", "group", "handshakes/s", "us each");
  for (const std::string& g : groups) {
    gpucrypto::test::TlsPair pair(nullptr, g.c_str(), g.c_str());
    std::string err;
    if (!pair.ok() || pair.handshake(&err) < 0) {
      std::fprintf(stderr, "%s: handshake failed\n%s", g.c_str(), err.c_str());
      return 1;
    }
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    long n = 0;
    double elapsed = 0;
    while (count != 0 ? n < count : elapsed < seconds) {
      const long step = count != 0 ? std::min<long>(20, count - n) : 20;
      for (long i = 0; i < step; ++i)
        if (pair.handshake() < 0) return 1;
      n += step;
      elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    std::printf("%-20s %12.0f %10.1f\n", g.c_str(), double(n) / elapsed, 1e6 * elapsed / double(n));
  }
  return 0;
}
