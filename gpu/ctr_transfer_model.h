// The CTR transfer model of the GPU runtime (gpu/README.md, "CTR transfer
// modes"): from a calibration's latencies and throughputs, which mode is
// faster for a job of `bytes` (ctr_pick, gpu_backend.h) and from which size
// keystream mode wins.
#pragma once
#include <cstddef>

#include "gpu/gpu_backend.h"

namespace gpucrypto::gpu {

// The job size from which keystream mode's latency + bytes / throughput is
// below ship mode's: 0 when it is never slower, SIZE_MAX when never faster.
size_t ctr_crossover(const CtrCalibration& c);

}  // namespace gpucrypto::gpu
