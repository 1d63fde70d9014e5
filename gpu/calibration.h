// The runtime's first-use measurements (gpu/README.md, "Threshold" and "CTR
// transfer modes"): the job size from which the GPU pays off, and per cipher
// and kernel family the CTR transfer mode's latency and throughput (the
// model that picks a mode from them: ctr_transfer_model.h).
#pragma once
#include <array>
#include <cstddef>

#include "gpu/device.h"
#include "gpu/gpu_backend.h"
#include "gpu/pipeline.h"

namespace gpucrypto::gpu {

// What calibrate_threshold() found: min_bytes SIZE_MAX (and calib zeros)
// when a job failed, with that job's status in `failure` (it counts like a
// job error).
struct ThresholdCalibration {
  size_t min_bytes = SIZE_MAX;
  Calibration calib{};
  Status failure;
};

// Times a small and a large SKINNY-128-256 CTR job to get the fixed cost
// and the end-to-end throughput, and sets the threshold where the fixed
// cost is at most a fifth of the job time. `emulated`: the device is the
// host grid emulator (smaller jobs).
ThresholdCalibration calibrate_threshold(Pipeline& pipeline, bool emulated);

// The CTR calibrations of one process, per cipher and kernel family. The
// pipelines passed in should inject no faults: the tests' @N counts name
// their own jobs.
class CtrCalibrations {
 public:
  const CtrCalibration& at(Cipher c, KernelFamily f) const { return cal_[size_t(c)][size_t(f)]; }
  // Measures (c, f) now, on whatever device the pipeline drives.
  const CtrCalibration& measure(Pipeline& quiet, bool emulated, Cipher c, KernelFamily f);
  // The transfer mode of a CTR job of `bytes`: `forced` unless kAuto, ship
  // on the emulated device (its timings mean nothing), else the calibrated
  // choice, measured on the first such job (a device that fails the
  // calibration keeps ship mode).
  CtrTransfer mode(CtrTransfer forced, Pipeline& quiet, bool emulated, Cipher c, KernelFamily f,
                   size_t bytes);

 private:
  static constexpr int kCiphers = int(Cipher::kAES256) + 1;
  std::array<std::array<CtrCalibration, 2>, kCiphers> cal_{};
  std::array<std::array<bool, 2>, kCiphers> tried_{};
};

}  // namespace gpucrypto::gpu
