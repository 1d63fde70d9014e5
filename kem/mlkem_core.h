// ML-KEM (FIPS 203) per instance: K-PKE (Algorithms 13-15) and the
// ML-KEM internal functions (Algorithms 16-18), templated on the rank K and
// on a back end B that supplies the costly kernels:
//
//   B::gen_matrix<K>(a, rho, transposed)   A_hat (or its transpose), a[i] = row i
//   B::noise<Eta>(r, count, seed, nonce)   *r[j] = CBD_Eta(PRF(seed, nonce + j))
//   B::ntt(p)  (output reduced),  B::invntt(p)  (times 2^16)
//   B::basemul_acc<K>(r, a, b)              r = sum_j a[j] * b[j] (NTT domain, reduced)
//
// RefBackend below is the portable code of mlkem_poly.h; the SIMD back end
// (mlkem_simd.h) routes the same calls to AVX2/AVX-512 kernels. Hashes G, H,
// J are single-instance Keccak (mlkem_keccak.h). GPUCRYPTO_HD throughout with
// the reference back end, so a CUDA kernel can run one instance per thread.
//
// Constant time: the only data-dependent choice, implicit rejection in
// decapsulation, is a mask select; the ciphertext comparison ORs all bytes.
#pragma once
#include <cstddef>
#include <cstdint>

#include "ciphers/host_device.h"
#include "kem/mlkem_keccak.h"
#include "kem/mlkem_params.h"
#include "kem/mlkem_poly.h"

namespace gpucrypto::kem::mlkem {

struct RefBackend {
  template <int K>
  GPUCRYPTO_HD static void gen_matrix(PolyVec<K>* a, const uint8_t rho[32], bool transposed) {
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < K; ++j)
        // A_hat[i][j] = SampleNTT(rho || j || i) (FIPS 203 Algorithm 13 line 6).
        poly_sample_ntt(a[i].p[j], rho, uint8_t(transposed ? i : j), uint8_t(transposed ? j : i));
  }
  template <int Eta>
  GPUCRYPTO_HD static void noise(Poly* const* r, int count, const uint8_t seed[32], uint8_t nonce) {
    for (int j = 0; j < count; ++j) poly_getnoise<Eta>(*r[j], seed, uint8_t(nonce + j));
  }
  GPUCRYPTO_HD static void ntt(Poly& p) {
    mlkem::ntt(p.c);
    poly_reduce(p);
  }
  GPUCRYPTO_HD static void invntt(Poly& p) { invntt_tomont(p.c); }
  template <int K>
  GPUCRYPTO_HD static void basemul_acc(Poly& r, const PolyVec<K>& a, const PolyVec<K>& b) {
    for (int j = 0; j < K; ++j) mlkem::basemul_acc(r.c, a.p[j].c, b.p[j].c, j != 0);
    poly_reduce(r);
  }
};

// Keeps the optimiser from turning mask selects back into branches.
GPUCRYPTO_HD inline uint8_t opt_barrier(uint8_t x) {
#if !defined(__CUDA_ARCH__)
  __asm__("" : "+r"(x));
#endif
  return x;
}

template <int K, class B>
struct Kem {
  using P = Params<K>;

  // K-PKE.KeyGen(d) (Algorithm 13): ek = ByteEncode12(t_hat) || rho,
  // dk_pke = ByteEncode12(s_hat).
  GPUCRYPTO_HD static void pke_keygen(uint8_t* ek, uint8_t* dk_pke, const uint8_t d[32]) {
    uint8_t g[64];
    const uint8_t kbyte = uint8_t(K);
    sha3_512(g, d, 32, &kbyte, 1);
    const uint8_t* rho = g;
    const uint8_t* sigma = g + 32;
    PolyVec<K> a[K];
    B::template gen_matrix<K>(a, rho, false);
    PolyVec<K> s, e;
    Poly* se[2 * K];
    for (int i = 0; i < K; ++i) se[i] = &s.p[i], se[K + i] = &e.p[i];
    B::template noise<P::eta1>(se, 2 * K, sigma, 0);
    for (int i = 0; i < K; ++i) {
      B::ntt(s.p[i]);
      B::ntt(e.p[i]);
    }
    for (int i = 0; i < K; ++i) {
      Poly t;
      B::template basemul_acc<K>(t, a[i], s);
      poly_tomont(t);
      poly_add(t, t, e.p[i]);
      poly_reduce(t);
      poly_to_bytes(ek + i * P::kPolyBytes, t);
      poly_to_bytes(dk_pke + i * P::kPolyBytes, s.p[i]);
    }
    for (int i = 0; i < 32; ++i) ek[P::kDkPkeBytes + i] = rho[i];
    wipe(g, sizeof g);
    wipe(&s, sizeof s);
    wipe(&e, sizeof e);
  }

  // K-PKE.Encrypt(ek, m, r) (Algorithm 14). Returns all-ones when ek passed
  // the modulus check (every t_hat coefficient < q), else zero.
  GPUCRYPTO_HD static uint32_t pke_encrypt(uint8_t* ct, const uint8_t* ek, const uint8_t m[32],
                                           const uint8_t coins[32]) {
    PolyVec<K> t;
    uint32_t ok = ~0u;
    for (int i = 0; i < K; ++i) ok &= poly_from_bytes(t.p[i], ek + i * P::kPolyBytes);
    const uint8_t* rho = ek + P::kDkPkeBytes;
    PolyVec<K> at[K];
    B::template gen_matrix<K>(at, rho, true);
    PolyVec<K> r, e1, u;
    Poly e2, v, mp;
    // Nonces 0..K-1 for r (eta1), K..2K-1 for e1 and 2K for e2 (eta2); one
    // call when eta1 = eta2 so a vector back end fills its lanes.
    Poly* noise[2 * K + 1];
    for (int i = 0; i < K; ++i) noise[i] = &r.p[i], noise[K + i] = &e1.p[i];
    noise[2 * K] = &e2;
    if constexpr (P::eta1 == P::eta2) {
      B::template noise<P::eta1>(noise, 2 * K + 1, coins, 0);
    } else {
      B::template noise<P::eta1>(noise, K, coins, 0);
      B::template noise<P::eta2>(noise + K, K + 1, coins, uint8_t(K));
    }
    for (int i = 0; i < K; ++i) B::ntt(r.p[i]);
    for (int i = 0; i < K; ++i) {
      B::template basemul_acc<K>(u.p[i], at[i], r);
      B::invntt(u.p[i]);
      poly_add(u.p[i], u.p[i], e1.p[i]);
      poly_reduce(u.p[i]);
      poly_compress<P::du>(ct + i * 32 * P::du, u.p[i]);
    }
    B::template basemul_acc<K>(v, t, r);
    B::invntt(v);
    poly_from_msg(mp, m);
    poly_add(v, v, e2);
    poly_add(v, v, mp);
    poly_reduce(v);
    poly_compress<P::dv>(ct + P::kCtUBytes, v);
    wipe(&r, sizeof r);
    wipe(&e1, sizeof e1);
    wipe(&e2, sizeof e2);
    wipe(&mp, sizeof mp);
    wipe(&v, sizeof v);
    return ok;
  }

  // K-PKE.Decrypt(dk_pke, c) (Algorithm 15).
  GPUCRYPTO_HD static void pke_decrypt(uint8_t m[32], const uint8_t* dk_pke, const uint8_t* ct) {
    PolyVec<K> u, s;
    Poly v, w;
    for (int i = 0; i < K; ++i) {
      poly_decompress<P::du>(u.p[i], ct + i * 32 * P::du);
      B::ntt(u.p[i]);
      (void)poly_from_bytes(s.p[i], dk_pke + i * P::kPolyBytes);
    }
    poly_decompress<P::dv>(v, ct + P::kCtUBytes);
    B::template basemul_acc<K>(w, s, u);
    B::invntt(w);
    poly_sub(w, v, w);
    poly_reduce(w);
    poly_to_msg(m, w);
    wipe(&s, sizeof s);
    wipe(&w, sizeof w);
  }

  // ML-KEM.KeyGen_internal(d, z) (Algorithm 16).
  GPUCRYPTO_HD static void keygen(uint8_t* ek, uint8_t* dk, const uint8_t d[32],
                                  const uint8_t z[32]) {
    pke_keygen(ek, dk, d);
    uint8_t* dk_ek = dk + P::kDkPkeBytes;
    for (size_t i = 0; i < P::kEkBytes; ++i) dk_ek[i] = ek[i];
    sha3_256(dk_ek + P::kEkBytes, ek, P::kEkBytes);
    for (int i = 0; i < 32; ++i) dk_ek[P::kEkBytes + 32 + i] = z[i];
  }

  // ML-KEM.Encaps_internal(ek, m) (Algorithm 17). Returns the modulus-check
  // mask of pke_encrypt; the caller discards the outputs when it is zero.
  GPUCRYPTO_HD static uint32_t encaps(uint8_t* ct, uint8_t ss[32], const uint8_t* ek,
                                      const uint8_t m[32]) {
    uint8_t h[32], kr[64];
    sha3_256(h, ek, P::kEkBytes);
    sha3_512(kr, m, 32, h, 32);
    const uint32_t ok = pke_encrypt(ct, ek, m, kr + 32);
    for (int i = 0; i < 32; ++i) ss[i] = kr[i];
    wipe(kr, sizeof kr);
    return ok;
  }

  // ML-KEM.Decaps_internal(dk, c) (Algorithm 18) with implicit rejection.
  // The dk input checks (section 7.3) are the caller's (done once on import).
  GPUCRYPTO_HD static void decaps(uint8_t ss[32], const uint8_t* ct, const uint8_t* dk) {
    const uint8_t* ek = dk + P::kDkPkeBytes;
    const uint8_t* h = ek + P::kEkBytes;
    const uint8_t* z = h + 32;
    uint8_t m[32], kr[64], kbar[32];
    uint8_t ct2[P::kCtBytes];
    pke_decrypt(m, dk, ct);
    sha3_512(kr, m, 32, h, 32);
    shake256(kbar, 32, z, 32, ct, P::kCtBytes);
    (void)pke_encrypt(ct2, ek, m, kr + 32);
    uint8_t diff = 0;
    for (size_t i = 0; i < P::kCtBytes; ++i) diff = uint8_t(diff | (ct[i] ^ ct2[i]));
    // keep = 0xff when the re-encryption matched (diff == 0), else 0x00.
    const uint8_t keep = opt_barrier(uint8_t((uint32_t(diff) - 1u) >> 8));
    for (int i = 0; i < 32; ++i) ss[i] = uint8_t((kr[i] & keep) | (kbar[i] & uint8_t(~keep)));
    wipe(m, sizeof m);
    wipe(kr, sizeof kr);
    wipe(kbar, sizeof kbar);
  }

  // Section 7.2: the modulus check of ek (length is the caller's).
  GPUCRYPTO_HD static bool check_ek(const uint8_t* ek) {
    Poly t;
    uint32_t ok = ~0u;
    for (int i = 0; i < K; ++i) ok &= poly_from_bytes(t, ek + i * P::kPolyBytes);
    return ok != 0;
  }

  // Section 7.3: the hash check of dk (H(ek) stored in dk equals SHA3-256 of
  // the stored ek); timing depends only on the verdict, which is public.
  GPUCRYPTO_HD static bool check_dk(const uint8_t* dk) {
    uint8_t h[32];
    sha3_256(h, dk + P::kDkPkeBytes, P::kEkBytes);
    uint8_t diff = 0;
    for (int i = 0; i < 32; ++i) diff = uint8_t(diff | (h[i] ^ dk[P::kDkPkeBytes + P::kEkBytes + i]));
    return diff == 0;
  }

  // Zeroes secrets; volatile so the stores are not elided as dead.
  GPUCRYPTO_HD static void wipe(void* p, size_t n) {
    volatile uint8_t* b = static_cast<volatile uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) b[i] = 0;
  }
};

}  // namespace gpucrypto::kem::mlkem
