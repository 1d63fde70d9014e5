// The babyKyber PKE batch on the GPU runtime: gathers the caller's strided
// arrays into the kernels' planar chunk layout (gpu/kernels/babykyber.cuh),
// runs the chunks through the runtime's pipeline (run_units), and scatters
// the results back. Also the host-emulated launch of the same kernel bodies.
#include "gpu/gpu_kem.h"

#include "gpu/device.h"
#include "gpu/emulator.h"
#include "gpu/kernels/babykyber.cuh"
#include "gpu/launch.h"
#include "gpu/planar.h"

namespace gpucrypto::gpu {
namespace {

namespace bkp = kem::babykyber;

UnitJob kem_job(KemOp op, KemDesign design, size_t n) {
  UnitJob u;
  u.secret = true;  // coins, messages and private keys
  u.launch = BabyKyberLaunch{op, design};
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

void emulate_babykyber(const BabyKyberLaunch& l, const LaunchIo& io) {
  const kern::KemParams p{io.in, io.out, io.n};
  kern::visit_kem(l.op, l.design, [&]<class K>() { emulate_grid(K{p}, kern::batch_grid<K>(p.n), K::kThreads); });
}

size_t kem_keygen(size_t n, const uint8_t* coins, size_t cs, uint8_t* ek, size_t es, uint8_t* dk,
                  size_t ds, KemDesign design) {
  return run_planar(kem_job(KemOp::kKeygen, design, n), {{coins, cs, bkp::kKeygenCoinsBytes}},
                    {{ek, es, bkp::kEkBytes}, {dk, ds, bkp::kDkBytes}});
}

size_t kem_encrypt(size_t n, uint8_t* ct, size_t cts, const uint8_t* ek, size_t es,
                   const uint8_t* m, const uint8_t* coins, size_t cs, bool* all_canonical,
                   KemDesign design) {
  constexpr size_t kCt = bkp::kCtBytes;
  UnitJob u = kem_job(KemOp::kEncrypt, design, n);
  uint8_t ok = 1;
  u.pack = [&](size_t first, size_t cnt, uint8_t* in) {
    pack_planar(in, first, cnt,
                {{ek, es, bkp::kEkBytes}, {m, 1, 1}, {coins, cs, bkp::kEncryptCoinsBytes}});
  };
  u.unpack = [&](size_t first, size_t cnt, const uint8_t* out) {
    unpack_planar(out, first, cnt, {{ct, cts, kCt}});
    for (size_t i = 0; i < cnt; ++i) ok &= out[cnt * kCt + i];
  };
  const size_t done = run_units(u);
  if (all_canonical != nullptr) *all_canonical = ok != 0;
  return done;
}

size_t kem_decrypt(size_t n, uint8_t* m, const uint8_t* ct, size_t cts, const uint8_t* dk,
                   size_t ds, KemDesign design) {
  return run_planar(kem_job(KemOp::kDecrypt, design, n),
                    {{dk, ds, bkp::kDkBytes}, {ct, cts, bkp::kCtBytes}}, {{m, 1, 1}});
}

}  // namespace gpucrypto::gpu
