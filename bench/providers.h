// Library contexts: one per (back end, threads, mt_min_bytes) combination of
// our provider, each loaded from its own temporary openssl.cnf, plus one with
// only the default provider. All live in this process, so every row of a
// table comes from the same run.
#pragma once
#include <openssl/types.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpucrypto::bench {

// The gpucrypto provider section keys we set; unset keys keep the
// provider's own defaults.
struct ProvSettings {
  std::string backend = "auto";
  std::optional<int> threads;
  std::optional<size_t> mt_min_bytes;

  std::string key() const;  // "avx2/t1/mt-" - unique per combination
  std::string config_lines() const;
};

class LibCtx {
 public:
  explicit LibCtx(OSSL_LIB_CTX* ctx) : ctx_(ctx) {}
  ~LibCtx();
  LibCtx(const LibCtx&) = delete;
  LibCtx& operator=(const LibCtx&) = delete;
  OSSL_LIB_CTX* get() const { return ctx_; }

 private:
  OSSL_LIB_CTX* ctx_;
};

// Creates contexts on first use and keeps them for the whole run.
class ContextCache {
 public:
  explicit ContextCache(std::string module_path) : module_path_(std::move(module_path)) {}
  // A context with the default provider and gpucrypto configured as `s`.
  // Throws std::runtime_error (with OpenSSL's error queue) when loading fails.
  OSSL_LIB_CTX* gpucrypto(const ProvSettings& s);
  // A context with only the default provider.
  OSSL_LIB_CTX* default_only();
  const std::string& module_path() const { return module_path_; }

 private:
  std::string module_path_;
  std::map<std::string, std::unique_ptr<LibCtx>> ctxs_;
  std::unique_ptr<LibCtx> default_;
};

// ECB and CTR ciphers a provider offers in `ctx`, by canonical name, sorted
// for display (family, then sizes numerically, ECB before CTR).
std::vector<std::string> provider_ciphers(OSSL_LIB_CTX* ctx, const std::string& provider);

// Display order of two cipher names (see provider_ciphers).
bool cipher_name_less(const std::string& a, const std::string& b);

// The provider's "buildinfo" parameter (version, CPU features, config), or
// an empty string.
std::string provider_buildinfo(OSSL_LIB_CTX* ctx, const std::string& provider);

// Drains OpenSSL's error queue into one string.
std::string openssl_errors();

}  // namespace gpucrypto::bench
