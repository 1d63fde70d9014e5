// The babyKyber PKE batch back ends (one per instruction set) behind one
// table, best first. Each processes `n` instances with the given strides
// (bytes between consecutive instances), so the KEM can run them directly on
// its key/ciphertext arrays. Messages are one byte each, contiguous.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace gpucrypto::kem {

struct PkeBatchImpl {
  const char* name;   // "avx512", "avx2", "ref"
  uint32_t required;  // CpuFeature bits
  void (*keygen)(size_t n, const uint8_t* coins, size_t coins_stride, uint8_t* ek,
                 size_t ek_stride, uint8_t* dk, size_t dk_stride);
  // Returns true when every ek was canonical (all coefficients < q).
  bool (*encrypt)(size_t n, uint8_t* ct, size_t ct_stride, const uint8_t* ek, size_t ek_stride,
                  const uint8_t* m, const uint8_t* coins, size_t coins_stride);
  void (*decrypt)(size_t n, uint8_t* m, const uint8_t* ct, size_t ct_stride, const uint8_t* dk,
                  size_t dk_stride);
};

// Every implementation compiled in, best first; the last is the reference.
std::span<const PkeBatchImpl* const> pke_batch_impls();
// The best one the CPU features allow: `features`, or by default the
// detected ones capped by GPUCRYPTO_BACKEND (engine/offload.h env_config()).
const PkeBatchImpl& pke_batch_select(uint32_t features);
const PkeBatchImpl& pke_batch_select();
// Selected by name; nullptr when absent (tests).
const PkeBatchImpl* pke_batch_find(const char* name);

}  // namespace gpucrypto::kem
