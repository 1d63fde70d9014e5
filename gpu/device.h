// The runtime's view of "the GPU": every device and its streams behind one
// interface, implemented by CUDA (cuda_device.cpp) and by the host grid
// emulator (emulated_device.cpp, a test aid). The runtime (runtime.h, with
// its pipeline.h) owns chunking, ordering, fault injection and fallback; a
// Device only performs single steps on one slot (one stream of one device
// with its own pinned staging buffers and device buffers).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "gpu/launch.h"

namespace gpucrypto::gpu {

struct Status {
  bool ok = true;
  bool sticky = false;  // the device context is unusable from now on
  std::string what;
  static Status fail(std::string what, bool sticky = false) { return {false, sticky, std::move(what)}; }
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string describe() const = 0;
  virtual bool emulated() const = 0;
  virtual int slots() const = 0;
  // Allocates (once; again only when chunk_bytes grows) the per-slot buffers.
  virtual Status prepare(size_t chunk_bytes) = 0;
  virtual uint8_t* staging_in(int slot) = 0;   // pinned host memory
  virtual uint8_t* staging_out(int slot) = 0;
  // Asynchronous on the slot's stream, in issue order.
  virtual Status copy_in(int slot, size_t bytes) = 0;
  // Runs `launch` over the first `units` units of the slot's device buffers
  // (the device supplies its buffers and tables: LaunchIo).
  virtual Status launch(int slot, const Launch& launch, uint64_t units) = 0;
  virtual Status copy_out(int slot, size_t bytes) = 0;
  // Waits until everything issued on the slot finished.
  virtual Status wait(int slot) = 0;
  // Frees everything (called with no work in flight).
  virtual void release() = 0;
  // In a child after fork(): forget the parent's resources without calling
  // the driver (CUDA state is not inherited usefully across fork).
  virtual void abandon() = 0;
  // Zeroes every slot's staging and device buffers, after a job that moved
  // secrets (KEM seeds, private keys, shared secrets); waits for the slots.
  virtual void scrub() = 0;
  // Whether every staging buffer is all zero (a test aid for scrub()).
  virtual bool staging_clear() const = 0;
};

// A job of `n` independent units (cipher blocks, babyKyber instances) for
// the runtime's pipeline: chunk [first, first + count) is gathered into the
// staging buffer by `pack` (in_unit bytes per unit), launched as `launch`
// over `count` units (`setup` may adjust it per chunk), and scattered from
// the staging buffer by `unpack` (out_unit bytes per unit). Chunks complete
// in order, so the units unpacked always form a prefix.
struct UnitJob {
  Launch launch;
  size_t n = 0;
  size_t in_unit = 0, out_unit = 0;
  std::function<void(size_t first, size_t count, uint8_t* staging)> pack;
  std::function<void(size_t first, size_t count, Launch& launch)> setup;
  std::function<void(size_t first, size_t count, const uint8_t* staging)> unpack;
  // The job moves secrets: every buffer is scrubbed once it is over.
  bool secret = false;
};
// Runs the job on the runtime's device(s) (runtime_jobs.cpp); returns how many
// leading units were unpacked: n on success, fewer after an error (which
// counts towards disabling the GPU), 0 when no device is usable.
size_t run_units(const UnitJob& job);

// All CUDA devices of compute capability 8.0 or newer, or nullptr with the
// reason in *why ("no CUDA driver", "built without CUDA", ...).
std::unique_ptr<Device> open_cuda_devices(std::string* why);

// The host grid emulator as `devices` virtual devices of `streams` slots each.
std::unique_ptr<Device> make_emulated_device(int devices, int streams);

}  // namespace gpucrypto::gpu
