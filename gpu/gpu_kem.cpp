// The babyKyber PKE batch on the GPU runtime: gathers the caller's strided
// arrays into the kernels' planar chunk layout (gpu/kernels/babykyber.cuh),
// runs the chunks through the runtime's pipeline (run_units), and scatters
// the results back. Also the host-emulated launch of the same kernel bodies.
#include "gpu/gpu_kem.h"

#include <cstring>

#include "gpu/device.h"
#include "gpu/emulator.h"
#include "gpu/kernels/babykyber.cuh"
#include "gpu/launch.h"

namespace gpucrypto::gpu {
namespace {

namespace bkp = kem::babykyber;

// Copies `count` records of `size` bytes from a strided array to a packed
// one, or back; one memcpy when the stride is the record size.
void gather(uint8_t* dst, const uint8_t* src, size_t stride, size_t size, size_t count) {
  if (stride == size) return (void)std::memcpy(dst, src, count * size);
  for (size_t i = 0; i < count; ++i) std::memcpy(dst + i * size, src + i * stride, size);
}
void scatter(uint8_t* dst, size_t stride, const uint8_t* src, size_t size, size_t count) {
  if (stride == size) return (void)std::memcpy(dst, src, count * size);
  for (size_t i = 0; i < count; ++i) std::memcpy(dst + i * stride, src + i * size, size);
}

UnitJob kem_job(KemOp op, KemDesign design, size_t n) {
  UnitJob u;
  u.secret = true;  // coins, messages and private keys
  u.spec.kem_op = op;
  u.spec.kem_design = design;
  u.n = n;
  u.in_unit = kern::kem_in_bytes(op);
  u.out_unit = kern::kem_out_bytes(op);
  return u;
}

}  // namespace

const char* kem_design_name(KemDesign d) {
  switch (d) {
    case KemDesign::kThreadPerInstance: return "thread-per-instance";
    case KemDesign::kSevenThreads: return "7-thread-blocks";
    case KemDesign::kPacked146: return "146x7-thread-blocks";
  }
  return "?";
}

size_t kem_instance_bytes(KemOp op) { return kern::kem_in_bytes(op) + kern::kem_out_bytes(op); }

void emulate_kem_launch(const LaunchSpec& spec) {
  const kern::KemParams p{spec.params.in, spec.params.out, spec.params.nblocks};
  kern::visit_kem(spec.kem_op, spec.kem_design, [&]<class K>() {
    emulate_grid(K{p}, kern::kem_grid<K>(p.n), K::kThreads);
  });
}

size_t kem_keygen(size_t n, const uint8_t* coins, size_t cs, uint8_t* ek, size_t es, uint8_t* dk,
                  size_t ds, KemDesign design) {
  constexpr size_t kC = bkp::kKeygenCoinsBytes, kE = bkp::kEkBytes, kD = bkp::kDkBytes;
  UnitJob u = kem_job(KemOp::kKeygen, design, n);
  u.pack = [&](size_t first, size_t cnt, uint8_t* in) { gather(in, coins + first * cs, cs, kC, cnt); };
  u.unpack = [&](size_t first, size_t cnt, const uint8_t* out) {
    scatter(ek + first * es, es, out, kE, cnt);
    scatter(dk + first * ds, ds, out + cnt * kE, kD, cnt);
  };
  return run_units(u);
}

size_t kem_encrypt(size_t n, uint8_t* ct, size_t cts, const uint8_t* ek, size_t es,
                   const uint8_t* m, const uint8_t* coins, size_t cs, bool* all_canonical,
                   KemDesign design) {
  constexpr size_t kE = bkp::kEkBytes, kC = bkp::kEncryptCoinsBytes, kCt = bkp::kCtBytes;
  UnitJob u = kem_job(KemOp::kEncrypt, design, n);
  uint8_t ok = 1;
  u.pack = [&](size_t first, size_t cnt, uint8_t* in) {
    gather(in, ek + first * es, es, kE, cnt);
    std::memcpy(in + cnt * kE, m + first, cnt);
    gather(in + cnt * (kE + 1), coins + first * cs, cs, kC, cnt);
  };
  u.unpack = [&](size_t first, size_t cnt, const uint8_t* out) {
    scatter(ct + first * cts, cts, out, kCt, cnt);
    for (size_t i = 0; i < cnt; ++i) ok &= out[cnt * kCt + i];
  };
  const size_t done = run_units(u);
  if (all_canonical != nullptr) *all_canonical = ok != 0;
  return done;
}

size_t kem_decrypt(size_t n, uint8_t* m, const uint8_t* ct, size_t cts, const uint8_t* dk,
                   size_t ds, KemDesign design) {
  constexpr size_t kD = bkp::kDkBytes, kCt = bkp::kCtBytes;
  UnitJob u = kem_job(KemOp::kDecrypt, design, n);
  u.pack = [&](size_t first, size_t cnt, uint8_t* in) {
    gather(in, dk + first * ds, ds, kD, cnt);
    gather(in + cnt * kD, ct + first * cts, cts, kCt, cnt);
  };
  u.unpack = [&](size_t first, size_t cnt, const uint8_t* out) { std::memcpy(m + first, out, cnt); };
  return run_units(u);
}

}  // namespace gpucrypto::gpu
