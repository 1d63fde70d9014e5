// The runtime's jobs (gpu/runtime.h): each under the lock, after the lazy
// initialisation, through a Pipeline over the device, counted, and its
// failure noted towards disabling the GPU.
#include "gpu/runtime.h"

#include <openssl/crypto.h>

#include <cstdint>

namespace gpucrypto::gpu {

size_t Runtime::run_blocks(const Job& job) {
  std::lock_guard lock(mu_);
  init_locked();
  if (dev_ == nullptr || disabled_ || job.nblocks == 0) return 0;
  const kern::Op op = job.ctr_mode ? kern::Op::kCtr : job.encrypt ? kern::Op::kEncrypt : kern::Op::kDecrypt;
  CipherLaunch spec{job.cipher, op};
  spec.family = job.family;
  if (!build_schedule(job.cipher, job.key, job.keylen, &spec.ks)) return 0;
  size_t done = 0;
  ++jobs_;
  if (spec.family == KernelFamily::kTables) ++table_jobs_;
  Status st;
  Pipeline quiet = quiet_pipeline();
  if (job.ctr_mode && ctr_cal_.mode(transfer_, quiet, dev_->emulated(), job.cipher, spec.family,
                                    job.nblocks * block_bytes(job.cipher)) == CtrTransfer::kKeystream) {
    last_transfer_ = CtrTransfer::kKeystream;
    st = pipeline().run_keystream(job, spec, &done);
  } else {
    if (job.ctr_mode) last_transfer_ = CtrTransfer::kShip;
    st = pipeline().run_cipher(job, spec, &done);
  }
  OPENSSL_cleanse(&spec.ks, sizeof spec.ks);
  if (st.ok) {
    consecutive_failures_ = 0;
  } else {
    note_failure(st);
  }
  return done;
}

size_t Runtime::run_units(const UnitJob& job) {
  std::lock_guard lock(mu_);
  init_locked();
  if (dev_ == nullptr || disabled_ || job.n == 0) return 0;
  size_t done = 0;
  ++jobs_;
  Status st = pipeline().run_units(job, &done);
  if (job.secret) dev_->scrub();
  if (st.ok) {
    consecutive_failures_ = 0;
  } else {
    note_failure(st);
  }
  return done;
}

size_t Runtime::min_bytes() {
  std::lock_guard lock(mu_);
  init_locked();
  if (dev_ == nullptr || disabled_) return SIZE_MAX;
  if (min_override_ != 0) return min_override_;
  if (!calibrated_) {
    // Failures count like job errors (the pipeline injects faults here).
    calibrated_ = true;
    Pipeline p = pipeline();
    const ThresholdCalibration t = calibrate_threshold(p, dev_->emulated());
    if (!t.failure.ok) note_failure(t.failure);
    measured_min_ = t.min_bytes;
    if (t.min_bytes != SIZE_MAX) calib_ = t.calib;
  }
  return measured_min_;
}

CtrCalibration Runtime::calibrate_ctr_now(Cipher c, KernelFamily f) {
  std::lock_guard lock(mu_);
  init_locked();
  if (dev_ == nullptr || disabled_) return {};
  Pipeline quiet = quiet_pipeline();
  return ctr_cal_.measure(quiet, dev_->emulated(), c, f);
}

}  // namespace gpucrypto::gpu
