// babyKyber's parameters: the toy Kyber of the "Kyber - How does it work?"
// worked example. NO SECURITY: 4-bit messages, 16 possible values.
#pragma once

namespace gpucrypto::kem {

// Why the errors e and e1 are sparse. Decryption computes
//   v - s^T u = e^T r - s^T e1 + e2 - 9 m,
// and a message bit survives exactly when that noise lies in [-3, 4] (bit 1)
// or [-4, 4] (bit 0). With every term CBD_1, as the worked example's shape
// suggests, a coefficient of e^T r or s^T e1 is a sum of 8 products in
// {-1, 0, 1}: the noise has variance 4.5 and about 18% of encryptions fail
// to decrypt (measured), which would make the KEM disagree on one shared
// secret in five. So the secrets s, r and the error e2 stay CBD_1
// ({-1, 0, 1} with probabilities 1/4, 1/2, 1/4) while e and e1 have a single
// non-zero coefficient (+-1) among their 8: then |e^T r| <= 1,
// |s^T e1| <= 1, |e2| <= 1, the noise never leaves [-3, 3] and decryption
// never fails. (The worked example's own e and e1 are given, not sampled.)
struct BabyKyberParams {
  static constexpr int n = 4;          // ring Z_q[x]/(x^4 + 1)
  static constexpr int q = 17;
  static constexpr int k = 2;          // module rank
  static constexpr int eta1 = 1;       // secrets s, r: CBD_1, coefficients in {-1, 0, 1}
  static constexpr int eta2 = 1;       // error e2: CBD_1 (e, e1: sparse ternary, weight 1)
  static constexpr int msg_scale = 9;  // round(q / 2)
  static constexpr int coeff_bits = 5; // bits per coefficient in encodings (no compression)
};

}  // namespace gpucrypto::kem
