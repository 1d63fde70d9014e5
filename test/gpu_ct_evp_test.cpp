// The GPU kernel families through EVP, on the emulated device (the test aid
// of gpu/gpu_backend.h; nothing here is a GPU result): large calls of AES,
// SM4 and SKINNY with the default constant-time kernels and with
// gpu_kernels=tables, in both CTR transfer modes, against the default
// provider (AES, SM4) or the CPU-only path (SKINNY), and the setting in the
// provider's build info. Each case runs in a child: the GPU runtime is per
// process and reads its environment once.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include <cstdlib>
#include <string>

#include "test/gpu_child.h"
#include "test/gpu_peers.h"
#include "test/test_util.h"

namespace gpucrypto::test {
namespace {

// Exit codes of the child: 0 all matched, 1 a mismatch, 3 load failure,
// 4 build info without the expected setting.
int child(const char* kernels, const char* transfer) {
  setenv("GPUCRYPTO_GPU_FAULT", "emulate:2", 1);
  setenv("GPUCRYPTO_GPU_MIN_BYTES", "64k", 1);
  setenv("GPUCRYPTO_MT_MIN_BYTES", "64k", 1);
  setenv("GPUCRYPTO_GPU_CHUNK_BYTES", "65536", 1);
  setenv("GPUCRYPTO_GPU_CTR_TRANSFER", transfer, 1);
  if (kernels != nullptr) setenv("GPUCRYPTO_GPU_KERNELS", kernels, 1);
  const GpuPeers peers;
  if (!peers.ok()) return 3;
  const std::string want = std::string("gpu_kernels=") + (kernels != nullptr ? kernels : "constant-time");
  if (provider_buildinfo(peers.gpu->provider()).find(want) == std::string::npos) return 4;
  const GpuPeerCase cases[] = {{"AES-128-CTR", 16, 16, true}, {"AES-192-ECB", 24, 0, true},
                               {"AES-256-CTR", 32, 16, true}, {"SM4-CTR", 16, 16, true},
                               {"SM4-ECB", 16, 0, true},      {"SKINNY-128-384-CTR", 48, 16, false},
                               {"SKINNY-128-256-ECB", 32, 0, false}};
  bool good = true;
  // 0x10: the counter wraps inside the call.
  for (const GpuPeerCase& c : cases) good &= peers.matches(c, 300 * 1024 + 48, 0x10, false);
  return good ? 0 : 1;
}

int run(const char* kernels, const char* transfer, std::string* err) {
  return run_in_child([&] { return child(kernels, transfer); }, err);
}

TEST(GpuKernelFamiliesEvp, BothFamiliesAndTransferModesMatchThePeers) {
  for (const char* kernels : {static_cast<const char*>(nullptr), "constant-time", "tables"}) {
    for (const char* transfer : {"ship", "keystream"}) {
      SCOPED_TRACE(std::string(kernels ? kernels : "(default)") + " " + transfer);
      std::string err;
      EXPECT_EQ(run(kernels, transfer, &err), 0) << err;
      EXPECT_NE(err.find("via gpu"), std::string::npos) << "the emulated device was not used: " << err;
      EXPECT_EQ(err.find("GPU disabled"), std::string::npos) << err;
    }
  }
}

TEST(GpuKernelFamiliesEvp, MalformedSettingRefusesToLoad) {
  for (const char* bad : {"table", "TABLES", "constant time", ""}) {
    SCOPED_TRACE(bad);
    std::string err;
    const int rc = run_in_child(
        [&] {
          setenv("GPUCRYPTO_GPU_KERNELS", bad, 1);
          ProviderFixture prov;
          return prov.provider() == nullptr ? 0 : 1;
        },
        &err);
    EXPECT_EQ(rc, 0) << "loaded with GPUCRYPTO_GPU_KERNELS='" << bad << "'";
  }
}

}  // namespace
}  // namespace gpucrypto::test
