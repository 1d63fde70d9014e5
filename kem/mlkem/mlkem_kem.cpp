// The ML-KEM C API of gpucrypto/mlkem.h (single and batch) over the kernel
// sets of mlkem_impl.h.
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "platform/cpu_features.h"
#include "platform/isa_select.h"
#include "gpucrypto/mlkem.h"
#include "gpu/gpu_mlkem.h"
#include "engine/offload.h"
#include "kem/core/mlkem_core.h"
#include "kem/mlkem/mlkem_impl.h"
#include "kem/secret_buffer.h"
#include "engine/thread_pool.h"

namespace gpucrypto::kem::mlkem {
namespace {

// The kernel sets are instantiated in their own translation units
// (mlkem_impl_ref.cpp, mlkem_impl_simd.cpp): in one -O3 unit GCC's unit-growth
// limit left the last-compiled instantiations (ML-KEM-1024 ref) less inlined,
// ~25 % slower.
const Impl* const kImpls[] = {&kImplAvx512, &kImplAvx2, &kImplRef};

}  // namespace

std::span<const Impl* const> impls() { return kImpls; }

const Impl& select(uint32_t f) { return best_for(kImpls, f); }

// env_config(): detected CPU features capped by GPUCRYPTO_BACKEND, shared
// with babyKyber's batch API.
const Impl& select() {
  static const Impl& best = select(env_config().features());
  return best;
}

int level_index(int level) {
  switch (level) {
    case 512:
      return 0;
    case 768:
      return 1;
    case 1024:
      return 2;
    default:
      return -1;
  }
}

namespace {

struct Sizes {
  size_t ek, dk, ct;
};
constexpr Sizes kSizes[3] = {{Params<2>::kEkBytes, Params<2>::kDkBytes, Params<2>::kCtBytes},
                             {Params<3>::kEkBytes, Params<3>::kDkBytes, Params<3>::kCtBytes},
                             {Params<4>::kEkBytes, Params<4>::kDkBytes, Params<4>::kCtBytes}};

// Instances per random-seed draw in a batch worker.
constexpr size_t kChunk = 64;
constexpr size_t kGrain = 64;

// Runs body(begin, end) over [0, n) on the calling thread or the pool;
// returns the first error.
template <class Body>
int run_batch(size_t n, unsigned threads, const Body& body) {
  std::atomic<int> rc{MLKEM_OK};
  auto range = [&](size_t b, size_t e) {
    for (size_t i = b; i < e && rc.load(std::memory_order_relaxed) == MLKEM_OK; i += kChunk) {
      const int r = body(i, std::min(e, i + kChunk));
      if (r != MLKEM_OK) rc.store(r);
    }
  };
  if (n == 0) return MLKEM_OK;
  if (threads == 1 || n <= kGrain) range(0, n);
  else ThreadPool::instance().parallel_for(n, kGrain, range, threads);
  return rc.load();
}

}  // namespace
}  // namespace gpucrypto::kem::mlkem

namespace gpucrypto::kem::mlkem {

namespace gg = gpucrypto::gpu;

// The level index of a batch's arguments, or -1: an unknown level, a NULL
// array with n > 0, or a count whose byte sizes overflow (dk is the largest).
int batch_level(int level, size_t n, std::initializer_list<const void*> arrays) {
  const int li = level_index(level);
  if (li < 0 || n > SIZE_MAX / kSizes[li].dk) return -1;
  for (const void* a : arrays)
    if (n != 0 && a == nullptr) return -1;
  return li;
}

// Each batch: on a CUDA GPU when it pays (engine/offload.h), which returns a
// finished prefix; the CPU kernels, split over the thread pool, do the rest.
// The GPU needs its randomness up front, so a batch bound for it draws all of
// it first (and wipes it after).
int keypair_batch(const Impl& impl, const EngineConfig& cfg, OSSL_LIB_CTX* libctx, int level,
                  size_t n, uint8_t* eks, uint8_t* dks, const uint8_t* seeds, unsigned threads) {
  const int li = batch_level(level, n, {eks, dks});
  if (li < 0) return MLKEM_ERR_ARGS;
  const LevelOps& ops = impl.ops[li];
  const Sizes sz = kSizes[li];
  size_t done = 0;
  SecretBuffer drawn;
  if (n > 1 && gpu_offload_worth(n * gg::mlkem_instance_bytes(level, gg::MlkemOp::kKeygen), cfg)) {
    if (seeds == nullptr) {
      if (!drawn.allocate(n * 64)) return MLKEM_ERR_MEMORY;
      if (RAND_bytes_ex(libctx, drawn.data(), n * 64, 256) != 1) return MLKEM_ERR_RAND;
      seeds = drawn.data();
    }
    done = gg::mlkem_keygen(level, n, seeds, eks, dks);
  }
  return run_batch(n - done, threads, [&, done](size_t b, size_t e) {
    b += done, e += done;
    uint8_t fresh[kChunk * 64];
    const uint8_t* sd = seeds != nullptr ? seeds + b * 64 : fresh;
    // Only what was drawn is wiped: a single key (the provider's keygen, its
    // seed given) would otherwise clear 4 KiB of untouched stack per call.
    const size_t drawn_bytes = seeds == nullptr ? (e - b) * 64 : 0;
    if (drawn_bytes != 0 && RAND_bytes_ex(libctx, fresh, drawn_bytes, 256) != 1) return MLKEM_ERR_RAND;
    for (size_t i = b; i < e; ++i)
      ops.keygen(eks + i * sz.ek, dks + i * sz.dk, sd + (i - b) * 64, sd + (i - b) * 64 + 32);
    OPENSSL_cleanse(fresh, drawn_bytes);
    return MLKEM_OK;
  });
}

int encaps_batch(const Impl& impl, const EngineConfig& cfg, OSSL_LIB_CTX* libctx, int level,
                 size_t n, uint8_t* cts, uint8_t* sss, const uint8_t* eks, const uint8_t* ms,
                 unsigned threads) {
  const int li = batch_level(level, n, {cts, sss, eks});
  if (li < 0) return MLKEM_ERR_ARGS;
  const LevelOps& ops = impl.ops[li];
  const Sizes sz = kSizes[li];
  size_t done = 0;
  bool gpu_ok = true;
  SecretBuffer drawn;
  if (n > 1 && gpu_offload_worth(n * gg::mlkem_instance_bytes(level, gg::MlkemOp::kEncaps), cfg)) {
    if (!drawn.allocate(ms == nullptr ? n * 33 : n)) return MLKEM_ERR_MEMORY;
    uint8_t* ek_ok = drawn.data();
    if (ms == nullptr) {
      if (RAND_bytes_ex(libctx, drawn.data() + n, n * 32, 256) != 1) return MLKEM_ERR_RAND;
      ms = drawn.data() + n;
    }
    done = gg::mlkem_encaps(level, n, eks, ms, cts, sss, ek_ok);
    for (size_t i = 0; i < done; ++i) gpu_ok &= ek_ok[i] == 1;
  }
  const int rc = !gpu_ok ? MLKEM_ERR_KEY : run_batch(n - done, threads, [&, done](size_t b, size_t e) {
    b += done, e += done;
    uint8_t fresh[kChunk * 32];
    const uint8_t* m = ms != nullptr ? ms + b * 32 : fresh;
    const size_t drawn_bytes = ms == nullptr ? (e - b) * 32 : 0;  // wiped below, and only they
    if (drawn_bytes != 0 && RAND_bytes_ex(libctx, fresh, drawn_bytes, 256) != 1) return MLKEM_ERR_RAND;
    uint32_t ok = ~0u;
    for (size_t i = b; i < e; ++i)
      ok &= ops.encaps(cts + i * sz.ct, sss + i * 32, eks + i * sz.ek, m + (i - b) * 32);
    OPENSSL_cleanse(fresh, drawn_bytes);
    return ok != 0 ? MLKEM_OK : MLKEM_ERR_KEY;
  });
  if (rc != MLKEM_OK) {
    OPENSSL_cleanse(cts, n * sz.ct);
    OPENSSL_cleanse(sss, n * 32);
  }
  return rc;
}

int decaps_batch(const Impl& impl, const EngineConfig& cfg, int level, size_t n, uint8_t* sss,
                 const uint8_t* cts, const uint8_t* dks, unsigned threads) {
  const int li = batch_level(level, n, {sss, cts, dks});
  if (li < 0) return MLKEM_ERR_ARGS;
  const LevelOps& ops = impl.ops[li];
  const Sizes sz = kSizes[li];
  const size_t done =
      n > 1 && gpu_offload_worth(n * gg::mlkem_instance_bytes(level, gg::MlkemOp::kDecaps), cfg)
          ? gg::mlkem_decaps(level, n, dks, cts, sss)
          : 0;
  return run_batch(n - done, threads, [&, done](size_t b, size_t e) {
    b += done, e += done;
    for (size_t i = b; i < e; ++i) ops.decaps(sss + i * 32, cts + i * sz.ct, dks + i * sz.dk);
    return MLKEM_OK;
  });
}

// FIPS 203 section 7.2 (ek modulus check) or 7.3 (dk hash check), on the
// reference code: one call per imported key, not a hot path.
int check_key(int level, const uint8_t* key, bool is_dk) {
  if (key == nullptr) return MLKEM_ERR_ARGS;
  bool ok;
  switch (level) {
    case 512: ok = is_dk ? Kem<2, RefBackend>::check_dk(key) : Kem<2, RefBackend>::check_ek(key); break;
    case 768: ok = is_dk ? Kem<3, RefBackend>::check_dk(key) : Kem<3, RefBackend>::check_ek(key); break;
    case 1024: ok = is_dk ? Kem<4, RefBackend>::check_dk(key) : Kem<4, RefBackend>::check_ek(key); break;
    default: return MLKEM_ERR_ARGS;
  }
  return ok ? MLKEM_OK : MLKEM_ERR_KEY;
}

}  // namespace gpucrypto::kem::mlkem

namespace mk = gpucrypto::kem::mlkem;
using gpucrypto::env_config;

extern "C" {

const char* mlkem_strerror(int rc) {
  switch (rc) {
    case MLKEM_OK:
      return "success";
    case MLKEM_ERR_ARGS:
      return "invalid argument (NULL pointer or level not 512/768/1024)";
    case MLKEM_ERR_KEY:
      return "malformed key (ek coefficient >= q, or dk hash check failed)";
    case MLKEM_ERR_RAND:
      return "random number generator failed";
    case MLKEM_ERR_MEMORY:
      return "out of memory";
    default:
      return "unknown error";
  }
}

size_t mlkem_publickey_bytes(int level) {
  const int i = mk::level_index(level);
  return i < 0 ? 0 : mk::kSizes[i].ek;
}
size_t mlkem_secretkey_bytes(int level) {
  const int i = mk::level_index(level);
  return i < 0 ? 0 : mk::kSizes[i].dk;
}
size_t mlkem_ciphertext_bytes(int level) {
  const int i = mk::level_index(level);
  return i < 0 ? 0 : mk::kSizes[i].ct;
}

// The C API follows GPUCRYPTO_BACKEND (select(), env_config()).
int mlkem_keypair_batch(OSSL_LIB_CTX* libctx, int level, size_t n, uint8_t* eks, uint8_t* dks,
                        const uint8_t* seeds, unsigned threads) {
  return mk::keypair_batch(mk::select(), env_config(), libctx, level, n, eks, dks, seeds, threads);
}

int mlkem_encaps_batch(OSSL_LIB_CTX* libctx, int level, size_t n, uint8_t* cts, uint8_t* sss,
                       const uint8_t* eks, const uint8_t* ms, unsigned threads) {
  return mk::encaps_batch(mk::select(), env_config(), libctx, level, n, cts, sss, eks, ms, threads);
}

int mlkem_decaps_batch(int level, size_t n, uint8_t* sss, const uint8_t* cts, const uint8_t* dks,
                       unsigned threads) {
  return mk::decaps_batch(mk::select(), env_config(), level, n, sss, cts, dks, threads);
}

int mlkem_keypair_derand(int level, uint8_t* ek, uint8_t* dk, const uint8_t* seed) {
  if (ek == nullptr || dk == nullptr || seed == nullptr) return MLKEM_ERR_ARGS;
  return mlkem_keypair_batch(nullptr, level, 1, ek, dk, seed, 1);
}

int mlkem_keypair(OSSL_LIB_CTX* libctx, int level, uint8_t* ek, uint8_t* dk, uint8_t* seed_out) {
  if (ek == nullptr || dk == nullptr) return MLKEM_ERR_ARGS;
  uint8_t seed[64];
  if (RAND_bytes_ex(libctx, seed, sizeof seed, 256) != 1) return MLKEM_ERR_RAND;
  const int rc = mlkem_keypair_batch(libctx, level, 1, ek, dk, seed, 1);
  if (rc == MLKEM_OK && seed_out != nullptr) std::memcpy(seed_out, seed, sizeof seed);
  OPENSSL_cleanse(seed, sizeof seed);
  return rc;
}

int mlkem_encaps_derand(int level, uint8_t* ct, uint8_t* ss, const uint8_t* ek, const uint8_t* m) {
  if (ct == nullptr || ss == nullptr || ek == nullptr || m == nullptr) return MLKEM_ERR_ARGS;
  return mlkem_encaps_batch(nullptr, level, 1, ct, ss, ek, m, 1);
}

int mlkem_encaps(OSSL_LIB_CTX* libctx, int level, uint8_t* ct, uint8_t* ss, const uint8_t* ek) {
  if (ct == nullptr || ss == nullptr || ek == nullptr) return MLKEM_ERR_ARGS;
  return mlkem_encaps_batch(libctx, level, 1, ct, ss, ek, nullptr, 1);
}

int mlkem_decaps(int level, uint8_t* ss, const uint8_t* ct, const uint8_t* dk) {
  if (ss == nullptr || ct == nullptr || dk == nullptr) return MLKEM_ERR_ARGS;
  return mlkem_decaps_batch(level, 1, ss, ct, dk, 1);
}

int mlkem_check_publickey(int level, const uint8_t* ek) { return mk::check_key(level, ek, false); }

int mlkem_check_secretkey(int level, const uint8_t* dk) { return mk::check_key(level, dk, true); }

const char* mlkem_impl(void) { return mk::select().name; }

}  // extern "C"
