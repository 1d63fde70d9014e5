// The one rule by which every algorithm picks among its per-instruction-set
// implementations (the block ciphers' CipherHw, ML-KEM's kernel sets,
// babyKyber's batch kernels).
//
// An implementation is described by a struct with at least
//   const char* name;   // "ref", "avx2", "avx512-gfni", ...: what users,
//                       // configurations and tests see
//   uint32_t required;  // CpuFeature bits it needs (platform/cpu_features.h)
// (`required` may also be a `const uint32_t&` bound to an ISA file's
// compiled_features(), platform/isa.h). An algorithm lists pointers to its
// implementations BEST FIRST, and the list ENDS WITH THE PORTABLE REFERENCE,
// whose `required` is kBaseline: the first entry whose requirements the
// features meet is the best one, and there always is one.
//
// Each implementation lives in its own ISA file `<isa>.cpp` of the
// algorithm's folder (compiled with that ISA's flags), which exports only
// from the namespace `<algorithm namespace>::<isa>` (`skinny_impl::avx2::kHw`,
// `kem::mlkem::avx512::ntt`) and keeps everything else in an anonymous
// namespace (docs/ARCHITECTURE.md, "ISA files"). Bodies shared by several ISA
// files (`.inc`) that export something take that namespace's name from the
// macro GPUCRYPTO_ISA, which the including ISA file defines.
//
// Selection reads public CPU features only: nothing here needs to be
// constant-time. Callers select once per context or per process, never per
// block.
#pragma once
#include <concepts>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

namespace gpucrypto {

template <class T>
concept IsaImpl = requires(const T& impl) {
  { impl.name } -> std::convertible_to<const char*>;
  { impl.required } -> std::convertible_to<uint32_t>;
};

// Whether `impl` can run with `features`.
template <IsaImpl T>
constexpr bool runs_with(const T& impl, uint32_t features) {
  return (impl.required & ~features) == 0;
}

// The first (best) implementation of `list` that runs with `features`; the
// reference at the end when nothing else does. `list`: any range of
// `const T*` (an array, a std::span), ordered as above.
template <class List>
constexpr auto& best_for(const List& list, uint32_t features) {
  const auto* chosen = *std::begin(list);
  for (const auto* impl : list) {
    chosen = impl;
    if (runs_with(*impl, features)) break;
  }
  return *chosen;
}

// The implementation of `list` called `name`; nullptr when there is none.
template <class List>
constexpr auto find_by_name(const List& list, const char* name) {
  using Ptr = std::remove_cvref_t<decltype(*std::begin(list))>;
  for (Ptr impl : list) {
    if (std::strcmp(impl->name, name) == 0) return impl;
  }
  return Ptr{nullptr};
}

}  // namespace gpucrypto
