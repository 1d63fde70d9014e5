// Maps a LaunchSpec's (cipher, op, design) to its kernel type and calls
// f.template operator()<Kernel>() — used by the CUDA launcher and the emulator
// so both instantiate exactly the same set of kernels.
#pragma once
#include "gpu/kernels/cipher_kernel.cuh"
#include "gpu/launch.h"

namespace gpucrypto::gpu::kern {

template <class C, class F>
auto visit_op(Op op, F&& f) {
  switch (op) {
    case Op::kEncrypt:
      return f.template operator()<CipherKernel<C, Op::kEncrypt>>();
    case Op::kDecrypt:
      return f.template operator()<CipherKernel<C, Op::kDecrypt>>();
    case Op::kCtr:
    default:
      return f.template operator()<CipherKernel<C, Op::kCtr>>();
  }
}

template <int kRounds, class F>
auto visit_skinny(const LaunchSpec& s, F&& f) {
  if (s.skinny == SkinnyDesign::kTable) return visit_op<SkinnyTable<kRounds>>(s.op, f);
  return visit_op<SkinnySliced<kRounds>>(s.op, f);
}

template <class F>
auto visit_kernel(const LaunchSpec& s, F&& f) {
  switch (s.cipher) {
    case Cipher::kSkinny128_256:
      return visit_skinny<48>(s, f);
    case Cipher::kSkinny128_384:
      return visit_skinny<56>(s, f);
    case Cipher::kSM4:
      return visit_op<Sm4>(s.op, f);
    case Cipher::kRectangle80:
    case Cipher::kRectangle128:
      return visit_op<Rectangle>(s.op, f);
    case Cipher::kAES128:
      return visit_op<Aes<10>>(s.op, f);
    case Cipher::kAES192:
      return visit_op<Aes<12>>(s.op, f);
    case Cipher::kAES256:
    default:
      return visit_op<Aes<14>>(s.op, f);
  }
}

}  // namespace gpucrypto::gpu::kern
