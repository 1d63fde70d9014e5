// The GPU back end when the project is built without CUDA.
#include <cstdint>

#include "gpu/gpu_backend.h"

namespace gpucrypto::gpu {
bool usable() { return false; }
bool run(const Job&) { return false; }
size_t min_bytes() { return SIZE_MAX; }
std::string describe() { return "none (built without CUDA)"; }
}  // namespace gpucrypto::gpu
