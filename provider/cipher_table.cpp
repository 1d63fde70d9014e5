// The registered EVP ciphers: every row of engine/cipher_registry.h in every
// mode of the generic layer (kModes; CFB1/CFB8 only where the row says so, as
// the default provider has them only for AES), and in GCM where the row has
// it (cipher_gcm.cpp), both through the same binding and table code.
#include "provider/cipher_table.h"

#include <openssl/core_dispatch.h>

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "engine/cipher_registry.h"
#include "provider/cipher_gcm.h"
#include "provider/cipher_generic.h"

namespace gpucrypto {
namespace {

constexpr std::span<const CipherRow> kRows = cipher_rows();
constexpr size_t kBlockCount = kRows.size() * kModeCount;

// Block-mode descriptor I is row I / kModeCount in mode I % kModeCount.
constexpr auto kBlockDescs = [] {
  std::array<CipherDesc, kBlockCount> d{};
  for (size_t i = 0; i < kBlockCount; ++i) {
    const CipherRow& r = kRows[i / kModeCount];
    d[i] = {r.algo, kModes[i % kModeCount], r.gpu};
  }
  return d;
}();

// The rows with GCM (CipherRow::gcm_names), in registry order.
constexpr size_t kGcmCount = [] {
  size_t n = 0;
  for (const CipherRow& r : kRows) n += r.gcm_names != nullptr;
  return n;
}();
constexpr auto kGcmRows = [] {
  std::array<const CipherRow*, kGcmCount> d{};
  size_t i = 0;
  for (const CipherRow& r : kRows)
    if (r.gcm_names != nullptr) d[i++] = &r;
  return d;
}();
constexpr auto kGcmDescs = [] {
  std::array<GcmDesc, kGcmCount> d{};
  for (size_t i = 0; i < kGcmCount; ++i) d[i] = {kGcmRows[i]->algo};
  return d;
}();

// OpenSSL's newctx/get_params carry no algorithm argument, so each descriptor
// gets its own pair, bound to it at compile time: Bind<kDescs, newctx, get>.
struct Bound {
  OSSL_FUNC_cipher_newctx_fn* newctx;
  OSSL_FUNC_cipher_get_params_fn* get_params;
};
template <const auto& kDescs, auto NewCtx, auto GetParams>
struct Bind {
  template <size_t I>
  static void* newctx(void* provctx) { return NewCtx(provctx, &kDescs[I]); }
  template <size_t I>
  static int get_params(OSSL_PARAM params[]) { return GetParams(&kDescs[I], params); }
  template <size_t... I>
  static constexpr std::array<Bound, sizeof...(I)> all(std::index_sequence<I...>) {
    return {Bound{&newctx<I>, &get_params<I>}...};
  }
  static constexpr auto kBound = all(std::make_index_sequence<std::size(kDescs)>{});
};
constexpr const auto& kBlockBound = Bind<kBlockDescs, cipher_newctx, cipher_get_params>::kBound;
constexpr const auto& kGcmBound = Bind<kGcmDescs, gcm_newctx, gcm_get_params>::kBound;

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
  static constexpr size_t kMax = kBlockCount + kGcmCount;
  std::array<std::string, kMax> names, descriptions;
  std::array<std::vector<OSSL_DISPATCH>, kMax> functions;
  std::array<OSSL_ALGORITHM, kMax + 1> table{};
  size_t n = 0;  // table rows filled (descriptors of unregistered modes are skipped)

  // One table row: the bound pair, then `common` with its update replaced
  // by `update` when given.
  void add(std::string name, std::string description, const Bound& b, const OSSL_DISPATCH* common,
           CipherUpdateFn update) {
    using Fn = void (*)();
    names[n] = std::move(name);
    descriptions[n] = std::move(description);
    std::vector<OSSL_DISPATCH>& f = functions[n];
    f = {{OSSL_FUNC_CIPHER_NEWCTX, reinterpret_cast<Fn>(b.newctx)},
         {OSSL_FUNC_CIPHER_GET_PARAMS, reinterpret_cast<Fn>(b.get_params)}};
    for (const OSSL_DISPATCH* c = common; c->function_id != 0; ++c) {
      if (c->function_id == OSSL_FUNC_CIPHER_UPDATE && update != nullptr)
        f.push_back({c->function_id, reinterpret_cast<Fn>(update)});
      else
        f.push_back(*c);
    }
    f.push_back({0, nullptr});
    table[n] = {names[n].c_str(), "provider=gpucrypto", f.data(), descriptions[n].c_str()};
    ++n;
  }

  Registered() {
    for (size_t i = 0; i < kBlockCount; ++i) {
      const CipherRow& r = kRows[i / kModeCount];
      const size_t mode = i % kModeCount;
      if (!r.has(kModes[mode])) continue;
      std::string d;
      d.append(r.description).append(", ").append(mode_suffix(kModes[mode])).append(" mode");
      add(names_of(r, mode), std::move(d), kBlockBound[i], kCipherCommonFunctions,
          cipher_update_fn(kModes[mode]));
    }
    for (size_t i = 0; i < kGcmCount; ++i)
      add(kGcmRows[i]->gcm_names, kGcmRows[i]->gcm_description, kGcmBound[i], kGcmCommonFunctions, nullptr);
    table[n] = {nullptr, nullptr, nullptr, nullptr};
  }
};

}  // namespace

const OSSL_ALGORITHM* cipher_algorithms() {
  static const Registered kRegistered;
  return kRegistered.table.data();
}

}  // namespace gpucrypto
