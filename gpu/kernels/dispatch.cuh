// Maps a cipher launch's (cipher, op, design) to its kernel type and calls
// f.template operator()<Kernel>() — used by the CUDA launcher and the
// emulator so both instantiate exactly the same set of kernels.
#pragma once
#include "gpu/kernels/cipher_kernel.cuh"
#include "gpu/launch.h"

namespace gpucrypto::gpu::kern {

template <class C, class F>
auto visit_op(Op op, F&& f) {
  return visit_value<Op::kEncrypt, Op::kDecrypt, Op::kCtr>(
      op, [&]<Op kOp>() { return f.template operator()<CipherKernel<C, kOp>>(); });
}

template <int kRounds, class F>
auto visit_skinny(const CipherLaunch& l, F&& f) {
  if (l.skinny == SkinnyDesign::kTable) return visit_op<SkinnyTable<kRounds>>(l.op, f);
  return visit_op<SkinnySliced<kRounds>>(l.op, f);
}

template <class F>
auto visit_kernel(const CipherLaunch& l, F&& f) {
  switch (l.cipher) {
    case Cipher::kSkinny128_256:
      return visit_skinny<48>(l, f);
    case Cipher::kSkinny128_384:
      return visit_skinny<56>(l, f);
    case Cipher::kSM4:
      return visit_op<Sm4>(l.op, f);
    case Cipher::kRectangle80:
    case Cipher::kRectangle128:
      return visit_op<Rectangle>(l.op, f);
    case Cipher::kAES128:
      return visit_op<Aes<10>>(l.op, f);
    case Cipher::kAES192:
      return visit_op<Aes<12>>(l.op, f);
    case Cipher::kAES256:
    default:
      return visit_op<Aes<14>>(l.op, f);
  }
}

}  // namespace gpucrypto::gpu::kern
