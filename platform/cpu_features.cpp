#include "platform/cpu_features.h"

#include <cpuid.h>

namespace gpucrypto {
namespace {

uint64_t read_xcr0() {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (uint64_t(edx) << 32) | eax;
}

uint32_t detect() {
  uint32_t f = 0;
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const bool osxsave = c & (1u << 27);
  if (c & (1u << 9)) f |= kSSSE3;
  if (c & (1u << 19)) f |= kSSE41;
  if (c & (1u << 25)) f |= kAESNI;
  if (c & (1u << 1)) f |= kPCLMUL;
  const uint64_t xcr0 = osxsave ? read_xcr0() : 0;
  const bool ymm = (xcr0 & 0x6) == 0x6;
  const bool zmm = (xcr0 & 0xe6) == 0xe6;
  if (__get_cpuid_max(0, nullptr) < 7) return f;
  __cpuid_count(7, 0, a, b, c, d);
  if (ymm && (b & (1u << 5))) f |= kAVX2;
  if (b & (1u << 8)) f |= kBMI2;
  if (b & (1u << 19)) f |= kADX;
  if (zmm && (b & (1u << 16))) {
    f |= kAVX512F;
    if (b & (1u << 30)) f |= kAVX512BW;
    if (b & (1u << 31)) f |= kAVX512VL;
    if (b & (1u << 17)) f |= kAVX512DQ;
    if (c & (1u << 1)) f |= kAVX512VBMI;
  }
  if (ymm && (c & (1u << 9))) f |= kVAES;
  if (c & (1u << 8)) f |= kGFNI;
  if (ymm && (c & (1u << 10))) f |= kVPCLMUL;
  return f;
}

}  // namespace

uint32_t cpu_features_detected() {
  static const uint32_t f = detect();
  return f;
}

bool parse_backend(const std::string& s, Backend* out) {
  static const struct { const char* name; Backend b; } kNames[] = {
      {"auto", Backend::kAuto}, {"ref", Backend::kRef}, {"avx2", Backend::kAVX2},
      {"avx512", Backend::kAVX512}, {"cuda", Backend::kCUDA}};
  for (const auto& n : kNames) {
    if (s == n.name) {
      *out = n.b;
      return true;
    }
  }
  return false;
}

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::kRef: return "ref";
    case Backend::kAVX2: return "avx2";
    case Backend::kAVX512: return "avx512";
    case Backend::kCUDA: return "cuda";
    case Backend::kAuto: break;
  }
  return "auto";
}

uint32_t backend_feature_mask(Backend b) {
  switch (b) {
    case Backend::kRef: return 0;
    case Backend::kAVX2: return kAllFeatures & ~kAVX512Family;
    default: return kAllFeatures;
  }
}

std::string cpu_features_string(uint32_t f) {
  static const struct { uint32_t bit; const char* name; } kNames[] = {
      {kSSSE3, "ssse3"},       {kSSE41, "sse4.1"},     {kAESNI, "aes-ni"},
      {kPCLMUL, "pclmul"},     {kAVX2, "avx2"},        {kBMI2, "bmi2"},
      {kAVX512F, "avx512f"},   {kAVX512BW, "avx512bw"}, {kAVX512VL, "avx512vl"},
      {kAVX512DQ, "avx512dq"}, {kAVX512VBMI, "avx512vbmi"}, {kVAES, "vaes"},
      {kGFNI, "gfni"},         {kVPCLMUL, "vpclmulqdq"}, {kADX, "adx"}};
  std::string s;
  for (const auto& n : kNames) {
    if (f & n.bit) {
      if (!s.empty()) s += ' ';
      s += n.name;
    }
  }
  return s.empty() ? "none" : s;
}

}  // namespace gpucrypto
