#include "engine/config.h"

#include "platform/byte_count.h"

#include <cerrno>
#include <cstdlib>
#include <thread>

namespace gpucrypto {
namespace {

// Decimal sizes with an optional k/m/g suffix (powers of 1024).
bool parse_size(const std::string& s, size_t* out) { return parse_byte_count(s, out); }

// Exactly what the error message promises ("expected 0 or 1"): no other
// spelling, so a value is read the same way by every reader of the file.
bool parse_bool(const std::string& s, bool* out) {
  if (s == "1") return *out = true, true;
  if (s == "0") return *out = false, true;
  return false;
}

bool parse_pct(const std::string& s, PairwiseTest* out) {
  if (s == "random") return *out = PairwiseTest::kRandom, true;
  if (s == "fixed") return *out = PairwiseTest::kFixed, true;
  if (s == "none") return *out = PairwiseTest::kNone, true;
  return false;
}

}  // namespace

std::string config_set(EngineConfig* cfg, const std::string& key, const std::string& value) {
  auto bad = [&](const char* expected) {
    return "gpucrypto: invalid value '" + value + "' for '" + key + "' (expected " + expected + ")";
  };
  if (key == "backend") {
    if (!parse_backend(value, &cfg->backend)) return bad("auto, ref, avx2, avx512 or cuda");
  } else if (key == "threads") {
    size_t n;
    if (!parse_size(value, &n) || n > 1024) return bad("a thread count 0..1024, 0 = all CPUs");
    cfg->threads = n;
  } else if (key == "mt_min_bytes") {
    size_t n;
    if (!parse_size(value, &n)) return bad("a byte count, e.g. 262144 or 256k");
    cfg->mt_min_bytes = n;
  } else if (key == "gpu_min_bytes") {
    size_t n;
    if (value == "auto") cfg->gpu_min_bytes.reset();
    else if (!parse_size(value, &n)) return bad("a byte count or auto");
    else cfg->gpu_min_bytes = n;
  } else if (key == "log") {
    if (!parse_bool(value, &cfg->log)) return bad("0 or 1");
  } else if (key == "key_codecs") {
    if (!parse_bool(value, &cfg->key_codecs)) return bad("0 or 1");
  } else if (key == kMlkemImportPctKey) {
    if (!parse_pct(value, &cfg->mlkem_import_pct)) return bad("random, fixed or none");
  } else if (key == "gpu_kernels") {
    if (!gpu::parse_kernel_family(value, &cfg->gpu_kernels)) return bad("constant-time or tables");
  } else {
    return "gpucrypto: unknown configuration key '" + key + "'";
  }
  return {};
}

std::string config_apply_env(EngineConfig* cfg) {
  static const struct { const char* env; const char* key; } kVars[] = {
      {"GPUCRYPTO_BACKEND", "backend"},
      {"GPUCRYPTO_THREADS", "threads"},
      {"GPUCRYPTO_MT_MIN_BYTES", "mt_min_bytes"},
      {"GPUCRYPTO_GPU_MIN_BYTES", "gpu_min_bytes"},
      {"GPUCRYPTO_LOG", "log"},
      {"GPUCRYPTO_GPU_KERNELS", "gpu_kernels"},
      {"GPUCRYPTO_MLKEM_IMPORT_PCT", kMlkemImportPctKey},
      {"GPUCRYPTO_KEY_CODECS", "key_codecs"}};
  for (const auto& v : kVars) {
    const char* val = std::getenv(v.env);
    if (val == nullptr) continue;
    std::string err = config_set(cfg, v.key, val);
    if (!err.empty()) return err + " from environment variable " + v.env;
  }
  return {};
}

std::string config_describe(const EngineConfig& cfg) {
  const size_t threads = cfg.threads != 0 ? cfg.threads : std::thread::hardware_concurrency();
  std::string d = std::string("backend=") + backend_name(cfg.backend) +
                  " threads=" + std::to_string(threads) +
                  " mt_min_bytes=" + std::to_string(cfg.mt_min_bytes) + " gpu_min_bytes=" +
                  (cfg.gpu_min_bytes ? std::to_string(*cfg.gpu_min_bytes) : std::string("auto")) +
                  (cfg.log ? " log=1" : "");
  // append, not a longer operator+ chain (GCC 12 -O3 -Wrestrict false positive)
  d.append(" gpu_kernels=").append(gpu::kernel_family_name(cfg.gpu_kernels));
  if (cfg.mlkem_import_pct != PairwiseTest::kRandom)  // the default is not spelled out
    d.append(" ").append(kMlkemImportPctKey)
        .append(cfg.mlkem_import_pct == PairwiseTest::kFixed ? "=fixed" : "=none");
  if (!cfg.key_codecs) d.append(" key_codecs=0");
  return d;
}

}  // namespace gpucrypto
