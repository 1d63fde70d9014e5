// The GPU runtime's per-process state (gpu/runtime.h): lazy
// initialisation, fork handling, counters, and disabling the GPU after
// repeated errors. The jobs are in runtime_jobs.cpp (through pipeline.cpp),
// the calibrations in calibration.cpp, the fault plan in fault_plan.cpp.
#include "gpu/runtime.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace gpucrypto::gpu {
namespace {

constexpr int kStreamsPerDevice = 4;
// Failed jobs in a row before the GPU is disabled for the process. A sticky
// error (context lost) disables at once.
constexpr int kMaxConsecutiveFailures = 3;

size_t env_size(const char* name, size_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  unsigned long long x = std::strtoull(v, &end, 10);
  return (end != nullptr && *end == '\0') ? size_t(x) : fallback;
}

// GPUCRYPTO_GPU_CTR_TRANSFER: unset or empty = auto; a malformed value
// disables the GPU with a message, like a malformed GPUCRYPTO_GPU_FAULT.
bool parse_ctr_transfer(const char* v, CtrTransfer* out) {
  const std::string s = v == nullptr ? "" : v;
  if (s.empty() || s == "auto") return *out = CtrTransfer::kAuto, true;
  if (s == "ship") return *out = CtrTransfer::kShip, true;
  if (s == "keystream") return *out = CtrTransfer::kKeystream, true;
  return false;
}

}  // namespace

Runtime::Runtime() {
  // Keep the mutex consistent across fork(): the child gets it unlocked
  // and notices the new pid on its next call.
  pthread_atfork([] { get().mu_.lock(); }, [] { get().mu_.unlock(); },
                 [] {
                   get().answer_.store(kUnknown, std::memory_order_relaxed);
                   get().mu_.unlock();
                 });
}

bool Runtime::usable_slow() {
  std::lock_guard lock(mu_);
  init_locked();
  const bool ok = dev_ != nullptr && !disabled_;
  answer_.store(ok ? kYes : kNo, std::memory_order_release);
  return ok;
}

void Runtime::init_locked() {
  const pid_t pid = getpid();
  if (initialised_ && pid == pid_) return;
  if (initialised_ && dev_ != nullptr) dev_->abandon();  // child after fork()
  dev_.reset();
  disabled_ = false;
  consecutive_failures_ = 0;
  jobs_ = failed_jobs_ = warnings_ = table_jobs_ = 0;
  calibrated_ = false;
  calib_ = {};
  ctr_cal_ = {};
  last_transfer_ = CtrTransfer::kAuto;
  pid_ = pid;
  initialised_ = true;
  chunk_bytes_ = env_size("GPUCRYPTO_GPU_CHUNK_BYTES", chunk_bytes_);
  faults_ = parse_fault_plan(std::getenv("GPUCRYPTO_GPU_FAULT"));
  if (faults_.error.empty() &&
      !parse_ctr_transfer(std::getenv("GPUCRYPTO_GPU_CTR_TRANSFER"), &transfer_))
    faults_.error = "GPUCRYPTO_GPU_CTR_TRANSFER must be auto, ship or keystream";
  if (!faults_.error.empty()) {
    desc_ = "none (" + faults_.error + ")";
    std::fprintf(stderr, "gpucrypto: warning: %s; GPU not used\n", faults_.error.c_str());
    return;
  }
  if (faults_.emulate) {
    dev_ = make_emulated_device(faults_.emulated_devices, kStreamsPerDevice);
    desc_ = dev_->describe();
    return;
  }
  std::string why;
  dev_ = open_cuda_devices(&why);
  desc_ = dev_ != nullptr ? dev_->describe() : "none (" + why + ")";
}

void Runtime::note_failure(const Status& st) {
  ++failed_jobs_;
  ++consecutive_failures_;
  if (disabled_) return;
  if (st.sticky || consecutive_failures_ >= kMaxConsecutiveFailures) {
    disabled_ = true;
    answer_.store(kNo, std::memory_order_release);
    ++warnings_;
    std::fprintf(stderr,
                 "gpucrypto: warning: GPU disabled for this process after %d failed GPU "
                 "job(s) (last error: %s); work continues on the CPU\n",
                 consecutive_failures_, st.what.c_str());
  }
}

std::string Runtime::describe() {
  std::lock_guard lock(mu_);
  init_locked();
  std::string d = desc_;
  if (dev_ != nullptr && disabled_) d += " [disabled after errors]";
  return d;
}

void Runtime::set_min_bytes(size_t b) {
  std::lock_guard lock(mu_);
  min_override_ = b;
}

Calibration Runtime::calibration() {
  std::lock_guard lock(mu_);
  return calib_;
}

Stats Runtime::stats() {
  std::lock_guard lock(mu_);
  return Stats{jobs_, failed_jobs_, warnings_, disabled_, dev_ != nullptr && dev_->emulated(), table_jobs_};
}

void Runtime::shutdown() {
  std::lock_guard lock(mu_);
  if (dev_ != nullptr && pid_ == getpid()) dev_->release();
  dev_.reset();
  initialised_ = false;
  answer_.store(kUnknown, std::memory_order_release);
}

void Runtime::set_chunk_bytes(size_t b) {
  std::lock_guard lock(mu_);
  chunk_bytes_ = std::max<size_t>(b, 64);
}

void Runtime::set_ctr_transfer(CtrTransfer t) {
  std::lock_guard lock(mu_);
  init_locked();
  transfer_ = t;
}

CtrTransfer Runtime::last_ctr_transfer() {
  std::lock_guard lock(mu_);
  return last_transfer_;
}

CtrCalibration Runtime::ctr_calibration(Cipher c, KernelFamily f) {
  std::lock_guard lock(mu_);
  return ctr_cal_.at(c, f);
}

bool Runtime::staging_clear() {
  std::lock_guard lock(mu_);
  return dev_ == nullptr || dev_->staging_clear();
}

}  // namespace gpucrypto::gpu
