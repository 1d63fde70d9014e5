// The CUDA back end as the dispatcher sees it. Built from gpu/ when nvcc is
// available; otherwise gpu/no_gpu.cpp answers "no GPU". Every call is safe on
// machines without a CUDA driver or device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpucrypto::gpu {

enum class Cipher {
  kSkinny128_256,
  kSkinny128_384,
  kSM4,
  kRectangle80,
  kRectangle128,
  kAES128,
  kAES192,
  kAES256,
};

struct Job {
  Cipher cipher;
  const uint8_t* key;  // raw key bytes (the device derives its own schedule)
  size_t keylen;
  bool ctr_mode;       // false: ECB
  bool encrypt;        // ECB direction (ignored for CTR)
  const uint8_t* ctr;  // CTR: first counter block (block size bytes), big-endian
  const uint8_t* in;
  uint8_t* out;
  size_t nblocks;
};

// Lazily initialises the runtime (never at provider load; again after fork()).
// True when a usable device exists and the GPU was not disabled.
bool usable();

// Runs the job on the GPU(s). Returns true only when `out` holds the whole,
// correct result; on false `out` was not written at all and the caller must
// compute the job on the CPU. Repeated failures disable the GPU for the
// process (one warning on stderr).
bool run(const Job& job);

// Minimum job size in bytes where the GPU pays off (measured on first use);
// SIZE_MAX when unusable.
size_t min_bytes();

// One line for diagnostics: "none (no CUDA driver)", "1 x NVIDIA H200 (sm_90)", ...
std::string describe();

}  // namespace gpucrypto::gpu
