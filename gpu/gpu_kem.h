// The babyKyber PKE batch on the GPU (kernels: gpu/kernels/babykyber.cuh),
// as the KEM batch dispatcher (kem/babykyber/batch_dispatch.cpp) sees it. Same runtime
// as the ciphers (gpu/gpu_backend.h): lazy init, chunked copy/kernel/copy
// pipeline over every stream, fault injection, fallback and disabling.
//
// Only the bare PKE runs on the device. The KEM's hashing (SHA3-256 H(ek),
// SHA3-512 G(m || H(ek)), SHAKE256 J) stays on the CPU: at n = 4 one Keccak
// permutation costs far more than the whole PKE, and the FO transform needs
// G's output (the encryption coins) before encrypting, so hashing on the
// device would make the kernel a Keccak kernel. See gpu/README.md.
//
// Every function returns how many leading instances are finished: n on
// success, fewer when a CUDA error stopped the work. Outputs past that count
// are untouched; the caller finishes instances [done, n) on the CPU. Strides
// are the bytes between consecutive instances of an array (the natural
// sizes for the C batch API; larger inside KEM private keys).
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::gpu {

enum class KemOp : uint32_t { kKeygen, kEncrypt, kDecrypt };

// The seed's three kernel designs.
enum class KemDesign : uint32_t {
  kThreadPerInstance,  // one instance per thread, 256-thread blocks, no shared memory
  kSevenThreads,       // 7 threads per instance (one per coefficient of the degree-6
                       // raw product), one instance per 7-thread block
  kPacked146,          // the same 7-thread body, 146 instances per 1022-thread block
};
// The runtime's default: the performance model in gpu/README.md puts the
// one-instance-per-thread design ahead (no barriers, full warps).
inline constexpr KemDesign kDefaultKemDesign = KemDesign::kThreadPerInstance;

const char* kem_design_name(KemDesign d);

// keygen: coins (35 B) -> ek (15 B), dk (5 B).
size_t kem_keygen(size_t n, const uint8_t* coins, size_t coins_stride, uint8_t* ek,
                  size_t ek_stride, uint8_t* dk, size_t dk_stride,
                  KemDesign design = kDefaultKemDesign);
// encrypt: ek (15 B), m (1 B, contiguous), coins (4 B) -> ct (8 B).
// *all_canonical is false when an ek among the finished instances had a
// coefficient >= q (the ct is still written, as on the CPU).
size_t kem_encrypt(size_t n, uint8_t* ct, size_t ct_stride, const uint8_t* ek, size_t ek_stride,
                   const uint8_t* m, const uint8_t* coins, size_t coins_stride,
                   bool* all_canonical, KemDesign design = kDefaultKemDesign);
// decrypt: dk (5 B), ct (8 B) -> m (1 B, contiguous).
size_t kem_decrypt(size_t n, uint8_t* m, const uint8_t* ct, size_t ct_stride, const uint8_t* dk,
                   size_t dk_stride, KemDesign design = kDefaultKemDesign);

// Bytes one instance moves over PCIe (in + out) for `op`; the dispatcher
// compares n times this with gpu::min_bytes().
size_t kem_instance_bytes(KemOp op);

}  // namespace gpucrypto::gpu
