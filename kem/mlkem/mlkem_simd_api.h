// Exported entry points of the ML-KEM ISA files (mlkem_avx2.cpp,
// mlkem_avx512.cpp): declarations and plain state structs only, no inline
// code, so the ISA files may include it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpucrypto::kem::mlkem {

// The CPU features each ISA file was compiled for (its -m flags, read from
// the compiler's predefined macros: platform/isa.h compiled_features()).
extern const uint32_t kRequired_avx2, kRequired_avx512;

// Four / eight Keccak-f[1600] states, interleaved: word w of lane l at
// s[4 w + l] / s[8 w + l].
struct alignas(32) KeccakX4 {
  uint64_t s[100];
};
struct alignas(64) KeccakX8 {
  uint64_t s[200];
};

// absorb sets lane l to its padded first block blk[l] (200 bytes: the input,
// the domain byte, zeros, 0x80 at rate - 1, zeros to 200; ML-KEM's XOF and
// PRF inputs are 33-34 bytes, one block). squeeze permutes and writes
// `nblocks` blocks of rate[l] bytes to out[l] per lane, out[l] advancing by
// rate[l] per block; it may be called again for more.
// set_lane sets one lane to a padded first block, the others unchanged.
void keccakx4_absorb_avx2(KeccakX4* st, const uint8_t* const blk[4]);
void keccakx4_set_lane_avx2(KeccakX4* st, int lane, const uint8_t* blk);
void keccakx4_squeeze_avx2(KeccakX4* st, const size_t rate[4], size_t nblocks, uint8_t* const out[4]);
void keccakx4_absorb_avx512(KeccakX4* st, const uint8_t* const blk[4]);
void keccakx4_set_lane_avx512(KeccakX4* st, int lane, const uint8_t* blk);
void keccakx4_squeeze_avx512(KeccakX4* st, const size_t rate[4], size_t nblocks,
                             uint8_t* const out[4]);
void keccakx8_absorb_avx512(KeccakX8* st, const uint8_t* const blk[8]);
void keccakx8_set_lane_avx512(KeccakX8* st, int lane, const uint8_t* blk);
void keccakx8_squeeze_avx512(KeccakX8* st, const size_t rate[8], size_t nblocks,
                             uint8_t* const out[8]);

// One sponge over a || b (b may be null with blen 0), padded with the domain
// byte ds, squeezed to outlen bytes: SHA3-256/512 (ds 0x06, rate 136/72) and
// SHAKE256 (0x1f, 136) as mlkem_keccak.h computes them.
void keccak1_sponge_avx2(uint8_t* out, size_t outlen, size_t rate, uint8_t ds, const uint8_t* a,
                         size_t alen, const uint8_t* b, size_t blen);
void keccak1_sponge_avx512(uint8_t* out, size_t outlen, size_t rate, uint8_t ds, const uint8_t* a,
                           size_t alen, const uint8_t* b, size_t blen);

// Polynomial kernels (mlkem_poly_simd.inc), bit-identical to RefBackend:
// ntt = mlkem::ntt + poly_reduce, invntt = invntt_tomont, basemul_acc =
// poly_reduce(sum over j < k of basemul(a + 256 j, b + 256 j)).
void mlkem_ntt_avx2(int16_t* p);
void mlkem_invntt_avx2(int16_t* p);
void mlkem_basemul_acc_avx2(int16_t* r, const int16_t* a, const int16_t* b, int k);
void mlkem_ntt_avx512(int16_t* p);
void mlkem_invntt_avx512(int16_t* p);
void mlkem_basemul_acc_avx512(int16_t* r, const int16_t* a, const int16_t* b, int k);
// poly_compress<d> / poly_decompress<d> (d = 4, 5, 10, 11), poly_to_bytes,
// poly_from_bytes (compress / to_bytes take reduced coefficients, |c| < q).
void mlkem_compress_avx2(uint8_t* r, const int16_t* a, int d);
void mlkem_decompress_avx2(int16_t* r, const uint8_t* a, int d);
void mlkem_tobytes_avx2(uint8_t* r, const int16_t* a);
uint32_t mlkem_frombytes_avx2(int16_t* r, const uint8_t* a);
void mlkem_compress_avx512(uint8_t* r, const int16_t* a, int d);
void mlkem_decompress_avx512(int16_t* r, const uint8_t* a, int d);
void mlkem_tobytes_avx512(uint8_t* r, const int16_t* a);
uint32_t mlkem_frombytes_avx512(int16_t* r, const uint8_t* a);
// poly_cbd<eta> (eta = 2, 3) of 64 eta bytes.
void mlkem_cbd_avx2(int16_t* r, const uint8_t* buf, int eta);
void mlkem_cbd_avx512(int16_t* r, const uint8_t* buf, int eta);
// poly_from_msg / poly_to_msg.
void mlkem_frommsg_avx2(int16_t* r, const uint8_t* m);
void mlkem_tomsg_avx2(uint8_t* m, const int16_t* a);
void mlkem_frommsg_avx512(int16_t* r, const uint8_t* m);
void mlkem_tomsg_avx512(uint8_t* m, const int16_t* a);
// = mlkem_poly.h's rej_uniform (len a multiple of 3).
int mlkem_rej_uniform_avx2(int16_t* r, int ctr, const uint8_t* buf, size_t len);
int mlkem_rej_uniform_avx512(int16_t* r, int ctr, const uint8_t* buf, size_t len);

}  // namespace gpucrypto::kem::mlkem
