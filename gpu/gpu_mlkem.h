// ML-KEM-512/768/1024 (FIPS 203) batches on the GPU (kernels:
// gpu/kernels/mlkem.cuh), for the ML-KEM batch API (kem/mlkem/mlkem_kem.cpp). Same
// runtime as the ciphers and babyKyber (gpu/gpu_backend.h): lazy init, the
// chunked copy/kernel/copy pipeline over every stream, fault injection
// (GPUCRYPTO_GPU_FAULT), fallback and disabling.
//
// Unlike the babyKyber PKE batch, the whole KEM runs on the device, hashing
// included (G, H, J, SampleNTT, the CBD noise): at n = 256 the NTT-domain
// arithmetic is no longer negligible next to Keccak, and the FO transform's
// G -> encrypt -> compare chain stays inside one kernel.
//
// Every array holds the instances back to back at their natural sizes (as
// the C batch API stores them): instance i of `eks` starts at
// i * mlkem_publickey_bytes(level), and so on. Every function returns how
// many leading instances are finished: n on success, fewer when a CUDA error
// stopped the work, 0 for a level other than 512/768/1024 or without a
// usable device. Outputs past that count are untouched; the caller finishes
// instances [done, n) on the CPU. The results equal mlkem_keypair_derand /
// mlkem_encaps_derand / mlkem_decaps byte for byte.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::gpu {

enum class MlkemOp : uint32_t { kKeygen, kEncaps, kDecaps };

// ML-KEM.KeyGen_internal(d, z): seeds[n][64] (d || z) -> eks[n][ek], dks[n][dk].
size_t mlkem_keygen(int level, size_t n, const uint8_t* seeds, uint8_t* eks, uint8_t* dks);

// ML-KEM.Encaps_internal(ek, m): eks[n][ek], ms[n][32] -> cts[n][ct], sss[n][32].
// ek_ok[i] (may be null) is 1 when ek i passed the modulus check (FIPS 203
// section 7.2: every coefficient < q), else 0; ct and ss are written either
// way, exactly as the CPU's encaps does, and the caller discards them (the C
// API fails the batch and wipes its outputs).
size_t mlkem_encaps(int level, size_t n, const uint8_t* eks, const uint8_t* ms, uint8_t* cts,
                    uint8_t* sss, uint8_t* ek_ok);

// ML-KEM.Decaps_internal(dk, c) with implicit rejection: dks[n][dk],
// cts[n][ct] -> sss[n][32]. Like the CPU, no dk hash check here (the caller's,
// once on import).
size_t mlkem_decaps(int level, size_t n, const uint8_t* dks, const uint8_t* cts, uint8_t* sss);

// Bytes one instance moves over PCIe (in + out) for `op` at `level` (0 for a
// bad level); the dispatcher compares n times this with gpu::min_bytes().
size_t mlkem_instance_bytes(int level, MlkemOp op);

// Instances per thread block of the kernel for (level, op) (0 for a bad
// level): 128 threads each, as many as 48 KiB of static shared memory and a
// 512-thread block allow (gpu/README.md).
uint32_t mlkem_instances_per_block(int level, MlkemOp op);
// Static shared memory of one block of that kernel, in bytes.
size_t mlkem_shared_bytes(int level, MlkemOp op);

}  // namespace gpucrypto::gpu
