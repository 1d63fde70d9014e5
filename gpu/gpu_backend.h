// The CUDA back end as the dispatcher sees it. Every call is safe on machines
// without a CUDA driver or device (the CUDA runtime is linked statically and
// only asked at first use). Built without CUDA, the same interface answers
// "no GPU" (gpu/no_gpu.cpp) — except for the test-only emulated device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpucrypto::gpu {

enum class Cipher {
  kSkinny128_256,
  kSkinny128_384,
  kSM4,
  kRectangle80,
  kRectangle128,
  kAES128,
  kAES192,
  kAES256,
};

// The two kernel families (gpu/README.md, "Constant-time kernels"):
// kConstantTime, the default, has no memory index and no branch that depends
// on key or data (bit-sliced AES, SM4 and SKINNY; RECTANGLE is bit-sliced by
// design); kTables runs the shared-memory T-table kernels of AES, SM4 and
// SKINNY, which a GPU co-tenant can attack through timing (Jiang, Fei, Kaeli,
// HPCA 2016), and only when the configuration asks for it (gpu_kernels).
enum class KernelFamily { kConstantTime, kTables };
// "constant-time" / "tables".
const char* kernel_family_name(KernelFamily f);
// Accepts exactly those two names; false for anything else.
bool parse_kernel_family(const std::string& s, KernelFamily* out);

// How a CTR job moves over PCIe (gpu/README.md, "CTR transfer modes"):
//   kShip:      data to the device, the kernel XORs, the result back (two
//               transfers of the data);
//   kKeystream: the device makes keystream only and sends it back; the CPU
//               XORs it into the data while the next chunk is in flight (one
//               transfer), then wipes the staged keystream;
//   kAuto:      picked per cipher, kernel family and size by a measurement of
//               both at first use (ship on the emulated device, where timing
//               means nothing).
enum class CtrTransfer { kAuto, kShip, kKeystream };
const char* ctr_transfer_name(CtrTransfer t);

struct Job {
  Cipher cipher;
  const uint8_t* key;  // raw key bytes (the runtime derives the kernel schedule)
  size_t keylen;
  bool ctr_mode;       // false: ECB
  bool encrypt;        // ECB direction (ignored for CTR)
  const uint8_t* ctr;  // CTR: first counter block (block size bytes), big-endian
  const uint8_t* in;
  uint8_t* out;
  size_t nblocks;
  // The kernels the caller's configuration allows (EngineConfig::gpu_kernels;
  // the dispatcher sets it from the call's configuration).
  KernelFamily family = KernelFamily::kConstantTime;
};

// Lazily initialises the runtime (never at provider load; again in a child
// after fork()). True when a usable device exists and the GPU was not disabled.
bool usable();

// Runs the job on the GPU(s) and returns how many leading blocks of `out`
// now hold the correct result: nblocks on success, fewer when a CUDA error
// (allocation, copy, launch, sync) stopped the work. Blocks past the returned
// count are untouched — with in == out they still hold the input — so the
// caller finishes them on the CPU: blocks [done, nblocks), and for CTR the
// counter ctr + done. Repeated failures disable the GPU for the process with
// one warning on stderr. Safe to call from several threads (jobs serialise).
size_t run_blocks(const Job& job);

// All or nothing: true when `out` holds the whole result; on false the caller
// recomputes the whole job on the CPU from `in`. With in != out a correct
// prefix may already be in `out` (harmless: it is overwritten with the same
// bytes); with in == out that prefix is turned back into the input before
// returning (on the CPU, slowly: prefer run_blocks, which never needs it).
bool run(const Job& job);

// Minimum job size in bytes where the GPU pays off: the override when one is
// set, else measured on first use (copy bandwidth and kernel throughput);
// SIZE_MAX when unusable.
size_t min_bytes();
// Configuration override for min_bytes() (`gpu_min_bytes` /
// GPUCRYPTO_GPU_MIN_BYTES); 0 goes back to the measured value.
void set_min_bytes(size_t bytes);

// What the first-use measurement found (zeros before it ran or without GPU).
struct Calibration {
  double latency_us;         // fixed cost of one job (launch + sync)
  double bytes_per_second;   // end-to-end throughput of a large job
};
Calibration calibration();

// The CTR transfer calibration of one cipher and family: fixed cost and
// throughput of each mode, and the size from which keystream mode's higher
// throughput wins (0: from the start; SIZE_MAX: it has none). measured is false before the first CTR job of
// that cipher and family, and on the emulated device.
struct CtrCalibration {
  bool measured;
  double ship_latency_us, ship_bytes_per_second;
  double keystream_latency_us, keystream_bytes_per_second;
  size_t keystream_from_bytes;
};
CtrCalibration ctr_calibration(Cipher c, KernelFamily f);

// The mode the model of a calibration picks for a job of `bytes`: the one with
// the smaller latency + bytes / throughput (ties: ship).
CtrTransfer ctr_pick(const CtrCalibration& cal, size_t bytes);

// One line for diagnostics: "none (no CUDA driver)", "1 x NVIDIA H200 (sm_90)",
// "emulated on the CPU (test aid, not a GPU)", ...
std::string describe();

// Frees streams, pinned buffers and device memory (provider teardown). The
// next call initialises again. Nothing is freed at process exit otherwise:
// by then the statically linked CUDA runtime may already be torn down.
void shutdown();

// Counters for diagnostics and tests.
struct Stats {
  uint64_t jobs;           // run_blocks calls that reached a device
  uint64_t failed_jobs;    // of those, how many stopped on an error
  uint64_t warnings;       // "GPU disabled" warnings printed (0 or 1 per init)
  bool disabled;           // disabled after repeated errors
  bool emulated;           // the device is the host grid emulator (test aid)
  uint64_t table_jobs;     // of the cipher jobs, how many ran the table kernels
};
Stats stats();

// Test aids. The fault-injection switch is the environment variable
// GPUCRYPTO_GPU_FAULT, read at (re)initialisation:
//   GPUCRYPTO_GPU_FAULT = item[,item...]
//   item = emulate[:D]            use D (default 1) emulated devices: the
//                                 runtime's copies and launches run on the
//                                 host grid emulator instead of CUDA;
//        | alloc|h2d|launch|d2h|sync[:N]
//                                 make that step fail, the first N times
//                                 (default: every time);
//        | alloc|h2d|launch|d2h|sync@N
//                                 make only the N-th call of that step fail.
// A malformed value disables the GPU with a message on stderr.
// Never set it in production: an emulated device computes on the CPU, slowly.
namespace testing {
// Forgets all state and initialises again on the next call (re-reads the
// environment).
void reset();
// Bytes per pipeline chunk (default 8 MiB); small values exercise chunking
// and stream reuse with small buffers.
void set_chunk_bytes(size_t bytes);
// Forces a CTR transfer mode (kAuto: back to the calibrated choice). Also
// the environment variable GPUCRYPTO_GPU_CTR_TRANSFER = auto | ship |
// keystream, read at (re)initialisation (gpu/check.sh measures both modes).
void set_ctr_transfer(CtrTransfer t);
// The mode the last CTR job ran with (kAuto before any).
CtrTransfer last_ctr_transfer();
// Runs the first-use CTR calibration for (c, f) now, on whatever device is
// there (the emulated one too), and returns it.
CtrCalibration calibrate_ctr_now(Cipher c, KernelFamily f);
// Whether the device's staging buffers are all zero (true without a device).
bool staging_clear();
}  // namespace testing

}  // namespace gpucrypto::gpu
