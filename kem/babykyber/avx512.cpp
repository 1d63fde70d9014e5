// babyKyber PKE batch kernels, AVX-512F: 16 instances per zmm (32-bit lanes).
// Compiled with -mavx512f; reached only after the runtime CPU check in
// batch_dispatch.cpp. Everything but the three entry points is internal.
// GCC 12 warns inside its own AVX-512 headers (_mm512_undefined_epi32 used as a
// pass-through; GCC PR 105593, fixed in GCC 13): not our code.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "platform/isa.h"

namespace {

using V = __m512i;
constexpr int kW = 16;

inline V v_set1(uint32_t x) { return _mm512_set1_epi32(int(x)); }
inline V v_add(V a, V b) { return _mm512_add_epi32(a, b); }
inline V v_sub(V a, V b) { return _mm512_sub_epi32(a, b); }
inline V v_mul(V a, V b) { return _mm512_mullo_epi32(a, b); }
inline V v_and(V a, V b) { return _mm512_and_si512(a, b); }
inline V v_or(V a, V b) { return _mm512_or_si512(a, b); }
inline V v_srl(V a, int n) { return _mm512_srl_epi32(a, _mm_cvtsi32_si128(n)); }
inline V v_sll(V a, int n) { return _mm512_sll_epi32(a, _mm_cvtsi32_si128(n)); }
inline V v_gather(const uint8_t* base, V idx) { return _mm512_i32gather_epi32(idx, base, 1); }
inline V v_load(const int32_t* p) { return _mm512_load_si512(p); }
inline V v_load_u8(const uint8_t* p) {
  return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
inline void v_store(uint32_t* p, V v) { _mm512_store_si512(p, v); }

}  // namespace

#define BABYKYBER_ISA_NAME(fn) babykyber_avx512_##fn
#include "kem/babykyber/batch_simd.inc"
