// GPU fallback through the whole provider: with the runtime's fault-injection
// switch (an emulated device — the test aid of gpu/gpu_backend.h — plus an
// injected CUDA error), large EVP calls still return the correct output and
// the "GPU disabled" warning is printed once. No real GPU is involved or
// claimed. Each case runs in a child process: the GPU runtime is per process.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "test/gpu_child.h"
#include "test/gpu_peers.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

// Runs `fault` in a child: large calls of several ciphers, checked against
// the default provider (AES, SM4) or against the CPU-only path. Returns the
// child's stderr; `ok` is whether every output matched.
std::string run_child(const std::string& fault, bool* ok) {
  std::string err;
  *ok = run_in_child([&] {
    setenv("GPUCRYPTO_GPU_FAULT", fault.c_str(), 1);
    setenv("GPUCRYPTO_GPU_MIN_BYTES", "64k", 1);
    setenv("GPUCRYPTO_MT_MIN_BYTES", "64k", 1);
    const GpuPeers peers;
    if (!peers.ok()) return 3;
    // CBC and CFB: their decryption runs on the GPU's ECB kernels (the XOR
    // on the CPU), so the decrypt-back goes through the device too.
    const GpuPeerCase cases[] = {{"AES-128-CTR", 16, 16, true}, {"AES-256-ECB", 32, 0, true},
                                 {"SM4-CTR", 16, 16, true},     {"SKINNY-128-256-CTR", 32, 16, false},
                                 {"RECTANGLE-80-ECB", 10, 0, false}, {"AES-128-CBC", 16, 16, true},
                                 {"SM4-CFB", 16, 16, true},     {"RECTANGLE-128-CBC", 16, 8, false}};
    bool good = true;
    for (int round = 0; round < 4; ++round) {  // repeated calls: failures pile up, then disable
      for (const GpuPeerCase& c : cases) good &= peers.matches(c, 256 * 1024 + 16, 0x80, true);
    }
    return good ? 0 : 1;
  }, &err) == 0;
  return err;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(GpuFallback, EmulatedDeviceWithoutFaultsIsCorrect) {
  bool ok = false;
  const std::string err = run_child("emulate", &ok);
  EXPECT_TRUE(ok) << err;
  EXPECT_GE(count(err, "via gpu"), 1u) << "the emulated device was not used: " << err;
  EXPECT_EQ(count(err, "GPU disabled"), 0u) << err;
}

TEST(GpuFallback, EveryInjectedFaultStillGivesCorrectOutputAndOneWarning) {
  for (const char* kind : {"alloc", "h2d", "launch", "d2h", "sync"}) {
    SCOPED_TRACE(kind);
    bool ok = false;
    const std::string err = run_child(std::string("emulate,") + kind, &ok);
    EXPECT_TRUE(ok) << err;
    EXPECT_EQ(count(err, "GPU disabled"), 1u) << err;
  }
}

TEST(GpuFallback, AFaultMidJobKeepsTheFinishedPart) {
  bool ok = false;
  const std::string err = run_child("emulate,d2h@3", &ok);  // only the 3rd copy-out fails
  EXPECT_TRUE(ok) << err;
  EXPECT_EQ(count(err, "GPU disabled"), 0u) << err;  // one transient error does not disable
}

}  // namespace
}  // namespace gpucrypto::test
