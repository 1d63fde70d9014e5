// Exported entry points of the ML-KEM ISA files (avx2.cpp, avx512.cpp, in
// the namespaces mlkem::avx2 and mlkem::avx512): declarations and plain state
// structs only, no inline code, so the ISA files may include it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::kem::mlkem {

// Four / eight Keccak-f[1600] states, interleaved: word w of lane l at
// s[4 w + l] / s[8 w + l].
struct alignas(32) KeccakX4 {
  uint64_t s[100];
};
struct alignas(64) KeccakX8 {
  uint64_t s[200];
};

// The entry points of each ISA file, declared once per ISA namespace
// (mlkem_isa_api.inc); only AVX-512 has the eight-lane Keccak.
namespace avx2 {
#include "kem/mlkem/mlkem_isa_api.inc"
}  // namespace avx2
namespace avx512 {
#include "kem/mlkem/mlkem_isa_api.inc"
void keccakx8_absorb(KeccakX8* st, const uint8_t* const blk[8]);
void keccakx8_set_lane(KeccakX8* st, int lane, const uint8_t* blk);
void keccakx8_squeeze(KeccakX8* st, const size_t rate[8], size_t nblocks, uint8_t* const out[8]);
}  // namespace avx512

}  // namespace gpucrypto::kem::mlkem
