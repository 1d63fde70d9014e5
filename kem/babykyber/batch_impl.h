// The babyKyber PKE batch back ends (one per instruction set) behind one
// table, best first. Each processes `n` instances with the given strides
// (bytes between consecutive instances), so the KEM can run them directly on
// its key/ciphertext arrays. Messages are one byte each, contiguous.
//
// Also the batch operations of gpucrypto/babykyber.h over an explicit CPU
// back end and engine configuration: the C API passes pke_batch_select() and
// env_config() (GPUCRYPTO_BACKEND), the provider its instance's
// (provider/kem_rows_babykyber.cpp).
#pragma once
#include <openssl/types.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/config.h"

namespace gpucrypto::kem {

// A batch back end, selected as every per-ISA implementation is
// (platform/isa_select.h); the vector ones run the kernels of the ISA
// namespaces babykyber::avx2 and babykyber::avx512 (batch_isa_api.h).
struct PkeBatchImpl {
  const char* name;   // "avx512", "avx2", "ref"
  // CpuFeature bits: the ISA file's compiled_features() (platform/isa.h), by
  // reference so the table stays constant-initialised.
  const uint32_t& required;
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

// A PKE step over a whole batch (batch_dispatch.cpp): offered once to the GPU
// when it pays under `cfg` (engine/offload.h gpu_offload_worth), which
// returns a finished prefix; the remainder runs on `cpu`, split over the
// thread pool (threads as in gpucrypto/babykyber.h; chunks of at least
// `grain` instances). Byte-identical to cpu over [0, n).
struct PkeRun {
  const PkeBatchImpl& cpu;
  const EngineConfig& cfg;
  unsigned threads;
  size_t grain;
};
void pke_keygen(const PkeRun& run, size_t n, const uint8_t* coins, size_t cs, uint8_t* ek,
                size_t es, uint8_t* dk, size_t ds);
bool pke_encrypt(const PkeRun& run, size_t n, uint8_t* ct, size_t cts, const uint8_t* ek,
                 size_t es, const uint8_t* m, const uint8_t* coins, size_t cs);
void pke_decrypt(const PkeRun& run, size_t n, uint8_t* m, const uint8_t* ct, size_t cts,
                 const uint8_t* dk, size_t ds);

namespace babykyber {
// babykyber_{keypair,encaps,decaps}_batch with an explicit back end and
// configuration (same arguments and results otherwise).
int keypair_batch(const PkeBatchImpl& cpu, const EngineConfig& cfg, OSSL_LIB_CTX* libctx,
                  size_t n, uint8_t* pks, uint8_t* sks, const uint8_t* seeds, unsigned threads);
int encaps_batch(const PkeBatchImpl& cpu, const EngineConfig& cfg, OSSL_LIB_CTX* libctx,
                 size_t n, uint8_t* cts, uint8_t* sss, const uint8_t* pks, const uint8_t* ms,
                 unsigned threads);
int decaps_batch(const PkeBatchImpl& cpu, const EngineConfig& cfg, OSSL_LIB_CTX* libctx,
                 size_t n, uint8_t* sss, const uint8_t* cts, const uint8_t* sks, unsigned threads);
}  // namespace babykyber

}  // namespace gpucrypto::kem
