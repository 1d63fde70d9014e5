// For the GPU children of gpu_fallback_test and gpu_ct_evp_test: a provider
// instance that offloads to the (emulated) GPU and a CPU-only reference, and
// the check both tests run on them: a large call against the peer (the
// default provider where it has the cipher, else the CPU-only instance),
// then decrypted back.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "test/test_util.h"

namespace gpucrypto::test {

struct GpuPeerCase {
  const char* name;
  size_t key, iv;
  bool peer_default;  // the default provider implements it
};

// Built in the child once the GPU's environment is set (it stays set: the
// runtime reads it lazily, at the first large call).
struct GpuPeers {
  GpuPeers() {
    setenv("GPUCRYPTO_LOG", "1", 1);  // "via gpu" lines on stderr
    gpu = std::make_unique<ProviderFixture>();
    // The reference instance: CPU only (a backend cap excludes the GPU), one
    // thread.
    unsetenv("GPUCRYPTO_LOG");
    setenv("GPUCRYPTO_BACKEND", "avx512", 1);
    setenv("GPUCRYPTO_THREADS", "1", 1);
    cpu_only = std::make_unique<ProviderFixture>();
  }
  bool ok() const { return gpu->ok() && cpu_only->ok(); }

  // Encrypts `len` random bytes through the GPU instance (the IV all 0xff but
  // its last byte `iv_last`, so a counter wraps inside the call), compares
  // with the peer, and decrypts back.
  bool matches(const GpuPeerCase& c, size_t len, uint8_t iv_last, bool padding) const {
    Bytes key = random_bytes(c.key), iv(c.iv, 0xff), pt = random_bytes(len);
    if (!iv.empty()) iv.back() = iv_last;
    Bytes got, want, back;
    bool good = evp_crypt(gpu->libctx(), c.name, "provider=gpucrypto", true, key, iv, pt, &got, padding);
    good &= c.peer_default
                ? evp_crypt(gpu->libctx(), c.name, "provider=default", true, key, iv, pt, &want, padding)
                : evp_crypt(cpu_only->libctx(), c.name, "provider=gpucrypto", true, key, iv, pt, &want,
                            padding);
    good &= !got.empty() && got == want;
    good &= evp_crypt(gpu->libctx(), c.name, "provider=gpucrypto", false, key, iv, got, &back, padding);
    return good && back == pt;
  }

  std::unique_ptr<ProviderFixture> gpu, cpu_only;
};

}  // namespace gpucrypto::test
