// The registered EVP ciphers: one row per block cipher, registered in every
// mode of the generic layer (kModes; CFB1/CFB8 only where the row says so, as
// the default provider has them only for AES). Names, aliases and OIDs follow
// the default provider where it has the algorithm (README "Algorithms").
#include "provider/cipher_table.h"

#include <openssl/core_dispatch.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "ciphers/rectangle/rectangle.h"
#include "ciphers/rijndael/rijndael.h"
#include "ciphers/skinny/skinny.h"
#include "ciphers/sm4/sm4.h"
#include "provider/cipher_generic.h"

namespace gpucrypto {
namespace {

using GC = gpu::Cipher;

template <unsigned B, unsigned K>
const CipherAlgo& rijndael_algo() { return rijndael(B, K); }

struct CipherRow {
  const char* name;         // "SKINNY-128-256": registered as "<name>-<MODE>"
  const char* alias;        // "SKINNY-256": also "<alias>-<MODE>"; or nullptr
  const char* description;  // "<description>, <MODE> mode"
  const CipherAlgo& (*algo)();
  std::optional<gpu::Cipher> gpu;
  // Per mode (kModes order: ECB, CTR, CBC, CFB, OFB, CFB1, CFB8): further
  // names, ':'-separated (aliases, the OID); nullptr for none.
  std::array<const char*, kModeCount> extra_names;
  bool bit_modes = false;  // also CFB1 and CFB8
};

constexpr CipherRow kRows[] = {
    {"SKINNY-128-256", "SKINNY-256", "SKINNY-128-256 (48 rounds)", skinny128_256, GC::kSkinny128_256, {}},
    {"SKINNY-128-384", nullptr, "SKINNY-128-384 (56 rounds)", skinny128_384, GC::kSkinny128_384, {}},
    {"SM4", nullptr, "SM4 (GB/T 32907)", sm4, GC::kSM4,
     {"1.2.156.10197.1.104.1", "1.2.156.10197.1.104.7", "SM4:1.2.156.10197.1.104.2",
      "SM4-CFB128:1.2.156.10197.1.104.4", "SM4-OFB128:1.2.156.10197.1.104.3"}},
    {"RECTANGLE-80", nullptr, "RECTANGLE-80 (64-bit block and counter)", rectangle80, GC::kRectangle80, {}},
    {"RECTANGLE-128", nullptr, "RECTANGLE-128 (64-bit block and counter)", rectangle128, GC::kRectangle128, {}},
    {"AES-128", nullptr, "AES-128", rijndael_algo<128, 128>, GC::kAES128,
     {"2.16.840.1.101.3.4.1.1", nullptr, "AES128:2.16.840.1.101.3.4.1.2", "2.16.840.1.101.3.4.1.4",
      "2.16.840.1.101.3.4.1.3"}, true},
    {"AES-192", nullptr, "AES-192", rijndael_algo<128, 192>, GC::kAES192,
     {"2.16.840.1.101.3.4.1.21", nullptr, "AES192:2.16.840.1.101.3.4.1.22",
      "2.16.840.1.101.3.4.1.24", "2.16.840.1.101.3.4.1.23"}, true},
    {"AES-256", nullptr, "AES-256", rijndael_algo<128, 256>, GC::kAES256,
     {"2.16.840.1.101.3.4.1.41", nullptr, "AES256:2.16.840.1.101.3.4.1.42",
      "2.16.840.1.101.3.4.1.44", "2.16.840.1.101.3.4.1.43"}, true},
    {"RIJNDAEL-192-128", nullptr, "Rijndael, 192-bit block, 128-bit key", rijndael_algo<192, 128>, std::nullopt, {}},
    {"RIJNDAEL-192-192", nullptr, "Rijndael, 192-bit block, 192-bit key", rijndael_algo<192, 192>, std::nullopt, {}},
    {"RIJNDAEL-192-256", nullptr, "Rijndael, 192-bit block, 256-bit key", rijndael_algo<192, 256>, std::nullopt, {}},
    {"RIJNDAEL-256-128", nullptr, "Rijndael, 256-bit block, 128-bit key", rijndael_algo<256, 128>, std::nullopt, {}},
    {"RIJNDAEL-256-192", nullptr, "Rijndael, 256-bit block, 192-bit key", rijndael_algo<256, 192>, std::nullopt, {}},
    {"RIJNDAEL-256-256", nullptr, "Rijndael, 256-bit block, 256-bit key", rijndael_algo<256, 256>, std::nullopt, {}},
};

constexpr size_t kCount = std::size(kRows) * kModeCount;

// Descriptor I is row I / kModeCount in mode I % kModeCount.
constexpr auto kDescs = [] {
  std::array<CipherDesc, kCount> d{};
  for (size_t i = 0; i < kCount; ++i) {
    const CipherRow& r = kRows[i / kModeCount];
    d[i] = {r.algo, kModes[i % kModeCount], r.gpu};
  }
  return d;
}();

// OpenSSL's newctx/get_params carry no algorithm argument, so each descriptor
// gets its own pair, bound to it at compile time.
template <size_t I>
void* newctx(void* provctx) { return cipher_newctx(provctx, &kDescs[I]); }
template <size_t I>
int get_params(OSSL_PARAM params[]) { return cipher_get_params(&kDescs[I], params); }

struct Bound {
  OSSL_FUNC_cipher_newctx_fn* newctx;
  OSSL_FUNC_cipher_get_params_fn* get_params;
};
template <size_t... I>
constexpr std::array<Bound, kCount> bound_functions(std::index_sequence<I...>) {
  return {Bound{&newctx<I>, &get_params<I>}...};
}
constexpr auto kBound = bound_functions(std::make_index_sequence<kCount>{});

// "<name>-<MODE>[:<alias>-<MODE>][:<extra>]". Built with append (GCC 12's
// -O3 -Wrestrict misfires on operator+ chains of std::string).
std::string names_of(const CipherRow& r, size_t mode) {
  const char* suffix = mode_suffix(kModes[mode]);
  std::string n;
  n.append(r.name).append("-").append(suffix);
  if (r.alias != nullptr) n.append(":").append(r.alias).append("-").append(suffix);
  if (r.extra_names[mode] != nullptr) n.append(":").append(r.extra_names[mode]);
  return n;
}

struct Registered {
  std::array<std::string, kCount> names, descriptions;
  std::array<std::vector<OSSL_DISPATCH>, kCount> functions;
  std::array<OSSL_ALGORITHM, kCount + 1> table{};

  Registered() {
    size_t n = 0;  // table rows filled (descriptors of unregistered modes are skipped)
    for (size_t i = 0; i < kCount; ++i) {
      const CipherRow& r = kRows[i / kModeCount];
      const size_t mode = i % kModeCount;
      if (bit_segment_mode(kModes[mode]) && !r.bit_modes) continue;
      names[i] = names_of(r, mode);
      descriptions[i].append(r.description).append(", ").append(mode_suffix(kModes[mode])).append(" mode");
      using Fn = void (*)();
      functions[i] = {{OSSL_FUNC_CIPHER_NEWCTX, reinterpret_cast<Fn>(kBound[i].newctx)},
                      {OSSL_FUNC_CIPHER_GET_PARAMS, reinterpret_cast<Fn>(kBound[i].get_params)}};
      for (const OSSL_DISPATCH* f = kCipherCommonFunctions; f->function_id != 0; ++f) {
        if (f->function_id == OSSL_FUNC_CIPHER_UPDATE)
          functions[i].push_back({f->function_id, reinterpret_cast<Fn>(cipher_update_fn(kModes[mode]))});
        else
          functions[i].push_back(*f);
      }
      functions[i].push_back({0, nullptr});
      table[n++] = {names[i].c_str(), "provider=gpucrypto", functions[i].data(),
                    descriptions[i].c_str()};
    }
    table[n] = {nullptr, nullptr, nullptr, nullptr};
  }
};

}  // namespace

const OSSL_ALGORITHM* cipher_algorithms() {
  static const Registered kRegistered;
  return kRegistered.table.data();
}

}  // namespace gpucrypto
