// gpucrypto-mlkem-cycles: single-thread cycles per ML-KEM operation for every
// kernel set the CPU runs (ref, avx2, avx512), calling the kernel tables of
// kem/mlkem/mlkem_impl.h directly (no batch or RNG overhead). Reports rdtsc ticks
// (median and minimum of the per-call counts) and, from the core clock
// estimate of clock.h (the TSC ticks at a fixed reference rate), core cycles.
// Every call gets fresh inputs (its own key / ciphertext).
//
//   gpucrypto-mlkem-cycles [-n ITER] [-impl NAME]
#include <x86intrin.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/clock.h"
#include "platform/cpu_features.h"
#include "gpucrypto/mlkem.h"
#include "kem/mlkem/mlkem_impl.h"

namespace mk = gpucrypto::kem::mlkem;

namespace {

double tsc_hz() {
  using gpucrypto::bench::Clock;
  const auto t0 = Clock::now();
  const uint64_t c0 = __rdtsc();
  while (gpucrypto::bench::seconds_between(t0, Clock::now()) < 0.05) {
  }
  const uint64_t c1 = __rdtsc();
  return double(c1 - c0) / gpucrypto::bench::seconds_between(t0, Clock::now());
}

struct Stat {
  uint64_t med, min;
};

// f(i) for i < iters, timed one call at a time after an untimed pass over
// the same inputs (warm-up; keygen fills the key arrays there).
template <class F>
Stat time_it(int iters, F&& f) {
  std::vector<uint64_t> t(static_cast<size_t>(iters));
  for (int i = 0; i < iters; ++i) f(i);
  for (int i = 0; i < iters; ++i) {
    const uint64_t a = __rdtsc();
    f(i);
    t[size_t(i)] = __rdtsc() - a;
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t[0]};
}

}  // namespace

int main(int argc, char** argv) {
  int iters = 2000;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "-n") == 0) iters = std::atoi(argv[i + 1]);
    else if (std::strcmp(argv[i], "-impl") == 0) only = argv[i + 1];
  }
  if (iters < 1) iters = 1;
  const double core = gpucrypto::bench::estimate_core_hz(), tsc = tsc_hz();
  const double scale = core > 0 ? core / tsc : 1.0;
  std::printf("TSC %.0f MHz, core clock estimate %.0f MHz (core cycles = ticks x %.3f); %d calls each\n",
              tsc / 1e6, core / 1e6, scale, iters);
  std::printf("%-8s %-12s %22s %22s %22s\n", "impl", "level", "keygen med/min", "encaps med/min",
              "decaps med/min");
  const int levels[3] = {512, 768, 1024};
  for (const mk::Impl* impl : mk::impls()) {
    if ((impl->required & gpucrypto::cpu_features_detected()) != impl->required) continue;
    if (!only.empty() && only != impl->name) continue;
    for (int li = 0; li < 3; ++li) {
      const int level = levels[li];
      const mk::LevelOps& ops = impl->ops[li];
      // Fresh inputs for every call (a distinct key, and ciphertext for every
      // encapsulation and decapsulation): a fixed key would let the branch
      // predictor learn the public matrix's rejection pattern.
      const size_t ekb = mlkem_publickey_bytes(level), dkb = mlkem_secretkey_bytes(level),
                   ctb = mlkem_ciphertext_bytes(level), n = static_cast<size_t>(iters);
      std::vector<uint8_t> ek(ekb * n), dk(dkb * n), ct(ctb * n), ss(32 * n), ss2(32 * n);
      uint8_t seed[64], m[32];
      for (int i = 0; i < 64; ++i) seed[i] = uint8_t(i * 7 + 1);
      for (int i = 0; i < 32; ++i) m[i] = uint8_t(i * 13 + 5);
      const Stat kg = time_it(iters, [&](int i) {
        seed[0] = uint8_t(i), seed[1] = uint8_t(i >> 8);
        ops.keygen(ek.data() + ekb * size_t(i), dk.data() + dkb * size_t(i), seed, seed + 32);
      });
      const Stat en = time_it(iters, [&](int i) {
        m[0] = uint8_t(i);
        (void)ops.encaps(ct.data() + ctb * size_t(i), ss.data() + 32 * size_t(i), ek.data() + ekb * size_t(i), m);
      });
      const Stat de = time_it(iters, [&](int i) {
        ops.decaps(ss2.data() + 32 * size_t(i), ct.data() + ctb * size_t(i), dk.data() + dkb * size_t(i));
      });
      if (ss != ss2) {
        std::fprintf(stderr, "%s ML-KEM-%d: round trip failed\n", impl->name, level);
        return 1;
      }
      auto cell = [&](Stat s) {
        char b[64];
        std::snprintf(b, sizeof b, "%.1fk/%.1fk (%.1fk)", s.med / 1e3, s.min / 1e3, s.med * scale / 1e3);
        return std::string(b);
      };
      std::printf("%-8s ML-KEM-%-5d %22s %22s %22s\n", impl->name, level, cell(kg).c_str(),
                  cell(en).c_str(), cell(de).c_str());
    }
  }
  std::printf("cells: rdtsc ticks median/min per call, (median in estimated core cycles)\n");
  return 0;
}
