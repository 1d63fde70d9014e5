// The babyKyber KEM: the PKE of babykyber_pke.h under the Fujisaki-Okamoto
// transform as FIPS 203 applies it (ML-KEM.KeyGen/Encaps/Decaps), and the C
// API of gpucrypto/babykyber.h, single and batched.
//
//   KeyGen(d || z):  coins = SHAKE256(d || 0x02, 35)   (0x02 = k, as G(d || k))
//                    (ek, s) = PKE.KeyGen(coins)
//                    dk = s || ek || H(ek) || z
//   Encaps(ek, m):   (K, c') = G(m || H(ek)),  ct = PKE.Encrypt(ek, m, c'[0..3]),  ss = K
//   Decaps(dk, ct):  m' = PKE.Decrypt(s, ct)
//                    (K', c') = G(m' || h),  K_bar = J(z || ct)
//                    ss = (PKE.Encrypt(ek, m', c'[0..3]) == ct) ? K' : K_bar   (constant time)
// with H = SHA3-256, G = SHA3-512, J = SHAKE256 (32-byte output), m one byte.
// ML-KEM expands the encryption coins with a PRF; babyKyber needs only 4
// coin bytes, taken directly from the second half of G's output.
//
// Every path goes through a PkeBatchImpl over a chunk of instances, so one
// instance is a chunk of one through the reference: the single and batched
// results cannot diverge.
#include <openssl/rand.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>

#include "gpucrypto/babykyber.h"
#include "kem/core/babykyber_pke.h"
#include "kem/babykyber/batch_impl.h"
#include "kem/babykyber/sha3_hasher.h"
#include "kem/secret_buffer.h"
#include "engine/offload.h"
#include "engine/thread_pool.h"
#include "gpu/gpu_kem.h"

namespace gpucrypto::kem {
namespace {

namespace bk = babykyber;

constexpr size_t kPk = BABYKYBER_PUBLICKEY_BYTES;
constexpr size_t kSk = BABYKYBER_SECRETKEY_BYTES;
constexpr size_t kCt = BABYKYBER_CIPHERTEXT_BYTES;
constexpr size_t kSs = BABYKYBER_SHARED_SECRET_BYTES;
constexpr size_t kSeed = BABYKYBER_KEYGEN_SEED_BYTES;
// Offsets inside the private key.
constexpr size_t kSkEk = BABYKYBER_PKE_SECRETKEY_BYTES;
constexpr size_t kSkH = kSkEk + kPk;
constexpr size_t kSkZ = kSkH + 32;
static_assert(kSkZ + 32 == kSk);
static_assert(kPk == size_t(bk::kEkBytes) && kCt == size_t(bk::kCtBytes) &&
              kSkEk == size_t(bk::kDkBytes));
static_assert(BABYKYBER_PKE_KEYGEN_COINS_BYTES == bk::kKeygenCoinsBytes &&
              BABYKYBER_PKE_ENCRYPT_COINS_BYTES == bk::kEncryptCoinsBytes);
constexpr size_t kCoins = bk::kKeygenCoinsBytes;
constexpr uint8_t kRankByte = bk::P::k;

// Instances per inner step of a worker: small enough for the scratch to stay
// in L1/L2, large enough for whole vector blocks.
constexpr size_t kChunk = 256;

struct Scratch {
  uint8_t coins[kChunk * kCoins];
  uint8_t g[kChunk * 64];
  uint8_t kbar[kChunk * kSs];
  uint8_t m[kChunk];
  uint8_t ct[kChunk * kCt];
  uint8_t seeds[kChunk * kSeed];
};

// Hides a value from the optimiser so mask selects stay branch-free.
inline uint32_t value_barrier(uint32_t x) {
  __asm__("" : "+r"(x));
  return x;
}

// The KEM steps around the PKE, over `n` instances. A CPU batch runs them
// per chunk of kChunk instances on per-worker scratch; a batch bound for the
// GPU runs each over the whole batch (whole_batch below), so every PKE step
// is one GPU job.
bool keygen_coins(Sha3Hasher& h, size_t n, const uint8_t* seeds, uint8_t* coins) {
  for (size_t i = 0; i < n; ++i)
    if (!h.shake256(seeds + i * kSeed, 32, &kRankByte, 1, coins + i * kCoins, kCoins)) return false;
  return true;
}

bool keygen_finish(Sha3Hasher& h, size_t n, const uint8_t* pks, uint8_t* sks,
                   const uint8_t* seeds) {
  for (size_t i = 0; i < n; ++i) {
    uint8_t* sk = sks + i * kSk;
    std::memcpy(sk + kSkEk, pks + i * kPk, kPk);
    if (!h.sha3_256(pks + i * kPk, kPk, sk + kSkH)) return false;
    std::memcpy(sk + kSkZ, seeds + i * kSeed + 32, 32);
  }
  return true;
}

// g = G(m || H(ek)): the shared secret, then the encryption coins.
bool encaps_hash(Sha3Hasher& h, size_t n, const uint8_t* pks, const uint8_t* ms, uint8_t* g) {
  for (size_t i = 0; i < n; ++i) {
    uint8_t hpk[32];
    if (!h.sha3_256(pks + i * kPk, kPk, hpk) || !h.sha3_512(ms + i, 1, hpk, 32, g + i * 64))
      return false;
  }
  return true;
}

void encaps_finish(size_t n, uint8_t* sss, const uint8_t* g) {
  for (size_t i = 0; i < n; ++i) std::memcpy(sss + i * kSs, g + i * 64, kSs);
}

bool decaps_hash(Sha3Hasher& h, size_t n, const uint8_t* m, const uint8_t* cts,
                 const uint8_t* sks, uint8_t* g, uint8_t* kbar) {
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* sk = sks + i * kSk;
    if (!h.sha3_512(m + i, 1, sk + kSkH, 32, g + i * 64) ||
        !h.shake256(sk + kSkZ, 32, cts + i * kCt, kCt, kbar + i * kSs, kSs))
      return false;
  }
  return true;
}

// ss = K' where the re-encryption matches, else K_bar (constant time).
void decaps_select(size_t n, uint8_t* sss, const uint8_t* cts, const uint8_t* ct2,
                   const uint8_t* g, const uint8_t* kbar) {
  for (size_t i = 0; i < n; ++i) {
    uint32_t diff = 0;
    for (size_t j = 0; j < kCt; ++j) diff |= uint32_t(cts[i * kCt + j] ^ ct2[i * kCt + j]);
    const uint8_t keep = uint8_t(value_barrier(ct_eq_mask(diff, 0)));
    const uint8_t* good = g + i * 64;
    const uint8_t* bad = kbar + i * kSs;
    for (size_t j = 0; j < kSs; ++j)
      sss[i * kSs + j] = uint8_t((good[j] & keep) | (bad[j] & uint8_t(~keep)));
  }
}

int keygen_chunk(const PkeBatchImpl& impl, Sha3Hasher& h, Scratch& s, size_t n, uint8_t* pks,
                 uint8_t* sks, const uint8_t* seeds) {
  if (!keygen_coins(h, n, seeds, s.coins)) return BABYKYBER_ERR_HASH;
  impl.keygen(n, s.coins, kCoins, pks, kPk, sks, kSk);
  OPENSSL_cleanse(s.coins, n * kCoins);
  return keygen_finish(h, n, pks, sks, seeds) ? BABYKYBER_OK : BABYKYBER_ERR_HASH;
}

int encaps_chunk(const PkeBatchImpl& impl, Sha3Hasher& h, Scratch& s, size_t n, uint8_t* cts,
                 uint8_t* sss, const uint8_t* pks, const uint8_t* ms) {
  if (!encaps_hash(h, n, pks, ms, s.g)) return BABYKYBER_ERR_HASH;
  const bool ok = impl.encrypt(n, cts, kCt, pks, kPk, ms, s.g + 32, 64);
  encaps_finish(n, sss, s.g);
  OPENSSL_cleanse(s.g, n * 64);
  return ok ? BABYKYBER_OK : BABYKYBER_ERR_KEY;
}

int decaps_chunk(const PkeBatchImpl& impl, Sha3Hasher& h, Scratch& s, size_t n, uint8_t* sss,
                 const uint8_t* cts, const uint8_t* sks) {
  impl.decrypt(n, s.m, cts, kCt, sks, kSk);
  if (!decaps_hash(h, n, s.m, cts, sks, s.g, s.kbar)) return BABYKYBER_ERR_HASH;
  // The embedded ek was validated when the key was made or imported.
  (void)impl.encrypt(n, s.ct, kCt, sks + kSkEk, kSk, s.m, s.g + 32, 64);
  decaps_select(n, sss, cts, s.ct, s.g, s.kbar);
  OPENSSL_cleanse(s.m, n);
  OPENSSL_cleanse(s.g, n * 64);
  OPENSSL_cleanse(s.kbar, n * kSs);
  return BABYKYBER_OK;
}

// Runs chunk(begin, count, hasher, scratch) over [0, n): on the calling
// thread, or split over the thread pool. Returns the first error seen.
template <class ChunkFn>
int run_batch(OSSL_LIB_CTX* libctx, size_t n, unsigned threads, size_t grain,
              const ChunkFn& chunk) {
  std::atomic<int> rc{BABYKYBER_OK};
  auto range = [&](size_t b, size_t e) {
    Sha3Hasher h(libctx);
    std::unique_ptr<Scratch> s(new (std::nothrow) Scratch);
    if (!s) {
      rc.store(BABYKYBER_ERR_MEMORY);
      return;
    }
    for (size_t i = b; i < e && rc.load(std::memory_order_relaxed) == BABYKYBER_OK; i += kChunk) {
      const int r = chunk(i, std::min(kChunk, e - i), h, *s);
      if (r != BABYKYBER_OK) rc.store(r);
    }
    OPENSSL_cleanse(s.get(), sizeof(Scratch));
  };
  if (n == 0) return BABYKYBER_OK;
  if (threads == 1 || n <= grain) {
    range(0, n);
  } else {
    ThreadPool::instance().parallel_for(n, grain, range, threads);
  }
  return rc.load();
}

constexpr size_t kKemGrain = 1024;
constexpr size_t kPkeGrain = 8192;

bool messages_valid(const uint8_t* ms, size_t n) {
  uint8_t high = 0;
  for (size_t i = 0; i < n; ++i) high |= ms[i];
  return (high & 0xf0) == 0;
}

// A batch bound for the GPU (engine/offload.h): its PKE steps then run over
// the whole batch, each offered to the GPU once (batch_dispatch.cpp), with
// the hashing before and after split over the pool on whole-batch buffers.
bool whole_batch(const EngineConfig& cfg, size_t n, gpu::KemOp op) {
  return n > 1 && gpu_offload_worth(n * gpu::kem_instance_bytes(op), cfg);
}

constexpr int hashed(bool ok) { return ok ? BABYKYBER_OK : BABYKYBER_ERR_HASH; }

}  // namespace

namespace babykyber {

int keypair_batch(const PkeBatchImpl& cpu, const EngineConfig& cfg, OSSL_LIB_CTX* libctx,
                  size_t n, uint8_t* pks, uint8_t* sks, const uint8_t* seeds, unsigned threads) {
  if (n != 0 && (pks == nullptr || sks == nullptr)) return BABYKYBER_ERR_ARGS;
  if (n > SIZE_MAX / kSk) return BABYKYBER_ERR_ARGS;  // byte sizes would overflow
  if (whole_batch(cfg, n, gpu::KemOp::kKeygen)) {
    SecretBuffer drawn, coins;
    if (!coins.allocate(n * kCoins) || (seeds == nullptr && !drawn.allocate(n * kSeed)))
      return BABYKYBER_ERR_MEMORY;
    if (seeds == nullptr) {
      if (RAND_bytes_ex(libctx, drawn.data(), n * kSeed, 0) != 1) return BABYKYBER_ERR_RAND;
      seeds = drawn.data();
    }
    const int rc = run_batch(libctx, n, threads, kKemGrain, [&](size_t b, size_t c, Sha3Hasher& h, Scratch&) {
      return hashed(keygen_coins(h, c, seeds + b * kSeed, coins.data() + b * kCoins));
    });
    if (rc != BABYKYBER_OK) return rc;
    pke_keygen({cpu, cfg, threads, kKemGrain}, n, coins.data(), kCoins, pks, kPk, sks, kSk);
    return run_batch(libctx, n, threads, kKemGrain, [&](size_t b, size_t c, Sha3Hasher& h, Scratch&) {
      return hashed(keygen_finish(h, c, pks + b * kPk, sks + b * kSk, seeds + b * kSeed));
    });
  }
  return run_batch(libctx, n, threads, kKemGrain, [&](size_t b, size_t c, Sha3Hasher& h, Scratch& s) {
    const uint8_t* sd = seeds != nullptr ? seeds + b * kSeed : s.seeds;
    if (seeds == nullptr && RAND_bytes_ex(libctx, s.seeds, c * kSeed, 0) != 1)
      return BABYKYBER_ERR_RAND;
    return keygen_chunk(cpu, h, s, c, pks + b * kPk, sks + b * kSk, sd);
  });
}

int encaps_batch(const PkeBatchImpl& cpu, const EngineConfig& cfg, OSSL_LIB_CTX* libctx,
                 size_t n, uint8_t* cts, uint8_t* sss, const uint8_t* pks, const uint8_t* ms,
                 unsigned threads) {
  if (n != 0 && (cts == nullptr || sss == nullptr || pks == nullptr)) return BABYKYBER_ERR_ARGS;
  if (n > SIZE_MAX / kSk) return BABYKYBER_ERR_ARGS;  // byte sizes would overflow
  if (ms != nullptr && !messages_valid(ms, n)) return BABYKYBER_ERR_ARGS;
  int rc;
  if (whole_batch(cfg, n, gpu::KemOp::kEncrypt)) {
    SecretBuffer g, drawn;
    if (!g.allocate(n * 64) || (ms == nullptr && !drawn.allocate(n))) return BABYKYBER_ERR_MEMORY;
    if (ms == nullptr) {
      if (RAND_bytes_ex(libctx, drawn.data(), n, 0) != 1) return BABYKYBER_ERR_RAND;
      for (size_t i = 0; i < n; ++i) drawn.data()[i] &= 15;
      ms = drawn.data();
    }
    rc = run_batch(libctx, n, threads, kKemGrain, [&](size_t b, size_t c, Sha3Hasher& h, Scratch&) {
      return hashed(encaps_hash(h, c, pks + b * kPk, ms + b, g.data() + b * 64));
    });
    if (rc == BABYKYBER_OK) {
      const bool ok =
          pke_encrypt({cpu, cfg, threads, kKemGrain}, n, cts, kCt, pks, kPk, ms, g.data() + 32, 64);
      encaps_finish(n, sss, g.data());
      rc = ok ? BABYKYBER_OK : BABYKYBER_ERR_KEY;
    }
  } else {
    rc = run_batch(libctx, n, threads, kKemGrain, [&](size_t b, size_t c, Sha3Hasher& h, Scratch& s) {
      const uint8_t* m = ms != nullptr ? ms + b : s.m;
      if (ms == nullptr) {
        if (RAND_bytes_ex(libctx, s.m, c, 0) != 1) return BABYKYBER_ERR_RAND;
        for (size_t i = 0; i < c; ++i) s.m[i] &= 15;
      }
      return encaps_chunk(cpu, h, s, c, cts + b * kCt, sss + b * kSs, pks + b * kPk, m);
    });
  }
  if (rc != BABYKYBER_OK) {
    OPENSSL_cleanse(cts, n * kCt);
    OPENSSL_cleanse(sss, n * kSs);
  }
  return rc;
}

int decaps_batch(const PkeBatchImpl& cpu, const EngineConfig& cfg, OSSL_LIB_CTX* libctx,
                 size_t n, uint8_t* sss, const uint8_t* cts, const uint8_t* sks, unsigned threads) {
  if (n != 0 && (cts == nullptr || sss == nullptr || sks == nullptr)) return BABYKYBER_ERR_ARGS;
  if (n > SIZE_MAX / kSk) return BABYKYBER_ERR_ARGS;  // byte sizes would overflow
  int rc;
  if (whole_batch(cfg, n, gpu::KemOp::kDecrypt)) {
    // m (1 byte), g (64), K_bar (32) and the re-encryption (8) per instance.
    SecretBuffer buf;
    if (!buf.allocate(n * (1 + 64 + kSs + kCt))) return BABYKYBER_ERR_MEMORY;
    uint8_t* m = buf.data();
    uint8_t* g = m + n;
    uint8_t* kbar = g + n * 64;
    uint8_t* ct2 = kbar + n * kSs;
    const PkeRun run{cpu, cfg, threads, kKemGrain};
    pke_decrypt(run, n, m, cts, kCt, sks, kSk);
    rc = run_batch(libctx, n, threads, kKemGrain, [&](size_t b, size_t c, Sha3Hasher& h, Scratch&) {
      return hashed(decaps_hash(h, c, m + b, cts + b * kCt, sks + b * kSk, g + b * 64, kbar + b * kSs));
    });
    if (rc == BABYKYBER_OK) {
      // The embedded ek was validated when the key was made or imported.
      (void)pke_encrypt(run, n, ct2, kCt, sks + kSkEk, kSk, m, g + 32, 64);
      decaps_select(n, sss, cts, ct2, g, kbar);
    }
  } else {
    rc = run_batch(libctx, n, threads, kKemGrain, [&](size_t b, size_t c, Sha3Hasher& h, Scratch& s) {
      return decaps_chunk(cpu, h, s, c, sss + b * kSs, cts + b * kCt, sks + b * kSk);
    });
  }
  if (rc != BABYKYBER_OK) OPENSSL_cleanse(sss, n * kSs);
  return rc;
}

}  // namespace babykyber
}  // namespace gpucrypto::kem

using gpucrypto::env_config;
using gpucrypto::kem::PkeBatchImpl;
using gpucrypto::kem::Scratch;
using gpucrypto::kem::Sha3Hasher;
namespace gk = gpucrypto::kem;

extern "C" {

const char* babykyber_strerror(int rc) {
  switch (rc) {
    case BABYKYBER_OK:
      return "success";
    case BABYKYBER_ERR_ARGS:
      return "invalid argument (NULL pointer or message above 15)";
    case BABYKYBER_ERR_KEY:
      return "malformed key (coefficient >= 17 or private key hash mismatch)";
    case BABYKYBER_ERR_HASH:
      return "SHA3/SHAKE unavailable in the library context (load the default provider)";
    case BABYKYBER_ERR_RAND:
      return "random number generator failed";
    case BABYKYBER_ERR_MEMORY:
      return "out of memory";
    default:
      return "unknown error";
  }
}

// The C API follows GPUCRYPTO_BACKEND (pke_batch_select(), env_config()).
int babykyber_keypair_batch(OSSL_LIB_CTX* libctx, size_t n, uint8_t* pks, uint8_t* sks,
                            const uint8_t* seeds, unsigned threads) {
  return gk::babykyber::keypair_batch(gk::pke_batch_select(), env_config(), libctx, n, pks, sks,
                                      seeds, threads);
}

int babykyber_encaps_batch(OSSL_LIB_CTX* libctx, size_t n, uint8_t* cts, uint8_t* sss,
                           const uint8_t* pks, const uint8_t* ms, unsigned threads) {
  return gk::babykyber::encaps_batch(gk::pke_batch_select(), env_config(), libctx, n, cts, sss,
                                     pks, ms, threads);
}

int babykyber_decaps_batch(OSSL_LIB_CTX* libctx, size_t n, uint8_t* sss, const uint8_t* cts,
                           const uint8_t* sks, unsigned threads) {
  return gk::babykyber::decaps_batch(gk::pke_batch_select(), env_config(), libctx, n, sss, cts,
                                     sks, threads);
}

int babykyber_keypair_derand(OSSL_LIB_CTX* libctx, uint8_t* pk, uint8_t* sk, const uint8_t* seed) {
  if (pk == nullptr || sk == nullptr || seed == nullptr) return BABYKYBER_ERR_ARGS;
  return babykyber_keypair_batch(libctx, 1, pk, sk, seed, 1);
}

int babykyber_keypair(OSSL_LIB_CTX* libctx, uint8_t* pk, uint8_t* sk) {
  if (pk == nullptr || sk == nullptr) return BABYKYBER_ERR_ARGS;
  return babykyber_keypair_batch(libctx, 1, pk, sk, nullptr, 1);
}

int babykyber_encaps_derand(OSSL_LIB_CTX* libctx, uint8_t* ct, uint8_t* ss, const uint8_t* pk,
                            uint8_t m) {
  if (ct == nullptr || ss == nullptr || pk == nullptr) return BABYKYBER_ERR_ARGS;
  return babykyber_encaps_batch(libctx, 1, ct, ss, pk, &m, 1);
}

int babykyber_encaps(OSSL_LIB_CTX* libctx, uint8_t* ct, uint8_t* ss, const uint8_t* pk) {
  if (ct == nullptr || ss == nullptr || pk == nullptr) return BABYKYBER_ERR_ARGS;
  return babykyber_encaps_batch(libctx, 1, ct, ss, pk, nullptr, 1);
}

int babykyber_decaps(OSSL_LIB_CTX* libctx, uint8_t* ss, const uint8_t* ct, const uint8_t* sk) {
  if (ss == nullptr || ct == nullptr || sk == nullptr) return BABYKYBER_ERR_ARGS;
  return babykyber_decaps_batch(libctx, 1, ss, ct, sk, 1);
}

int babykyber_check_publickey(const uint8_t* pk) {
  if (pk == nullptr) return BABYKYBER_ERR_ARGS;
  gk::babykyber::PolyMat A;
  gk::babykyber::PolyVec t;
  return gk::babykyber::decode_ek(A, t, pk) != 0 ? BABYKYBER_OK : BABYKYBER_ERR_KEY;
}

int babykyber_check_secretkey(OSSL_LIB_CTX* libctx, const uint8_t* sk) {
  if (sk == nullptr) return BABYKYBER_ERR_ARGS;
  gk::babykyber::PolyVec s;
  if (gk::babykyber::decode_dk(s, sk) == 0) return BABYKYBER_ERR_KEY;
  // CBD_1 secrets are -1, 0 or 1: anything else was not made by KeyGen.
  // Checked with masks, so the time does not depend on the secret's values.
  uint32_t ternary = ~0u;
  for (const auto& p : s.p)
    for (uint16_t c : p.c)
      ternary &= gk::ct_eq_mask(c, 0) | gk::ct_eq_mask(c, 1) |
                 gk::ct_eq_mask(c, gk::babykyber::P::q - 1);
  if (gk::value_barrier(ternary) == 0) return BABYKYBER_ERR_KEY;
  if (babykyber_check_publickey(sk + gk::kSkEk) != BABYKYBER_OK) return BABYKYBER_ERR_KEY;
  uint8_t h[32];
  Sha3Hasher hasher(libctx);
  if (!hasher.sha3_256(sk + gk::kSkEk, gk::kPk, h)) return BABYKYBER_ERR_HASH;
  return CRYPTO_memcmp(h, sk + gk::kSkH, 32) == 0 ? BABYKYBER_OK : BABYKYBER_ERR_KEY;
}

// The bare PKE: the whole batch to the GPU first when it pays, the rest over
// the pool (batch_dispatch.cpp).
int babykyber_pke_keygen_batch(size_t n, uint8_t* pks, uint8_t* pke_sks, const uint8_t* coins,
                               unsigned threads) {
  if (n != 0 && (pks == nullptr || pke_sks == nullptr || coins == nullptr)) return BABYKYBER_ERR_ARGS;
  gk::pke_keygen({gk::pke_batch_select(), env_config(), threads, gk::kPkeGrain}, n, coins,
                 gk::kCoins, pks, gk::kPk, pke_sks, gk::kSkEk);
  return BABYKYBER_OK;
}

int babykyber_pke_encrypt_batch(size_t n, uint8_t* cts, const uint8_t* pks, const uint8_t* ms,
                                const uint8_t* coins, unsigned threads) {
  if (n != 0 && (cts == nullptr || pks == nullptr || ms == nullptr || coins == nullptr))
    return BABYKYBER_ERR_ARGS;
  if (!gk::messages_valid(ms, n)) return BABYKYBER_ERR_ARGS;
  constexpr size_t kEc = BABYKYBER_PKE_ENCRYPT_COINS_BYTES;
  const bool ok = gk::pke_encrypt({gk::pke_batch_select(), env_config(), threads, gk::kPkeGrain},
                                  n, cts, gk::kCt, pks, gk::kPk, ms, coins, kEc);
  return ok ? BABYKYBER_OK : BABYKYBER_ERR_KEY;
}

int babykyber_pke_decrypt_batch(size_t n, uint8_t* ms, const uint8_t* cts, const uint8_t* pke_sks,
                                unsigned threads) {
  if (n != 0 && (ms == nullptr || cts == nullptr || pke_sks == nullptr)) return BABYKYBER_ERR_ARGS;
  gk::pke_decrypt({gk::pke_batch_select(), env_config(), threads, gk::kPkeGrain}, n, ms, cts,
                  gk::kCt, pke_sks, gk::kSkEk);
  return BABYKYBER_OK;
}

const char* babykyber_batch_impl(void) { return gk::pke_batch_select().name; }

}  // extern "C"
