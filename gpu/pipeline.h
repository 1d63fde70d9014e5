// The chunked copy-in / kernel / copy-out pipeline over every slot (stream)
// of every device (gpu/README.md, "Streams and staging"): chunks go round
// robin over the slots and complete in issue order, so a failure leaves a
// correct prefix and an untouched rest. The fault plan's injected failures
// are applied at each step here.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gpu/device.h"
#include "gpu/fault_plan.h"
#include "gpu/gpu_backend.h"
#include "gpu/launch.h"

namespace gpucrypto::gpu {

// One job's view of the device: built by the runtime for each job (it holds
// only references), under the runtime's lock.
class Pipeline {
 public:
  // faults == nullptr: nothing is injected (calibration jobs, whose calls the
  // tests' @N counts must not see).
  Pipeline(Device& dev, size_t chunk_bytes, FaultPlan* faults)
      : dev_(dev), chunk_bytes_(chunk_bytes), faults_(faults) {}

  // The units of `job` through every slot; *done = the leading units unpacked.
  Status run_units(const UnitJob& job, size_t* done);
  // A cipher job (ECB, or CTR shipping the data) as units of one block each.
  Status run_cipher(const Job& job, const CipherLaunch& spec, size_t* done);
  // CTR in keystream mode: nothing goes to the device; the kernel writes
  // E(counter) for the chunk, and the unpack step, run while the later chunks
  // are in flight, XORs it into the caller's data and wipes the staged
  // keystream (the device copy is overwritten by the next chunk).
  Status run_keystream(const Job& job, const CipherLaunch& spec, size_t* done);

 private:
  bool inject(FaultKind kind) { return faults_ != nullptr && faults_->fires(kind); }
  Status step(FaultKind kind, Status real);

  Device& dev_;
  size_t chunk_bytes_;
  FaultPlan* faults_;
};

// ctr_be = ctr + first (big-endian, full carry, modulo 2^(8*bb)) as the
// kernels' big-endian words.
void set_counter(const uint8_t* ctr, size_t bb, uint64_t first, uint32_t* ctr_be);

}  // namespace gpucrypto::gpu
