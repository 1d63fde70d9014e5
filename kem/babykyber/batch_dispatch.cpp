// The PKE batch implementations table: the scalar reference (the
// GPUCRYPTO_HD per-instance code in a loop) and the vector kernels, whose
// whole blocks run in the ISA files and whose tails (n mod lanes) run
// through the reference, so every n is accepted. And the whole-batch PKE
// steps: a large batch goes to the GPU once, first, when one is usable
// (gpu/gpu_kem.h); whatever it does not finish runs on the CPU path, split
// over the thread pool.
#include <atomic>
#include <cstring>

#include "platform/cpu_features.h"
#include "platform/isa_select.h"
#include "gpu/gpu_backend.h"
#include "gpu/gpu_kem.h"
#include "engine/offload.h"
#include "kem/core/babykyber_pke.h"
#include "kem/babykyber/batch_impl.h"
#include "kem/babykyber/batch_isa_api.h"
#include "engine/thread_pool.h"

namespace gpucrypto::kem {

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

const PkeBatchImpl kAvx512{"avx512", bk::avx512::kRequired,
                           simd_keygen<bk::avx512::lanes, bk::avx512::keygen>,
                           simd_encrypt<bk::avx512::lanes, bk::avx512::encrypt>,
                           simd_decrypt<bk::avx512::lanes, bk::avx512::decrypt>};
const PkeBatchImpl kAvx2{"avx2", bk::avx2::kRequired,
                         simd_keygen<bk::avx2::lanes, bk::avx2::keygen>,
                         simd_encrypt<bk::avx2::lanes, bk::avx2::encrypt>,
                         simd_decrypt<bk::avx2::lanes, bk::avx2::decrypt>};
const PkeBatchImpl kRef{"ref", kBaseline, ref_keygen, ref_encrypt, ref_decrypt};

const PkeBatchImpl* const kImpls[] = {&kAvx512, &kAvx2, &kRef};

}  // namespace

std::span<const PkeBatchImpl* const> pke_batch_impls() { return kImpls; }

const PkeBatchImpl& pke_batch_select() {
  static const PkeBatchImpl& best = pke_batch_select(env_config().features());
  return best;
}

const PkeBatchImpl& pke_batch_select(uint32_t f) { return best_for(kImpls, f); }

const PkeBatchImpl* pke_batch_find(const char* name) { return find_by_name(kImpls, name); }

// --- whole-batch PKE steps ------------------------------------------------------
// The GPU threshold counts PCIe traffic (n x in+out bytes per instance): the
// configured gpu_min_bytes, else mt_min_bytes and the runtime's measured one,
// so small and single-instance calls never initialise the GPU runtime. The
// GPU returns a finished prefix and the CPU does the rest, so the result is
// the CPU's byte for byte either way.
namespace {

size_t gpu_prefix(const PkeRun& run, size_t n, gpu::KemOp op, auto&& on_gpu) {
  return n > 1 && gpu_offload_worth(n * gpu::kem_instance_bytes(op), run.cfg) ? on_gpu() : 0;
}

// body(begin, end) over [0, n): the calling thread, or the pool.
template <class Body>
void split(const PkeRun& run, size_t n, const Body& body) {
  if (n == 0) return;
  if (run.threads == 1 || n <= run.grain) body(size_t{0}, n);
  else ThreadPool::instance().parallel_for(n, run.grain, body, run.threads);
}

}  // namespace

void pke_keygen(const PkeRun& run, size_t n, const uint8_t* coins, size_t cs, uint8_t* ek,
                size_t es, uint8_t* dk, size_t ds) {
  const size_t done = gpu_prefix(run, n, gpu::KemOp::kKeygen,
                                 [&] { return gpu::kem_keygen(n, coins, cs, ek, es, dk, ds); });
  split(run, n - done, [&](size_t b, size_t e) {
    b += done, e += done;
    run.cpu.keygen(e - b, coins + b * cs, cs, ek + b * es, es, dk + b * ds, ds);
  });
}

bool pke_encrypt(const PkeRun& run, size_t n, uint8_t* ct, size_t cts, const uint8_t* ek,
                 size_t es, const uint8_t* m, const uint8_t* coins, size_t cs) {
  bool gpu_ok = true;
  const size_t done = gpu_prefix(run, n, gpu::KemOp::kEncrypt, [&] {
    return gpu::kem_encrypt(n, ct, cts, ek, es, m, coins, cs, &gpu_ok);
  });
  std::atomic<bool> ok{gpu_ok};
  split(run, n - done, [&](size_t b, size_t e) {
    b += done, e += done;
    if (!run.cpu.encrypt(e - b, ct + b * cts, cts, ek + b * es, es, m + b, coins + b * cs, cs))
      ok.store(false);
  });
  return ok.load();
}

void pke_decrypt(const PkeRun& run, size_t n, uint8_t* m, const uint8_t* ct, size_t cts,
                 const uint8_t* dk, size_t ds) {
  const size_t done = gpu_prefix(run, n, gpu::KemOp::kDecrypt,
                                 [&] { return gpu::kem_decrypt(n, m, ct, cts, dk, ds); });
  split(run, n - done, [&](size_t b, size_t e) {
    b += done, e += done;
    run.cpu.decrypt(e - b, m + b, ct + b * cts, cts, dk + b * ds, ds);
  });
}

}  // namespace gpucrypto::kem
