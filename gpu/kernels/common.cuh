// Helpers shared by every kernel body. Everything here is GPUCRYPTO_HD: the
// same code runs in CUDA kernels (nvcc) and in the host grid emulator (g++),
// so it must stay plain C++ when __CUDACC__ is undefined.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "platform/host_device.h"

// Pragmas only the device compiler understands (g++, also as nvcc's host
// compiler, would warn about an unknown pragma).
#if defined(__CUDA_ARCH__)
#define GPUCRYPTO_PRAGMA(x) _Pragma(#x)
#else
#define GPUCRYPTO_PRAGMA(x)
#endif
// Unrolling of round loops. GPUCRYPTO_MODEL_FULL_UNROLL (set only for the
// performance model in gpu/model/) unrolls them completely so the static
// instruction count of a kernel equals what one thread executes.
#if defined(GPUCRYPTO_MODEL_FULL_UNROLL)
#define GPUCRYPTO_UNROLL_ROUNDS(n) GPUCRYPTO_PRAGMA(unroll)
#else
#define GPUCRYPTO_UNROLL_ROUNDS(n) GPUCRYPTO_PRAGMA(unroll n)
#endif

namespace gpucrypto::gpu::kern {

// The emulated or real (threadIdx.x, blockIdx.x, blockDim.x, gridDim.x).
struct ThreadCtx {
  uint32_t thread;
  uint32_t block;
  uint32_t block_dim;
  uint32_t grid_dim;
  GPUCRYPTO_HD uint64_t global() const { return uint64_t(block) * block_dim + thread; }
};

// Calls f.template operator()<V>() for the V among kValues equal to v. The
// last value also takes anything else: the enums passed here are closed, so
// that is only ever a value cast from out of range. Host code: it maps a
// launch's runtime fields (op, design, K) to a kernel type, and the CUDA
// launchers and the host grid emulator both go through it, so both
// instantiate the same kernels.
template <auto kFirst, auto... kRest, class F>
auto visit_value(decltype(kFirst) v, F&& f) {
  if constexpr (sizeof...(kRest) == 0) {
    return f.template operator()<kFirst>();
  } else {
    if (v == kFirst) return f.template operator()<kFirst>();
    return visit_value<kRest...>(v, f);
  }
}

// Calls f.template operator()<r>() for r = kFirst, kFirst + 1, ..., kLast - 1
// (or downwards when kDown): a round loop unrolled by construction, for
// bodies whose round loops nvcc keeps rolled despite #pragma unroll (then
// the round keys sit at constant offsets in the parameter bank, and the
// model's static count is the executed count).
template <int kFirst, int kLast, bool kDown = false, class F>
GPUCRYPTO_HD inline void for_rounds(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (f.template operator()<kDown ? kLast - 1 - I : kFirst + I>(), ...);
  }(std::make_integer_sequence<int, kLast - kFirst>{});
}

// Shared-memory type of kernels that need none.
struct NoShared {
  uint32_t unused;
};

GPUCRYPTO_HD inline uint32_t rotl32(uint32_t x, unsigned n) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(x, x, n);
#else
  n &= 31;
  return n == 0 ? x : (x << n) | (x >> (32 - n));
#endif
}

GPUCRYPTO_HD inline uint16_t rotl16(uint16_t x, unsigned n) {
  return uint16_t((x << n) | (x >> (16 - n)));
}

GPUCRYPTO_HD inline uint32_t bswap32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __byte_perm(x, 0, 0x0123);
#else
  return __builtin_bswap32(x);
#endif
}

GPUCRYPTO_HD inline uint32_t byte_of(uint32_t x, unsigned i) { return (x >> (8 * i)) & 0xff; }

// Loads/stores of one block as little-endian 32-bit words. On the device the
// buffers are cudaMalloc'ed and every block starts at a multiple of its size,
// so these are single 16- or 8-byte accesses: consecutive threads touch
// consecutive blocks, which coalesces into full 128-byte transactions.
template <int W>
GPUCRYPTO_HD inline void load_block(const uint8_t* p, uint32_t (&w)[W]) {
#if defined(__CUDA_ARCH__)
  if constexpr (W == 4) {
    uint4 v = *reinterpret_cast<const uint4*>(p);
    w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
  } else {
    uint2 v = *reinterpret_cast<const uint2*>(p);
    w[0] = v.x, w[1] = v.y;
  }
#else
  std::memcpy(w, p, 4 * W);  // the host and the device are both little-endian
#endif
}

template <int W>
GPUCRYPTO_HD inline void store_block(uint8_t* p, const uint32_t (&w)[W]) {
#if defined(__CUDA_ARCH__)
  if constexpr (W == 4) {
    *reinterpret_cast<uint4*>(p) = make_uint4(w[0], w[1], w[2], w[3]);
  } else {
    *reinterpret_cast<uint2*>(p) = make_uint2(w[0], w[1]);
  }
#else
  std::memcpy(p, w, 4 * W);
#endif
}

// Counter block `base + index` (base: W*4 bytes, a big-endian integer) as
// little-endian words, with carry through the whole block and wrap-around
// modulo 2^(32*W), exactly as the CPU paths' ctr_add().
template <int W>
GPUCRYPTO_HD inline void counter_block(const uint32_t* base_be, uint64_t index,
                                       uint32_t (&w)[W]) {
  // base_be[i] holds bytes 4i..4i+3 read big-endian (most significant first).
  if constexpr (W == 4) {
    uint64_t hi = (uint64_t(base_be[0]) << 32) | base_be[1];
    uint64_t lo = (uint64_t(base_be[2]) << 32) | base_be[3];
    uint64_t nlo = lo + index;
    hi += nlo < lo ? 1 : 0;
    w[0] = bswap32(uint32_t(hi >> 32));
    w[1] = bswap32(uint32_t(hi));
    w[2] = bswap32(uint32_t(nlo >> 32));
    w[3] = bswap32(uint32_t(nlo));
  } else {
    uint64_t v = ((uint64_t(base_be[0]) << 32) | base_be[1]) + index;
    w[0] = bswap32(uint32_t(v >> 32));
    w[1] = bswap32(uint32_t(v));
  }
}

}  // namespace gpucrypto::gpu::kern
