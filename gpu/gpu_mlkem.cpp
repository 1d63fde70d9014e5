// ML-KEM batches on the GPU runtime: copies the caller's arrays into the
// kernels' planar chunk layout (gpu/kernels/mlkem.cuh), runs the chunks
// through the runtime's pipeline (run_units), and copies the results back.
// Also the host-emulated launch of the same kernel bodies.
#include "gpu/gpu_mlkem.h"

#include <cstring>

#include "gpu/device.h"
#include "gpu/emulator.h"
#include "gpu/kernels/mlkem.cuh"
#include "gpu/launch.h"

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
  u.spec.mlkem_op = op;
  u.spec.mlkem_k = uint32_t(k);
  u.n = n;
  u.in_unit = in_bytes(k, op);
  u.out_unit = out_bytes(k, op);
  return u;
}

}  // namespace

size_t mlkem_instance_bytes(int level, MlkemOp op) {
  const int k = level_k(level);
  if (k == 0 || op == MlkemOp::kNone) return 0;
  return in_bytes(k, op) + out_bytes(k, op);
}

uint32_t mlkem_instances_per_block(int level, MlkemOp op) {
  const int k = level_k(level);
  if (k == 0 || op == MlkemOp::kNone) return 0;
  return kern::visit_mlkem(op, k, [&]<class Kn>() { return Kn::kInstancesPerBlock; });
}

size_t mlkem_shared_bytes(int level, MlkemOp op) {
  const int k = level_k(level);
  if (k == 0 || op == MlkemOp::kNone) return 0;
  return kern::visit_mlkem(op, k, [&]<class Kn>() { return sizeof(typename Kn::Shared); });
}

void emulate_mlkem_launch(const LaunchSpec& spec) {
  const kern::MlkemParams p{spec.params.in, spec.params.out, spec.params.nblocks};
  kern::visit_mlkem(spec.mlkem_op, int(spec.mlkem_k), [&]<class Kn>() {
    // The main kernel and the hash pass, in launch order (as mlkem_kernels.cu).
    using H = typename Kn::HashPass;
    if constexpr (H::kBeforeMain) emulate_grid(H{p}, kern::mlkem_grid<H>(p.n), H::kThreads);
    emulate_grid(Kn{p}, kern::mlkem_grid<Kn>(p.n), Kn::kThreads);
    if constexpr (!H::kBeforeMain) emulate_grid(H{p}, kern::mlkem_grid<H>(p.n), H::kThreads);
  });
}

size_t mlkem_keygen(int level, size_t n, const uint8_t* seeds, uint8_t* eks, uint8_t* dks) {
  const int k = level_k(level);
  if (k == 0 || n == 0) return 0;
  const Sizes sz = sizes(k);
  UnitJob u = mlkem_job(k, MlkemOp::kKeygen, n);
  u.pack = [&](size_t first, size_t cnt, uint8_t* in) {
    std::memcpy(in, seeds + first * 64, cnt * 64);
  };
  u.unpack = [&](size_t first, size_t cnt, const uint8_t* out) {
    std::memcpy(eks + first * sz.ek, out, cnt * sz.ek);
    std::memcpy(dks + first * sz.dk, out + cnt * sz.ek, cnt * sz.dk);
  };
  return run_units(u);
}

size_t mlkem_encaps(int level, size_t n, const uint8_t* eks, const uint8_t* ms, uint8_t* cts,
                    uint8_t* sss, uint8_t* ek_ok) {
  const int k = level_k(level);
  if (k == 0 || n == 0) return 0;
  const Sizes sz = sizes(k);
  UnitJob u = mlkem_job(k, MlkemOp::kEncaps, n);
  u.pack = [&](size_t first, size_t cnt, uint8_t* in) {
    std::memcpy(in, eks + first * sz.ek, cnt * sz.ek);
    std::memcpy(in + cnt * sz.ek, ms + first * 32, cnt * 32);
  };
  u.unpack = [&](size_t first, size_t cnt, const uint8_t* out) {
    std::memcpy(cts + first * sz.ct, out, cnt * sz.ct);
    std::memcpy(sss + first * 32, out + cnt * sz.ct, cnt * 32);
    if (ek_ok != nullptr) std::memcpy(ek_ok + first, out + cnt * (sz.ct + 32), cnt);
  };
  return run_units(u);
}

size_t mlkem_decaps(int level, size_t n, const uint8_t* dks, const uint8_t* cts, uint8_t* sss) {
  const int k = level_k(level);
  if (k == 0 || n == 0) return 0;
  const Sizes sz = sizes(k);
  UnitJob u = mlkem_job(k, MlkemOp::kDecaps, n);
  u.pack = [&](size_t first, size_t cnt, uint8_t* in) {
    std::memcpy(in, dks + first * sz.dk, cnt * sz.dk);
    std::memcpy(in + cnt * sz.dk, cts + first * sz.ct, cnt * sz.ct);
  };
  u.unpack = [&](size_t first, size_t cnt, const uint8_t* out) {
    std::memcpy(sss + first * 32, out, cnt * 32);
  };
  return run_units(u);
}

}  // namespace gpucrypto::gpu
