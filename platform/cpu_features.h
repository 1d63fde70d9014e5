// Runtime CPU feature detection, in one place. Every SIMD path is chosen from
// these bits; the `backend` setting (GPUCRYPTO_BACKEND) caps them
// (ref < avx2 < avx512), per provider instance.
#pragma once
#include <cstdint>
#include <string>

namespace gpucrypto {

enum CpuFeature : uint32_t {
  kSSSE3 = 1u << 0,
  kSSE41 = 1u << 1,
  kAESNI = 1u << 2,
  kPCLMUL = 1u << 3,
  kAVX2 = 1u << 4,      // with OS ymm state enabled
  kBMI2 = 1u << 5,
  kAVX512F = 1u << 6,   // with OS zmm state enabled
  kAVX512BW = 1u << 7,
  kAVX512VL = 1u << 8,
  kAVX512DQ = 1u << 9,
  kAVX512VBMI = 1u << 10,
  kVAES = 1u << 11,     // VEX/EVEX AES on ymm/zmm
  kGFNI = 1u << 12,
  kVPCLMUL = 1u << 13,
  kADX = 1u << 14,      // ADCX/ADOX (with kBMI2's MULX: P-384 field multiplication)
};

// The AVX-512 family, masked off by the "avx2" backend cap.
inline constexpr uint32_t kAVX512Family =
    kAVX512F | kAVX512BW | kAVX512VL | kAVX512DQ | kAVX512VBMI;
// Everything above plain x86-64, masked off by the "ref" backend cap.
inline constexpr uint32_t kAllFeatures = 0x7fffu;
// What portable code needs: nothing beyond x86-64 (the references' `required`).
inline constexpr uint32_t kBaseline = 0;

// What the CPU and OS support, read once (cpuid + xgetbv).
uint32_t cpu_features_detected();

// Backend caps, as named by GPUCRYPTO_BACKEND / the `backend` config key.
enum class Backend { kAuto, kRef, kAVX2, kAVX512, kCUDA };
// Parses "auto|ref|avx2|avx512|cuda"; false for anything else.
bool parse_backend(const std::string& s, Backend* out);
const char* backend_name(Backend b);
// Feature mask allowed under a backend cap.
uint32_t backend_feature_mask(Backend b);

// "avx512f avx512bw ... gfni vaes" for diagnostics.
std::string cpu_features_string(uint32_t features);

}  // namespace gpucrypto
