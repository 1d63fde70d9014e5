// The ML-KEM kernel sets compiled in (reference, AVX2, AVX-512), each as
// per-level function tables, best first, and the batch operations over an
// explicit kernel set and engine configuration. The C API (mlkem_kem.cpp)
// passes the best set under GPUCRYPTO_BACKEND and env_config(); the provider
// passes its instance's (provider/kem_rows_mlkem.cpp); tests run every
// runnable set.
#pragma once
#include <openssl/types.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/config.h"

namespace gpucrypto::kem::mlkem {

struct LevelOps {
  void (*keygen)(uint8_t* ek, uint8_t* dk, const uint8_t d[32], const uint8_t z[32]);
  // Returns nonzero when ek passed the modulus check.
  uint32_t (*encaps)(uint8_t* ct, uint8_t ss[32], const uint8_t* ek, const uint8_t m[32]);
  void (*decaps)(uint8_t ss[32], const uint8_t* ct, const uint8_t* dk);
};

// A kernel set, selected as every per-ISA implementation is
// (platform/isa_select.h); the vector sets' kernels are the ISA namespaces
// mlkem::avx2 and mlkem::avx512 (mlkem_simd_api.h).
struct Impl {
  const char* name;   // "avx512", "avx2", "ref"
  // CpuFeature bits: the ISA file's compiled_features() (platform/isa.h), by
  // reference so the kernel sets stay constant-initialised.
  const uint32_t& required;
  LevelOps ops[3];    // ML-KEM-512, -768, -1024
};

// Best first, the reference last.
std::span<const Impl* const> impls();
// The kernel sets (mlkem_impl_ref.cpp, mlkem_impl_simd.cpp).
extern const Impl kImplRef, kImplAvx2, kImplAvx512;
// The best implementation for `features` (default: detected, capped by
// GPUCRYPTO_BACKEND).
const Impl& select(uint32_t features);
const Impl& select();
// Index into Impl::ops for 512/768/1024, or -1.
int level_index(int level);

// mlkem_{keypair,encaps,decaps}_batch of gpucrypto/mlkem.h with the kernel
// set `impl` and the GPU offload rule under `cfg` (engine/offload.h): the
// whole batch is offered to the GPU first, the remainder split over the pool.
int keypair_batch(const Impl& impl, const EngineConfig& cfg, OSSL_LIB_CTX* libctx, int level,
                  size_t n, uint8_t* eks, uint8_t* dks, const uint8_t* seeds, unsigned threads);
int encaps_batch(const Impl& impl, const EngineConfig& cfg, OSSL_LIB_CTX* libctx, int level,
                 size_t n, uint8_t* cts, uint8_t* sss, const uint8_t* eks, const uint8_t* ms,
                 unsigned threads);
int decaps_batch(const Impl& impl, const EngineConfig& cfg, int level, size_t n, uint8_t* sss,
                 const uint8_t* cts, const uint8_t* dks, unsigned threads);

}  // namespace gpucrypto::kem::mlkem
