// Exported entry points of the ML-KEM ISA files (mlkem_avx2.cpp,
// mlkem_avx512.cpp): declarations and a plain state struct only, no inline
// code, so the ISA files may include it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::kem::mlkem {

// Four Keccak-f[1600] states, interleaved: word w of lane l at s[4 w + l].
struct alignas(32) KeccakX4 {
  uint64_t s[100];
};

// Absorbs one input of `inlen` (< rate) bytes per lane, padded with the
// domain byte `ds`; squeeze then permutes and writes `nblocks` rate-sized
// blocks per lane, and may be called again for more.
void keccakx4_absorb_avx2(KeccakX4* st, size_t rate, uint8_t ds, const uint8_t* const in[4],
                          size_t inlen);
void keccakx4_squeeze_avx2(KeccakX4* st, size_t rate, size_t nblocks, uint8_t* const out[4]);
void keccakx4_absorb_avx512(KeccakX4* st, size_t rate, uint8_t ds, const uint8_t* const in[4],
                            size_t inlen);
void keccakx4_squeeze_avx512(KeccakX4* st, size_t rate, size_t nblocks, uint8_t* const out[4]);

}  // namespace gpucrypto::kem::mlkem
