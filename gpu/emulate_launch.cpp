// Runs a LaunchSpec through the host grid emulator (test aid).
#include "gpu/emulator.h"
#include "gpu/kernels/dispatch.cuh"
#include "gpu/launch.h"

namespace gpucrypto::gpu {

void emulate_launch(const LaunchSpec& spec) {
  if (spec.mlkem_op != MlkemOp::kNone) return emulate_mlkem_launch(spec);
  if (spec.kem_op != KemOp::kNone) return emulate_kem_launch(spec);
  const uint32_t grid = grid_blocks(spec.params.nblocks, spec.threads);
  kern::visit_kernel(spec, [&]<class K>() {
    K k{spec.params};
    emulate_grid(k, grid, spec.threads);
  });
}

}  // namespace gpucrypto::gpu
