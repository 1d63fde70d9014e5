// The KEM batch kernels' "planar" chunk layout (gpu/kernels/babykyber.cuh,
// gpu/kernels/mlkem.cuh): one array per field, the chunk's instances back to
// back, arrays one after the other. These copy a chunk of the caller's
// per-instance arrays (instance i at base + i * stride) into a staging
// buffer in that layout and back, one memcpy per array when the stride is
// the record size.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "gpu/device.h"

namespace gpucrypto::gpu {

struct InArray {
  const uint8_t* base;
  size_t stride, size;
};
struct OutArray {
  uint8_t* base;  // nullptr: the field is not wanted (its bytes are skipped)
  size_t stride, size;
};

// Instances [first, first + count) of each array into `staging`, in order.
void pack_planar(uint8_t* staging, size_t first, size_t count, std::initializer_list<InArray> arrays);
// The same fields from `staging` back into the arrays.
void unpack_planar(const uint8_t* staging, size_t first, size_t count,
                   std::initializer_list<OutArray> arrays);

// Runs `job` (gpu/device.h, run_units) with its pack and unpack copying
// these arrays; returns the leading instances finished.
size_t run_planar(UnitJob job, std::initializer_list<InArray> in, std::initializer_list<OutArray> out);

}  // namespace gpucrypto::gpu
