// GPUCRYPTO_GPU_FAULT parsing (gpu/fault_plan.h).
#include "gpu/fault_plan.h"

#include <string>

namespace gpucrypto::gpu {
namespace {

bool parse_count(const std::string& s, long* out) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *out = std::stol(s);
  return true;
}

}  // namespace

FaultPlan parse_fault_plan(const char* env) {
  FaultPlan plan;
  if (env == nullptr || *env == '\0') return plan;
  std::string all(env);
  size_t pos = 0;
  while (pos <= all.size()) {
    size_t comma = all.find(',', pos);
    std::string item = all.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? all.size() + 1 : comma + 1;
    std::string name = item, arg;
    bool at = false;
    if (size_t sep = item.find_first_of(":@"); sep != std::string::npos) {
      name = item.substr(0, sep);
      arg = item.substr(sep + 1);
      at = item[sep] == '@';
      if (arg.empty()) arg.assign(1, 'x');  // "kind:" alone is malformed (assign: GCC 12 -Wrestrict false positive)
    }
    long n = -1;
    if (!arg.empty() && !parse_count(arg, &n)) {
      plan.error = "bad count in GPUCRYPTO_GPU_FAULT item '" + item + "'";
      return plan;
    }
    if (name == "emulate") {
      plan.emulate = true;
      if (at) n = 0;
      if (n == 0 || n > 16) {
        plan.error = "GPUCRYPTO_GPU_FAULT emulate:D needs 1 <= D <= 16";
        return plan;
      }
      plan.emulated_devices = n < 0 ? 1 : int(n);
      continue;
    }
    int kind = -1;
    for (int k = 0; k < kFaultKinds; ++k)
      if (name == kFaultNames[k]) kind = k;
    if (kind < 0) {
      plan.error = "unknown GPUCRYPTO_GPU_FAULT item '" + item +
                   "' (expected emulate[:D], alloc, h2d, launch, d2h, sync[:N|@N])";
      return plan;
    }
    if (at) {
      if (n <= 0) {
        plan.error = "GPUCRYPTO_GPU_FAULT " + item + ": @N needs N >= 1";
        return plan;
      }
      plan.nth[kind] = n;
    } else {
      plan.remaining[kind] = n;
    }
  }
  return plan;
}

bool FaultPlan::fires(FaultKind kind) {
  if (++calls[kind] == nth[kind]) return true;
  long& n = remaining[kind];
  if (n == 0) return false;
  if (n > 0) --n;
  return true;
}

}  // namespace gpucrypto::gpu
