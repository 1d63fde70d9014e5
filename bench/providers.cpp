#include "bench/providers.h"

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "bench/quote.h"
#include "engine/cipher_registry.h"

namespace gpucrypto::bench {
namespace {

// The modes in table order; a name's mode is what follows its last '-'.
const char* const kModeOrder[] = {"ECB", "CTR", "CBC", "CFB", "OFB", "CFB8", "CFB1"};

int mode_rank(const std::string& name) {
  const std::string m = name.substr(name.rfind('-') + 1);
  for (int i = 0; i < int(std::size(kModeOrder)); ++i)
    if (m == kModeOrder[i]) return i;
  return -1;
}

bool wanted_mode(const std::string& name) { return name.find('-') != std::string::npos && mode_rank(name) >= 0; }

struct Collect {
  const std::string* provider;
  std::vector<std::string>* names;
};

void collect_name(const char* name, void* arg) {
  auto* best = static_cast<std::string*>(arg);
  // Prefer the first dashed name with a mode suffix over OIDs and aliases.
  if (best->empty() && wanted_mode(name)) *best = name;
}

void collect_cipher(EVP_CIPHER* cipher, void* arg) {
  auto* c = static_cast<Collect*>(arg);
  const OSSL_PROVIDER* prov = EVP_CIPHER_get0_provider(cipher);
  if (prov == nullptr || *c->provider != OSSL_PROVIDER_get0_name(prov)) return;
  std::string name;
  if (const char* n = EVP_CIPHER_get0_name(cipher); n != nullptr && wanted_mode(n))
    name = n;
  else
    EVP_CIPHER_names_do_all(cipher, collect_name, &name);
  if (!name.empty()) c->names->push_back(name);
}

// The registry's row order (engine/cipher_registry.h); names it lacks last.
int family_rank(const std::string& name) {
  const gpucrypto::CipherRow* r = gpucrypto::find_row(name);
  return r != nullptr ? int(r - gpucrypto::cipher_rows().data()) : int(gpucrypto::cipher_rows().size());
}

// Splits "RIJNDAEL-192-128-CTR" into text and number tokens for a
// natural-order comparison (80 < 128).
std::vector<std::pair<std::string, long>> tokens(const std::string& s) {
  std::vector<std::pair<std::string, long>> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = i;
    if (s[i] >= '0' && s[i] <= '9') {
      while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
      out.emplace_back("", std::strtol(s.substr(i, j - i).c_str(), nullptr, 10));
    } else {
      while (j < s.size() && !(s[j] >= '0' && s[j] <= '9')) ++j;
      out.emplace_back(s.substr(i, j - i), -1);
    }
    i = j;
  }
  return out;
}

struct BuildInfo {
  const std::string* provider;
  std::string info;
};

int read_buildinfo(OSSL_PROVIDER* prov, void* arg) {
  auto* b = static_cast<BuildInfo*>(arg);
  if (*b->provider != OSSL_PROVIDER_get0_name(prov)) return 1;
  const char* info = nullptr;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO,
                                                       const_cast<char**>(&info), 0),
                         OSSL_PARAM_construct_end()};
  if (OSSL_PROVIDER_get_params(prov, params) == 1 && info != nullptr) b->info = info;
  return 0;
}

}  // namespace

std::string provider_buildinfo(OSSL_LIB_CTX* ctx, const std::string& provider) {
  BuildInfo b{&provider, {}};
  OSSL_PROVIDER_do_all(ctx, read_buildinfo, &b);
  return b.info;
}

std::string ProvSettings::key() const {
  return backend + "/t" + (threads ? std::to_string(*threads) : "-") + "/mt" +
         (mt_min_bytes ? std::to_string(*mt_min_bytes) : "-");
}

std::string ProvSettings::config_lines() const {
  std::string s = "backend = " + backend + "\n";
  if (threads) s += "threads = " + std::to_string(*threads) + "\n";
  if (mt_min_bytes) s += "mt_min_bytes = " + std::to_string(*mt_min_bytes) + "\n";
  return s;
}

LibCtx::~LibCtx() { OSSL_LIB_CTX_free(ctx_); }

std::string openssl_errors() {
  std::string s;
  char buf[512];
  for (unsigned long e; (e = ERR_get_error()) != 0;) {
    ERR_error_string_n(e, buf, sizeof buf);
    if (!s.empty()) s += "; ";
    s += buf;
  }
  return s.empty() ? "no OpenSSL error queued" : s;
}

OSSL_LIB_CTX* ContextCache::gpucrypto(const ProvSettings& settings) {
  auto& slot = ctxs_[settings.key()];
  if (slot) return slot->get();

  const char* tmpdir = std::getenv("TMPDIR");
  std::string path = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") +
                     "/gpucrypto-bench-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) throw std::runtime_error("cannot create a temporary config file in " + path);
  const std::string conf = "openssl_conf = conf\n[conf]\nproviders = prov\n[prov]\n"
                           "default = default_sect\ngpucrypto = gpu_sect\n"
                           "[default_sect]\nactivate = 1\n[gpu_sect]\nmodule = " +
                           quoted(module_path_) + "\nactivate = 1\n" + settings.config_lines();
  const bool written = write(fd, conf.data(), conf.size()) == ssize_t(conf.size());
  close(fd);

  auto ctx = std::make_unique<LibCtx>(OSSL_LIB_CTX_new());
  const bool loaded = written && ctx->get() != nullptr &&
                      OSSL_LIB_CTX_load_config(ctx->get(), path.c_str()) == 1 &&
                      OSSL_PROVIDER_available(ctx->get(), "gpucrypto") == 1;
  unlink(path.c_str());
  if (!loaded)
    throw std::runtime_error("cannot load " + module_path_ + " with " + settings.key() + ": " +
                             openssl_errors());
  slot = std::move(ctx);
  return slot->get();
}

OSSL_LIB_CTX* ContextCache::default_only() {
  if (!default_) {
    default_ = std::make_unique<LibCtx>(OSSL_LIB_CTX_new());
    if (default_->get() == nullptr || OSSL_PROVIDER_load(default_->get(), "default") == nullptr)
      throw std::runtime_error("cannot load the default provider: " + openssl_errors());
  }
  return default_->get();
}

bool cipher_name_less(const std::string& a, const std::string& b) {
  const int fa = family_rank(a), fb = family_rank(b);
  if (fa != fb) return fa < fb;
  // Within one cipher: ECB, CTR, CBC, CFB, OFB, CFB8, CFB1.
  const std::string ba = a.substr(0, a.rfind('-')), bb = b.substr(0, b.rfind('-'));
  if (ba != bb) return tokens(ba) < tokens(bb);
  return mode_rank(a) < mode_rank(b);
}

std::vector<std::string> provider_ciphers(OSSL_LIB_CTX* ctx, const std::string& provider) {
  std::vector<std::string> names;
  Collect c{&provider, &names};
  EVP_CIPHER_do_all_provided(ctx, collect_cipher, &c);
  std::sort(names.begin(), names.end(), cipher_name_less);
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace gpucrypto::bench
