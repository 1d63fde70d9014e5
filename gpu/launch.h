// One kernel launch as plain data, shared by the CUDA launcher (kernels.cu),
// the host grid emulator (emulate_launch.cpp) and the runtime. No CUDA
// headers here: this compiles with g++ alone.
#pragma once
#include <cstddef>
#include <cstdint>

#include "gpu/gpu_backend.h"
#include "gpu/gpu_kem.h"
#include "gpu/gpu_mlkem.h"
#include "gpu/kernels/params.cuh"

namespace gpucrypto::gpu {

// The two SKINNY encryption designs (gpu/kernels/skinny.cuh). The runtime
// uses kDefaultSkinny, the T-table design: the performance model in
// gpu/README.md puts it at about twice the table-free one on an H200. The
// table-free design stays selectable for tests, benchmarks and the model.
enum class SkinnyDesign : uint32_t { kTable, kSliced };
inline constexpr SkinnyDesign kDefaultSkinny = SkinnyDesign::kTable;

inline constexpr uint32_t kThreadsPerBlock = 512;

struct LaunchSpec {
  Cipher cipher;
  kern::Op op;
  SkinnyDesign skinny = kDefaultSkinny;
  uint32_t threads = kThreadsPerBlock;
  kern::Params params;  // in/out/nblocks/ctr/tables filled per launch
  // A babyKyber PKE launch (gpu/gpu_kem.h) when kem_op != kNone: then only
  // params.in/out/nblocks (= instances) matter and `cipher` is ignored.
  KemOp kem_op = KemOp::kNone;
  KemDesign kem_design = kDefaultKemDesign;
  // An ML-KEM launch (gpu/gpu_mlkem.h) when mlkem_op != kNone: then only
  // params.in/out/nblocks (= instances) and mlkem_k (2, 3, 4) matter.
  MlkemOp mlkem_op = MlkemOp::kNone;
  uint32_t mlkem_k = 0;
};

size_t block_bytes(Cipher c);
size_t key_bytes(Cipher c);
const char* cipher_name(Cipher c);

// Expands `key` into the kernel schedule; false for a wrong key length.
bool build_schedule(Cipher c, const uint8_t* key, size_t keylen, kern::KeySched* ks);

// Runs the launch on the CPU through the host grid emulator (same kernel
// bodies, same grid shape). Test aid: never a GPU result.
void emulate_launch(const LaunchSpec& spec);
// The same for a babyKyber launch (gpu/gpu_kem.cpp); emulate_launch()
// forwards there when spec.kem_op != kNone.
void emulate_kem_launch(const LaunchSpec& spec);
// The same for an ML-KEM launch (gpu/gpu_mlkem.cpp; spec.mlkem_op != kNone).
void emulate_mlkem_launch(const LaunchSpec& spec);

// Grid size for `nblocks` cipher blocks.
inline uint32_t grid_blocks(uint64_t nblocks, uint32_t threads) {
  return uint32_t((nblocks + threads - 1) / threads);
}

}  // namespace gpucrypto::gpu
