// The CUDA implementation of Device: every device of compute capability 8.0+
// with kStreams streams each, pinned staging buffers and device buffers per
// stream, and one copy of the kernel tables per device. Uses the statically
// linked CUDA runtime, so on machines without a driver the first call just
// reports an error and the module keeps working on the CPU.
#include <cuda_runtime.h>
#include <openssl/crypto.h>

#include <string>
#include <vector>

#include "gpu/cuda_launch.h"
#include "gpu/device.h"
#include "gpu/kernels/host_tables.h"

namespace gpucrypto::gpu {
namespace {

constexpr int kStreams = 4;

// What the module's kernels were compiled for, from CMake (gpu/CMakeLists.txt):
// shown next to the device (or its absence) in gpu::describe(), so
// `openssl list -providers -verbose` tells whether a GPU can run them.
constexpr const char* kBuiltFor = "built for " GPUCRYPTO_CUDA_ARCHS_TEXT;

bool is_sticky(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorECCUncorrectable:
    case cudaErrorDevicesUnavailable:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

Status check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return {};
  return Status::fail(std::string(what) + ": " + cudaGetErrorName(e) + " (" +
                          cudaGetErrorString(e) + ")",
                      is_sticky(e));
}

class CudaDevices final : public Device {
 public:
  struct Dev {
    int id;
    std::string name;
    int major, minor;
    kern::Tables* tables = nullptr;
  };
  explicit CudaDevices(std::vector<Dev> devs) : devs_(std::move(devs)) {}

  std::string describe() const override {
    std::string d;
    for (size_t i = 0; i < devs_.size(); ++i) {
      if (i) d += ", ";
      d += devs_[i].name + " (sm_" + std::to_string(devs_[i].major) +
           std::to_string(devs_[i].minor) + ")";
    }
    return std::to_string(devs_.size()) + " x " + d + "; " + kBuiltFor;
  }
  bool emulated() const override { return false; }
  int slots() const override { return int(devs_.size()) * kStreams; }

  Status prepare(size_t chunk_bytes) override {
    if (chunk_bytes <= chunk_) return {};
    release();
    slot_.assign(devs_.size() * kStreams, Slot{});
    for (size_t d = 0; d < devs_.size(); ++d) {
      Status st = check(cudaSetDevice(devs_[d].id), "cudaSetDevice");
      if (st.ok)
        st = check(cudaMalloc(reinterpret_cast<void**>(&devs_[d].tables), sizeof(kern::Tables)),
                   "cudaMalloc(tables)");
      if (st.ok)
        st = check(cudaMemcpy(devs_[d].tables, &kern::host_tables(), sizeof(kern::Tables),
                              cudaMemcpyHostToDevice),
                   "cudaMemcpy(tables)");
      for (int s = 0; st.ok && s < kStreams; ++s) {
        Slot& sl = slot_[d * kStreams + size_t(s)];
        sl.dev = int(d);
        st = check(cudaStreamCreateWithFlags(&sl.stream, cudaStreamNonBlocking), "cudaStreamCreate");
        if (st.ok) st = check(cudaHostAlloc(reinterpret_cast<void**>(&sl.h_in), chunk_bytes, cudaHostAllocPortable), "cudaHostAlloc");
        if (st.ok) st = check(cudaHostAlloc(reinterpret_cast<void**>(&sl.h_out), chunk_bytes, cudaHostAllocPortable), "cudaHostAlloc");
        if (st.ok) st = check(cudaMalloc(reinterpret_cast<void**>(&sl.d_in), chunk_bytes), "cudaMalloc");
        if (st.ok) st = check(cudaMalloc(reinterpret_cast<void**>(&sl.d_out), chunk_bytes), "cudaMalloc");
      }
      if (!st.ok) {
        release();
        return st;
      }
    }
    chunk_ = chunk_bytes;
    return {};
  }
  void scrub() override {
    for (Slot& s : slot_) {
      if (cudaSetDevice(devs_[size_t(s.dev)].id) == cudaSuccess) {
        if (s.d_in) cudaMemsetAsync(s.d_in, 0, chunk_, s.stream);
        if (s.d_out) cudaMemsetAsync(s.d_out, 0, chunk_, s.stream);
        cudaStreamSynchronize(s.stream);
      }
      if (s.h_in) OPENSSL_cleanse(s.h_in, chunk_);
      if (s.h_out) OPENSSL_cleanse(s.h_out, chunk_);
    }
  }
  bool staging_clear() const override {
    for (const Slot& s : slot_)
      for (const uint8_t* p : {s.h_in, s.h_out})
        for (size_t i = 0; p != nullptr && i < chunk_; ++i)
          if (p[i] != 0) return false;
    return true;
  }
  uint8_t* staging_in(int slot) override { return slot_[size_t(slot)].h_in; }
  uint8_t* staging_out(int slot) override { return slot_[size_t(slot)].h_out; }

  Status copy_in(int slot, size_t bytes) override {
    return on_slot(slot, [&](Slot& s) {
      return check(cudaMemcpyAsync(s.d_in, s.h_in, bytes, cudaMemcpyHostToDevice, s.stream),
                   "cudaMemcpyAsync(H2D)");
    });
  }
  Status launch(int slot, const Launch& launch, uint64_t units) override {
    return on_slot(slot, [&](Slot& s) {
      const LaunchIo io{s.d_in, s.d_out, units, devs_[size_t(s.dev)].tables};
      // One launcher per kind (cuda_launch.h): a kind without one does not compile.
      const int rc = std::visit(
          Overloaded{
              [&](const CipherLaunch& l) { return launch_cipher_cuda(l, io, s.stream); },
              [&](const BabyKyberLaunch& l) { return launch_babykyber_cuda(l, io, s.stream); },
              [&](const MlkemLaunch& l) { return launch_mlkem_cuda(l, io, s.stream); },
          },
          launch);
      return check(cudaError_t(rc), "kernel launch");
    });
  }
  Status copy_out(int slot, size_t bytes) override {
    return on_slot(slot, [&](Slot& s) {
      return check(cudaMemcpyAsync(s.h_out, s.d_out, bytes, cudaMemcpyDeviceToHost, s.stream),
                   "cudaMemcpyAsync(D2H)");
    });
  }
  Status wait(int slot) override {
    Slot& s = slot_[size_t(slot)];
    if (s.stream == nullptr) return {};
    return check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize");
  }

  void release() override {
    for (Slot& s : slot_) {
      cudaSetDevice(devs_[size_t(s.dev)].id);
      if (s.stream) cudaStreamSynchronize(s.stream), cudaStreamDestroy(s.stream);
      if (s.h_in) cudaFreeHost(s.h_in);
      if (s.h_out) cudaFreeHost(s.h_out);
      if (s.d_in) cudaFree(s.d_in);
      if (s.d_out) cudaFree(s.d_out);
    }
    slot_.clear();
    for (Dev& d : devs_) {
      if (d.tables) cudaSetDevice(d.id), cudaFree(d.tables);
      d.tables = nullptr;
    }
    chunk_ = 0;
  }
  void abandon() override {
    slot_.clear();
    for (Dev& d : devs_) d.tables = nullptr;
    chunk_ = 0;
  }

 private:
  struct Slot {
    int dev = 0;
    cudaStream_t stream = nullptr;
    uint8_t *h_in = nullptr, *h_out = nullptr, *d_in = nullptr, *d_out = nullptr;
  };
  Status select(const Slot& s) { return check(cudaSetDevice(devs_[size_t(s.dev)].id), "cudaSetDevice"); }
  // Runs one step on the slot with its device made current.
  template <class Step>
  Status on_slot(int slot, Step&& step) {
    Slot& s = slot_[size_t(slot)];
    Status st = select(s);
    return st.ok ? step(s) : st;
  }

  std::vector<Dev> devs_;
  std::vector<Slot> slot_;
  size_t chunk_ = 0;
};

// Every device of compute capability 8.0+, or nullptr with the reason.
std::unique_ptr<Device> find_cuda_devices(std::string* why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorNoDevice || (e == cudaSuccess && n == 0)) {
    *why = "no CUDA device";
    return nullptr;
  }
  if (e == cudaErrorInsufficientDriver) {
    *why = "no CUDA driver, or one too old for this CUDA runtime";
    return nullptr;
  }
  if (e != cudaSuccess) {
    *why = std::string("CUDA unavailable: ") + cudaGetErrorName(e);
    return nullptr;
  }
  std::vector<CudaDevices::Dev> devs;
  std::string skipped;
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    if (p.major < 8) {  // the default build has sm_80 and sm_90 code (+ compute_90 PTX)
      skipped += std::string(skipped.empty() ? "" : ", ") + p.name;
      continue;
    }
    devs.push_back({i, p.name, p.major, p.minor});
  }
  if (devs.empty()) {
    *why = "no device of compute capability 8.0 or newer (found: " + skipped + ")";
    return nullptr;
  }
  return std::make_unique<CudaDevices>(std::move(devs));
}

}  // namespace

std::unique_ptr<Device> open_cuda_devices(std::string* why) {
  std::unique_ptr<Device> dev = find_cuda_devices(why);
  if (dev == nullptr) *why += std::string("; ") + kBuiltFor;
  return dev;
}

}  // namespace gpucrypto::gpu
