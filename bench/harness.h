// The measurement loop: for each size, calibrate every row's iteration
// count (this is also its warm-up), then take `reps` samples per row,
// round-robin across rows (start rotated each repetition) so slow drifts of
// the machine hit every row alike; report medians. A cell whose single call
// outlasts --max-cell-time (a reference back end at 16 MiB) keeps its
// calibration run as its only sample instead of stretching the run by
// minutes; cells between take as many samples as fit in that time.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/clock.h"
#include "bench/options.h"
#include "bench/providers.h"
#include "bench/workloads.h"

namespace gpucrypto::bench {

inline constexpr double kNaN = std::nan("");

struct Sample {
  double seconds;      // wall clock
  double cpu_seconds;  // CPU time of the calling thread
  double cycles;       // calling-thread core cycles, NaN without perf
  double bytes;
};

struct Cell {
  uint64_t iters = 0;  // EVP calls per sample
  int reps = 0;        // samples wanted in the round-robin (see measure)
  std::vector<Sample> samples;
  double mbps = kNaN;  // median, 10^6 bytes per second
  double cpb = kNaN;   // median cycles per byte
  double vs_baseline = kNaN, vs_ref = kNaN;
  // --against: lowest and highest ours/default ratio of one round.
  double spread_lo = kNaN, spread_hi = kNaN;
};

struct Row {
  std::string cipher;    // "SKINNY-128-256-CTR", "SM4-CTR", "memcpy"
  std::string impl;      // "default", "ref", "avx512", "auto 1T", "2 threads", ...
  std::string provider;  // "default", "gpucrypto", or "" (memcpy)
  ProvSettings settings; // ours only
  OSSL_LIB_CTX* libctx = nullptr;
  int threads = 1;
  bool decrypt = false;  // times EVP_DecryptUpdate (--direction decrypt, gcm's decrypt rows)
  std::unique_ptr<Workload> work;
  std::map<size_t, Cell> cells;
  int baseline = -1;  // index of the row the ratio column divides by
  int ref = -1;       // index of our ref back end's row of the same cipher
  bool perf_cycles = false;  // cycles from the PMU (else time x frequency)
  bool cpu_time = false;     // MB/s and cycles from thread CPU time (else wall)

  std::string label() const { return cipher + " " + impl; }
  const Cell* cell(size_t size) const {
    auto it = cells.find(size);
    return it == cells.end() || it->second.samples.empty() ? nullptr : &it->second;
  }
};

struct ModeResult {
  std::string mode;
  std::vector<size_t> sizes;
  std::vector<Row> rows;
  std::vector<double> hz_samples;  // core clock probes taken during the run
  double core_hz = kNaN;           // their median
  bool perf = false;
  // MB/s divides by the calling thread's CPU time (every row single-threaded,
  // as `openssl speed` does) instead of wall time.
  bool cpu_time = false;
  double cpu_share = kNaN;         // median CPU time / wall time of those samples
  double seconds = 0;              // wall time of the mode
  std::string unit = "MB/s";       // of Cell::mbps ("ops/s": --against's KEM rows)
};

// Runs every row at every size and fills in medians and ratios.
void measure(ModeResult* m, const Options& opt, const CycleCounter& cc);

double median(std::vector<double> v);

}  // namespace gpucrypto::bench
