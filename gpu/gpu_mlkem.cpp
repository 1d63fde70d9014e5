// ML-KEM batches on the GPU runtime: copies the caller's arrays into the
// kernels' planar chunk layout (gpu/kernels/mlkem.cuh), runs the chunks
// through the runtime's pipeline (run_units), and copies the results back.
// Also the host-emulated launch of the same kernel bodies.
#include "gpu/gpu_mlkem.h"

#include "gpu/device.h"
#include "gpu/emulator.h"
#include "gpu/kernels/mlkem.cuh"
#include "gpu/launch.h"
#include "gpu/planar.h"

namespace gpucrypto::gpu {
namespace {

namespace mk = kem::mlkem;

// K for a level, 0 for anything else.
int level_k(int level) {
  switch (level) {
    case 512: return 2;
    case 768: return 3;
    case 1024: return 4;
    default: return 0;
  }
}

struct Sizes {
  size_t ek, dk, ct;
};
Sizes sizes(int k) {
  switch (k) {
    case 2: return {mk::Params<2>::kEkBytes, mk::Params<2>::kDkBytes, mk::Params<2>::kCtBytes};
    case 3: return {mk::Params<3>::kEkBytes, mk::Params<3>::kDkBytes, mk::Params<3>::kCtBytes};
    default: return {mk::Params<4>::kEkBytes, mk::Params<4>::kDkBytes, mk::Params<4>::kCtBytes};
  }
}

// Per-instance bytes of a launch's input and output, from the kernel header.
size_t in_bytes(int k, MlkemOp op) {
  return kern::visit_mlkem(op, k, [&]<class Kn>() {
    return size_t(kern::mlkem_in_bytes<Kn::P::k>(op));
  });
}
size_t out_bytes(int k, MlkemOp op) {
  return kern::visit_mlkem(op, k, [&]<class Kn>() {
    return size_t(kern::mlkem_out_bytes<Kn::P::k>(op));
  });
}

UnitJob mlkem_job(int k, MlkemOp op, size_t n) {
  UnitJob u;
  u.secret = true;  // seeds, messages, private keys and shared secrets
  u.launch = MlkemLaunch{op, k};
  u.n = n;
  u.in_unit = in_bytes(k, op);
  u.out_unit = out_bytes(k, op);
  return u;
}

}  // namespace

size_t mlkem_instance_bytes(int level, MlkemOp op) {
  const int k = level_k(level);
  return k == 0 ? 0 : in_bytes(k, op) + out_bytes(k, op);
}

uint32_t mlkem_instances_per_block(int level, MlkemOp op) {
  const int k = level_k(level);
  if (k == 0) return 0;
  return kern::visit_mlkem(op, k, [&]<class Kn>() { return Kn::kInstancesPerBlock; });
}

size_t mlkem_shared_bytes(int level, MlkemOp op) {
  const int k = level_k(level);
  if (k == 0) return 0;
  return kern::visit_mlkem(op, k, [&]<class Kn>() { return sizeof(typename Kn::Shared); });
}

void emulate_mlkem(const MlkemLaunch& l, const LaunchIo& io) {
  const kern::MlkemParams p{io.in, io.out, io.n};
  kern::visit_mlkem(l.op, l.k, [&]<class Kn>() {
    // The main kernel and the hash pass, in launch order (as mlkem_kernels.cu).
    return kern::each_mlkem_pass<Kn>([&]<class X>() {
      emulate_grid(X{p}, kern::batch_grid<X>(p.n), X::kThreads);
      return 0;
    });
  });
}

// The arrays hold the instances back to back at their natural sizes.
size_t mlkem_keygen(int level, size_t n, const uint8_t* seeds, uint8_t* eks, uint8_t* dks) {
  const int k = level_k(level);
  if (k == 0 || n == 0) return 0;
  const Sizes sz = sizes(k);
  return run_planar(mlkem_job(k, MlkemOp::kKeygen, n), {{seeds, 64, 64}},
                    {{eks, sz.ek, sz.ek}, {dks, sz.dk, sz.dk}});
}

size_t mlkem_encaps(int level, size_t n, const uint8_t* eks, const uint8_t* ms, uint8_t* cts,
                    uint8_t* sss, uint8_t* ek_ok) {
  const int k = level_k(level);
  if (k == 0 || n == 0) return 0;
  const Sizes sz = sizes(k);
  return run_planar(mlkem_job(k, MlkemOp::kEncaps, n), {{eks, sz.ek, sz.ek}, {ms, 32, 32}},
                    {{cts, sz.ct, sz.ct}, {sss, 32, 32}, {ek_ok, 1, 1}});
}

size_t mlkem_decaps(int level, size_t n, const uint8_t* dks, const uint8_t* cts, uint8_t* sss) {
  const int k = level_k(level);
  if (k == 0 || n == 0) return 0;
  const Sizes sz = sizes(k);
  return run_planar(mlkem_job(k, MlkemOp::kDecaps, n), {{dks, sz.dk, sz.dk}, {cts, sz.ct, sz.ct}},
                    {{sss, 32, 32}});
}

}  // namespace gpucrypto::gpu
