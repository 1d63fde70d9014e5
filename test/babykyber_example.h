// The babyKyber worked example of "Kyber - How does it work?" (Ruben
// Gonzalez, https://cryptopedia.dev/posts/kyber/), as checked by kyber-py's
// baby-kyber.py; copied from test/vectors/babykyber.txt. Coefficient
// lists are [c0, c1, c2, c3] (lowest degree first) reduced to 0..16.
#pragma once
#include <array>
#include <cstdint>

#include "kem/core/babykyber_pke.h"

namespace gpucrypto::test {

inline kem::babykyber::Poly bk_poly(std::array<int, 4> c) {
  kem::babykyber::Poly p{};
  for (int i = 0; i < 4; ++i) p.c[i] = uint16_t(c[i]);
  return p;
}

struct BabyKyberExample {
  kem::babykyber::PolyMat A;
  kem::babykyber::PolyVec s, e, t, r, e1, u;
  kem::babykyber::Poly e2, v;
  uint8_t m = 0b1011;  // m = x^3 + x + 1 = [1, 1, 0, 1]
  BabyKyberExample() {
    A.a[0][0] = bk_poly({11, 16, 16, 6});
    A.a[0][1] = bk_poly({3, 6, 4, 9});
    A.a[1][0] = bk_poly({1, 10, 3, 5});
    A.a[1][1] = bk_poly({15, 9, 1, 6});
    s.p[0] = bk_poly({0, 1, 16, 16});
    s.p[1] = bk_poly({0, 16, 0, 16});
    e.p[0] = bk_poly({0, 0, 1, 0});
    e.p[1] = bk_poly({0, 16, 1, 0});
    t.p[0] = bk_poly({7, 0, 15, 16});
    t.p[1] = bk_poly({6, 11, 12, 10});
    r.p[0] = bk_poly({0, 0, 1, 16});
    r.p[1] = bk_poly({16, 0, 1, 1});
    e1.p[0] = bk_poly({0, 1, 1, 0});
    e1.p[1] = bk_poly({0, 0, 1, 0});
    e2 = bk_poly({0, 0, 16, 16});
    u.p[0] = bk_poly({3, 10, 11, 11});
    u.p[1] = bk_poly({11, 13, 4, 4});
    v = bk_poly({15, 8, 6, 7});  // the printed v (t^T r + e2 - 9m)
  }
};

}  // namespace gpucrypto::test
