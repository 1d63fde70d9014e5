// Provider entry point: OSSL_provider_init, query_operation, get_params,
// teardown and configuration.
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <utility>

#include "platform/cpu_features.h"
#include "gpu/gpu_backend.h"
#include "provider/cipher_gcm.h"
#include "provider/cipher_table.h"
#include "provider/cipher_tls.h"
#include "engine/thread_pool.h"
#include "provider/kem_algorithms.h"
#include "provider/kem_tls.h"
#include "provider/provctx.h"

#ifndef GPUCRYPTO_VERSION
#define GPUCRYPTO_VERSION "0.0.0"
#endif

namespace gpucrypto {
namespace {

OSSL_FUNC_core_get_params_fn* c_get_params = nullptr;
// Live provider instances (one per library context that loaded us); the
// shared thread pool is joined when the last one goes.
std::atomic<int> g_instances{0};

constexpr const char* kConfigKeys[] = {"backend", "threads", "mt_min_bytes", "gpu_min_bytes",
                                       "log", "gpu_kernels", kMlkemImportPctKey, "key_codecs"};

// Reads the provider section keys of openssl.cnf, then the environment.
// Returns an error message, empty on success.
std::string load_config(const OSSL_CORE_HANDLE* handle, EngineConfig* cfg) {
  if (c_get_params != nullptr) {
    const char* vals[std::size(kConfigKeys)] = {};
    OSSL_PARAM params[std::size(kConfigKeys) + 1];
    for (size_t i = 0; i < std::size(kConfigKeys); ++i)
      params[i] = OSSL_PARAM_construct_utf8_ptr(kConfigKeys[i], const_cast<char**>(&vals[i]), 0);
    params[std::size(kConfigKeys)] = OSSL_PARAM_construct_end();
    if (!c_get_params(handle, params)) return "gpucrypto: cannot read provider configuration";
    for (size_t i = 0; i < std::size(kConfigKeys); ++i) {
      if (vals[i] == nullptr) continue;
      std::string err = config_set(cfg, kConfigKeys[i], vals[i]);
      if (!err.empty()) return err + " in the provider's openssl.cnf section";
    }
  }
  return config_apply_env(cfg);
}

std::string buildinfo(const ProvCtx* p) {
  const uint32_t f = p->config.features();
  return std::string("gpucrypto ") + GPUCRYPTO_VERSION + "; cpu: " +
         cpu_features_string(cpu_features_detected()) + "; active: " + cpu_features_string(f) +
         "; " + config_describe(p->config) + "; gpu: " + gpu::describe();
}

// A text whose pointer OpenSSL reads after get_params has returned: every
// distinct text is kept until the module is unloaded (buildinfo changes at
// most when the GPU runtime starts), so the pointer stays valid on any
// thread. (A thread_local string gave the module ELF TLS; see cipher_gcm.cpp.)
const char* interned(std::string s) {
  static std::mutex mu;
  static std::set<std::string> texts;
  const std::lock_guard<std::mutex> lock(mu);
  return texts.insert(std::move(s)).first->c_str();
}

const OSSL_PARAM kGettable[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, nullptr, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, nullptr, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, nullptr, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, nullptr, 0),
    OSSL_PARAM_DEFN(kParamGcmRecords, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, 0),
    OSSL_PARAM_DEFN(kParamGcmBytes, OSSL_PARAM_UNSIGNED_INTEGER, nullptr, 0),
    OSSL_PARAM_END};

const OSSL_PARAM* gettable_params(void*) { return kGettable; }

int get_params(void* vprov, OSSL_PARAM params[]) {
  auto* p = static_cast<ProvCtx*>(vprov);
  OSSL_PARAM* q;
  if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME)) != nullptr &&
      !OSSL_PARAM_set_utf8_ptr(q, "gpucrypto: bulk ciphers (SKINNY, SM4, RECTANGLE, AES, Rijndael) and KEMs"))
    return 0;
  if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION)) != nullptr &&
      !OSSL_PARAM_set_utf8_ptr(q, GPUCRYPTO_VERSION))
    return 0;
  if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO)) != nullptr) {
    // Computed on demand: it names the GPU, and the GPU runtime starts lazily.
    if (!OSSL_PARAM_set_utf8_ptr(q, interned(buildinfo(p)))) return 0;
  }
  if ((q = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) != nullptr &&
      !OSSL_PARAM_set_int(q, 1))
    return 0;
  return gcm_get_provider_params(params);
}

const OSSL_ALGORITHM* query_operation(void* vprov, int operation_id, int* no_cache) {
  *no_cache = 0;
  switch (operation_id) {
    case OSSL_OP_CIPHER:
      return cipher_algorithms();
    case OSSL_OP_ENCODER:
    case OSSL_OP_DECODER:
      if (!static_cast<const ProvCtx*>(vprov)->config.key_codecs) return nullptr;
      return kem_algorithms(operation_id);
    case OSSL_OP_KEYMGMT:
    case OSSL_OP_KEM:
      return kem_algorithms(operation_id);
    default:
      return nullptr;
  }
}

const OSSL_ITEM* get_reason_strings(void*) { return reason_strings(); }

void teardown(void* vprov) {
  auto* p = static_cast<ProvCtx*>(vprov);
  gcm_log_stats(p);
  tls_log_stats(p);
  OSSL_LIB_CTX_free(p->libctx);
  delete p;
  if (g_instances.fetch_sub(1) == 1) {
    ThreadPool::shutdown();
    gpu::shutdown();
  }
}

using Fn = void (*)();
const OSSL_DISPATCH kProviderFunctions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, reinterpret_cast<Fn>(&teardown)},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, reinterpret_cast<Fn>(&gettable_params)},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, reinterpret_cast<Fn>(&get_params)},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, reinterpret_cast<Fn>(&query_operation)},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, reinterpret_cast<Fn>(&get_reason_strings)},
    {OSSL_FUNC_PROVIDER_GET_CAPABILITIES, reinterpret_cast<Fn>(&kem_get_capabilities)},
    {0, nullptr}};

}  // namespace
}  // namespace gpucrypto

extern "C" __attribute__((visibility("default"))) int OSSL_provider_init(
    const OSSL_CORE_HANDLE* handle, const OSSL_DISPATCH* in, const OSSL_DISPATCH** out,
    void** provctx) {
  using namespace gpucrypto;
  errors_init(in);
  for (const OSSL_DISPATCH* d = in; d->function_id != 0; ++d) {
    if (d->function_id == OSSL_FUNC_CORE_GET_PARAMS) c_get_params = OSSL_FUNC_core_get_params(d);
  }
  auto* p = new (std::nothrow) ProvCtx;
  if (p == nullptr) return 0;
  p->handle = handle;
  p->pid = getpid();
  const std::string err = load_config(handle, &p->config);
  if (!err.empty()) {
    // Both: the error queue for programs, stderr for `openssl` users whose
    // command fails with only "unable to load provider".
    GPUC_RAISE(p, kErrConfig, "%s", err.c_str());
    std::fprintf(stderr, "%s\n", err.c_str());
    delete p;
    return 0;
  }
  p->libctx = OSSL_LIB_CTX_new_child(handle, in);
  // Our own algorithms must never serve this context: their contexts would
  // hold this provider alive from inside its own child context, so teardown
  // would never run. Default properties cover our fetches (SHA-3 for the
  // KEMs); the DRBG needs its own: the default provider's CTR-DRBG, seen
  // from a child context, fetches its AES-256-CTR in the parent context,
  // where ours may win (a 45 KB leak per provider load found by
  // LeakSanitizer in babykyber_evp_test, cycle shown with gdb).
  if (p->libctx != nullptr &&
      (!EVP_set_default_properties(p->libctx, "provider!=gpucrypto") ||
       !RAND_set_DRBG_type(p->libctx, nullptr, "provider!=gpucrypto", nullptr, nullptr))) {
    OSSL_LIB_CTX_free(p->libctx);
    p->libctx = nullptr;
  }
  if (p->libctx == nullptr) {
    GPUC_RAISE(p, kErrInternal, "cannot create a child library context");
    delete p;
    return 0;
  }
  ThreadPool::configure(p->config.threads);
  g_instances.fetch_add(1);
  *out = kProviderFunctions;
  *provctx = p;
  return 1;
}
