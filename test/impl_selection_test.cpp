// Which implementation each algorithm runs under each backend cap. The SIMD
// files derive their CipherHw::required from their compiler flags
// (platform/isa.h compiled_features()), which adds implied bits (-mavx512f
// defines __AVX2__, ...); this pins the selection to what the hand-written
// requirement bits chose before, on this CPU and on typical others.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"
#include "kem/babykyber/batch_impl.h"
#include "kem/mlkem/mlkem_impl.h"
#include "platform/cpu_features.h"

namespace gpucrypto {
namespace {

// An implementation and the feature bits it was selected by before they came
// from the compiler flags (the old impls.cpp tables).
struct Legacy {
  const char* name;
  uint32_t required;
};

constexpr uint32_t kVaes512 = kAVX512F | kAVX512BW | kAVX512VL | kVAES | kAESNI;
constexpr uint32_t kAesni = kAESNI | kSSSE3 | kSSE41;

struct Case {
  const CipherAlgo& algo;
  std::vector<Legacy> legacy;  // best first; "ref" (0) last
};

std::vector<Case> cases() {
  const std::vector<Legacy> rect = {{"avx512", kAVX512F | kAVX512BW | kAVX512VBMI}, {"avx2", kAVX2}, {"ref", 0}};
  const std::vector<Legacy> skinny = {{"avx512-gfni", kAVX512F | kAVX512BW | kAVX512VL | kGFNI},
                                      {"avx512", kAVX512F | kAVX512BW},
                                      {"avx2", kAVX2},
                                      {"ref", 0}};
  const std::vector<Legacy> sm4_impls = {{"avx512-gfni", kAVX512F | kAVX512BW | kAVX512VL | kGFNI},
                                         {"avx2-gfni", kAVX2 | kGFNI},
                                         {"avx2-aesni", kAVX2 | kAESNI},
                                         {"ref", 0}};
  const std::vector<Legacy> aes = {{"vaes512", kVaes512}, {"aesni", kAesni}, {"ref", 0}};
  const std::vector<Legacy> wide = {{"vaes512", kVaes512 | kAVX512VBMI}, {"aesni", kAesni}, {"ref", 0}};
  std::vector<Case> c = {{skinny128_256(), skinny}, {skinny128_384(), skinny}, {sm4(), sm4_impls},
                         {rectangle80(), rect},     {rectangle128(), rect}};
  for (unsigned k : {128u, 192u, 256u}) {
    c.push_back({rijndael(128, k), aes});
    c.push_back({rijndael(192, k), wide});
    c.push_back({rijndael(256, k), wide});
  }
  return c;
}

const char* legacy_choice(const std::vector<Legacy>& impls, uint32_t features) {
  for (const Legacy& l : impls) {
    if ((l.required & ~features) == 0) return l.name;
  }
  return "ref";
}

// Feature sets to check: this CPU, and typical CPUs, each under every cap.
std::vector<std::pair<std::string, uint32_t>> feature_sets() {
  const uint32_t base = kSSSE3 | kSSE41 | kAESNI | kPCLMUL;
  const uint32_t haswell = base | kAVX2 | kBMI2;
  const uint32_t zen3 = haswell | kVAES | kVPCLMUL;
  const uint32_t skylake_x = haswell | kAVX512F | kAVX512BW | kAVX512VL | kAVX512DQ;
  const uint32_t ice_lake = skylake_x | kAVX512VBMI | kVAES | kGFNI | kVPCLMUL;
  const uint32_t alder_lake = haswell | kVAES | kGFNI | kVPCLMUL;  // AVX2 + GFNI, no AVX-512
  const std::pair<std::string, uint32_t> cpus[] = {
      {"detected", cpu_features_detected()}, {"none", 0},          {"westmere", base},
      {"haswell", haswell},                  {"zen3", zen3},       {"skylake-x", skylake_x},
      {"ice-lake", ice_lake},                {"alder-lake", alder_lake}};
  std::vector<std::pair<std::string, uint32_t>> out;
  for (const auto& [cpu, f] : cpus) {
    for (Backend b : {Backend::kRef, Backend::kAVX2, Backend::kAVX512, Backend::kAuto}) {
      out.push_back({cpu + "/" + backend_name(b), f & backend_feature_mask(b)});
    }
  }
  return out;
}

TEST(ImplSelection, CiphersChooseAsBefore) {
  for (const Case& c : cases()) {
    ASSERT_EQ(c.algo.impls.size(), c.legacy.size()) << c.algo.name;
    for (size_t i = 0; i < c.legacy.size(); ++i) {
      EXPECT_STREQ(c.algo.impls[i]->name, c.legacy[i].name) << c.algo.name;
    }
    for (const auto& [label, f] : feature_sets()) {
      EXPECT_STREQ(select_hw(c.algo, f).name, legacy_choice(c.legacy, f)) << c.algo.name << " " << label;
    }
  }
}

// The names on a CPU with everything (this machine: Zen 4), per cap.
TEST(ImplSelection, FullCpuNames) {
  const uint32_t all = kAllFeatures;
  const uint32_t avx2 = all & backend_feature_mask(Backend::kAVX2);
  EXPECT_STREQ(select_hw(sm4(), all).name, "avx512-gfni");
  EXPECT_STREQ(select_hw(sm4(), avx2).name, "avx2-gfni");
  EXPECT_STREQ(select_hw(sm4(), avx2 & ~kGFNI).name, "avx2-aesni");
  EXPECT_STREQ(select_hw(sm4(), 0).name, "ref");
  for (unsigned b : {128u, 192u, 256u}) {
    EXPECT_STREQ(select_hw(rijndael(b, 128), all).name, "vaes512");
    EXPECT_STREQ(select_hw(rijndael(b, 128), avx2).name, "aesni");
    EXPECT_STREQ(select_hw(rijndael(b, 128), 0).name, "ref");
  }
  EXPECT_STREQ(select_hw(skinny128_256(), all).name, "avx512-gfni");
  EXPECT_STREQ(select_hw(skinny128_256(), all & ~kGFNI).name, "avx512");
  for (const CipherAlgo* a : {&skinny128_256(), &rectangle80()}) {
    if (a != &skinny128_256()) {
      EXPECT_STREQ(select_hw(*a, all).name, "avx512");
    }
    EXPECT_STREQ(select_hw(*a, avx2).name, "avx2");
    EXPECT_STREQ(select_hw(*a, 0).name, "ref");
  }
}

TEST(ImplSelection, KemBatchesChooseAsBefore) {
  const std::vector<Legacy> baby = {{"avx512", kAVX512F}, {"avx2", kAVX2}, {"ref", 0}};
  const std::vector<Legacy> mlkem = {{"avx512", kAVX512F | kAVX512VL | kAVX512BW}, {"avx2", kAVX2}, {"ref", 0}};
  for (const auto& [label, f] : feature_sets()) {
    EXPECT_STREQ(kem::pke_batch_select(f).name, legacy_choice(baby, f)) << label;
    EXPECT_STREQ(kem::mlkem::select(f).name, legacy_choice(mlkem, f)) << label;
  }
}

}  // namespace
}  // namespace gpucrypto
