// One kernel launch as plain data, shared by the CUDA launchers (*.cu), the
// host grid emulator (emulate_launch.cpp) and the runtime. A launch is one
// of three kinds — a cipher, a babyKyber PKE batch, an ML-KEM batch — held
// in a std::variant: the CUDA device and the emulator each visit it with one
// handler per kind (an Overloaded set of lambdas), so a kind added here and
// not handled there does not compile. No CUDA headers here: this compiles
// with g++ alone.
#pragma once
#include <cstddef>
#include <cstdint>
#include <variant>

#include "gpu/gpu_backend.h"
#include "gpu/gpu_kem.h"
#include "gpu/gpu_mlkem.h"
#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu {

// The two SKINNY designs of the table family (gpu/kernels/skinny.cuh): the
// seed's T-table design, which gpu_kernels=tables runs (kDefaultSkinny), and
// the SWAR table-free one, kept for the tests and the model. The
// constant-time family runs the bit-sliced SkinnyCt whatever this says.
enum class SkinnyDesign : uint32_t { kTable, kSliced };
inline constexpr SkinnyDesign kDefaultSkinny = SkinnyDesign::kTable;

inline constexpr uint32_t kThreadsPerBlock = 512;

// A block cipher over `n` blocks (ECB either way, or CTR from ctr_be).
struct CipherLaunch {
  Cipher cipher;
  kern::Op op;
  SkinnyDesign skinny = kDefaultSkinny;
  uint32_t threads = kThreadsPerBlock;
  uint32_t ctr_be[4] = {};  // CTR: counter of the launch's first block, big-endian words
  kern::KeySched ks{};
  KernelFamily family = KernelFamily::kConstantTime;
};

// A babyKyber PKE batch over `n` instances (gpu/gpu_kem.h).
struct BabyKyberLaunch {
  KemOp op;
  KemDesign design = kDefaultKemDesign;
};

// An ML-KEM batch over `n` instances (gpu/gpu_mlkem.h); k = 2, 3 or 4.
struct MlkemLaunch {
  MlkemOp op;
  int k;
};

using Launch = std::variant<CipherLaunch, BabyKyberLaunch, MlkemLaunch>;

// What the device supplies to a launch: its buffers for this chunk, the
// number of units (blocks or instances) in it, and its copy of the tables.
struct LaunchIo {
  const uint8_t* in;
  uint8_t* out;
  uint64_t n;
  const kern::Tables* tables;
};

// The overloaded-lambdas idiom: std::visit(Overloaded{[](const A&) {...},
// [](const B&) {...}}, v) only compiles when every alternative has a lambda.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

size_t block_bytes(Cipher c);
size_t key_bytes(Cipher c);
const char* cipher_name(Cipher c);

// Expands `key` into the kernel schedule; false for a wrong key length.
bool build_schedule(Cipher c, const uint8_t* key, size_t keylen, kern::KeySched* ks);

// Runs the launch on the CPU through the host grid emulator (same kernel
// bodies, same grid shape). Test aid: never a GPU result.
void emulate_launch(const Launch& launch, const LaunchIo& io);
// The emulator of each kind (emulate_launch.cpp, gpu_kem.cpp, gpu_mlkem.cpp).
void emulate_cipher(const CipherLaunch& l, const LaunchIo& io);
void emulate_babykyber(const BabyKyberLaunch& l, const LaunchIo& io);
void emulate_mlkem(const MlkemLaunch& l, const LaunchIo& io);

// The kernel parameters of a cipher launch on `io`.
inline kern::Params cipher_params(const CipherLaunch& l, const LaunchIo& io) {
  kern::Params p{io.tables, io.in, io.out, io.n, {}, l.ks};
  for (int i = 0; i < 4; ++i) p.ctr_be[i] = l.ctr_be[i];
  return p;
}

// Grid size for `nblocks` cipher blocks, `per_thread` blocks per thread.
inline uint32_t grid_blocks(uint64_t nblocks, uint32_t threads, uint32_t per_thread = 1) {
  const uint64_t per_cta = uint64_t(threads) * per_thread;
  return uint32_t((nblocks + per_cta - 1) / per_cta);
}

}  // namespace gpucrypto::gpu
