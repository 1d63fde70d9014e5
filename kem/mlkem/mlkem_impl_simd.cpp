// The AVX2 and AVX-512 kernel sets (mlkem_simd.h: portable code that calls
// the ISA kernels of avx2.cpp / avx512.cpp through function
// pointers; reached only after the runtime CPU check in mlkem_kem.cpp),
// instantiated in their own translation unit (see mlkem_kem.cpp).
#include "kem/mlkem/mlkem_impl_ops.h"
#include "kem/mlkem/mlkem_simd.h"

namespace gpucrypto::kem::mlkem {

const Impl kImplAvx2{"avx2", avx2::kRequired,
                     {ops_for<Avx2Backend, 2>(), ops_for<Avx2Backend, 3>(), ops_for<Avx2Backend, 4>()}};
const Impl kImplAvx512{"avx512", avx512::kRequired,
                       {ops_for<Avx512Backend, 2>(), ops_for<Avx512Backend, 3>(),
                        ops_for<Avx512Backend, 4>()}};

}  // namespace gpucrypto::kem::mlkem
