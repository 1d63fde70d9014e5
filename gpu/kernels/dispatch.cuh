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

// The kernels of one family only (kFam), so that each CUDA translation unit
// (kernels.cu: tables, kernels_ct.cu: constant time) instantiates its own
// half and nvcc compiles the two in parallel.
template <KernelFamily kFam, class F>
auto visit_family(const CipherLaunch& l, F&& f) {
  constexpr bool kCt = kFam == KernelFamily::kConstantTime;
  switch (l.cipher) {
    case Cipher::kSkinny128_256:
    case Cipher::kSkinny128_384: {
      const bool r256 = l.cipher == Cipher::kSkinny128_256;
      if constexpr (kCt) {
        // Bit-sliced (SkinnyCt).
        return r256 ? visit_op<SkinnyCt<48>>(l.op, f) : visit_op<SkinnyCt<56>>(l.op, f);
      } else if (l.skinny == SkinnyDesign::kTable) {
        // The seed's T-table design; the SWAR table-free one for the model.
        return r256 ? visit_op<SkinnyTable<48>>(l.op, f) : visit_op<SkinnyTable<56>>(l.op, f);
      } else {
        return r256 ? visit_op<SkinnySliced<48>>(l.op, f) : visit_op<SkinnySliced<56>>(l.op, f);
      }
    }
    case Cipher::kSM4:
      if constexpr (kCt) return visit_op<Sm4Ct>(l.op, f);
      else return visit_op<Sm4>(l.op, f);
    case Cipher::kAES128:
      if constexpr (kCt) return visit_op<AesCt<10>>(l.op, f);
      else return visit_op<Aes<10>>(l.op, f);
    case Cipher::kAES192:
      if constexpr (kCt) return visit_op<AesCt<12>>(l.op, f);
      else return visit_op<Aes<12>>(l.op, f);
    case Cipher::kRectangle80:
    case Cipher::kRectangle128:
      // Bit-sliced by design, so in the constant-time half only (the tables
      // half never sees it: ct_half()).
      if constexpr (kCt) return visit_op<Rectangle>(l.op, f);
      [[fallthrough]];
    case Cipher::kAES256:
    default:
      if constexpr (kCt) return visit_op<AesCt<14>>(l.op, f);
      else return visit_op<Aes<14>>(l.op, f);
  }
}

// Whether a launch runs a kernel of the constant-time half: its family, or
// RECTANGLE under either family.
inline bool ct_half(const CipherLaunch& l) {
  return l.family == KernelFamily::kConstantTime || l.cipher == Cipher::kRectangle80 ||
         l.cipher == Cipher::kRectangle128;
}

template <class F>
auto visit_kernel(const CipherLaunch& l, F&& f) {
  if (ct_half(l)) return visit_family<KernelFamily::kConstantTime>(l, f);
  return visit_family<KernelFamily::kTables>(l, f);
}

}  // namespace gpucrypto::gpu::kern
