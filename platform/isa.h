// What every instruction-set ("ISA") file shares: the CPU features its own
// compiler flags enable, one force-inline macro, big-endian loads/stores and
// the whole-batch / tail driver of the SIMD kernels.
//
// Include this ONLY from files compiled with ISA flags
// (gpucrypto_isa_sources in the top CMakeLists). The rule for such files
// (docs/ARCHITECTURE.md, "ISA files"): they must not define an inline or
// template function with external linkage, because the linker may keep one
// TU's copy for every caller, and a baseline caller would then run AVX-512
// code on a CPU without it. Everything below therefore lives in an anonymous
// namespace (or is a macro): each including TU compiles and keeps its own
// copy, under its own flags. Keep it that way when adding helpers.
#pragma once
#include <openssl/crypto.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "platform/cpu_features.h"

// Forces inlining: the SIMD kernels' state must stay in registers across
// helper calls, which GCC's heuristics do not always see.
#define GPUCRYPTO_ALWAYS_INLINE __attribute__((always_inline)) inline
// The same for a lambda, after its parameter list: `[&](int x) GPUCRYPTO_INLINE_LAMBDA {...}`.
// The callables handed to run_batches carry it, or GCC may keep a kernel out of line.
#define GPUCRYPTO_INLINE_LAMBDA __attribute__((always_inline))

namespace gpucrypto {
namespace {

// The CpuFeature bits this translation unit was compiled for, read from the
// compiler's predefined macros: an ISA file's CipherHw::required is exactly
// what its -m flags let the compiler use, written once (in CMake). Implied
// bits (-mavx512f defines __AVX2__ too) are real requirements of the code
// and never change a selection: every CPU with the AVX-512 bits has them,
// and the backend caps only remove the AVX-512 family (platform/
// cpu_features.cpp, backend_feature_mask).
consteval uint32_t compiled_features() {
  uint32_t f = 0;
#ifdef __SSSE3__
  f |= kSSSE3;
#endif
#ifdef __SSE4_1__
  f |= kSSE41;
#endif
#ifdef __AES__
  f |= kAESNI;
#endif
#ifdef __PCLMUL__
  f |= kPCLMUL;
#endif
#ifdef __AVX2__
  f |= kAVX2;
#endif
#ifdef __BMI2__
  f |= kBMI2;
#endif
#ifdef __AVX512F__
  f |= kAVX512F;
#endif
#ifdef __AVX512BW__
  f |= kAVX512BW;
#endif
#ifdef __AVX512VL__
  f |= kAVX512VL;
#endif
#ifdef __AVX512DQ__
  f |= kAVX512DQ;
#endif
#ifdef __AVX512VBMI__
  f |= kAVX512VBMI;
#endif
#ifdef __VAES__
  f |= kVAES;
#endif
#ifdef __GFNI__
  f |= kGFNI;
#endif
#ifdef __VPCLMULQDQ__
  f |= kVPCLMUL;
#endif
  return f;
}

// --- big-endian integers (counters are big-endian in every block cipher) --

GPUCRYPTO_ALWAYS_INLINE uint64_t load_be64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

GPUCRYPTO_ALWAYS_INLINE void store_be64(uint8_t* p, uint64_t v) {
  v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}

using u128 = unsigned __int128;

GPUCRYPTO_ALWAYS_INLINE u128 load_be128(const uint8_t* p) {
  return u128(load_be64(p)) << 64 | load_be64(p + 8);
}

GPUCRYPTO_ALWAYS_INLINE void store_be128(uint8_t* p, u128 v) {
  store_be64(p, uint64_t(v >> 64));
  store_be64(p + 8, uint64_t(v));
}

// --- the batch driver -------------------------------------------------------
// A SIMD kernel processes a fixed batch of kBatch blocks of kBlockBytes.
// run_batches hands it every whole batch, then the remaining 0 < n < kBatch
// blocks to `tail` (which may be another run_batches with a smaller batch,
// a masked kernel, padded_batch below, or the reference). Both callables are
// GPUCRYPTO_INLINE_LAMBDA lambdas, inlined here: the loop compiles as if
// written out by hand.
template <size_t kBatch, size_t kBlockBytes, class Full, class Tail>
GPUCRYPTO_ALWAYS_INLINE void run_batches(const uint8_t* in, uint8_t* out, size_t nblocks,
                                         Full&& full, Tail&& tail) {
  for (; nblocks >= kBatch; nblocks -= kBatch) {
    full(in, out);
    in += kBatch * kBlockBytes;
    out += kBatch * kBlockBytes;
  }
  if (nblocks > 0) tail(in, out, nblocks);
}

// Runs a partial batch (nbytes < kBytes) as a whole one through a zero-padded
// stack buffer, then wipes the buffer (it held data or keystream).
template <size_t kBytes, class Kernel>
GPUCRYPTO_ALWAYS_INLINE void padded_batch(const uint8_t* in, uint8_t* out, size_t nbytes,
                                          Kernel&& kernel) {
  alignas(64) uint8_t buf[kBytes];
  std::memcpy(buf, in, nbytes);
  std::memset(buf + nbytes, 0, kBytes - nbytes);
  kernel(static_cast<const uint8_t*>(buf), buf);
  std::memcpy(out, buf, nbytes);
  OPENSSL_cleanse(buf, kBytes);
}

// Whole batches through `kernel(in, out)`, the partial last one padded.
template <size_t kBatch, size_t kBlockBytes, class Kernel>
GPUCRYPTO_ALWAYS_INLINE void run_padded(const uint8_t* in, uint8_t* out, size_t nblocks,
                                        Kernel&& kernel) {
  run_batches<kBatch, kBlockBytes>(in, out, nblocks, kernel,
                                   [&](const uint8_t* i, uint8_t* o, size_t n) GPUCRYPTO_INLINE_LAMBDA {
    padded_batch<kBatch * kBlockBytes>(i, o, n * kBlockBytes, kernel);
  });
}

}  // namespace
}  // namespace gpucrypto
