// babyKyber PKE batch kernels, AVX2: 8 instances per ymm (32-bit lanes).
// Compiled with -mavx2; reached only after the runtime CPU check in
// batch_dispatch.cpp. Everything but the three entry points is internal.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "platform/isa.h"

namespace {

using V = __m256i;
constexpr int kW = 8;

inline V v_set1(uint32_t x) { return _mm256_set1_epi32(int(x)); }
inline V v_add(V a, V b) { return _mm256_add_epi32(a, b); }
inline V v_sub(V a, V b) { return _mm256_sub_epi32(a, b); }
inline V v_mul(V a, V b) { return _mm256_mullo_epi32(a, b); }
inline V v_and(V a, V b) { return _mm256_and_si256(a, b); }
inline V v_or(V a, V b) { return _mm256_or_si256(a, b); }
inline V v_srl(V a, int n) { return _mm256_srl_epi32(a, _mm_cvtsi32_si128(n)); }
inline V v_sll(V a, int n) { return _mm256_sll_epi32(a, _mm_cvtsi32_si128(n)); }
inline V v_gather(const uint8_t* base, V idx) {
  return _mm256_i32gather_epi32(reinterpret_cast<const int*>(base), idx, 1);
}
inline V v_load(const int32_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
inline V v_load_u8(const uint8_t* p) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
inline void v_store(uint32_t* p, V v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }

}  // namespace

#define BABYKYBER_ISA_NAME(fn) babykyber_avx2_##fn
#include "kem/babykyber/batch_simd.inc"
