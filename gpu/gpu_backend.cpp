// The entry points of gpu_backend.h and device.h (run_units): names and
// parsing of the enums, run()'s all-or-nothing wrapper, and the calls that
// forward to the per-process runtime (runtime.h).
#include "gpu/gpu_backend.h"

#include <string>

#include "gpu/kernels/host_tables.h"
#include "gpu/launch.h"
#include "gpu/pipeline.h"
#include "gpu/runtime.h"

namespace gpucrypto::gpu {

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
    if (job.ctr_mode) set_counter(job.ctr, block_bytes(job.cipher), 0, undo.ctr_be);
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
void reset() { Runtime::get().shutdown(); }
void set_chunk_bytes(size_t bytes) { Runtime::get().set_chunk_bytes(bytes); }
void set_ctr_transfer(CtrTransfer t) { Runtime::get().set_ctr_transfer(t); }
CtrTransfer last_ctr_transfer() { return Runtime::get().last_ctr_transfer(); }
CtrCalibration calibrate_ctr_now(Cipher c, KernelFamily f) { return Runtime::get().calibrate_ctr_now(c, f); }
bool staging_clear() { return Runtime::get().staging_clear(); }
}  // namespace testing

}  // namespace gpucrypto::gpu
