// The block ciphers gpucrypto serves: one row each, the one list that the
// provider's algorithm tables (provider/cipher_table.cpp, cipher_gcm.cpp),
// the tests, the constant-time harnesses, the fuzzers and the benchmarks
// iterate. Adding a cipher = its folder under ciphers/ (hooks, implementations
// best first), its row here, its vector file in test/vectors/ (docs/
// ARCHITECTURE.md, "How to add a cipher").
//
// Names, aliases and OIDs follow OpenSSL's default provider where it has the
// algorithm (README "Algorithms"). Header only and constexpr: the provider
// binds one newctx/get_params pair per row and mode at compile time.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ciphers/block_cipher.h"
#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"
#include "gpu/gpu_backend.h"

namespace gpucrypto {

// The modes of the generic layer. Every row is registered in each of them,
// except the bit-segment CFB modes, which (as in OpenSSL's default provider)
// only AES has (CipherRow::bit_modes). GCM is a row's option (gcm_names).
enum class Mode { kECB, kCTR, kCBC, kCFB, kOFB, kCFB1, kCFB8 };
inline constexpr Mode kModes[] = {Mode::kECB, Mode::kCTR,  Mode::kCBC, Mode::kCFB,
                                  Mode::kOFB, Mode::kCFB1, Mode::kCFB8};
inline constexpr size_t kModeCount = std::size(kModes);

// "ECB", "CTR", "CBC", "CFB", "OFB", "CFB1", "CFB8": the suffix of the
// registered names.
constexpr const char* mode_suffix(Mode m) {
  switch (m) {
    case Mode::kECB: return "ECB";
    case Mode::kCTR: return "CTR";
    case Mode::kCBC: return "CBC";
    case Mode::kCFB: return "CFB";
    case Mode::kOFB: return "OFB";
    case Mode::kCFB1: return "CFB1";
    case Mode::kCFB8: return "CFB8";
  }
  return "?";
}
constexpr bool bit_segment_mode(Mode m) { return m == Mode::kCFB1 || m == Mode::kCFB8; }
// The mode whose registered suffix is `s` ("CBC"), if any.
inline std::optional<Mode> mode_of_suffix(std::string_view s) {
  for (Mode m : kModes)
    if (s == mode_suffix(m)) return m;
  return std::nullopt;
}

struct CipherRow {
  const char* name;         // "SKINNY-128-256" = algo().name: registered as "<name>-<MODE>"
  const char* alias;        // "SKINNY-256": also "<alias>-<MODE>"; or nullptr
  const char* description;  // "<description>, <MODE> mode"
  const CipherAlgo& (*algo)();  // hooks and implementations (algo().impls, best first)
  std::optional<gpu::Cipher> gpu;  // its CUDA kernel, if there is one
  // Per mode (kModes order): further names, ':'-separated (aliases, the OID);
  // nullptr for none.
  std::array<const char*, kModeCount> extra_names;
  bool bit_modes;           // also CFB1 and CFB8
  bool in_default;          // OpenSSL's default provider has it (differential tests, bench)
  const char* vectors;      // its known answers in test/vectors/
  // GCM: the registered names ("AES-128-GCM:id-aes128-GCM:<OID>") and
  // description, or nullptr where the row has no GCM.
  const char* gcm_names = nullptr;
  const char* gcm_description = nullptr;

  // Whether the row is registered in mode m.
  constexpr bool has(Mode m) const { return !bit_segment_mode(m) || bit_modes; }
  // "<name>-<MODE>": the EVP name tests and bench fetch.
  std::string evp_name(Mode m) const { return std::string(name) + "-" + mode_suffix(m); }
};

namespace registry_detail {
template <unsigned B, unsigned K>
const CipherAlgo& rijndael_algo() { return rijndael(B, K); }
using GC = gpu::Cipher;
// Wide-block Rijndael: no GPU kernel, no counterpart in the default provider.
template <unsigned B, unsigned K>
constexpr CipherRow wide_row(const char* name, const char* description) {
  return {name, nullptr, description, rijndael_algo<B, K>, std::nullopt, {}, false, false, "rijndael_wide.txt"};
}
}  // namespace registry_detail
using registry_detail::wide_row;

inline constexpr CipherRow kCipherRows[] = {
    {"SKINNY-128-256", "SKINNY-256", "SKINNY-128-256 (48 rounds)", skinny128_256,
     registry_detail::GC::kSkinny128_256, {}, false, false, "skinny.txt"},
    {"SKINNY-128-384", nullptr, "SKINNY-128-384 (56 rounds)", skinny128_384,
     registry_detail::GC::kSkinny128_384, {}, false, false, "skinny.txt"},
    {"SM4", nullptr, "SM4 (GB/T 32907)", sm4, registry_detail::GC::kSM4,
     {"1.2.156.10197.1.104.1", "1.2.156.10197.1.104.7", "SM4:1.2.156.10197.1.104.2",
      "SM4-CFB128:1.2.156.10197.1.104.4", "SM4-OFB128:1.2.156.10197.1.104.3"},
     false, true, "sm4.txt", "SM4-GCM:1.2.156.10197.1.104.8", "SM4 (GB/T 32907), GCM mode (RFC 8998)"},
    {"RECTANGLE-80", nullptr, "RECTANGLE-80 (64-bit block and counter)", rectangle80,
     registry_detail::GC::kRectangle80, {}, false, false, "rectangle.txt"},
    {"RECTANGLE-128", nullptr, "RECTANGLE-128 (64-bit block and counter)", rectangle128,
     registry_detail::GC::kRectangle128, {}, false, false, "rectangle.txt"},
    {"AES-128", nullptr, "AES-128", registry_detail::rijndael_algo<128, 128>, registry_detail::GC::kAES128,
     {"2.16.840.1.101.3.4.1.1", nullptr, "AES128:2.16.840.1.101.3.4.1.2", "2.16.840.1.101.3.4.1.4",
      "2.16.840.1.101.3.4.1.3"},
     true, true, "aes.txt", "AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", "AES-128, GCM mode"},
    {"AES-192", nullptr, "AES-192", registry_detail::rijndael_algo<128, 192>, registry_detail::GC::kAES192,
     {"2.16.840.1.101.3.4.1.21", nullptr, "AES192:2.16.840.1.101.3.4.1.22", "2.16.840.1.101.3.4.1.24",
      "2.16.840.1.101.3.4.1.23"},
     true, true, "aes.txt", "AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", "AES-192, GCM mode"},
    {"AES-256", nullptr, "AES-256", registry_detail::rijndael_algo<128, 256>, registry_detail::GC::kAES256,
     {"2.16.840.1.101.3.4.1.41", nullptr, "AES256:2.16.840.1.101.3.4.1.42", "2.16.840.1.101.3.4.1.44",
      "2.16.840.1.101.3.4.1.43"},
     true, true, "aes.txt", "AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", "AES-256, GCM mode"},
    wide_row<192, 128>("RIJNDAEL-192-128", "Rijndael, 192-bit block, 128-bit key"),
    wide_row<192, 192>("RIJNDAEL-192-192", "Rijndael, 192-bit block, 192-bit key"),
    wide_row<192, 256>("RIJNDAEL-192-256", "Rijndael, 192-bit block, 256-bit key"),
    wide_row<256, 128>("RIJNDAEL-256-128", "Rijndael, 256-bit block, 128-bit key"),
    wide_row<256, 192>("RIJNDAEL-256-192", "Rijndael, 256-bit block, 192-bit key"),
    wide_row<256, 256>("RIJNDAEL-256-256", "Rijndael, 256-bit block, 256-bit key"),
};

inline constexpr std::span<const CipherRow> cipher_rows() { return kCipherRows; }

// "<name>-<MODE>" of every row and registered mode for which want(row, mode)
// holds, rows in registry order, modes in kModes order.
template <class Want>
std::vector<std::string> evp_names(Want want) {
  std::vector<std::string> v;
  for (const CipherRow& r : kCipherRows)
    for (Mode m : kModes)
      if (r.has(m) && want(r, m)) v.push_back(r.evp_name(m));
  return v;
}

// The row with this name ("SM4") or EVP name ("SM4-CBC", "AES-128-GCM"), or
// nullptr.
inline const CipherRow* find_row(std::string_view name) {
  for (const CipherRow& r : kCipherRows) {
    const std::string_view n = r.name;
    if (name == n || (name.size() > n.size() + 1 && name.substr(0, n.size()) == n && name[n.size()] == '-' &&
                      name.find('-', n.size() + 1) == std::string_view::npos))
      return &r;
  }
  return nullptr;
}
// The row whose CUDA kernel is c (every gpu::Cipher has one).
inline const CipherRow& row_of(gpu::Cipher c) {
  for (const CipherRow& r : kCipherRows)
    if (r.gpu == c) return r;
  return kCipherRows[0];  // unreachable: every kernel has its row (cipher_registry_test)
}

}  // namespace gpucrypto
