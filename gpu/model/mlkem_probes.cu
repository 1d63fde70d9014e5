// Probe kernels for the ML-KEM performance model (gpu/model/mlkem_model.py):
// each kernel runs ONE building block of gpu/kernels/mlkem.cuh once per
// thread, so its PTX instruction count (with the round loop of Keccak-f
// counted 24 times) is the cost of that block. Not part of the build:
//   nvcc -std=c++20 -I. -arch=sm_90 -O3 -ptx gpu/model/mlkem_probes.cu -o probes.ptx
//   python3 gpu/model/mlkem_model.py probes.ptx
#include "gpu/kernels/mlkem.cuh"

namespace mk = gpucrypto::kem::mlkem;
namespace kern = gpucrypto::gpu::kern;

// One Keccak-f[1600] permutation (the 24-round loop stays a loop).
__global__ void probe_keccak(uint64_t* st) {
  uint64_t a[25];
#pragma unroll
  for (int i = 0; i < 25; ++i) a[i] = st[threadIdx.x * 25 + i];
  mk::keccak_f1600(a);
#pragma unroll
  for (int i = 0; i < 25; ++i) st[threadIdx.x * 25 + i] = a[i];
}

// One forward / inverse NTT butterfly of a lane (layer chosen at run time).
__global__ void probe_ntt_butterfly(int layer) {
  __shared__ int16_t r[256], z[128];
  kern::mlkem_ntt_butterfly(r, layer, int(threadIdx.x), z);
}
__global__ void probe_invntt_butterfly(int layer) {
  __shared__ int16_t r[256], z[128];
  kern::mlkem_invntt_butterfly(r, layer, int(threadIdx.x), z);
}

// One coefficient pair of a K = 1 base multiplication (per extra product
// the K loop adds about the same again) and its ByteEncode12.
__global__ void probe_basemul_pair(uint8_t* out) {
  __shared__ mk::Poly a, b;
  __shared__ int16_t z[128];
  const mk::Poly* pa[1] = {&a};
  const mk::Poly* pb[1] = {&b};
  int16_t c0, c1;
  kern::mlkem_basemul_pair<1>(c0, c1, pa, pb, int(threadIdx.x), z);
  kern::mlkem_encode_pair(out + 3 * threadIdx.x, c0, c1);
}

// One group of 8 coefficients: add, reduce, Compress_10 and store.
__global__ void probe_compress8(uint8_t* out) {
  __shared__ mk::Poly u, e;
  int16_t v[8];
#pragma unroll
  for (int j = 0; j < 8; ++j)
    v[j] = mk::barrett_reduce(int16_t(u.c[8 * threadIdx.x + j] + e.c[8 * threadIdx.x + j]));
  kern::mlkem_compress8<10>(out + 10 * threadIdx.x, v);
}
