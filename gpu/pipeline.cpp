// The chunk pipeline and its keystream variant (gpu/pipeline.h).
#include "gpu/pipeline.h"

#include <openssl/crypto.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

namespace gpucrypto::gpu {
namespace {

struct Pending {
  bool active = false;
  size_t first = 0, nblocks = 0;
};

// XORs n bytes of keystream into in, to out (in == out allowed), eight bytes
// at a time (memcpy: no alignment or aliasing assumption).
void xor_keystream(const uint8_t* in, const uint8_t* ks, uint8_t* out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t a, b;
    std::memcpy(&a, in + i, 8);
    std::memcpy(&b, ks + i, 8);
    a ^= b;
    std::memcpy(out + i, &a, 8);
  }
  for (; i < n; ++i) out[i] = uint8_t(in[i] ^ ks[i]);
}

}  // namespace

Status Pipeline::step(FaultKind kind, Status real) {
  if (!real.ok) return real;
  if (inject(kind)) return Status::fail(std::string("injected ") + kFaultNames[kind] + " fault");
  return real;
}

Status Pipeline::run_cipher(const Job& job, const CipherLaunch& spec, size_t* done) {
  const size_t bb = block_bytes(job.cipher);
  UnitJob u;
  u.launch = spec;
  u.n = job.nblocks;
  u.in_unit = u.out_unit = bb;
  u.pack = [&](size_t first, size_t nb, uint8_t* dst) {
    std::memcpy(dst, job.in + first * bb, nb * bb);
  };
  u.setup = [&](size_t first, size_t, Launch& l) {
    if (job.ctr_mode) set_counter(job.ctr, bb, first, std::get<CipherLaunch>(l).ctr_be);
  };
  u.unpack = [&](size_t first, size_t nb, const uint8_t* src) {
    std::memcpy(job.out + first * bb, src, nb * bb);
  };
  return run_units(u, done);
}

Status Pipeline::run_keystream(const Job& job, const CipherLaunch& spec, size_t* done) {
  const size_t bb = block_bytes(job.cipher);
  UnitJob u;
  u.launch = spec;
  std::get<CipherLaunch>(u.launch).op = kern::Op::kKeystream;
  u.n = job.nblocks;
  u.in_unit = 0;
  u.out_unit = bb;
  u.pack = [](size_t, size_t, uint8_t*) {};
  bool staged = false;  // a chunk reached the device (the buffers exist)
  u.setup = [&](size_t first, size_t, Launch& l) {
    staged = true;
    set_counter(job.ctr, bb, first, std::get<CipherLaunch>(l).ctr_be);
  };
  u.unpack = [&](size_t first, size_t nb, const uint8_t* src) {
    xor_keystream(job.in + first * bb, src, job.out + first * bb, nb * bb);
    // The runtime's own staging buffer (staging_out), handed over as const.
    OPENSSL_cleanse(const_cast<uint8_t*>(src), nb * bb);
  };
  Status st = run_units(u, done);
  if (!st.ok && staged) {
    // Chunks abandoned after the error were never unpacked: wipe every
    // slot's staged keystream (the pipeline has drained them).
    const size_t bytes = std::max<size_t>(chunk_bytes_ / bb, 1) * bb;
    for (int s = 0; s < dev_.slots(); ++s) OPENSSL_cleanse(dev_.staging_out(s), bytes);
  }
  return st;
}

Status Pipeline::run_units(const UnitJob& job, size_t* done) {
  const size_t unit = std::max(job.in_unit, job.out_unit);
  const size_t chunk_units = std::max<size_t>(chunk_bytes_ / unit, 1);
  Status st = inject(kAlloc) ? Status::fail("injected alloc fault") : dev_.prepare(chunk_units * unit);
  if (!st.ok) return st;
  const int slots = dev_.slots();
  std::vector<Pending> pending(static_cast<size_t>(slots));
  const size_t nchunks = (job.n + chunk_units - 1) / chunk_units;
  Launch launch = job.launch;

  // Completes the slot's chunk: wait, then unpack the staged result.
  // Chunks complete in issue order, so `done` only ever grows as a prefix.
  auto complete = [&](int slot) -> Status {
    Pending& p = pending[size_t(slot)];
    p.active = false;
    Status s = step(kSync, dev_.wait(slot));
    if (!s.ok) return s;
    job.unpack(p.first, p.nblocks, dev_.staging_out(slot));
    *done += p.nblocks;
    return s;
  };

  size_t c = 0;
  bool completion_failed = false;
  for (; c < nchunks; ++c) {
    const int slot = int(c % size_t(slots));
    if (pending[size_t(slot)].active && !(st = complete(slot)).ok) {
      completion_failed = true;  // later chunks must not extend the prefix
      break;
    }
    const size_t first = c * chunk_units;
    const size_t nb = std::min(chunk_units, job.n - first);
    job.pack(first, nb, dev_.staging_in(slot));
    if (job.in_unit != 0 && !(st = step(kH2D, dev_.copy_in(slot, nb * job.in_unit))).ok) break;
    if (job.setup) job.setup(first, nb, launch);
    if (!(st = step(kLaunch, dev_.launch(slot, launch, nb))).ok) break;
    if (!(st = step(kD2H, dev_.copy_out(slot, nb * job.out_unit))).ok) break;
    pending[size_t(slot)] = {true, first, nb};
  }
  // Finish the chunks still in flight, oldest first. After an error these
  // all precede the failed chunk, so they still extend the prefix, up to
  // the first one that fails to complete.
  const size_t end = c;
  Status cs = completion_failed ? st : Status{};
  for (size_t k = end >= size_t(slots) ? end - size_t(slots) : 0; k < end; ++k) {
    const int slot = int(k % size_t(slots));
    if (!pending[size_t(slot)].active) continue;
    if (cs.ok) {
      cs = complete(slot);
    } else {
      pending[size_t(slot)].active = false;
    }
  }
  if (st.ok) st = cs;
  if (!st.ok) {
    // Drain: nothing may still write the staging buffers of the next job.
    for (int s = 0; s < slots; ++s) dev_.wait(s);
  }
  return st;
}

void set_counter(const uint8_t* ctr, size_t bb, uint64_t first, uint32_t* ctr_be) {
  uint8_t c[16];
  std::memcpy(c, ctr, bb);
  unsigned carry = 0;
  for (size_t i = bb; i-- > 0;) {
    unsigned sum = unsigned(c[i]) + unsigned(first & 0xff) + carry;
    c[i] = uint8_t(sum);
    carry = sum >> 8;
    first >>= 8;
  }
  for (size_t w = 0; w < bb / 4; ++w)
    ctr_be[w] = uint32_t(c[4 * w]) << 24 | uint32_t(c[4 * w + 1]) << 16 |
                uint32_t(c[4 * w + 2]) << 8 | c[4 * w + 3];
}

}  // namespace gpucrypto::gpu
