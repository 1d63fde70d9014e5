// The one GPU offload rule, shared by the cipher dispatcher and the KEM batch
// APIs (docs/ARCHITECTURE.md, "Dispatch"): a job moving `bytes` over PCIe is
// offered to the GPU when
//   * the back-end cap allows CUDA (backend=auto or cuda), and
//   * bytes >= gpu_min_bytes when that is configured; otherwise
//     bytes >= mt_min_bytes (a call the calling thread serves never pays for
//     a device hand-off) and bytes >= the runtime's calibrated minimum, and
//   * a device is usable.
// The size checks come first, so small calls never initialise the GPU runtime.
// When it answers yes it also sets this thread's GPU kernel family to
// cfg.gpu_kernels, for the job the caller hands the GPU next.
#pragma once
#include <cstddef>

#include "engine/config.h"

namespace gpucrypto {

bool gpu_offload_worth(size_t bytes, const EngineConfig& cfg);

// The configuration of callers without a provider instance (the C batch APIs):
// the defaults with the GPUCRYPTO_* environment applied, read once. A malformed
// value leaves the defaults in force (the provider reports it when it loads).
const EngineConfig& env_config();

}  // namespace gpucrypto
