// The threshold and CTR transfer calibrations (gpu/calibration.h).
#include "gpu/calibration.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "gpu/ctr_transfer_model.h"

namespace gpucrypto::gpu {
namespace {

// Runs one calibration job and puts the seconds it took in *secs.
template <class Run>
Status timed(Run run, double* secs) {
  auto t0 = std::chrono::steady_clock::now();
  Status st = run();
  *secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

}  // namespace

ThresholdCalibration calibrate_threshold(Pipeline& pipeline, bool emulated) {
  ThresholdCalibration out;
  const size_t small = 64 << 10, large = emulated ? size_t(1) << 20 : size_t(64) << 20;
  std::vector<uint8_t> buf(large, 0);
  uint8_t key[32] = {}, ctr[16] = {};
  Job job{Cipher::kSkinny128_256, key, 32, true, true, ctr, buf.data(), buf.data(), 0};
  CipherLaunch spec{job.cipher, kern::Op::kCtr};
  build_schedule(job.cipher, key, 32, &spec.ks);
  auto time_job = [&](size_t bytes, double* secs) {
    job.nblocks = bytes / 16;
    size_t done = 0;
    Status st = timed([&] { return pipeline.run_cipher(job, spec, &done); }, secs);
    if (!st.ok) out.failure = st;
    return st.ok;
  };
  double t_small = 0, t_large = 0, warm = 0;
  if (!time_job(small, &warm) || !time_job(small, &t_small) || !time_job(large, &t_large)) return out;
  const double per_byte = std::max((t_large - t_small) / double(large - small), 1e-15);
  const double latency = std::max(t_small - double(small) * per_byte, 0.0);
  out.calib = {latency * 1e6, 1.0 / per_byte};
  const double threshold = 4.0 * latency / per_byte;
  out.min_bytes = std::clamp<size_t>(size_t(threshold), size_t(1) << 20, size_t(256) << 20);
  return out;
}

// Times CTR jobs of a small and a large size in both transfer modes (after
// one warm-up job each) and fits latency + bytes / throughput to each. On a
// device that fails here, ship mode stays the choice.
const CtrCalibration& CtrCalibrations::measure(Pipeline& quiet, bool emulated, Cipher c, KernelFamily f) {
  CtrCalibration& cal = cal_[size_t(c)][size_t(f)];
  cal = {};
  const size_t small = 256 << 10, large = emulated ? size_t(1) << 20 : size_t(64) << 20;
  std::vector<uint8_t> buf(large, 0);
  uint8_t key[48] = {}, ctr[16] = {};
  const size_t bb = block_bytes(c);
  Job job{c, key, key_bytes(c), true, true, ctr, buf.data(), buf.data(), 0};
  CipherLaunch spec{c, kern::Op::kCtr};
  spec.family = f;
  build_schedule(c, key, key_bytes(c), &spec.ks);
  auto time_job = [&](bool keystream, size_t bytes, double* secs) {
    job.nblocks = bytes / bb;
    size_t done = 0;
    return timed([&] {
             return keystream ? quiet.run_keystream(job, spec, &done) : quiet.run_cipher(job, spec, &done);
           }, secs).ok;
  };
  double fit[2][2] = {};  // [mode][latency s, seconds per byte]
  bool ok = true;
  for (int m = 0; m < 2 && ok; ++m) {
    double warm = 0, ts = 0, tl = 0;
    ok = time_job(m == 1, small, &warm) && time_job(m == 1, small, &ts) &&
         time_job(m == 1, large, &tl);
    fit[m][1] = std::max((tl - ts) / double(large - small), 1e-15);
    fit[m][0] = std::max(ts - double(small) * fit[m][1], 0.0);
  }
  if (!ok) return cal;
  cal.measured = true;
  cal.ship_latency_us = fit[0][0] * 1e6;
  cal.ship_bytes_per_second = 1.0 / fit[0][1];
  cal.keystream_latency_us = fit[1][0] * 1e6;
  cal.keystream_bytes_per_second = 1.0 / fit[1][1];
  cal.keystream_from_bytes = ctr_crossover(cal);
  return cal;
}

CtrTransfer CtrCalibrations::mode(CtrTransfer forced, Pipeline& quiet, bool emulated, Cipher c,
                                  KernelFamily f, size_t bytes) {
  if (forced != CtrTransfer::kAuto) return forced;
  if (emulated) return CtrTransfer::kShip;
  bool& tried = tried_[size_t(c)][size_t(f)];
  if (!tried) {  // once: a device that fails the calibration keeps ship mode
    tried = true;
    measure(quiet, emulated, c, f);
  }
  return ctr_pick(at(c, f), bytes);
}

}  // namespace gpucrypto::gpu
