// GPUCRYPTO_GPU_FAULT: the emulated device and the fault injection of the GPU
// runtime (gpu/README.md, "Testing without a GPU"): "emulate[:D]" runs the
// host grid emulator as D devices; "alloc", "h2d", "launch", "d2h", "sync"
// with ":N" fail the first N calls of that kind (none: every call), with
// "@N" only call number N. Parsed once per runtime initialisation.
#pragma once
#include <string>

namespace gpucrypto::gpu {

enum FaultKind { kAlloc, kH2D, kLaunch, kD2H, kSync, kFaultKinds };
inline constexpr const char* kFaultNames[kFaultKinds] = {"alloc", "h2d", "launch", "d2h", "sync"};

struct FaultPlan {
  bool emulate = false;
  int emulated_devices = 1;
  long remaining[kFaultKinds] = {0, 0, 0, 0, 0};  // fail the first N calls; -1: always
  long nth[kFaultKinds] = {0, 0, 0, 0, 0};        // fail only call number N (1-based)
  long calls[kFaultKinds] = {0, 0, 0, 0, 0};
  std::string error;                              // malformed variable

  // Counts a call of `kind` and says whether the plan makes it fail.
  bool fires(FaultKind kind);
};

// The plan the variable's value `env` (nullptr or empty: none) describes;
// error set when it is malformed (the runtime then disables the GPU).
FaultPlan parse_fault_plan(const char* env);

}  // namespace gpucrypto::gpu
