#include "bench/harness.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "bench/report.h"

namespace gpucrypto::bench {
namespace {

Sample time_once(Workload& w, size_t len, uint64_t iters, const CycleCounter& cc) {
  // Nested wall > CPU time > cycles, so each interval holds the next.
  const auto t0 = Clock::now();
  const double cpu0 = thread_cpu_seconds();
  const uint64_t c0 = cc.read();
  w.run(len, iters);
  const uint64_t c1 = cc.read();
  const double cpu1 = thread_cpu_seconds();
  const auto t1 = Clock::now();
  return {seconds_between(t0, t1), cpu1 - cpu0, cc.available() ? double(c1 - c0) : kNaN,
          w.bytes_per_iter(len) * double(iters)};
}

// Smallest iteration count whose sample lasts at least `min_time`; *last
// is the final calibration run (at that count).
uint64_t calibrate(Workload& w, size_t len, double min_time, const CycleCounter& cc,
                   Sample* last) {
  constexpr uint64_t kMaxIters = uint64_t(1) << 32;
  uint64_t n = 1;
  for (;;) {
    const Sample s = time_once(w, len, n, cc);
    *last = s;
    if (s.seconds >= min_time || n >= kMaxIters) return n;
    const double per_iter = s.seconds / double(n);
    // Aim 10% above the target so noise does not leave samples short.
    const double want = per_iter > 0 ? min_time * 1.1 / per_iter : double(n) * 100;
    n = std::clamp(uint64_t(want) + 1, n + 1, std::min(n * 100, kMaxIters));
  }
}

void finish_cell(Cell* c, bool perf, bool cpu_time, double hz) {
  std::vector<double> mbps, cpb;
  for (const Sample& s : c->samples) {
    const double t = cpu_time ? s.cpu_seconds : s.seconds;
    mbps.push_back(s.bytes / t / 1e6);
    if (perf) cpb.push_back(s.cycles / s.bytes);
    else if (hz > 0) cpb.push_back(t * hz / s.bytes);
  }
  c->mbps = median(mbps);
  c->cpb = median(cpb);
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 != 0 ? v[h] : (v[h - 1] + v[h]) / 2;
}

void measure(ModeResult* m, const Options& opt, const CycleCounter& cc) {
  const auto start = Clock::now();
  const bool tty = isatty(STDERR_FILENO) != 0;
  m->perf = cc.available();
  for (size_t size : m->sizes) {
    std::vector<Row*> active;
    for (Row& r : m->rows)
      if (r.work && r.work->usable_bytes(size) != 0) active.push_back(&r);
    if (active.empty()) continue;
    const int reps = size >= kLargeSize ? std::min(opt.reps, opt.large_reps) : opt.reps;
    if (!tty)
      std::fprintf(stderr, "[%s] %s: %zu rows x %d samples\n", m->mode.c_str(),
                   format_size(size).c_str(), active.size(), reps);

    for (size_t i = 0; i < active.size(); ++i) {
      if (tty)
        std::fprintf(stderr, "\r[%s] %-7s calibrating %zu/%zu   ", m->mode.c_str(),
                     format_size(size).c_str(), i + 1, active.size());
      Workload& w = *active[i]->work;
      Cell& c = active[i]->cells[size];
      Sample last;
      w.prepare(w.usable_bytes(size));
      c.iters = calibrate(w, w.usable_bytes(size), opt.min_time, cc, &last);
      if (last.seconds >= opt.max_cell_time) {
        c.samples.push_back(last);  // too slow to repeat: the warm-up is the sample
        c.reps = 0;
      } else {
        const double fit = last.seconds > 0 ? opt.max_cell_time / last.seconds : reps;
        c.reps = int(std::clamp(fit, 1.0, double(reps)));
      }
    }
    for (int rep = 0; rep < reps; ++rep) {
      if (tty)
        std::fprintf(stderr, "\r[%s] %-7s sample %d/%d          ", m->mode.c_str(),
                     format_size(size).c_str(), rep + 1, reps);
      m->hz_samples.push_back(estimate_core_hz());
      for (size_t k = 0; k < active.size(); ++k) {
        Row& r = *active[(k + size_t(rep)) % active.size()];
        Cell& c = r.cells[size];
        if (rep >= c.reps) continue;
        c.samples.push_back(time_once(*r.work, r.work->usable_bytes(size), c.iters, cc));
      }
    }
  }
  if (tty) std::fprintf(stderr, "\r%60s\r", "");

  m->core_hz = median(m->hz_samples);
  std::vector<double> shares;
  for (Row& r : m->rows) {
    const bool single = r.work && r.work->on_calling_thread();
    r.perf_cycles = m->perf && single;
    r.cpu_time = m->cpu_time && single;
    for (auto& [size, c] : r.cells) {
      finish_cell(&c, r.perf_cycles, r.cpu_time, m->core_hz);
      if (single)
        for (const Sample& s : c.samples)
          if (s.seconds > 0) shares.push_back(s.cpu_seconds / s.seconds);
    }
  }
  m->cpu_share = median(shares);
  for (Row& r : m->rows) {
    for (auto& [size, c] : r.cells) {
      auto ratio = [&](int other) {
        if (other < 0) return kNaN;
        const Cell* o = m->rows[size_t(other)].cell(size);
        return o != nullptr ? c.mbps / o->mbps : kNaN;
      };
      c.vs_baseline = ratio(r.baseline);
      c.vs_ref = ratio(r.ref);
    }
  }
  m->seconds = seconds_between(start, Clock::now());
}

}  // namespace gpucrypto::bench
