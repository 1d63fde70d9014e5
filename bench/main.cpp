// gpucrypto-bench: our provider's ciphers side by side with OpenSSL's
// default provider, through EVP, in one run. See bench/README.md.
#include <openssl/crypto.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <thread>

#include "bench/against.h"
#include "bench/clock.h"
#include "bench/harness.h"
#include "bench/options.h"
#include "bench/providers.h"
#include "bench/report.h"
#include "bench/workloads.h"
#include "engine/cipher_registry.h"

namespace gpucrypto::bench {
namespace {

constexpr const char* kOurs = "provider=gpucrypto";
constexpr const char* kDefault = "provider=default";

// The default provider's ciphers the tables compare with: the registry's
// rows it also has (engine/cipher_registry.h), in every mode we register.
std::vector<std::string> default_ciphers() {
  return gpucrypto::evp_names([](const gpucrypto::CipherRow& r, gpucrypto::Mode) { return r.in_default; });
}

const std::vector<size_t> kPathsSizes{16, 256, 4 << 10, 16 << 10, 1 << 20, 16 << 20};
const std::vector<size_t> kThreadsSizes{1 << 20, 16 << 20};
const std::vector<size_t> kMessagesSizes{16, 64, 256};
const std::vector<size_t> kGcmSizes{16, 256, 1 << 10, 16 << 10, 1 << 20};
const std::vector<size_t> kSeedSizes{16,       64,        256,       1 << 10, 4 << 10,  16 << 10,
                                     64 << 10, 256 << 10, 1 << 20,  4 << 20, 16 << 20, 64 << 20};

// The AEAD ciphers of --mode gcm: the registry's GCM rows. OpenSSL 3.0's
// default provider has no SM4-GCM: that one is compared with our own SM4-CTR,
// streamed as in paths (the target is SM4-GCM >= 0.7x our SM4-CTR).
std::vector<std::string> gcm_ciphers() {
  std::vector<std::string> v;
  for (const gpucrypto::CipherRow& r : gpucrypto::cipher_rows())
    if (r.gcm_names != nullptr) v.push_back(std::string(r.name) + "-GCM");
  return v;
}
constexpr const char* kGcmYardstick = "SM4-CTR";
constexpr const char* kYardstickImpl = "auto streamed (yardstick)";

std::string mode_suffix(const std::string& cipher) { return cipher.substr(cipher.rfind('-') + 1); }

bool is_gcm(const std::string& cipher) { return mode_suffix(cipher) == "GCM"; }

// gcm mode frames GCM calls as records; its SM4-CTR yardstick streams.
Calls calls_for(const std::string& mode, const std::string& cipher) {
  if (mode == "messages") return Calls::kMessage;
  if (mode == "rekey") return Calls::kRekey;
  return mode == "gcm" && is_gcm(cipher) ? Calls::kRecord : Calls::kStream;
}

bool same_in_default(const std::string& cipher) {
  const gpucrypto::CipherRow* r = gpucrypto::find_row(cipher);
  return r != nullptr && r->in_default;
}

// The default-provider cipher a row of ours is compared with.
std::string baseline_of(const std::string& cipher) {
  return same_in_default(cipher) ? cipher : "AES-128-" + mode_suffix(cipher);
}

class Bench {
 public:
  Bench(const Options& opt, RunInfo* info)
      : opt_(opt), info_(info), cache_(info->module_path) {}

  // Our ciphers (filtered) and the default ones available.
  void discover() {
    info_->buildinfo = provider_buildinfo(cache_.gpucrypto({"auto", {}, {}}), "gpucrypto");
    for (const auto& c : provider_ciphers(cache_.gpucrypto({"auto", 1, {}}), "gpucrypto"))
      if (!opt_.filter || std::regex_search(c, *opt_.filter)) ours_.push_back(c);
    for (const std::string& c : default_ciphers())
      if (cipher_available(cache_.default_only(), c, kDefault)) defaults_.insert(c);
    // GCM is not among provider_ciphers (they are the block modes paths times).
    for (const std::string& c : gcm_ciphers()) {
      if (cipher_available(cache_.default_only(), c, kDefault)) gcm_defaults_.insert(c);
      if ((!opt_.filter || std::regex_search(c, *opt_.filter)) &&
          cipher_available(cache_.gpucrypto({"auto", 1, {}}), c, kOurs))
        gcm_ours_.push_back(c);
    }
  }

  void list() const {
    std::printf("gpucrypto ciphers%s:\n", opt_.filter ? " (filtered)" : "");
    for (const auto& c : ours_) std::printf("  %s\n", c.c_str());
    for (const auto& c : gcm_ours_) std::printf("  %s\n", c.c_str());
    std::printf("default-provider baselines:\n");
    for (const auto& c : defaults_) std::printf("  %s\n", c.c_str());
    for (const auto& c : gcm_defaults_) std::printf("  %s\n", c.c_str());
  }

  ModeResult run_mode(const std::string& mode) {
    ModeResult m;
    m.mode = mode;
    m.sizes = !opt_.sizes.empty() ? opt_.sizes
              : mode == "paths"   ? kPathsSizes
              : mode == "threads"  ? kThreadsSizes
              : mode == "messages" || mode == "rekey" ? kMessagesSizes
              : mode == "gcm"      ? kGcmSizes
                                   : kSeedSizes;
    // Every paths/seed row runs on the calling thread alone: its CPU time
    // is the time the cipher took, whatever else the machine is doing. Not
    // so with a GPU back end, which works while the caller sleeps.
    const bool gpu = std::find(opt_.backends.begin(), opt_.backends.end(), "cuda") !=
                     opt_.backends.end();
    m.cpu_time = mode != "threads" && !opt_.elapsed && !gpu;
    if (mode == "paths" || mode == "messages" || mode == "rekey") plan_paths(&m);
    else if (mode == "threads") plan_threads(&m);
    else if (mode == "gcm") plan_gcm(&m);
    else plan_seed(&m);
    if (m.rows.empty()) {
      std::fprintf(stderr, "[%s] nothing to measure (filter '%s')\n", mode.c_str(),
                   opt_.filter_text.c_str());
      return m;
    }
    link_rows(&m);
    check(m);

    const size_t max_size = *std::max_element(m.sizes.begin(), m.sizes.end());
    IoBuffers io(max_size);
    for (Row& r : m.rows) {
      if (r.work) continue;  // probes bring their own
      const char* propq = r.provider == "default" ? kDefault : kOurs;
      r.work = std::make_unique<EvpCipherWorkload>(r.libctx, r.cipher, propq, io, r.decrypt,
                                                   calls_for(mode, r.cipher));
    }
    measure(&m, opt_, cc_);
    for (Row& r : m.rows) r.work.reset();
    return m;
  }

  const CycleCounter& cycles() const { return cc_; }

 private:
  Row our_row(const std::string& cipher, const std::string& impl, ProvSettings s) {
    Row r;
    r.cipher = cipher;
    r.impl = impl;
    r.provider = "gpucrypto";
    r.threads = s.threads.value_or(int(std::thread::hardware_concurrency()));
    r.libctx = cache_.gpucrypto(s);
    r.settings = std::move(s);
    r.decrypt = opt_.decrypt;
    return r;
  }

  Row default_row(const std::string& cipher, const std::string& impl = "default") {
    Row r;
    r.cipher = cipher;
    r.impl = impl;
    r.provider = "default";
    r.libctx = cache_.default_only();
    r.decrypt = opt_.decrypt;
    return r;
  }

  void plan_paths(ModeResult* m) {
    std::set<std::string> wanted_defaults;
    for (const auto& c : ours_) {
      if (defaults_.count(baseline_of(c)) != 0) wanted_defaults.insert(baseline_of(c));
      for (const auto& b : opt_.backends) m->rows.push_back(our_row(c, b, {b, 1, {}}));
    }
    for (const auto& d : defaults_)
      if (!opt_.filter || std::regex_search(d, *opt_.filter)) wanted_defaults.insert(d);
    for (const auto& d : wanted_defaults) m->rows.push_back(default_row(d));
    sort_rows(m);
  }

  // Both directions in one round-robin: per GCM cipher our back ends (and
  // auto, what an application gets) and the default provider's same cipher
  // or, for SM4-GCM, the SM4-CTR yardstick.
  void plan_gcm(ModeResult* m) {
    std::vector<std::string> impls = opt_.backends;
    if (std::find(impls.begin(), impls.end(), "auto") == impls.end()) impls.push_back("auto");
    for (bool dec : {false, true}) {
      auto add = [&](Row r) {
        r.decrypt = dec;
        m->rows.push_back(std::move(r));
      };
      for (const auto& c : gcm_ours_) {
        for (const auto& b : impls) add(our_row(c, b, {b, 1, {}}));
        add(gcm_defaults_.count(c) != 0 ? default_row(c)
                                        : our_row(kGcmYardstick, kYardstickImpl, {"auto", 1, {}}));
      }
    }
    sort_rows(m);
  }

  void plan_threads(ModeResult* m) {
    const int n = parallel_threads();
    const std::string nt = std::to_string(n) + "T";
    for (const auto& c : ours_) {
      m->rows.push_back(our_row(c, "auto 1T", {"auto", 1, {}}));
      m->rows.push_back(our_row(c, "auto " + nt, {"auto", n, opt_.mt_min_bytes}));
    }
    const size_t max_size = *std::max_element(m->sizes.begin(), m->sizes.end());
    // The probe: independent single-threaded work on every core.
    const std::string probe = defaults_.count("SM4-CTR") != 0 ? "SM4-CTR" : "AES-128-CTR";
    for (int t : {1, n}) {
      Row r = default_row(probe, "probe " + std::to_string(t) + "T");
      r.threads = t;
      r.work = std::make_unique<ParallelCipherWorkload>(r.libctx, probe, kDefault, t, max_size);
      m->rows.push_back(std::move(r));
    }
    for (int t : {1, n}) {
      Row r;
      r.cipher = "xor-in-place";
      r.impl = std::to_string(t) + "T";
      r.threads = t;
      r.work = std::make_unique<MemoryProbeWorkload>(t, max_size);
      m->rows.push_back(std::move(r));
    }
  }

  void plan_seed(ModeResult* m) {
    for (const auto& c : ours_) {
      if (c.rfind("SKINNY-", 0) != 0) continue;
      for (const auto& b : opt_.backends) m->rows.push_back(our_row(c, b, {b, 1, {}}));
    }
    sort_rows(m);
  }

  int parallel_threads() const {
    return opt_.threads != 0 ? opt_.threads
                             : std::max(2, int(std::thread::hardware_concurrency()));
  }

  // Encryption before decryption, then cipher groups in display order;
  // inside a group the default provider first, then our back ends in the
  // order asked for.
  void sort_rows(ModeResult* m) const {
    auto rank = [&](const Row& r) {
      if (r.provider == "default") return -1;
      auto it = std::find(opt_.backends.begin(), opt_.backends.end(), r.impl);
      return int(it - opt_.backends.begin());
    };
    std::stable_sort(m->rows.begin(), m->rows.end(), [&](const Row& a, const Row& b) {
      if (a.decrypt != b.decrypt) return b.decrypt;
      if (a.cipher != b.cipher) return cipher_name_less(a.cipher, b.cipher);
      return rank(a) < rank(b);
    });
  }

  // Baseline and ref indices (see Row).
  void link_rows(ModeResult* m) const {
    auto find = [&](auto pred) {
      for (size_t i = 0; i < m->rows.size(); ++i)
        if (pred(m->rows[i])) return int(i);
      return -1;
    };
    for (Row& r : m->rows) {
      if (m->mode == "threads") {
        if (r.threads != 1)
          r.baseline = find([&](const Row& o) {
            return o.cipher == r.cipher && o.provider == r.provider && o.threads == 1;
          });
        continue;
      }
      if (r.provider != "gpucrypto") continue;
      auto same_dir = [&](const Row& o) { return o.decrypt == r.decrypt; };
      if (m->mode == "paths" || m->mode == "messages" || m->mode == "rekey" ||
          (m->mode == "gcm" && is_gcm(r.cipher))) {
        const std::string base = m->mode == "gcm" ? r.cipher : baseline_of(r.cipher);
        r.baseline = find([&](const Row& o) {
          return same_dir(o) && o.provider == "default" && o.cipher == base;
        });
        if (r.baseline < 0 && m->mode == "gcm")
          r.baseline = find([&](const Row& o) {
            return same_dir(o) && o.cipher == kGcmYardstick && o.impl == kYardstickImpl;
          });
      }
      if (r.impl != "ref")
        r.ref = find([&](const Row& o) {
          return same_dir(o) && o.provider == "gpucrypto" && o.cipher == r.cipher && o.impl == "ref";
        });
    }
  }

  // Before timing: every row of ours must match our ref back end (and, for
  // AES and SM4, the default provider) on random data, at a small size and
  // at one large enough to take the threaded path. GCM rows: check_aead.
  void check(const ModeResult& m) {
    std::set<std::string> done;
    for (const Row& r : m.rows) {
      if (r.provider != "gpucrypto" || !done.insert(r.cipher).second) continue;
      if (is_gcm(r.cipher)) check_aead(m, r.cipher);
      else check_stream(m, r);
    }
  }

  // A block or stream cipher: ECB/CBC whole blocks, the others with a tail.
  void check_stream(const ModeResult& m, const Row& r) {
    OSSL_LIB_CTX* ref = cache_.gpucrypto({"ref", 1, {}});
    size_t key_len, iv_len, block;
    cipher_lengths(ref, r.cipher, kOurs, &key_len, &iv_len, &block);
    const bool ecb = block > 1;
    // ECB/CBC: whole blocks (24-byte blocks do not divide 1 MiB); streams: a
    // tail. 1 MiB reaches the pool; the sequential modes never split, so
    // they check 64 KiB (CBC/CFB encryption, OFB) or, one block call per
    // byte/bit, 16 KiB (CFB8/CFB1: the ref back end's 1 MiB takes seconds).
    const std::string mode = mode_suffix(r.cipher);
    const bool sequential = mode == "OFB" || (!r.decrypt && (mode == "CBC" || mode == "CFB"));
    const size_t big_base = mode == "CFB8" || mode == "CFB1" ? size_t(16) << 10
                            : sequential                     ? size_t(64) << 10
                                                             : size_t(1) << 20;
    const size_t big = ecb ? (big_base / block + 3) * block : big_base + 101;
    for (size_t len : {ecb ? 7 * block : size_t(101), big}) {
      std::vector<uint8_t> key(key_len), iv(iv_len), in(len);
      fill_pattern(key.data(), key.size(), rng_++);
      fill_pattern(iv.data(), iv.size(), rng_++);
      fill_pattern(in.data(), in.size(), rng_++);
      const bool dec = r.decrypt;
      const auto expect = encrypt_once(ref, r.cipher, kOurs, key, iv, in, dec);
      if (same_in_default(r.cipher) && defaults_.count(r.cipher) != 0)
        compare(r.cipher + " ref", expect,
                encrypt_once(cache_.default_only(), r.cipher, kDefault, key, iv, in, dec),
                "the default provider", len);
      for (const Row& o : m.rows)
        if (o.provider == "gpucrypto" && o.cipher == r.cipher && o.decrypt == dec && o.impl != "ref")
          compare(o.label(), encrypt_once(o.libctx, o.cipher, kOurs, key, iv, in, dec), expect,
                  "our ref back end", len);
    }
  }

  // GCM: every back end's ciphertext and tag equal the ref back end's, which
  // equal the default provider's where it has the cipher (not SM4-GCM), and
  // every back end opens the sealed record again (for SM4-GCM the only
  // check beyond ref agreement), at a small size and at 1 MiB + a tail.
  void check_aead(const ModeResult& m, const std::string& cipher) {
    OSSL_LIB_CTX* ref = cache_.gpucrypto({"ref", 1, {}});
    size_t key_len, iv_len, block;
    cipher_lengths(ref, cipher, kOurs, &key_len, &iv_len, &block);
    for (size_t len : {size_t(101), (size_t(1) << 20) + 101}) {
      std::vector<uint8_t> key(key_len), iv(iv_len), aad(kRecordAadLen), in(len);
      for (auto* v : {&key, &iv, &aad, &in}) fill_pattern(v->data(), v->size(), rng_++);
      const auto sealed = encrypt_once(ref, cipher, kOurs, key, iv, in, false, &aad);
      if (gcm_defaults_.count(cipher) != 0)
        compare(cipher + " ref", sealed,
                encrypt_once(cache_.default_only(), cipher, kDefault, key, iv, in, false, &aad),
                "the default provider (ciphertext + tag)", len);
      for (const Row& o : m.rows) {
        if (o.provider != "gpucrypto" || o.cipher != cipher || o.decrypt) continue;
        if (o.impl != "ref")
          compare(o.label(), encrypt_once(o.libctx, cipher, kOurs, key, iv, in, false, &aad),
                  sealed, "our ref back end (ciphertext + tag)", len);
        compare(o.label() + " decryption",
                encrypt_once(o.libctx, cipher, kOurs, key, iv, sealed, true, &aad), in,
                "the plaintext", len);
      }
    }
  }

  static void compare(const std::string& what, const std::vector<uint8_t>& got,
                      const std::vector<uint8_t>& want, const std::string& against, size_t len) {
    if (got == want) return;
    size_t i = 0;
    while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
    throw std::runtime_error("correctness check failed: " + what + " differs from " + against +
                             " on " + std::to_string(len) + " random bytes (first difference at "
                             "byte " + std::to_string(i) + ", output sizes " +
                             std::to_string(got.size()) + "/" + std::to_string(want.size()) + ")");
  }

  const Options& opt_;
  RunInfo* info_;
  ContextCache cache_;
  CycleCounter cc_;
  std::vector<std::string> ours_;
  std::set<std::string> defaults_;
  std::vector<std::string> gcm_ours_;  // --mode gcm, filtered
  std::set<std::string> gcm_defaults_;
  uint64_t rng_ = 1;
};

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

// Plots, Markdown and JSON of a finished run.
void write_outputs(const Options& opt, const RunInfo& info, const std::vector<ModeResult>& results) {
  std::vector<std::string> plots;
  if (!opt.plot_prefix.empty()) {
    std::string why;
    plots = write_plots(opt.plot_prefix, results, &why);
    if (!why.empty()) std::fprintf(stderr, "note: %s\n", why.c_str());
    for (const auto& p : plots) std::printf("wrote %s\n", p.c_str());
  }
  if (!opt.markdown_path.empty()) {
    write_markdown(opt.markdown_path, info, results, plots);
    std::printf("wrote %s\n", opt.markdown_path.c_str());
  }
  if (!opt.json_path.empty()) {
    write_json(opt.json_path, info, results);
    std::printf("wrote %s\n", opt.json_path.c_str());
  }
}

void print_tables(const ModeResult& m) {
  for (const Table& t : mode_tables(m))
    if (!t.empty()) std::printf("%s\n", t.console().c_str());
  std::fflush(stdout);
}

int run(const Options& opt, int argc, char** argv) {
  RunInfo info;
  info.date = utc_now();
  info.host_cpu = cpu_model();
  info.online_cpus = std::thread::hardware_concurrency();
  info.openssl = OpenSSL_version(OPENSSL_VERSION);
  info.reps = opt.reps;
  info.large_reps = std::min(opt.reps, opt.large_reps);
  info.min_time = opt.min_time;
  info.max_cell_time = opt.max_cell_time;
  for (int i = 0; i < argc; ++i) info.command_line += (i ? " " : "") + std::string(argv[i]);

  // Another openssl's speed does the timing; our provider there sees the
  // environment as any application would.
  if (!opt.against.empty()) {
    const std::vector<ModeResult> results = run_against(opt, &info);
    for (const ModeResult& m : results) print_tables(m);
    write_outputs(opt, info, results);
    return 0;
  }

  if (opt.decrypt)
    info.notes.push_back("direction: decrypt (every cipher row times EVP_DecryptUpdate, padding "
                         "off; gcm mode times both directions anyway)");

  // Each library context carries its own configuration; environment
  // overrides would silently apply to all of them.
  for (const char* var : {"GPUCRYPTO_BACKEND", "GPUCRYPTO_THREADS", "GPUCRYPTO_MT_MIN_BYTES",
                          "GPUCRYPTO_GPU_MIN_BYTES"}) {
    if (const char* v = std::getenv(var); v != nullptr) {
      info.notes.push_back(std::string("ignored ") + var + "=" + v +
                           " (the bench configures every context itself)");
      unsetenv(var);
    }
  }

  const auto module = std::filesystem::absolute(std::filesystem::path(opt.module_dir) / "gpucrypto.so");
  if (!std::filesystem::exists(module))
    throw std::runtime_error(module.string() +
                             " not found: build the gpucrypto target or pass --module-dir");
  info.module_path = module.string();

  Bench bench(opt, &info);
  bench.discover();
  if (opt.list) {
    bench.list();
    return 0;
  }
  if (bench.cycles().available()) {
    info.cycles_source = "PMU core cycles of the calling thread (perf_event_open, user space)";
  } else {
    info.cycles_source = "thread CPU time (wall time for multi-threaded rows) x core clock "
                         "estimated by a dependent-add chain (about " +
                         std::to_string(int(estimate_core_hz() / 1e6)) + " MHz now; " +
                         bench.cycles().unavailable_reason() + ")";
  }
  std::fputs(header_text(info, false).c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);

  std::vector<ModeResult> results;
  for (const auto& mode : opt.modes) {
    results.push_back(bench.run_mode(mode));
    print_tables(results.back());
  }
  write_outputs(opt, info, results);
  return 0;
}

}  // namespace
}  // namespace gpucrypto::bench

int main(int argc, char** argv) {
  gpucrypto::bench::Options opt;
  std::string err;
  if (!gpucrypto::bench::parse_options(argc, argv, &opt, &err)) {
    if (err.empty()) return 0;  // --help
    std::fprintf(stderr, "gpucrypto-bench: %s\n", err.c_str());
    return 2;
  }
  try {
    return gpucrypto::bench::run(opt, argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpucrypto-bench: error: %s\n", e.what());
    return 1;
  }
}
