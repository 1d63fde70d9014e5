// The CUDA side when the project is built without CUDA: no devices. The
// runtime around it (runtime.h) still works, so the emulated test device
// and the fallback paths behave the same in both builds.
#include "gpu/device.h"

namespace gpucrypto::gpu {

std::unique_ptr<Device> open_cuda_devices(std::string* why) {
  *why = "built without CUDA";
  return nullptr;
}

}  // namespace gpucrypto::gpu
