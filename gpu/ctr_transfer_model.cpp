// The CTR transfer model (gpu/ctr_transfer_model.h, gpu_backend.h ctr_pick).
#include "gpu/ctr_transfer_model.h"

#include <cstdint>

namespace gpucrypto::gpu {

size_t ctr_crossover(const CtrCalibration& c) {
  const double ls = c.ship_latency_us * 1e-6, lk = c.keystream_latency_us * 1e-6;
  const double ps = 1.0 / c.ship_bytes_per_second, pk = 1.0 / c.keystream_bytes_per_second;
  if (pk >= ps) return SIZE_MAX;  // no gain per byte (a lower latency alone: ctr_pick)
  const double from = (lk - ls) / (ps - pk);
  if (from <= 0) return 0;
  return from >= 1e18 ? SIZE_MAX : size_t(from);
}

CtrTransfer ctr_pick(const CtrCalibration& cal, size_t bytes) {
  if (!cal.measured) return CtrTransfer::kShip;
  const double b = double(bytes);
  const double ship = cal.ship_latency_us * 1e-6 + b / cal.ship_bytes_per_second;
  const double ks = cal.keystream_latency_us * 1e-6 + b / cal.keystream_bytes_per_second;
  return ks < ship ? CtrTransfer::kKeystream : CtrTransfer::kShip;
}

}  // namespace gpucrypto::gpu
