// The ML-KEM kernel sets compiled in (reference, AVX2, AVX-512), each as
// per-level function tables, best first; the C API (mlkem_kem.cpp) uses the
// best one the CPU allows and tests run every runnable one.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace gpucrypto::kem::mlkem {

struct LevelOps {
  void (*keygen)(uint8_t* ek, uint8_t* dk, const uint8_t d[32], const uint8_t z[32]);
  // Returns nonzero when ek passed the modulus check.
  uint32_t (*encaps)(uint8_t* ct, uint8_t ss[32], const uint8_t* ek, const uint8_t m[32]);
  void (*decaps)(uint8_t ss[32], const uint8_t* ct, const uint8_t* dk);
};

struct Impl {
  const char* name;   // "avx512", "avx2", "ref"
  uint32_t required;  // CpuFeature bits
  LevelOps ops[3];    // ML-KEM-512, -768, -1024
};

std::span<const Impl* const> impls();
// The kernel sets (mlkem_impl_ref.cpp, mlkem_impl_simd.cpp).
extern const Impl kImplRef, kImplAvx2, kImplAvx512;
// The best implementation for `features` (default: detected, capped by
// GPUCRYPTO_BACKEND).
const Impl& select(uint32_t features);
const Impl& select();
// Index into Impl::ops for 512/768/1024, or -1.
int level_index(int level);

}  // namespace gpucrypto::kem::mlkem
