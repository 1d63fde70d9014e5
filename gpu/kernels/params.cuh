// Kernel parameters shared by every cipher kernel: the key schedule travels
// by value in the launch parameters, which CUDA places in constant memory
// (bank c[0x0]); every thread of a warp reads the same round key at the same
// time, which is the broadcast case constant memory is built for.
#pragma once
#include <cstdint>

#include "gpu/kernels/common.cuh"

namespace gpucrypto::gpu::kern {

// kKeystream: CTR without input, out = E(counter) (the keystream transfer
// mode: the CPU XORs it into the data while the next chunk is in flight).
enum class Op : uint32_t { kEncrypt, kDecrypt, kCtr, kKeystream };

// Tables the table-based kernels copy into shared memory at block start. One
// copy lives in device global memory (uploaded once per device); the host
// grid emulator uses the host copy (host_tables()).
struct Tables {
  uint32_t aes_te0[256];     // MixColumns(S(x) in row 0), little-endian column word
  uint32_t aes_td0[256];     // InvMixColumns(S^-1(x) in row 0)
  uint8_t aes_sbox[256];
  uint8_t aes_inv_sbox[256];
  uint32_t sm4_t0[256];      // L(S(x)) for x in the low byte
  uint32_t skinny_srep[256]; // S8(x) * 0x01010101
};

// The base of the cipher bodies without shared-memory tables (bit-sliced,
// RECTANGLE, SKINNY's SWAR design): phase 0 has nothing to load.
struct NoSharedTables {
  using Shared = NoShared;
  GPUCRYPTO_HD static void load_shared(Shared&, const Tables&, uint32_t, uint32_t, bool) {}
};

// Room for the largest schedule: SKINNY-128-384 keeps 56 x 4 words for the
// T-table kernel, 56 x 2 row words for the SWAR one and 56 x 8 bit planes for
// the bit-sliced one (784 words, 3136 bytes: kernel parameters may take 4 KiB).
inline constexpr int kKeySchedWords = 784;

struct KeySched {
  uint32_t w[kKeySchedWords];
};

struct Params {
  const Tables* tables;  // device copy on the GPU, host copy in the emulator
  const uint8_t* in;
  uint8_t* out;
  uint64_t nblocks;      // blocks in this launch; thread i handles block i
  uint32_t ctr_be[4];    // CTR: counter of block 0, big-endian words
  KeySched ks;
};

}  // namespace gpucrypto::gpu::kern
