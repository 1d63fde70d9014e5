// Helpers shared by the tests: hex, random bytes, the set of cipher
// implementations this CPU can run, and loading the built provider.
#pragma once
#include <openssl/evp.h>
#include <openssl/provider.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ciphers/block_cipher.h"

namespace gpucrypto::test {

using Bytes = std::vector<uint8_t>;

Bytes hex(const std::string& s);            // "0a1b" -> {0x0a, 0x1b}; spaces ignored
std::string to_hex(const uint8_t* p, size_t n);
inline std::string to_hex(const Bytes& b) { return to_hex(b.data(), b.size()); }
Bytes random_bytes(size_t n);               // RAND_bytes from OpenSSL's default provider

// Every registered cipher (engine/cipher_registry.h) in ECB and CTR, and in
// one chained mode each (CBC, CFB, OFB in turn down the rows): the cases of
// the tests that do not need every mode of every cipher.
struct RegisteredCase {
  std::string evp_name;
  const CipherAlgo* algo;
};
const std::vector<RegisteredCase>& sampled_registered_ciphers();

// Implementations of `algo` that the CPU running the test supports.
std::vector<const CipherHw*> runnable_impls(const CipherAlgo& algo);

// RAII key schedule for direct calls to a CipherHw in unit tests.
class KeySchedule {
 public:
  KeySchedule(const CipherHw& hw, const Bytes& key, bool with_decrypt = true);
  ~KeySchedule();
  KeySchedule(const KeySchedule&) = delete;
  KeySchedule& operator=(const KeySchedule&) = delete;
  const void* get() const { return ks_; }

 private:
  void* ks_;
  size_t size_;
};

// Encrypt/decrypt/ctr through a hw hook with std::vector in and out.
// `in` must hold whole blocks of algo.block_bytes.
Bytes ecb_encrypt(const CipherAlgo& algo, const CipherHw& hw, const Bytes& key, const Bytes& pt);
Bytes ecb_decrypt(const CipherAlgo& algo, const CipherHw& hw, const Bytes& key, const Bytes& ct);
// CTR of any length: whole blocks through hw.ctr, a partial tail through one
// more keystream block. `iv` is the first counter block.
Bytes ctr_crypt(const CipherAlgo& algo, const CipherHw& hw, const Bytes& key, const Bytes& iv,
                const Bytes& in);

// A cipher context's state as the EVP parameters report it (num, padding, iv,
// updated-iv, ivlen, keylen, block size, mode), one line: compared between
// our provider and the default provider call for call.
std::string cipher_ctx_state(EVP_CIPHER_CTX* ctx);

// A cipher name as a GoogleTest parameter name: '-' becomes '_'.
inline std::string gtest_name(std::string name) {
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
}

// Directory with test/vectors (GPUCRYPTO_VECTORS_DIR or the default).
std::string vectors_dir();
// A known-answer file of test/vectors in the "name = value" layout
// (the ML-KEM ACVP files): records separated by blank lines, each opened by
// "test = <type>"; name = value lines outside records are globals; '#'
// lines are comments. `error` says why the file could not be read.
using KatRecord = std::map<std::string, std::string>;
struct KatFile {
  std::vector<KatRecord> records;
  std::map<std::string, std::string> globals;
  std::string error;
};
KatFile load_kat(const std::string& file);  // file name inside vectors_dir()
// The block-cipher vector files (skinny.txt, sm4.txt, aes.txt, ...): every
// blank-line-separated block of name = value lines is one record.
KatFile load_vector_blocks(const std::string& file);

// Directory holding gpucrypto.so (GPUCRYPTO_MODULE_DIR or the build dir).
std::string module_dir();

// A library context with gpucrypto + default loaded; owned, freed on destruction.
class ProviderFixture {
 public:
  ProviderFixture();
  ~ProviderFixture();
  ProviderFixture(const ProviderFixture&) = delete;
  ProviderFixture& operator=(const ProviderFixture&) = delete;
  OSSL_LIB_CTX* libctx() const { return libctx_; }
  OSSL_PROVIDER* provider() const { return gpu_; }
  OSSL_PROVIDER* default_provider() const { return def_; }
  bool ok() const { return gpu_ != nullptr && def_ != nullptr; }

 private:
  OSSL_LIB_CTX* libctx_ = nullptr;
  OSSL_PROVIDER* gpu_ = nullptr;
  OSSL_PROVIDER* def_ = nullptr;
};

// A provider instance loaded with GPUCRYPTO_THREADS / GPUCRYPTO_MT_MIN_BYTES
// set to these values (the provider reads its configuration when it is loaded
// into a library context; the variables are unset again afterwards).
std::unique_ptr<ProviderFixture> provider_with(const char* threads, const char* mt_min_bytes);

// A provider instance loaded with the environment variable `var` set to
// `value` (unset again afterwards), as provider_with.
std::unique_ptr<ProviderFixture> provider_with_env(const char* var, const char* value);

// The provider's buildinfo parameter (its effective settings), "" if none.
std::string provider_buildinfo(OSSL_PROVIDER* p);

// One-shot EVP encrypt/decrypt (update in `chunks` pieces, then final);
// returns false on any EVP error.
bool evp_crypt(OSSL_LIB_CTX* libctx, const char* cipher, const char* propq, bool enc,
               const Bytes& key, const Bytes& iv, const Bytes& in, Bytes* out,
               bool padding = true, const std::vector<size_t>& chunks = {});

// The default provider's rule for the `num` parameter in the libcrypto the
// test runs under, which gpucrypto follows (README, Differences from the
// default provider): true up to 3.0.19 (any value is taken), false from the
// fix for openssl#30284 on (3.5.9: only values below the EVP block size, so
// only 0 on the streams). default_differences_test checks that the default
// provider really behaves so.
bool default_num_unbounded();

// --- EVP key helpers shared by the KEM tests (babyKyber, ML-KEM) -----------
// Key generation of `name` from the gpucrypto provider, seeded through the
// "seed" param when `seed` is given; each step is an EXPECT; nullptr on failure.
EVP_PKEY* evp_keygen(OSSL_LIB_CTX* lib, const char* name, const Bytes* seed = nullptr);
// EVP_PKEY_fromdata of `name` from the gpucrypto provider; nullptr on refusal.
EVP_PKEY* evp_fromdata(OSSL_LIB_CTX* lib, const char* name, const OSSL_PARAM* params,
                       int selection);
// An octet-string parameter of `k` (size queried first); empty when absent.
Bytes evp_octets(EVP_PKEY* k, const char* name);
// Encapsulation after a size query: ct and ss get the sizes the provider says.
bool evp_encapsulate(OSSL_LIB_CTX* lib, EVP_PKEY* k, Bytes* ct, Bytes* ss);
// Decapsulation into an `outlen`-byte buffer; on success ss is resized to the
// length written.
bool evp_decapsulate(OSSL_LIB_CTX* lib, EVP_PKEY* k, const Bytes& ct, Bytes* ss, size_t outlen);
// OSSL_ENCODER to memory; empty when no encoder fits or encoding fails.
Bytes evp_encode(EVP_PKEY* k, int selection, const char* format, const char* structure);
// OSSL_DECODER from memory; nullptr on failure. `structure` and `keytype`
// may be nullptr (any); `propq` picks the decoders (e.g. "provider=gpucrypto":
// OpenSSL >= 3.5's default provider decodes ML-KEM keys too).
EVP_PKEY* evp_decode(OSSL_LIB_CTX* lib, const Bytes& in, int selection, const char* format,
                     const char* structure, const char* keytype, const char* propq = nullptr);

}  // namespace gpucrypto::test
