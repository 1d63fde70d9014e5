#include "engine/offload.h"

#include "gpu/gpu_backend.h"

namespace gpucrypto {

bool gpu_offload_worth(size_t bytes, const EngineConfig& cfg) {
  if (cfg.backend != Backend::kAuto && cfg.backend != Backend::kCUDA) return false;
  return cfg.gpu_min_bytes ? bytes >= *cfg.gpu_min_bytes && gpu::usable()
                           : bytes >= cfg.mt_min_bytes && gpu::usable() && bytes >= gpu::min_bytes();
}

const EngineConfig& env_config() {
  static const EngineConfig cfg = [] {
    EngineConfig c;
    if (!config_apply_env(&c).empty()) c = EngineConfig{};
    return c;
  }();
  return cfg;
}

}  // namespace gpucrypto
