// The GPU runtime: lazy per-process initialisation, the chunked copy-in /
// kernel / copy-out pipeline over every slot (stream) of every device,
// in-order completion so a failure leaves a correct prefix and an untouched
// rest, fault injection (the plan: fault_plan.cpp), the CTR calibration (the
// model it feeds: ctr_transfer_model.cpp), and disabling the GPU after
// repeated errors.
#include <openssl/crypto.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "gpu/ctr_transfer_model.h"
#include "gpu/device.h"
#include "gpu/fault_plan.h"
#include "gpu/gpu_backend.h"
#include "gpu/kernels/host_tables.h"
#include "gpu/launch.h"

namespace gpucrypto::gpu {
namespace {

constexpr int kStreamsPerDevice = 4;
constexpr size_t kDefaultChunkBytes = size_t(8) << 20;
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

// XORs n bytes of keystream into in, to out (in == out allowed), eight bytes
// at a time (memcpy: no alignment or aliasing assumption).
void xor_keystream(const uint8_t* in, const uint8_t* ks, uint8_t* out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t a, b;
    std::memcpy(&a, in + i, 8);
    std::memcpy(&b, ks + i, 8);
    a ^= b;
    std::memcpy(out + i, &a, 8);
  }
  for (; i < n; ++i) out[i] = uint8_t(in[i] ^ ks[i]);
}

constexpr int kCiphers = int(Cipher::kAES256) + 1;

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
    std::lock_guard lock(mu_);
    init_locked();
    const bool ok = dev_ != nullptr && !disabled_;
    answer_.store(ok ? kYes : kNo, std::memory_order_release);
    return ok;
  }

  std::string describe() {
    std::lock_guard lock(mu_);
    init_locked();
    std::string d = desc_;
    if (dev_ != nullptr && disabled_) d += " [disabled after errors]";
    return d;
  }

  size_t run_blocks(const Job& job) {
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
    if (job.ctr_mode && ctr_mode_locked(job.cipher, spec.family, job.nblocks * block_bytes(job.cipher)) ==
                            CtrTransfer::kKeystream) {
      last_transfer_ = CtrTransfer::kKeystream;
      st = pipeline_keystream(job, spec, &done);
    } else {
      if (job.ctr_mode) last_transfer_ = CtrTransfer::kShip;
      st = pipeline(job, spec, &done);
    }
    OPENSSL_cleanse(&spec.ks, sizeof spec.ks);
    if (st.ok) {
      consecutive_failures_ = 0;
    } else {
      note_failure(st);
    }
    return done;
  }

  size_t min_bytes() {
    std::lock_guard lock(mu_);
    init_locked();
    if (dev_ == nullptr || disabled_) return SIZE_MAX;
    if (min_override_ != 0) return min_override_;
    if (!calibrated_) calibrate_locked();
    return measured_min_;
  }

  void set_min_bytes(size_t b) {
    std::lock_guard lock(mu_);
    min_override_ = b;
  }

  Calibration calibration() {
    std::lock_guard lock(mu_);
    return calib_;
  }

  Stats stats() {
    std::lock_guard lock(mu_);
    return Stats{jobs_, failed_jobs_, warnings_, disabled_, dev_ != nullptr && dev_->emulated(), table_jobs_};
  }

  void shutdown() {
    std::lock_guard lock(mu_);
    if (dev_ != nullptr && pid_ == getpid()) dev_->release();
    dev_.reset();
    initialised_ = false;
    answer_.store(kUnknown, std::memory_order_release);
  }

  void reset() { shutdown(); }

  void set_chunk_bytes(size_t b) {
    std::lock_guard lock(mu_);
    chunk_bytes_ = std::max<size_t>(b, 64);
  }

  void set_ctr_transfer(CtrTransfer t) {
    std::lock_guard lock(mu_);
    init_locked();
    transfer_ = t;
  }

  CtrTransfer last_ctr_transfer() {
    std::lock_guard lock(mu_);
    return last_transfer_;
  }

  CtrCalibration ctr_calibration(Cipher c, KernelFamily f) {
    std::lock_guard lock(mu_);
    return ctr_cal_[size_t(c)][size_t(f)];
  }

  CtrCalibration calibrate_ctr_now(Cipher c, KernelFamily f) {
    std::lock_guard lock(mu_);
    init_locked();
    if (dev_ == nullptr || disabled_) return {};
    calibrate_ctr_locked(c, f);
    return ctr_cal_[size_t(c)][size_t(f)];
  }

  bool staging_clear() {
    std::lock_guard lock(mu_);
    return dev_ == nullptr || dev_->staging_clear();
  }

 private:
  Runtime() {
    // Keep the mutex consistent across fork(): the child gets it unlocked
    // and notices the new pid on its next call.
    pthread_atfork([] { get().mu_.lock(); }, [] { get().mu_.unlock(); },
                   [] {
                     get().answer_.store(kUnknown, std::memory_order_relaxed);
                     get().mu_.unlock();
                   });
  }

  void init_locked() {
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
    ctr_tried_ = {};
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

  // True when the injected fault for `kind` fires now. Calibration jobs are
  // neither counted nor failed: the tests' @N counts name their own jobs.
  bool inject(FaultKind kind) {
    if (calibrating_) return false;
    if (++faults_.calls[kind] == faults_.nth[kind]) return true;
    long& n = faults_.remaining[kind];
    if (n == 0) return false;
    if (n > 0) --n;
    return true;
  }
  Status step(FaultKind kind, Status real) {
    if (!real.ok) return real;
    if (inject(kind)) return Status::fail(std::string("injected ") + kFaultNames[kind] + " fault");
    return real;
  }

  struct Pending {
    bool active = false;
    size_t first = 0, nblocks = 0;
  };

  // A cipher job as units of one block each.
  Status pipeline(const Job& job, const CipherLaunch& spec, size_t* done) {
    const size_t bb = block_bytes(job.cipher);
    UnitJob u;
    u.launch = spec;
    u.n = job.nblocks;
    u.in_unit = u.out_unit = bb;
    u.pack = [&](size_t first, size_t nb, uint8_t* dst) {
      std::memcpy(dst, job.in + first * bb, nb * bb);
    };
    u.setup = [&](size_t first, size_t, Launch& l) {
      if (job.ctr_mode) set_counter(job.ctr, bb, first, std::get<CipherLaunch>(l).ctr_be);
    };
    u.unpack = [&](size_t first, size_t nb, const uint8_t* src) {
      std::memcpy(job.out + first * bb, src, nb * bb);
    };
    return pipeline_units(u, done);
  }

  // CTR in keystream mode: nothing goes to the device; the kernel writes
  // E(counter) for the chunk, and the unpack step, run while the later chunks
  // are in flight, XORs it into the caller's data and wipes the staged
  // keystream (the device copy is overwritten by the next chunk).
  Status pipeline_keystream(const Job& job, const CipherLaunch& spec, size_t* done) {
    const size_t bb = block_bytes(job.cipher);
    UnitJob u;
    u.launch = spec;
    std::get<CipherLaunch>(u.launch).op = kern::Op::kKeystream;
    u.n = job.nblocks;
    u.in_unit = 0;
    u.out_unit = bb;
    u.pack = [](size_t, size_t, uint8_t*) {};
    bool staged = false;  // a chunk reached the device (the buffers exist)
    u.setup = [&](size_t first, size_t, Launch& l) {
      staged = true;
      set_counter(job.ctr, bb, first, std::get<CipherLaunch>(l).ctr_be);
    };
    u.unpack = [&](size_t first, size_t nb, const uint8_t* src) {
      xor_keystream(job.in + first * bb, src, job.out + first * bb, nb * bb);
      // The runtime's own staging buffer (staging_out), handed over as const.
      OPENSSL_cleanse(const_cast<uint8_t*>(src), nb * bb);
    };
    Status st = pipeline_units(u, done);
    if (!st.ok && staged) {
      // Chunks abandoned after the error were never unpacked: wipe every
      // slot's staged keystream (the pipeline has drained them).
      const size_t bytes = std::max<size_t>(chunk_bytes_ / bb, 1) * bb;
      for (int s = 0; s < dev_->slots(); ++s) OPENSSL_cleanse(dev_->staging_out(s), bytes);
    }
    return st;
  }

  // The transfer mode of a CTR job of `bytes`: forced, or on the emulated
  // device ship (its timings mean nothing), or the calibrated choice.
  CtrTransfer ctr_mode_locked(Cipher c, KernelFamily f, size_t bytes) {
    if (transfer_ != CtrTransfer::kAuto) return transfer_;
    if (dev_->emulated()) return CtrTransfer::kShip;
    CtrCalibration& cal = ctr_cal_[size_t(c)][size_t(f)];
    bool& tried = ctr_tried_[size_t(c)][size_t(f)];
    if (!tried) {  // once: a device that fails the calibration keeps ship mode
      tried = true;
      calibrate_ctr_locked(c, f);
    }
    return ctr_pick(cal, bytes);
  }

  // Times CTR jobs of a small and a large size in both transfer modes (after
  // one warm-up job each) and fits latency + bytes / throughput to each. On a
  // device that fails here, ship mode stays the choice.
  void calibrate_ctr_locked(Cipher c, KernelFamily f) {
    CtrCalibration& cal = ctr_cal_[size_t(c)][size_t(f)];
    cal = {};
    const size_t small = 256 << 10, large = dev_->emulated() ? size_t(1) << 20 : size_t(64) << 20;
    std::vector<uint8_t> buf(large, 0);
    uint8_t key[48] = {}, ctr[16] = {};
    const size_t bb = block_bytes(c);
    Job job{c, key, key_bytes(c), true, true, ctr, buf.data(), buf.data(), 0};
    CipherLaunch spec{c, kern::Op::kCtr};
    spec.family = f;
    build_schedule(c, key, key_bytes(c), &spec.ks);
    calibrating_ = true;
    auto time_job = [&](bool keystream, size_t bytes, double* secs) {
      job.nblocks = bytes / bb;
      size_t done = 0;
      auto t0 = std::chrono::steady_clock::now();
      Status st = keystream ? pipeline_keystream(job, spec, &done) : pipeline(job, spec, &done);
      *secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return st.ok;
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
    calibrating_ = false;
    if (!ok) return;
    cal.measured = true;
    cal.ship_latency_us = fit[0][0] * 1e6;
    cal.ship_bytes_per_second = 1.0 / fit[0][1];
    cal.keystream_latency_us = fit[1][0] * 1e6;
    cal.keystream_bytes_per_second = 1.0 / fit[1][1];
    cal.keystream_from_bytes = ctr_crossover(cal);
  }

 public:
  size_t run_units(const UnitJob& job) {
    std::lock_guard lock(mu_);
    init_locked();
    if (dev_ == nullptr || disabled_ || job.n == 0) return 0;
    size_t done = 0;
    ++jobs_;
    Status st = pipeline_units(job, &done);
    if (job.secret) dev_->scrub();
    if (st.ok) {
      consecutive_failures_ = 0;
    } else {
      note_failure(st);
    }
    return done;
  }

 private:
  Status pipeline_units(const UnitJob& job, size_t* done) {
    const size_t unit = std::max(job.in_unit, job.out_unit);
    const size_t chunk_units = std::max<size_t>(chunk_bytes_ / unit, 1);
    Status st = inject(kAlloc) ? Status::fail("injected alloc fault") : dev_->prepare(chunk_units * unit);
    if (!st.ok) return st;
    const int slots = dev_->slots();
    std::vector<Pending> pending(static_cast<size_t>(slots));
    const size_t nchunks = (job.n + chunk_units - 1) / chunk_units;
    Launch launch = job.launch;

    // Completes the slot's chunk: wait, then unpack the staged result.
    // Chunks complete in issue order, so `done` only ever grows as a prefix.
    auto complete = [&](int slot) -> Status {
      Pending& p = pending[size_t(slot)];
      p.active = false;
      Status s = step(kSync, dev_->wait(slot));
      if (!s.ok) return s;
      job.unpack(p.first, p.nblocks, dev_->staging_out(slot));
      *done += p.nblocks;
      return s;
    };

    size_t c = 0;
    bool completion_failed = false;
    for (; c < nchunks; ++c) {
      const int slot = int(c % size_t(slots));
      if (pending[size_t(slot)].active && !(st = complete(slot)).ok) {
        completion_failed = true;  // later chunks must not extend the prefix
        break;
      }
      const size_t first = c * chunk_units;
      const size_t nb = std::min(chunk_units, job.n - first);
      job.pack(first, nb, dev_->staging_in(slot));
      if (job.in_unit != 0 && !(st = step(kH2D, dev_->copy_in(slot, nb * job.in_unit))).ok) break;
      if (job.setup) job.setup(first, nb, launch);
      if (!(st = step(kLaunch, dev_->launch(slot, launch, nb))).ok) break;
      if (!(st = step(kD2H, dev_->copy_out(slot, nb * job.out_unit))).ok) break;
      pending[size_t(slot)] = {true, first, nb};
    }
    // Finish the chunks still in flight, oldest first. After an error these
    // all precede the failed chunk, so they still extend the prefix, up to
    // the first one that fails to complete.
    const size_t end = c;
    Status cs = completion_failed ? st : Status{};
    for (size_t k = end >= size_t(slots) ? end - size_t(slots) : 0; k < end; ++k) {
      const int slot = int(k % size_t(slots));
      if (!pending[size_t(slot)].active) continue;
      if (cs.ok) {
        cs = complete(slot);
      } else {
        pending[size_t(slot)].active = false;
      }
    }
    if (st.ok) st = cs;
    if (!st.ok) {
      // Drain: nothing may still write the staging buffers of the next job.
      for (int s = 0; s < slots; ++s) dev_->wait(s);
    }
    return st;
  }

  // ctr_be = ctr + first (big-endian, full carry, modulo 2^(8*bb)) as the
  // kernels' big-endian words.
 public:
  static void set_counter(const uint8_t* ctr, size_t bb, uint64_t first, uint32_t* ctr_be) {
    uint8_t c[16];
    std::memcpy(c, ctr, bb);
    unsigned carry = 0;
    for (size_t i = bb; i-- > 0;) {
      unsigned sum = unsigned(c[i]) + unsigned(first & 0xff) + carry;
      c[i] = uint8_t(sum);
      carry = sum >> 8;
      first >>= 8;
    }
    for (size_t w = 0; w < bb / 4; ++w)
      ctr_be[w] = uint32_t(c[4 * w]) << 24 | uint32_t(c[4 * w + 1]) << 16 |
                  uint32_t(c[4 * w + 2]) << 8 | c[4 * w + 3];
  }

 private:
  void note_failure(const Status& st) {
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

  // Times a small and a large SKINNY-128-256 CTR job to get the fixed cost
  // and the end-to-end throughput, and sets the threshold where the fixed
  // cost is at most a fifth of the job time. Failures count like job errors.
  void calibrate_locked() {
    calibrated_ = true;
    const bool emu = dev_->emulated();
    const size_t small = 64 << 10, large = emu ? size_t(1) << 20 : size_t(64) << 20;
    std::vector<uint8_t> buf(large, 0);
    uint8_t key[32] = {}, ctr[16] = {};
    Job job{Cipher::kSkinny128_256, key, 32, true, true, ctr, buf.data(), buf.data(), 0};
    CipherLaunch spec{job.cipher, kern::Op::kCtr};
    build_schedule(job.cipher, key, 32, &spec.ks);
    auto time_job = [&](size_t bytes, double* secs) {
      job.nblocks = bytes / 16;
      size_t done = 0;
      auto t0 = std::chrono::steady_clock::now();
      Status st = pipeline(job, spec, &done);
      *secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!st.ok) note_failure(st);
      return st.ok;
    };
    double t_small = 0, t_large = 0, warm = 0;
    if (!time_job(small, &warm) || !time_job(small, &t_small) || !time_job(large, &t_large)) {
      measured_min_ = SIZE_MAX;
      return;
    }
    const double per_byte = std::max((t_large - t_small) / double(large - small), 1e-15);
    const double latency = std::max(t_small - double(small) * per_byte, 0.0);
    calib_ = {latency * 1e6, 1.0 / per_byte};
    const double threshold = 4.0 * latency / per_byte;
    measured_min_ = std::clamp<size_t>(size_t(threshold), size_t(1) << 20, size_t(256) << 20);
  }

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
  size_t chunk_bytes_ = kDefaultChunkBytes;
  size_t min_override_ = 0;
  bool calibrated_ = false;
  size_t measured_min_ = SIZE_MAX;
  Calibration calib_{};
  CtrTransfer transfer_ = CtrTransfer::kAuto;
  CtrTransfer last_transfer_ = CtrTransfer::kAuto;
  bool calibrating_ = false;
  std::array<std::array<CtrCalibration, 2>, kCiphers> ctr_cal_{};
  std::array<std::array<bool, 2>, kCiphers> ctr_tried_{};
};

}  // namespace

const char* kernel_family_name(KernelFamily f) {
  return f == KernelFamily::kTables ? "tables" : "constant-time";
}

bool parse_kernel_family(const std::string& s, KernelFamily* out) {
  if (s == "constant-time") return *out = KernelFamily::kConstantTime, true;
  if (s == "tables") return *out = KernelFamily::kTables, true;
  return false;
}


const char* ctr_transfer_name(CtrTransfer t) {
  return t == CtrTransfer::kShip ? "ship" : t == CtrTransfer::kKeystream ? "keystream" : "auto";
}


CtrCalibration ctr_calibration(Cipher c, KernelFamily f) { return Runtime::get().ctr_calibration(c, f); }

bool usable() { return Runtime::get().usable(); }
size_t run_blocks(const Job& job) { return Runtime::get().run_blocks(job); }
size_t run_units(const UnitJob& job) { return Runtime::get().run_units(job); }
bool run(const Job& job) {
  const size_t done = run_blocks(job);
  if (done == job.nblocks) return true;
  if (done > 0 && job.in == job.out) {
    // In place, the prefix already holds output, but run()'s callers redo
    // the whole job from `in`: put the input back by applying the inverse
    // operation to the prefix (CTR is its own inverse) on the host grid
    // emulator, the same kernel bodies. Only on this rare error path;
    // run_blocks() callers never need it.
    const kern::Op op = job.ctr_mode ? kern::Op::kCtr : job.encrypt ? kern::Op::kDecrypt : kern::Op::kEncrypt;
    CipherLaunch undo{job.cipher, op};
    build_schedule(job.cipher, job.key, job.keylen, &undo.ks);
    if (job.ctr_mode) Runtime::set_counter(job.ctr, block_bytes(job.cipher), 0, undo.ctr_be);
    emulate_cipher(undo, {job.out, job.out, done, &kern::host_tables()});
  }
  return false;
}
size_t min_bytes() { return Runtime::get().min_bytes(); }
void set_min_bytes(size_t bytes) { Runtime::get().set_min_bytes(bytes); }
Calibration calibration() { return Runtime::get().calibration(); }
std::string describe() { return Runtime::get().describe(); }
void shutdown() { Runtime::get().shutdown(); }
Stats stats() { return Runtime::get().stats(); }

namespace testing {
void reset() { Runtime::get().reset(); }
void set_chunk_bytes(size_t bytes) { Runtime::get().set_chunk_bytes(bytes); }
void set_ctr_transfer(CtrTransfer t) { Runtime::get().set_ctr_transfer(t); }
CtrTransfer last_ctr_transfer() { return Runtime::get().last_ctr_transfer(); }
CtrCalibration calibrate_ctr_now(Cipher c, KernelFamily f) { return Runtime::get().calibrate_ctr_now(c, f); }
bool staging_clear() { return Runtime::get().staging_clear(); }
}  // namespace testing

}  // namespace gpucrypto::gpu
