// gpucrypto-kem: babyKyber and ML-KEM-512/768/1024 key generation,
// encapsulation and decapsulation on files through EVP and the gpucrypto
// provider, and a benchmark of the batch APIs.
//
//   gpucrypto-kem keygen [-alg ALG] -out key.pem [-pubout pub.pem] [-seed <128 hex digits>]
//   gpucrypto-kem encap  -pubin pub.pem | -in key.pem  -ct ct.bin -secret ss.bin
//   gpucrypto-kem decap  -in key.pem -ct ct.bin -secret ss.bin
//   gpucrypto-kem bench  [-alg ALG] [-n 10000,100000,1000000] [-threads 1,2] [-reps 3]
// ALG: babyKyber (the default, for compatibility), ML-KEM-512, ML-KEM-768,
// ML-KEM-1024. encap/decap take the algorithm from the key file. Options for
// keygen/encap/decap: -provider-path DIR (where gpucrypto.so is; default:
// $GPUCRYPTO_MODULE_DIR, else OpenSSL's module directory).
//
// babyKyber has NO SECURITY (16 possible messages); see kem/README.md.
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gpucrypto/babykyber.h"
#include "gpucrypto/mlkem.h"

namespace {

using Bytes = std::vector<uint8_t>;

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "gpucrypto-kem: %s\n", msg.c_str());
  ERR_print_errors_fp(stderr);
  std::exit(1);
}

void usage() {
  std::fputs(
      "usage: gpucrypto-kem keygen [-alg ALG] -out key.pem [-pubout pub.pem] [-seed HEX128]\n"
      "       gpucrypto-kem encap  (-pubin pub.pem | -in key.pem) -ct ct.bin -secret ss.bin\n"
      "       gpucrypto-kem decap  -in key.pem -ct ct.bin -secret ss.bin\n"
      "       gpucrypto-kem bench  [-alg ALG] [-n N[,N...]] [-threads T[,T...]] [-reps R]\n"
      "  -alg ALG             babyKyber (default), ML-KEM-512, ML-KEM-768 or ML-KEM-1024\n"
      "  -provider-path DIR   directory holding gpucrypto.so\n"
      "babyKyber is a toy with NO SECURITY (16 possible messages).\n",
      stderr);
  std::exit(2);
}

// "-opt value" pairs after the subcommand.
std::map<std::string, std::string> parse_opts(int argc, char** argv) {
  std::map<std::string, std::string> o;
  for (int i = 2; i < argc; i += 2) {  // "-option value" pairs
    if (argv[i][0] != '-' || i + 1 >= argc) usage();
    o[argv[i]] = argv[i + 1];
  }
  return o;
}

Bytes read_file(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) die("cannot open " + path);
  Bytes b;
  uint8_t buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  std::fclose(f);
  return b;
}

void write_file(const std::string& path, const uint8_t* p, size_t n) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(p, 1, n, f) != n || std::fclose(f) != 0)
    die("cannot write " + path);
}

struct Providers {
  OSSL_LIB_CTX* libctx = nullptr;
  OSSL_PROVIDER* gpu = nullptr;
  OSSL_PROVIDER* def = nullptr;
  explicit Providers(const std::map<std::string, std::string>& o) {
    libctx = OSSL_LIB_CTX_new();
    if (libctx == nullptr) die("OSSL_LIB_CTX_new failed");
    std::string dir;
    if (auto it = o.find("-provider-path"); it != o.end()) dir = it->second;
    else if (const char* e = std::getenv("GPUCRYPTO_MODULE_DIR"); e != nullptr && *e != 0) dir = e;
    if (!dir.empty() && !OSSL_PROVIDER_set_default_search_path(libctx, dir.c_str()))
      die("bad -provider-path " + dir);
    if ((gpu = OSSL_PROVIDER_load(libctx, "gpucrypto")) == nullptr)
      die("cannot load the gpucrypto provider (use -provider-path)");
    if ((def = OSSL_PROVIDER_load(libctx, "default")) == nullptr)
      die("cannot load the default provider (babyKyber needs its SHA-3)");
  }
  ~Providers() {
    OSSL_PROVIDER_unload(gpu);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(libctx);
  }
};

Bytes parse_hex(const std::string& s) {
  if (s.size() % 2 != 0) die("odd number of hex digits");
  Bytes b;
  for (size_t i = 0; i < s.size(); i += 2) {
    char* end = nullptr;
    const std::string byte = s.substr(i, 2);
    const long v = std::strtol(byte.c_str(), &end, 16);
    if (end != byte.c_str() + 2) die("bad hex digits in " + s);
    b.push_back(uint8_t(v));
  }
  return b;
}

EVP_PKEY* load_key(const Providers& p, const std::string& path, bool pub) {
  BIO* bio = BIO_new_file(path.c_str(), "r");
  if (bio == nullptr) die("cannot open " + path);
  EVP_PKEY* k = pub ? PEM_read_bio_PUBKEY_ex(bio, nullptr, nullptr, nullptr, p.libctx, nullptr)
                    : PEM_read_bio_PrivateKey_ex(bio, nullptr, nullptr, nullptr, p.libctx, nullptr);
  BIO_free(bio);
  if (k == nullptr) die("cannot read a babyKyber or ML-KEM " + std::string(pub ? "public" : "private") +
                        " key from " + path);
  if (!EVP_PKEY_is_a(k, "babyKyber") && !EVP_PKEY_is_a(k, "ML-KEM-512") &&
      !EVP_PKEY_is_a(k, "ML-KEM-768") && !EVP_PKEY_is_a(k, "ML-KEM-1024"))
    die(path + " is not a babyKyber or ML-KEM key");
  return k;
}

// The -alg value in canonical spelling; babyKyber when absent.
std::string algorithm(const std::map<std::string, std::string>& o) {
  auto it = o.find("-alg");
  if (it == o.end()) return "babyKyber";
  for (const char* a : {"babyKyber", "ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"})
    if (OPENSSL_strcasecmp(it->second.c_str(), a) == 0) return a;
  for (const char* a : {"MLKEM512", "MLKEM768", "MLKEM1024"})
    if (OPENSSL_strcasecmp(it->second.c_str(), a) == 0) return std::string("ML-KEM-") + (a + 5);
  die("unknown -alg " + it->second + " (babyKyber, ML-KEM-512, ML-KEM-768, ML-KEM-1024)");
}

const std::string& need(const std::map<std::string, std::string>& o, const char* k) {
  auto it = o.find(k);
  if (it == o.end()) usage();
  return it->second;
}

int cmd_keygen(const std::map<std::string, std::string>& o) {
  Providers p(o);
  const std::string alg = algorithm(o);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(p.libctx, alg.c_str(), "provider=gpucrypto");
  if (ctx == nullptr || EVP_PKEY_keygen_init(ctx) != 1) die(alg + " keygen init failed");
  if (auto it = o.find("-seed"); it != o.end()) {
    Bytes seed = parse_hex(it->second);
    static_assert(BABYKYBER_KEYGEN_SEED_BYTES == MLKEM_KEYGEN_SEED_BYTES);
    if (seed.size() != BABYKYBER_KEYGEN_SEED_BYTES) die("-seed needs 64 bytes (128 hex digits)");
    OSSL_PARAM params[] = {OSSL_PARAM_octet_string("seed", seed.data(), seed.size()),
                           OSSL_PARAM_END};
    if (EVP_PKEY_CTX_set_params(ctx, params) != 1) die("cannot set the seed");
    OPENSSL_cleanse(seed.data(), seed.size());
  }
  EVP_PKEY* key = nullptr;
  if (EVP_PKEY_generate(ctx, &key) != 1) die(alg + " key generation failed");
  EVP_PKEY_CTX_free(ctx);
  BIO* out = BIO_new_file(need(o, "-out").c_str(), "w");
  if (out == nullptr ||
      !PEM_write_bio_PrivateKey_ex(out, key, nullptr, nullptr, 0, nullptr, nullptr, p.libctx, nullptr))
    die("cannot write " + need(o, "-out"));
  BIO_free(out);
  if (auto it = o.find("-pubout"); it != o.end()) {
    BIO* po = BIO_new_file(it->second.c_str(), "w");
    if (po == nullptr || !PEM_write_bio_PUBKEY_ex(po, key, p.libctx, nullptr))
      die("cannot write " + it->second);
    BIO_free(po);
  }
  EVP_PKEY_free(key);
  return 0;
}

int cmd_encap(const std::map<std::string, std::string>& o) {
  Providers p(o);
  const bool pubin = o.count("-pubin") != 0;
  EVP_PKEY* key = load_key(p, pubin ? need(o, "-pubin") : need(o, "-in"), pubin);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(p.libctx, key, nullptr);
  size_t ctlen = 0, sslen = 0;
  if (ctx == nullptr || EVP_PKEY_encapsulate_init(ctx, nullptr) != 1 ||
      EVP_PKEY_encapsulate(ctx, nullptr, &ctlen, nullptr, &sslen) != 1)
    die("encapsulation init failed");
  Bytes ct(ctlen), ss(sslen);
  if (EVP_PKEY_encapsulate(ctx, ct.data(), &ctlen, ss.data(), &sslen) != 1)
    die("encapsulation failed");
  write_file(need(o, "-ct"), ct.data(), ctlen);
  write_file(need(o, "-secret"), ss.data(), sslen);
  OPENSSL_cleanse(ss.data(), ss.size());
  EVP_PKEY_CTX_free(ctx);
  EVP_PKEY_free(key);
  return 0;
}

int cmd_decap(const std::map<std::string, std::string>& o) {
  Providers p(o);
  EVP_PKEY* key = load_key(p, need(o, "-in"), false);
  const Bytes ct = read_file(need(o, "-ct"));
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(p.libctx, key, nullptr);
  size_t sslen = 0;
  if (ctx == nullptr || EVP_PKEY_decapsulate_init(ctx, nullptr) != 1 ||
      EVP_PKEY_decapsulate(ctx, nullptr, &sslen, ct.data(), ct.size()) != 1)
    die("decapsulation init failed");
  Bytes ss(sslen);
  if (EVP_PKEY_decapsulate(ctx, ss.data(), &sslen, ct.data(), ct.size()) != 1)
    die("decapsulation failed");
  write_file(need(o, "-secret"), ss.data(), sslen);
  OPENSSL_cleanse(ss.data(), ss.size());
  EVP_PKEY_CTX_free(ctx);
  EVP_PKEY_free(key);
  return 0;
}

std::vector<size_t> parse_list(const std::string& s) {
  std::vector<size_t> v;
  size_t pos = 0;
  while (pos <= s.size()) {
    const size_t comma = s.find(',', pos);
    const std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    const unsigned long long x = std::strtoull(item.c_str(), &end, 10);
    if (item.empty() || *end != 0 || x == 0) die("bad number list: " + s);
    v.push_back(size_t(x));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return v;
}

double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Best of `reps` runs: wall-clock ops/s, and ops per CPU-second (what one
// core sustains, independent of other load on a shared machine).
struct Rate {
  double wall = 0, per_cpu = 0;
};
Rate measure(size_t n, int reps, const std::function<int()>& fn) {
  Rate best;
  for (int r = 0; r < reps; ++r) {
    const double c0 = process_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = fn();
    const auto t1 = std::chrono::steady_clock::now();
    const double c1 = process_cpu_seconds();
    if (rc != BABYKYBER_OK) die(std::string("batch call failed: ") + babykyber_strerror(rc));
    const double wall = std::chrono::duration<double>(t1 - t0).count();
    best.wall = std::max(best.wall, double(n) / wall);
    best.per_cpu = std::max(best.per_cpu, double(n) / std::max(c1 - c0, 1e-9));
  }
  return best;
}

// One row of the table: operation, batch size, threads, and fn's rates.
void row(const char* name, size_t n, size_t threads, int reps, const std::function<int()>& fn) {
  const Rate r = measure(n, reps, fn);
  std::printf("%-12s %9zu %7zu %14.0f %14.0f\n", name, n, threads, r.wall, r.per_cpu);
  std::fflush(stdout);
}

// ML-KEM batch API: keygen, encaps, decaps of n instances.
int bench_mlkem(const std::string& alg, const std::vector<size_t>& ns,
                const std::vector<size_t>& ts, int reps) {
  const int level = std::atoi(alg.c_str() + 7);
  const size_t ekb = mlkem_publickey_bytes(level), dkb = mlkem_secretkey_bytes(level),
               ctb = mlkem_ciphertext_bytes(level);
  std::printf("%s batch API (kernels: %s).\n", alg.c_str(), mlkem_impl());
  std::printf("ops/s = best of %d wall-clock runs; ops/cpu-s = per CPU-second of the process.\n\n",
              reps);
  std::printf("%-12s %9s %7s %14s %14s\n", "operation", "batch", "threads", "ops/s", "ops/cpu-s");
  auto check = [](int rc) {
    if (rc != MLKEM_OK) die(std::string("batch call failed: ") + mlkem_strerror(rc));
    return BABYKYBER_OK;
  };
  for (size_t n : ns) {
    Bytes ek(n * ekb), dk(n * dkb), ct(n * ctb), ss(n * 32), ss2(n * 32);
    for (size_t t : ts) {
      const unsigned th = unsigned(t);
      row("keygen", n, t, reps, [&] {
        return check(mlkem_keypair_batch(nullptr, level, n, ek.data(), dk.data(), nullptr, th));
      });
      row("encaps", n, t, reps, [&] {
        return check(mlkem_encaps_batch(nullptr, level, n, ct.data(), ss.data(), ek.data(),
                                        nullptr, th));
      });
      row("decaps", n, t, reps, [&] {
        return check(mlkem_decaps_batch(level, n, ss2.data(), ct.data(), dk.data(), th));
      });
      if (ss != ss2) die("ML-KEM round trip failed in the benchmark");
    }
  }
  return 0;
}

int cmd_bench(const std::map<std::string, std::string>& o) {
  const std::string alg = algorithm(o);
  if (alg != "babyKyber")
    return bench_mlkem(alg, parse_list(o.count("-n") ? o.at("-n") : "1000,10000"),
                       parse_list(o.count("-threads") ? o.at("-threads") : "1,2"),
                       int(parse_list(o.count("-reps") ? o.at("-reps") : "3")[0]));
  const auto ns = parse_list(o.count("-n") ? o.at("-n") : "10000,100000,1000000");
  const auto ts = parse_list(o.count("-threads") ? o.at("-threads") : "1,2");
  const int reps = int(parse_list(o.count("-reps") ? o.at("-reps") : "3")[0]);
  // Hashing comes from the default provider in this context.
  OSSL_LIB_CTX* libctx = OSSL_LIB_CTX_new();
  OSSL_PROVIDER* def = libctx != nullptr ? OSSL_PROVIDER_load(libctx, "default") : nullptr;
  if (def == nullptr) die("cannot load the default provider");
  std::printf("babyKyber batch API (vector path: %s). NO SECURITY: toy parameters.\n",
              babykyber_batch_impl());
  std::printf("ops/s = best of %d wall-clock runs; ops/cpu-s = per CPU-second of the process.\n"
              "Seed paper, GeForce MX150, bare PKE: 10,000,000 keygen/s, 5,000,000 enc/s, "
              "10,000,000 dec/s.\n\n",
              reps);
  std::printf("%-12s %9s %7s %14s %14s\n", "operation", "batch", "threads", "ops/s", "ops/cpu-s");
  for (size_t n : ns) {
    Bytes coins(n * BABYKYBER_PKE_KEYGEN_COINS_BYTES), ecoins(n * BABYKYBER_PKE_ENCRYPT_COINS_BYTES),
        ms(n), pk(n * BABYKYBER_PUBLICKEY_BYTES), psk(n * BABYKYBER_PKE_SECRETKEY_BYTES),
        sk(n * BABYKYBER_SECRETKEY_BYTES), ct(n * BABYKYBER_CIPHERTEXT_BYTES),
        ss(n * BABYKYBER_SHARED_SECRET_BYTES), m2(n);
    // The bare PKE's randomness is drawn once, outside the timed region.
    if (RAND_bytes(coins.data(), int(coins.size())) != 1 ||
        RAND_bytes(ecoins.data(), int(ecoins.size())) != 1 || RAND_bytes(ms.data(), int(n)) != 1)
      die("RAND_bytes failed");
    for (auto& m : ms) m &= 15;
    for (size_t t : ts) {
      const unsigned th = unsigned(t);
      row("pke-keygen", n, t, reps, [&] {
        return babykyber_pke_keygen_batch(n, pk.data(), psk.data(), coins.data(), th);
      });
      row("pke-encrypt", n, t, reps, [&] {
        return babykyber_pke_encrypt_batch(n, ct.data(), pk.data(), ms.data(), ecoins.data(), th);
      });
      row("pke-decrypt", n, t, reps, [&] {
        return babykyber_pke_decrypt_batch(n, m2.data(), ct.data(), psk.data(), th);
      });
      if (m2 != ms) die("PKE round trip failed in the benchmark");
      row("kem-keygen", n, t, reps, [&] {
        return babykyber_keypair_batch(libctx, n, pk.data(), sk.data(), nullptr, th);
      });
      row("kem-encaps", n, t, reps, [&] {
        return babykyber_encaps_batch(libctx, n, ct.data(), ss.data(), pk.data(), nullptr, th);
      });
      row("kem-decaps", n, t, reps, [&] {
        return babykyber_decaps_batch(libctx, n, ss.data(), ct.data(), sk.data(), th);
      });
    }
  }
  OSSL_PROVIDER_unload(def);
  OSSL_LIB_CTX_free(libctx);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) usage();
  const std::string cmd = argv[1];
  const auto opts = parse_opts(argc, argv);
  if (cmd == "keygen") return cmd_keygen(opts);
  if (cmd == "encap") return cmd_encap(opts);
  if (cmd == "decap") return cmd_decap(opts);
  if (cmd == "bench") return cmd_bench(opts);
  usage();
}
