// The GPU runtime's per-process state (gpu/README.md, "Runtime"): lazy
// initialisation, fork handling, the job counters, disabling the GPU after
// repeated errors, and the calibrations. Each job runs through a Pipeline
// (pipeline.h) built over the device under the lock; the entry points of
// gpu_backend.h and device.h forward here (gpu_backend.cpp).
#pragma once
#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "gpu/calibration.h"
#include "gpu/device.h"
#include "gpu/fault_plan.h"
#include "gpu/gpu_backend.h"
#include "gpu/pipeline.h"

namespace gpucrypto::gpu {

class Runtime {
 public:
  static Runtime& get() {
    // Never destroyed: at exit the static CUDA runtime may be gone already.
    static Runtime* rt = new Runtime;
    return *rt;
  }

  // Asked by every call that is large enough to offload: once this process
  // knows the answer it is one atomic load, no lock (so gpu_min_bytes=1
  // without a GPU costs small calls nothing). The answer is forgotten by a
  // fork (the child re-initialises), shutdown/reset, and disabling the GPU.
  bool usable() {
    const int known = answer_.load(std::memory_order_acquire);
    if (known != kUnknown) return known == kYes;
    return usable_slow();
  }

  std::string describe();
  size_t run_blocks(const Job& job);
  size_t run_units(const UnitJob& job);
  size_t min_bytes();
  void set_min_bytes(size_t b);
  Calibration calibration();
  Stats stats();
  void shutdown();
  void set_chunk_bytes(size_t b);
  void set_ctr_transfer(CtrTransfer t);
  CtrTransfer last_ctr_transfer();
  CtrCalibration ctr_calibration(Cipher c, KernelFamily f);
  CtrCalibration calibrate_ctr_now(Cipher c, KernelFamily f);
  bool staging_clear();

 private:
  Runtime();
  bool usable_slow();
  void init_locked();
  // The pipeline of a job (with the fault plan) and of a calibration job
  // (without: the tests' @N counts name their own jobs).
  Pipeline pipeline() { return Pipeline(*dev_, chunk_bytes_, &faults_); }
  Pipeline quiet_pipeline() { return Pipeline(*dev_, chunk_bytes_, nullptr); }
  // Counts a failed job; disables the GPU after a sticky error or
  // kMaxConsecutiveFailures in a row.
  void note_failure(const Status& st);

  std::mutex mu_;
  bool initialised_ = false;
  pid_t pid_ = 0;
  // usable()'s answer for this process (see usable()).
  static constexpr int kUnknown = 0, kYes = 1, kNo = 2;
  std::atomic<int> answer_{kUnknown};
  std::unique_ptr<Device> dev_;
  std::string desc_;
  FaultPlan faults_;
  bool disabled_ = false;
  int consecutive_failures_ = 0;
  uint64_t jobs_ = 0, failed_jobs_ = 0, warnings_ = 0, table_jobs_ = 0;
  size_t chunk_bytes_ = size_t(8) << 20;  // the default chunk, 8 MiB
  size_t min_override_ = 0;
  bool calibrated_ = false;
  size_t measured_min_ = SIZE_MAX;
  Calibration calib_{};
  CtrTransfer transfer_ = CtrTransfer::kAuto;
  CtrTransfer last_transfer_ = CtrTransfer::kAuto;
  CtrCalibrations ctr_cal_;
};

}  // namespace gpucrypto::gpu
