// The reference kernel set (RefBackend: the portable GPUCRYPTO_HD code),
// instantiated in its own translation unit (see mlkem_kem.cpp).
#include "kem/mlkem/mlkem_impl_ops.h"
#include "platform/cpu_features.h"

namespace gpucrypto::kem::mlkem {

const Impl kImplRef{"ref", kBaseline, {ops_for<RefBackend, 2>(), ops_for<RefBackend, 3>(), ops_for<RefBackend, 4>()}};

}  // namespace gpucrypto::kem::mlkem
