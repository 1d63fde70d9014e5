// The PKE batch implementations table: the scalar reference (the
// GPUCRYPTO_HD per-instance code in a loop) and the vector kernels, whose
// whole blocks run in the ISA files and whose tails (n mod lanes) run
// through the reference, so every n is accepted. Large batches through the
// C API go to the GPU first when one is usable (gpu/gpu_kem.h); whatever it
// does not finish runs on the selected CPU path.
#include <cstring>
#include <optional>

#include "platform/cpu_features.h"
#include "gpu/gpu_backend.h"
#include "gpu/gpu_kem.h"
#include "engine/offload.h"
#include "kem/core/babykyber_pke.h"
#include "kem/babykyber/batch_impl.h"

namespace gpucrypto::kem {

// Exported by batch_avx512.cpp / batch_avx2.cpp (compiled with ISA flags).
size_t babykyber_avx512_lanes();
void babykyber_avx512_keygen(size_t, const uint8_t*, size_t, uint8_t*, size_t, uint8_t*, size_t);
uint32_t babykyber_avx512_encrypt(size_t, uint8_t*, size_t, const uint8_t*, size_t,
                                  const uint8_t*, const uint8_t*, size_t);
void babykyber_avx512_decrypt(size_t, uint8_t*, const uint8_t*, size_t, const uint8_t*, size_t);
size_t babykyber_avx2_lanes();
void babykyber_avx2_keygen(size_t, const uint8_t*, size_t, uint8_t*, size_t, uint8_t*, size_t);
uint32_t babykyber_avx2_encrypt(size_t, uint8_t*, size_t, const uint8_t*, size_t, const uint8_t*,
                                const uint8_t*, size_t);
void babykyber_avx2_decrypt(size_t, uint8_t*, const uint8_t*, size_t, const uint8_t*, size_t);

namespace {

namespace bk = babykyber;

void ref_keygen(size_t n, const uint8_t* coins, size_t cs, uint8_t* ek, size_t es, uint8_t* dk,
                size_t ds) {
  for (size_t i = 0; i < n; ++i) bk::keygen(ek + i * es, dk + i * ds, coins + i * cs);
}

bool ref_encrypt(size_t n, uint8_t* ct, size_t cts, const uint8_t* ek, size_t es,
                 const uint8_t* m, const uint8_t* coins, size_t cs) {
  uint32_t ok = ~0u;
  for (size_t i = 0; i < n; ++i) ok &= bk::encrypt(ct + i * cts, ek + i * es, m[i], coins + i * cs);
  return ok != 0;
}

void ref_decrypt(size_t n, uint8_t* m, const uint8_t* ct, size_t cts, const uint8_t* dk,
                 size_t ds) {
  for (size_t i = 0; i < n; ++i) m[i] = bk::decrypt(dk + i * ds, ct + i * cts);
}

// Vector blocks then a reference tail; one template per ISA, instantiated
// in this (non-ISA) file only.
template <size_t (*Lanes)(),
          void (*Keygen)(size_t, const uint8_t*, size_t, uint8_t*, size_t, uint8_t*, size_t)>
void simd_keygen(size_t n, const uint8_t* coins, size_t cs, uint8_t* ek, size_t es, uint8_t* dk,
                 size_t ds) {
  const size_t w = Lanes(), nb = n / w, done = nb * w;
  Keygen(nb, coins, cs, ek, es, dk, ds);
  ref_keygen(n - done, coins + done * cs, cs, ek + done * es, es, dk + done * ds, ds);
}

template <size_t (*Lanes)(), uint32_t (*Encrypt)(size_t, uint8_t*, size_t, const uint8_t*, size_t,
                                                 const uint8_t*, const uint8_t*, size_t)>
bool simd_encrypt(size_t n, uint8_t* ct, size_t cts, const uint8_t* ek, size_t es,
                  const uint8_t* m, const uint8_t* coins, size_t cs) {
  const size_t w = Lanes(), nb = n / w, done = nb * w;
  const bool ok = Encrypt(nb, ct, cts, ek, es, m, coins, cs) == 0;
  const bool tail_ok =
      ref_encrypt(n - done, ct + done * cts, cts, ek + done * es, es, m + done, coins + done * cs, cs);
  return ok && tail_ok;
}

template <size_t (*Lanes)(),
          void (*Decrypt)(size_t, uint8_t*, const uint8_t*, size_t, const uint8_t*, size_t)>
void simd_decrypt(size_t n, uint8_t* m, const uint8_t* ct, size_t cts, const uint8_t* dk,
                  size_t ds) {
  const size_t w = Lanes(), nb = n / w, done = nb * w;
  Decrypt(nb, m, ct, cts, dk, ds);
  ref_decrypt(n - done, m + done, ct + done * cts, cts, dk + done * ds, ds);
}

const PkeBatchImpl kAvx512{
    "avx512", kAVX512F,
    simd_keygen<babykyber_avx512_lanes, babykyber_avx512_keygen>,
    simd_encrypt<babykyber_avx512_lanes, babykyber_avx512_encrypt>,
    simd_decrypt<babykyber_avx512_lanes, babykyber_avx512_decrypt>};
const PkeBatchImpl kAvx2{
    "avx2", kAVX2,
    simd_keygen<babykyber_avx2_lanes, babykyber_avx2_keygen>,
    simd_encrypt<babykyber_avx2_lanes, babykyber_avx2_encrypt>,
    simd_decrypt<babykyber_avx2_lanes, babykyber_avx2_decrypt>};
const PkeBatchImpl kRef{"ref", 0, ref_keygen, ref_encrypt, ref_decrypt};

const PkeBatchImpl* const kImpls[] = {&kAvx512, &kAvx2, &kRef};

// --- the GPU hook ------------------------------------------------------------
// A batch goes to the GPU when the backend cap allows CUDA and its PCIe
// traffic (n x in+out bytes per instance) reaches the GPU threshold: the
// configured GPUCRYPTO_GPU_MIN_BYTES, else the runtime's measured one (never
// asked below 1 MiB, so small and single-instance calls never initialise the
// GPU runtime). The GPU returns a finished prefix; the CPU path does the rest,
// so the result is the CPU's byte for byte either way.
bool gpu_worth(size_t n, gpu::KemOp op) {
  return gpu_offload_worth(n * gpu::kem_instance_bytes(op), env_config());
}

template <const PkeBatchImpl* Cpu>
void gpu_keygen(size_t n, const uint8_t* coins, size_t cs, uint8_t* ek, size_t es, uint8_t* dk,
                size_t ds) {
  const size_t done = gpu_worth(n, gpu::KemOp::kKeygen) ? gpu::kem_keygen(n, coins, cs, ek, es, dk, ds) : 0;
  if (done < n) Cpu->keygen(n - done, coins + done * cs, cs, ek + done * es, es, dk + done * ds, ds);
}

template <const PkeBatchImpl* Cpu>
bool gpu_encrypt(size_t n, uint8_t* ct, size_t cts, const uint8_t* ek, size_t es,
                 const uint8_t* m, const uint8_t* coins, size_t cs) {
  bool ok = true;
  const size_t done =
      gpu_worth(n, gpu::KemOp::kEncrypt) ? gpu::kem_encrypt(n, ct, cts, ek, es, m, coins, cs, &ok) : 0;
  if (done < n &&
      !Cpu->encrypt(n - done, ct + done * cts, cts, ek + done * es, es, m + done, coins + done * cs, cs))
    ok = false;
  return ok;
}

template <const PkeBatchImpl* Cpu>
void gpu_decrypt(size_t n, uint8_t* m, const uint8_t* ct, size_t cts, const uint8_t* dk,
                 size_t ds) {
  const size_t done = gpu_worth(n, gpu::KemOp::kDecrypt) ? gpu::kem_decrypt(n, m, ct, cts, dk, ds) : 0;
  if (done < n) Cpu->decrypt(n - done, m + done, ct + done * cts, cts, dk + done * ds, ds);
}

// Each CPU path behind the GPU hook; same name and requirements, since the
// name reports the CPU vector path.
template <const PkeBatchImpl* Cpu>
PkeBatchImpl with_gpu() {
  return {Cpu->name, Cpu->required, gpu_keygen<Cpu>, gpu_encrypt<Cpu>, gpu_decrypt<Cpu>};
}
const PkeBatchImpl kGpuAvx512 = with_gpu<&kAvx512>();
const PkeBatchImpl kGpuAvx2 = with_gpu<&kAvx2>();
const PkeBatchImpl kGpuRef = with_gpu<&kRef>();

}  // namespace

std::span<const PkeBatchImpl* const> pke_batch_impls() { return kImpls; }

const PkeBatchImpl& pke_batch_select() {
  const PkeBatchImpl& cpu = pke_batch_select(env_config().features());
  return &cpu == &kAvx512 ? kGpuAvx512 : &cpu == &kAvx2 ? kGpuAvx2 : kGpuRef;
}

const PkeBatchImpl& pke_batch_select(uint32_t f) {
  for (const PkeBatchImpl* impl : kImpls)
    if ((impl->required & f) == impl->required) return *impl;
  return kRef;
}

const PkeBatchImpl* pke_batch_find(const char* name) {
  for (const PkeBatchImpl* impl : kImpls)
    if (std::strcmp(impl->name, name) == 0) return impl;
  return nullptr;
}

}  // namespace gpucrypto::kem
