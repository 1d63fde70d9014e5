// ML-KEM (FIPS 203) per instance: K-PKE (Algorithms 13-15) and the
// ML-KEM internal functions (Algorithms 16-18), templated on the rank K and
// on a back end B that supplies the costly kernels:
//
//   B::gen_matrix<K>(a, rho, transposed)   A_hat (or its transpose), a[i] = row i
//   B::noise<Eta>(r, count, seed, nonce)   *r[j] = CBD_Eta(PRF(seed, nonce + j))
//   B::sample<K, Eta1, Eta2>(a, rho, transposed, r, n1, n2, seed)
//                                           gen_matrix, then noise<Eta1> of *r[0..n1)
//                                           with nonces 0.., noise<Eta2> of the next
//                                           n2 with nonces n1.. (one call, so a vector
//                                           back end can fill its lanes with both)
//   B::ntt(p)  (output reduced),  B::invntt(p)  (times 2^16)
//   B::basemul_acc<K>(r, a, b)              r = sum_j a[j] * b[j] (NTT domain, reduced)
//   B::compress<D>, B::decompress<D>, B::to_bytes, B::from_bytes, B::from_msg, B::to_msg
//                                           poly_compress<D> ... poly_to_msg
//   B::hash_h(out, in, len), B::hash_g(out, a, alen, b, blen), B::hash_j(out, z, c, clen)
//                                           H = SHA3-256, G = SHA3-512, J = SHAKE256(z || c, 32)
//
// RefBackend below is the portable code of mlkem_poly.h; the SIMD back end
// (mlkem_simd.h) routes the same calls to AVX2/AVX-512 kernels. RefBackend's
// G, H, J are mlkem_keccak.h's single-instance Keccak. GPUCRYPTO_HD throughout with
// the reference back end, so a CUDA kernel can run one instance per thread.
//
// Constant time: the only data-dependent choice, implicit rejection in
// decapsulation, is a mask select; the ciphertext comparison ORs all bytes.
#pragma once
#include <cstddef>
#include <cstdint>

#include "platform/host_device.h"
#include "kem/core/mlkem_keccak.h"
#include "kem/core/mlkem_params.h"
#include "kem/core/mlkem_poly.h"

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
  template <int K, int Eta1, int Eta2>
  GPUCRYPTO_HD static void sample(PolyVec<K>* a, const uint8_t rho[32], bool transposed,
                                  Poly* const* r, int n1, int n2, const uint8_t seed[32]) {
    gen_matrix<K>(a, rho, transposed);
    noise<Eta1>(r, n1, seed, 0);
    noise<Eta2>(r + n1, n2, seed, uint8_t(n1));
  }
  template <int D>
  GPUCRYPTO_HD static void compress(uint8_t* r, const Poly& a) {
    poly_compress<D>(r, a);
  }
  template <int D>
  GPUCRYPTO_HD static void decompress(Poly& r, const uint8_t* a) {
    poly_decompress<D>(r, a);
  }
  GPUCRYPTO_HD static void to_bytes(uint8_t r[384], const Poly& a) { poly_to_bytes(r, a); }
  GPUCRYPTO_HD static void from_msg(Poly& r, const uint8_t m[32]) { poly_from_msg(r, m); }
  GPUCRYPTO_HD static void to_msg(uint8_t m[32], const Poly& a) { poly_to_msg(m, a); }
  GPUCRYPTO_HD static uint32_t from_bytes(Poly& r, const uint8_t a[384]) { return poly_from_bytes(r, a); }
  GPUCRYPTO_HD static void hash_h(uint8_t out[32], const uint8_t* in, size_t len) {
    sha3_256(out, in, len);
  }
  GPUCRYPTO_HD static void hash_g(uint8_t out[64], const uint8_t* a, size_t alen, const uint8_t* b,
                                  size_t blen) {
    sha3_512(out, a, alen, b, blen);
  }
  GPUCRYPTO_HD static void hash_j(uint8_t out[32], const uint8_t z[32], const uint8_t* c, size_t clen) {
    shake256(out, 32, z, 32, c, clen);
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
    B::hash_g(g, d, 32, &kbyte, 1);
    const uint8_t* rho = g;
    const uint8_t* sigma = g + 32;
    PolyVec<K> a[K];
    PolyVec<K> s, e;
    Poly* se[2 * K];
    for (int i = 0; i < K; ++i) se[i] = &s.p[i], se[K + i] = &e.p[i];
    B::template sample<K, P::eta1, P::eta1>(a, rho, false, se, 2 * K, 0, sigma);
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
      B::to_bytes(ek + i * P::kPolyBytes, t);
      B::to_bytes(dk_pke + i * P::kPolyBytes, s.p[i]);
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
    for (int i = 0; i < K; ++i) ok &= B::from_bytes(t.p[i], ek + i * P::kPolyBytes);
    const uint8_t* rho = ek + P::kDkPkeBytes;
    PolyVec<K> at[K];
    PolyVec<K> r, e1, u;
    Poly e2, v, mp;
    // A_hat^T, then nonces 0..K-1 for r (eta1), K..2K-1 for e1 and 2K for
    // e2 (eta2), in one call so a vector back end fills its lanes.
    Poly* noise[2 * K + 1];
    for (int i = 0; i < K; ++i) noise[i] = &r.p[i], noise[K + i] = &e1.p[i];
    noise[2 * K] = &e2;
    B::template sample<K, P::eta1, P::eta2>(at, rho, true, noise, K, K + 1, coins);
    for (int i = 0; i < K; ++i) B::ntt(r.p[i]);
    for (int i = 0; i < K; ++i) {
      B::template basemul_acc<K>(u.p[i], at[i], r);
      B::invntt(u.p[i]);
      poly_add(u.p[i], u.p[i], e1.p[i]);
      poly_reduce(u.p[i]);
      B::template compress<P::du>(ct + i * 32 * P::du, u.p[i]);
    }
    B::template basemul_acc<K>(v, t, r);
    B::invntt(v);
    B::from_msg(mp, m);
    poly_add(v, v, e2);
    poly_add(v, v, mp);
    poly_reduce(v);
    B::template compress<P::dv>(ct + P::kCtUBytes, v);
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
      B::template decompress<P::du>(u.p[i], ct + i * 32 * P::du);
      B::ntt(u.p[i]);
      (void)B::from_bytes(s.p[i], dk_pke + i * P::kPolyBytes);
    }
    B::template decompress<P::dv>(v, ct + P::kCtUBytes);
    B::template basemul_acc<K>(w, s, u);
    B::invntt(w);
    poly_sub(w, v, w);
    poly_reduce(w);
    B::to_msg(m, w);
    wipe(&s, sizeof s);
    wipe(&w, sizeof w);
  }

  // ML-KEM.KeyGen_internal(d, z) (Algorithm 16).
  GPUCRYPTO_HD static void keygen(uint8_t* ek, uint8_t* dk, const uint8_t d[32],
                                  const uint8_t z[32]) {
    pke_keygen(ek, dk, d);
    uint8_t* dk_ek = dk + P::kDkPkeBytes;
    for (size_t i = 0; i < P::kEkBytes; ++i) dk_ek[i] = ek[i];
    B::hash_h(dk_ek + P::kEkBytes, ek, P::kEkBytes);
    for (int i = 0; i < 32; ++i) dk_ek[P::kEkBytes + 32 + i] = z[i];
  }

  // ML-KEM.Encaps_internal(ek, m) (Algorithm 17). Returns the modulus-check
  // mask of pke_encrypt; the caller discards the outputs when it is zero.
  GPUCRYPTO_HD static uint32_t encaps(uint8_t* ct, uint8_t ss[32], const uint8_t* ek,
                                      const uint8_t m[32]) {
    uint8_t h[32], kr[64];
    B::hash_h(h, ek, P::kEkBytes);
    B::hash_g(kr, m, 32, h, 32);
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
    B::hash_g(kr, m, 32, h, 32);
    B::hash_j(kbar, z, ct, P::kCtBytes);
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

  // Zeroes secrets so the stores are not elided as dead: on the host a plain
  // zero fill (vector stores; byte-wise volatile stores cost ~1.5 cycles a
  // byte, several thousand cycles per operation) followed by a compiler
  // barrier that takes the buffer as used memory; on the device volatile
  // byte stores.
  GPUCRYPTO_HD static void wipe(void* p, size_t n) {
#if !defined(__CUDA_ARCH__)
    uint8_t* b = static_cast<uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) b[i] = 0;
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile uint8_t* b = static_cast<volatile uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) b[i] = 0;
#endif
  }
};

}  // namespace gpucrypto::kem::mlkem
