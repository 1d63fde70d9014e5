// ops_for<B, K>(): the LevelOps of Kem<K, B>, for the kernel-set units
// (mlkem_impl_ref.cpp, mlkem_impl_simd.cpp). Non-ISA code.
#pragma once
#include "kem/core/mlkem_core.h"
#include "kem/mlkem/mlkem_impl.h"

namespace gpucrypto::kem::mlkem {

template <class B, int K>
constexpr LevelOps ops_for() {
  return {Kem<K, B>::keygen, Kem<K, B>::encaps, Kem<K, B>::decaps};
}

}  // namespace gpucrypto::kem::mlkem
