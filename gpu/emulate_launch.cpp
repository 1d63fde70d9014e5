// Runs a launch through the host grid emulator (test aid): one handler per
// launch kind, so a kind without an emulator does not compile.
#include "gpu/emulator.h"
#include "gpu/kernels/dispatch.cuh"
#include "gpu/launch.h"

namespace gpucrypto::gpu {

void emulate_launch(const Launch& launch, const LaunchIo& io) {
  std::visit(Overloaded{
                 [&](const CipherLaunch& l) { emulate_cipher(l, io); },
                 [&](const BabyKyberLaunch& l) { emulate_babykyber(l, io); },
                 [&](const MlkemLaunch& l) { emulate_mlkem(l, io); },
             },
             launch);
}

void emulate_cipher(const CipherLaunch& l, const LaunchIo& io) {
  const kern::Params p = cipher_params(l, io);
  kern::visit_kernel(l, [&]<class K>() {
    emulate_grid(K{p}, grid_blocks(io.n, l.threads, K::kLanes), l.threads);
  });
}

}  // namespace gpucrypto::gpu
