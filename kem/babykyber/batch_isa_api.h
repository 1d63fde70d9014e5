// The entry points of the babyKyber ISA files (avx2.cpp, avx512.cpp), in the
// namespaces babykyber::avx2 and babykyber::avx512: declarations only, no
// inline code, so the ISA files may include it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::kem::babykyber {

// The same list for each ISA (batch_isa_api.inc), written once.
namespace avx2 {
#include "kem/babykyber/batch_isa_api.inc"
}  // namespace avx2
namespace avx512 {
#include "kem/babykyber/batch_isa_api.inc"
}  // namespace avx512

}  // namespace gpucrypto::kem::babykyber
