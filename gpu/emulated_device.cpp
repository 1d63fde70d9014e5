// A Device that runs every step on the CPU: copies are memcpy, launches run
// the host grid emulator over the same kernel bodies, streams are sequential.
// Test aid only (GPUCRYPTO_GPU_FAULT=emulate): it lets the whole runtime —
// chunking, staging, slot reuse, ordering, fault handling — run and be
// checked on machines without a GPU. It is never reported as a GPU.
#include <openssl/crypto.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu/device.h"
#include "gpu/kernels/host_tables.h"

namespace gpucrypto::gpu {
namespace {

class EmulatedDevice final : public Device {
 public:
  EmulatedDevice(int devices, int streams) : devices_(devices), slots_(devices * streams) {}

  std::string describe() const override {
    return "emulated on the CPU by the host grid emulator (" + std::to_string(devices_) +
           " virtual device(s) x " + std::to_string(slots_ / devices_) +
           " streams; GPUCRYPTO_GPU_FAULT test aid, not a GPU)";
  }
  bool emulated() const override { return true; }
  int slots() const override { return slots_; }

  Status prepare(size_t chunk_bytes) override {
    if (chunk_bytes <= chunk_) return {};
    slot_.assign(size_t(slots_), Slot{});
    for (Slot& s : slot_) {
      s.h_in.resize(chunk_bytes), s.h_out.resize(chunk_bytes);
      s.d_in.resize(chunk_bytes), s.d_out.resize(chunk_bytes);
    }
    chunk_ = chunk_bytes;
    return {};
  }
  uint8_t* staging_in(int slot) override { return slot_[size_t(slot)].h_in.data(); }
  uint8_t* staging_out(int slot) override { return slot_[size_t(slot)].h_out.data(); }
  Status copy_in(int slot, size_t bytes) override {
    Slot& s = slot_[size_t(slot)];
    std::copy_n(s.h_in.begin(), bytes, s.d_in.begin());
    return {};
  }
  Status launch(int slot, const Launch& launch, uint64_t units) override {
    Slot& s = slot_[size_t(slot)];
    emulate_launch(launch, {s.d_in.data(), s.d_out.data(), units, &kern::host_tables()});
    return {};
  }
  Status copy_out(int slot, size_t bytes) override {
    Slot& s = slot_[size_t(slot)];
    std::copy_n(s.d_out.begin(), bytes, s.h_out.begin());
    return {};
  }
  Status wait(int) override { return {}; }
  void release() override {
    slot_.clear();
    chunk_ = 0;
  }
  void abandon() override { release(); }
  void scrub() override {
    for (Slot& s : slot_)
      for (std::vector<uint8_t>* v : {&s.h_in, &s.h_out, &s.d_in, &s.d_out})
        OPENSSL_cleanse(v->data(), v->size());
  }
  bool staging_clear() const override {
    for (const Slot& s : slot_)
      for (const std::vector<uint8_t>* v : {&s.h_in, &s.h_out})
        if (std::any_of(v->begin(), v->end(), [](uint8_t b) { return b != 0; })) return false;
    return true;
  }

 private:
  struct Slot {
    std::vector<uint8_t> h_in, h_out, d_in, d_out;
  };
  int devices_;
  int slots_;
  size_t chunk_ = 0;
  std::vector<Slot> slot_;
};

}  // namespace

std::unique_ptr<Device> make_emulated_device(int devices, int streams) {
  return std::make_unique<EmulatedDevice>(devices, streams);
}

}  // namespace gpucrypto::gpu
