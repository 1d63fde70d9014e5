// Time and core-cycle sources. Cycles come from the PMU when the kernel
// lets us (perf_event_open, PERF_COUNT_HW_CPU_CYCLES, user space, this
// thread); otherwise cycles/byte are derived from wall time times a core
// frequency estimate measured with a dependent-add chain (the TSC ticks at a
// fixed reference rate, not at the core clock, so rdtsc would be wrong on
// boosting CPUs).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace gpucrypto::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// CPU time the calling thread has run (CLOCK_THREAD_CPUTIME_ID): unlike wall
// time it does not grow while other processes hold the core.
double thread_cpu_seconds();

class CycleCounter {
 public:
  CycleCounter();
  ~CycleCounter();
  CycleCounter(const CycleCounter&) = delete;
  CycleCounter& operator=(const CycleCounter&) = delete;

  bool available() const { return fd_ >= 0; }
  // Why the PMU is not used ("perf_event_open: ..."), empty when available.
  const std::string& unavailable_reason() const { return why_; }
  // Core cycles of the calling thread in user space so far (0 if unavailable).
  uint64_t read() const;

 private:
  int fd_ = -1;
  std::string why_;
};

// Core clock estimate in Hz: a chain of dependent register adds retires one
// add per cycle on every x86-64 core, so adds / second = cycles / second.
// Timed in thread CPU time, fastest of a few ~1 ms runs.
// Returns 0 where no estimator exists (non-x86-64).
double estimate_core_hz();

}  // namespace gpucrypto::bench
