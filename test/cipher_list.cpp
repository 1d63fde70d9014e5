// gpucrypto-cipher-list: every block-cipher name the provider registers, read
// from the registry (engine/cipher_registry.h), one line each:
//   NAME KEYBYTES IVBYTES BLOCKBYTES
// rows in registry order, modes in kModes order, a row's alias names after
// its own (--no-aliases leaves them out: the fuzz targets' order). The scripts
// that need the list take it from here instead of keeping a copy: the CLI
// tests (test/cli/common.sh.inc) and the fuzz seeds (test/fuzz/make_seeds.py).
#include <cstdio>
#include <cstring>

#include "engine/cipher_registry.h"

int main(int argc, char** argv) {
  const bool aliases = !(argc > 1 && std::strcmp(argv[1], "--no-aliases") == 0);
  for (const gpucrypto::CipherRow& r : gpucrypto::cipher_rows()) {
    const gpucrypto::CipherAlgo& a = r.algo();
    for (const char* base : {r.name, aliases ? r.alias : nullptr}) {
      if (base == nullptr) continue;
      for (gpucrypto::Mode m : gpucrypto::kModes) {
        if (!r.has(m)) continue;
        const size_t iv = m == gpucrypto::Mode::kECB ? 0 : a.block_bytes;
        std::printf("%s-%s %zu %zu %zu\n", base, gpucrypto::mode_suffix(m), a.key_bytes, iv,
                    a.block_bytes);
      }
    }
  }
  return 0;
}
