// gpucrypto-block-sweep: the cost of one hook call for every block count
// n = 1 … 256, per implementation (ECB encrypt and CTR; SKINNY, RECTANGLE,
// and SM4 and AES for the single-block costs), straight on the
// CipherHw hooks (no EVP): the small-call paths inside the hooks are chosen
// by block count, and the selected implementation should be within 10% of the
// fastest one for every n. Thread CPU time, median of alternating samples.
//
//   gpucrypto-block-sweep [--filter SUBSTRING] [--max N] [--reps R]
#include <openssl/crypto.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/cipher_registry.h"
#include "platform/cpu_features.h"

namespace {

using gpucrypto::CipherAlgo;
using gpucrypto::CipherHw;

double cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

struct Impl {
  const CipherHw* hw;
  void* ks;
};

}  // namespace

int main(int argc, char** argv) {
  std::string filter;
  size_t max_n = 256, reps = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--filter")) filter = argv[i + 1];
    else if (!std::strcmp(argv[i], "--max")) max_n = std::strtoul(argv[i + 1], nullptr, 10);
    else if (!std::strcmp(argv[i], "--reps")) reps = std::strtoul(argv[i + 1], nullptr, 10);
  }
  const uint32_t have = gpucrypto::cpu_features_detected();
  std::printf("# cpu features: %s\n", gpucrypto::cpu_features_string(have).c_str());
  std::vector<const CipherAlgo*> algos;  // every registered cipher (engine/cipher_registry.h)
  for (const gpucrypto::CipherRow& r : gpucrypto::cipher_rows()) algos.push_back(&r.algo());
  std::vector<uint8_t> in(256 * 16 + 64, 0x5a), out(in.size()), key(64, 0x33);
  for (const CipherAlgo* a : algos) {
    if (a->name != filter && !filter.empty() && std::string(a->name).find(filter) == std::string::npos) continue;
    std::vector<Impl> impls;
    for (const CipherHw* hw : a->impls) {
      if ((hw->required & ~have) != 0) continue;
      void* ks = std::aligned_alloc(64, (hw->ks_bytes + 63) / 64 * 64);
      hw->setkey(ks, key.data(), a->key_bytes, true);
      impls.push_back({hw, ks});
    }
    const CipherHw& chosen = gpucrypto::select_hw(*a, have);
    for (int mode = 0; mode < 2; ++mode) {
      std::printf("\n## %s %s: ns per call (selected: %s)\n| n |", a->name, mode ? "CTR" : "ECB", chosen.name);
      for (const Impl& im : impls) std::printf(" %s |", im.hw->name);
      std::printf(" selected / fastest |\n|--:|");
      for (size_t i = 0; i <= impls.size(); ++i) std::printf("--:|");
      std::printf("\n");
      double worst = 0;
      for (size_t n = 1; n <= max_n; n = n < 16 ? n + 1 : n < 64 ? n + 4 : n + 16) {
        std::vector<std::vector<double>> samples(impls.size());
        for (size_t r = 0; r < reps; ++r) {
          for (size_t k = 0; k < impls.size(); ++k) {
            const Impl& im = impls[(k + r) % impls.size()];
            const size_t iters = std::max<size_t>(4, 20000 / (n * (im.hw->batch_blocks > 8 ? 8 : 64)));
            uint8_t ctr[16] = {};
            const double t0 = cpu_ns();
            for (size_t it = 0; it < iters; ++it) {
              if (mode) im.hw->ctr(im.ks, ctr, in.data(), out.data(), n);
              else im.hw->encrypt(im.ks, in.data(), out.data(), n);
            }
            samples[(k + r) % impls.size()].push_back((cpu_ns() - t0) / double(iters));
          }
        }
        std::printf("| %zu |", n);
        double best = 1e300, sel = 0;
        for (size_t k = 0; k < impls.size(); ++k) {
          auto& v = samples[k];
          std::sort(v.begin(), v.end());
          const double med = v[v.size() / 2];
          std::printf(" %.0f |", med);
          best = std::min(best, med);
          if (impls[k].hw == &chosen) sel = med;
        }
        std::printf(" %.2f |\n", sel / best);
        worst = std::max(worst, sel / best);
      }
      std::printf("worst selected/fastest over n: %.2f\n", worst);
    }
    for (Impl& im : impls) {
      OPENSSL_cleanse(im.ks, im.hw->ks_bytes);
      std::free(im.ks);
    }
  }
  return 0;
}
