// Maps a cipher launch's (cipher, op, kernel family, SKINNY design) to its
// kernel type and calls f.template operator()<Kernel>() — used by the CUDA
// launcher and the emulator so both instantiate exactly the same set of
// kernels. The constant-time family is the default (gpu/README.md,
// "Constant-time kernels"); the table family only runs when asked for.
#pragma once
#include "gpu/kernels/cipher_kernel.cuh"
#include "gpu/launch.h"

namespace gpucrypto::gpu::kern {

template <class C, class F>
auto visit_op(Op op, F&& f) {
  return visit_value<Op::kEncrypt, Op::kDecrypt, Op::kCtr, Op::kKeystream>(
      op, [&]<Op kOp>() { return f.template operator()<CipherKernel<C, kOp>>(); });
}

// Constant time: SkinnyCt (bit-sliced). Tables: the seed's T-table design or,
// for the model and the tests, the SWAR table-free one.
template <int kRounds, class F>
auto visit_skinny(const CipherLaunch& l, F&& f) {
  if (l.family == KernelFamily::kConstantTime) return visit_op<SkinnyCt<kRounds>>(l.op, f);
  if (l.skinny == SkinnyDesign::kTable) return visit_op<SkinnyTable<kRounds>>(l.op, f);
  return visit_op<SkinnySliced<kRounds>>(l.op, f);
}

template <int kNr, class F>
auto visit_aes(const CipherLaunch& l, F&& f) {
  if (l.family == KernelFamily::kConstantTime) return visit_op<AesCt<kNr>>(l.op, f);
  return visit_op<Aes<kNr>>(l.op, f);
}

template <class F>
auto visit_kernel(const CipherLaunch& l, F&& f) {
  switch (l.cipher) {
    case Cipher::kSkinny128_256:
      return visit_skinny<48>(l, f);
    case Cipher::kSkinny128_384:
      return visit_skinny<56>(l, f);
    case Cipher::kSM4:
      if (l.family == KernelFamily::kConstantTime) return visit_op<Sm4Ct>(l.op, f);
      return visit_op<Sm4>(l.op, f);
    case Cipher::kRectangle80:
    case Cipher::kRectangle128:
      return visit_op<Rectangle>(l.op, f);  // bit-sliced by design: both families
    case Cipher::kAES128:
      return visit_aes<10>(l, f);
    case Cipher::kAES192:
      return visit_aes<12>(l, f);
    case Cipher::kAES256:
    default:
      return visit_aes<14>(l, f);
  }
}

}  // namespace gpucrypto::gpu::kern
