#include "bench/clock.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace gpucrypto::bench {
namespace {

struct PerfReading {
  uint64_t value;
  uint64_t time_enabled;
  uint64_t time_running;
};

}  // namespace

CycleCounter::CycleCounter() {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  // User space only: allowed at perf_event_paranoid 2, and the ciphers run there.
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  fd_ = int(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
  if (fd_ < 0) {
    why_ = std::string("perf_event_open: ") + std::strerror(errno);
    return;
  }
  // Some hypervisors accept the event but never count: check it moves.
  const uint64_t before = read();
  volatile uint64_t sink = 0;
  for (int i = 0; i < 100000; ++i) sink = sink + uint64_t(i);
  if (read() == before) {
    close(fd_);
    fd_ = -1;
    why_ = "perf_event_open: the cycle counter does not advance";
  }
}

CycleCounter::~CycleCounter() {
  if (fd_ >= 0) close(fd_);
}

uint64_t CycleCounter::read() const {
  if (fd_ < 0) return 0;
  PerfReading r{};
  if (::read(fd_, &r, sizeof r) != ssize_t(sizeof r)) return 0;
  // Scale when the PMU was multiplexed between events.
  if (r.time_running != 0 && r.time_running < r.time_enabled)
    return uint64_t(double(r.value) * double(r.time_enabled) / double(r.time_running));
  return r.value;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double estimate_core_hz() {
#if defined(__x86_64__)
#define GPUC_ADD4 "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t"
#define GPUC_ADD32 GPUC_ADD4 GPUC_ADD4 GPUC_ADD4 GPUC_ADD4 GPUC_ADD4 GPUC_ADD4 GPUC_ADD4 GPUC_ADD4
  constexpr long kIters = 30000;  // 128 adds each: ~3.8M cycles, ~1 ms
  double best = 0;
  for (int run = 0; run < 4; ++run) {
    uint64_t x = 1;
    const uint64_t y = 3;
    const double t0 = thread_cpu_seconds();
    for (long i = 0; i < kIters; ++i)
      asm volatile(GPUC_ADD32 GPUC_ADD32 GPUC_ADD32 GPUC_ADD32 : "+r"(x) : "r"(y));
    const double s = thread_cpu_seconds() - t0;
    if (s > 0) best = std::max(best, 128.0 * double(kIters) / s);
  }
#undef GPUC_ADD32
#undef GPUC_ADD4
  return best;
#else
  return 0;
#endif
}

}  // namespace gpucrypto::bench
