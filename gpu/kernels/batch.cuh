// What the KEM batch kernels (babykyber.cuh, mlkem.cuh) share: their launch
// parameters and the grid size for n instances. Plain C++ when __CUDACC__ is
// undefined (see common.cuh).
#pragma once
#include <cstdint>

#include "gpu/kernels/common.cuh"

namespace gpucrypto::gpu::kern {

// One launch of a batch kernel: planar input and output buffers (layout in
// each kernel header) and the number of instances in this launch.
struct BatchParams {
  const uint8_t* in;
  uint8_t* out;
  uint64_t n;
};

// Grid size for n instances of kernel type K.
template <class K>
GPUCRYPTO_HD constexpr uint32_t batch_grid(uint64_t n) {
  return uint32_t((n + K::kInstancesPerBlock - 1) / K::kInstancesPerBlock);
}

}  // namespace gpucrypto::gpu::kern
