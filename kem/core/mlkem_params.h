// ML-KEM parameter sets (FIPS 203, Table 2) and the byte sizes they imply.
#pragma once
#include <cstddef>

namespace gpucrypto::kem::mlkem {

inline constexpr int kN = 256;
inline constexpr int kQ = 3329;

template <int K>
struct Params {
  static constexpr int k = K;
  static constexpr int eta1 = K == 2 ? 3 : 2;
  static constexpr int eta2 = 2;
  static constexpr int du = K == 4 ? 11 : 10;
  static constexpr int dv = K == 4 ? 5 : 4;

  static constexpr size_t kPolyBytes = 384;  // ByteEncode_12
  static constexpr size_t kEkBytes = kPolyBytes * K + 32;
  static constexpr size_t kDkPkeBytes = kPolyBytes * K;
  static constexpr size_t kDkBytes = kDkPkeBytes + kEkBytes + 64;  // s || ek || H(ek) || z
  static constexpr size_t kCtUBytes = size_t(32) * du * K;
  static constexpr size_t kCtBytes = kCtUBytes + size_t(32) * dv;
};
static_assert(Params<2>::kEkBytes == 800 && Params<2>::kDkBytes == 1632 && Params<2>::kCtBytes == 768);
static_assert(Params<3>::kEkBytes == 1184 && Params<3>::kDkBytes == 2400 && Params<3>::kCtBytes == 1088);
static_assert(Params<4>::kEkBytes == 1568 && Params<4>::kDkBytes == 3168 && Params<4>::kCtBytes == 1568);

inline constexpr int kMaxK = 4;

}  // namespace gpucrypto::kem::mlkem
