#include "bench/options.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "platform/byte_count.h"

#ifndef GPUCRYPTO_MODULE_DIR
#define GPUCRYPTO_MODULE_DIR "."
#endif

namespace gpucrypto::bench {
namespace {

constexpr const char* kUsage = R"(usage: gpucrypto-bench [options]

Measures every cipher of the gpucrypto provider through EVP_EncryptUpdate, next
to OpenSSL's default provider, in one run, alternating implementations and
reporting medians.

  --mode M           paths | threads | seed | messages | rekey | gcm | all, or a comma list
                     (default: paths; all = paths, threads, seed, gcm)
                       paths:   every cipher x back end (threads=1) + default provider
                       threads: threads=1 vs threads=N (backend auto), with a 2-core
                                compute probe (default SM4-CTR) and memory
                                probe (in-place XOR)
                       seed:    SKINNY ECB/CTR speed-up vs ref, 16 B ... 64 MiB
                       messages: as paths, but every call is a message of its own:
                                new IV (EVP_EncryptInit_ex2) + update + final
                                (not in "all")
                       rekey:   as messages, under a new key too (key setup
                                in every message; not in "all")
                       gcm:     AES-128/192/256-GCM and SM4-GCM records: new IV +
                                13-byte AAD + update + final + tag, encrypt and
                                decrypt, vs the default provider (AES) and our
                                streamed SM4-CTR (SM4-GCM)
  --filter REGEX     only ciphers whose name matches (ECMAScript, searched);
                     the default-provider baselines they need are kept
  --sizes LIST       comma list of sizes, k/m suffixes (default per mode)
  --reps N           timed samples per cell, median reported (default 5)
  --large-reps N     cap on samples for sizes >= 16 MiB (default 3)
  --min-time S       seconds per sample, at least one call (default 0.02)
  --max-cell-time S  time budget per row and size (default 1): slower cells take
                     fewer samples; a single call longer than S is sampled once
  --elapsed          paths/seed: MB/s from wall-clock time instead of the calling
                     thread's CPU time (threads mode always uses wall-clock time)
  --backends LIST    our back ends in paths/seed mode (default ref,avx2,avx512;
                     also auto, cuda)
  --direction D      encrypt | decrypt (default encrypt): which EVP update every
                     cipher row times (CBC/CFB decryption is the parallel one);
                     gcm mode always times both
  --threads N        threads mode: the parallel thread count (default: online
                     CPUs, at least 2)
  --mt-min-bytes N   threads mode: provider mt_min_bytes (default 0: always split)
  --json FILE        write every sample and median as JSON
  --markdown FILE    write the tables as Markdown
  --plot PREFIX      write PREFIX-<family>.svg/.png (needs gnuplot; skipped if absent)
  --module-dir DIR   directory holding gpucrypto.so (default: the build directory,
                     or $GPUCRYPTO_MODULE_DIR)
  --list             list the ciphers found in both providers and exit (with
                     --against: the operations both providers of that openssl have)

  --against CMD      instead of the modes above: ours vs the default provider
                     inside that OpenSSL's own `openssl speed` (-elapsed -mr),
                     every cipher and KEM both implement, encrypt and decrypt,
                     16 B ... 16 KiB and 1 MiB. CMD is an openssl program
                     (/usr/bin/openssl) or a runner prefix taking "openssl ..."
                     ("$HOME/.cache/gpucrypto-openssl-3.5/run openssl", or the
                     runner alone). With it: --filter (case-insensitive),
                     --sizes, --reps N rounds (default 3), --direction (default
                     both), --seconds S, --json, --markdown, --plot, --module-dir
  --seconds S        --against: openssl speed -seconds per run (default 1)
  --help
)";

bool parse_int(const std::string& s, int lo, int hi, int* out) {
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno != 0 || v < lo || v > hi) return false;
  *out = int(v);
  return true;
}

// Seconds as a decimal number in [0, max] (*out is written either way).
bool parse_seconds(const std::string& s, double max, double* out) {
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return !s.empty() && *end == '\0' && *out >= 0 && *out <= max;
}

bool takes_value(const std::string& opt) {
  static const char* const kValued[] = {
      "--mode",     "--filter",        "--sizes",     "--reps",       "--large-reps",
      "--min-time", "--max-cell-time", "--backends",  "--threads",    "--mt-min-bytes",
      "--json",     "--markdown",      "--plot",      "--module-dir", "--direction",
      "--against",  "--seconds"};
  for (const char* k : kValued)
    if (opt == k) return true;
  return false;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  for (std::string p; std::getline(ss, p, sep);)
    if (!p.empty()) parts.push_back(p);
  return parts;
}

}  // namespace

bool parse_byte_count(const std::string& s, size_t* out) {
  return gpucrypto::parse_byte_count(s, out, /*iec_units=*/true);
}

bool parse_options(int argc, char** argv, Options* opt, std::string* err) {
  if (const char* dir = std::getenv("GPUCRYPTO_MODULE_DIR"); dir != nullptr && *dir != '\0')
    opt->module_dir = dir;
  else
    opt->module_dir = GPUCRYPTO_MODULE_DIR;

  auto fail = [err](std::string msg) {
    *err = std::move(msg);
    return false;
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string value;
    // Accept both "--key value" and "--key=value".
    if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a.resize(eq);
    } else if (a != "--help" && a != "-h" && a != "--list" && a != "--elapsed") {
      if (!takes_value(a)) return fail("unknown option '" + a + "' (see --help)");
      if (i + 1 >= argc) {
        *err = "missing value for " + a;
        return false;
      }
      value = argv[++i];
    }
    // The switches and the options that only store their value.
    static constexpr std::pair<const char*, bool Options::*> kSwitches[] = {{"--list", &Options::list},
                                                                           {"--elapsed", &Options::elapsed}};
    static constexpr std::pair<const char*, std::string Options::*> kStored[] = {
        {"--json", &Options::json_path},
        {"--markdown", &Options::markdown_path},
        {"--plot", &Options::plot_prefix},
        {"--module-dir", &Options::module_dir}};
    auto named = [&a](const auto& e) { return a == e.first; };
    if (const auto* sw = std::find_if(std::begin(kSwitches), std::end(kSwitches), named); sw != std::end(kSwitches)) {
      opt->*sw->second = true;
      continue;
    }
    if (const auto* st = std::find_if(std::begin(kStored), std::end(kStored), named); st != std::end(kStored)) {
      opt->*st->second = value;
      continue;
    }
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      err->clear();
      return false;
    } else if (a == "--mode") {
      opt->mode_given = true;
      opt->modes.clear();
      for (const auto& m : split(value, ',')) {
        if (m == "all") {
          opt->modes = {"paths", "threads", "seed", "gcm"};
          break;
        }
        if (m != "paths" && m != "threads" && m != "seed" && m != "messages" && m != "rekey" &&
            m != "gcm") {
          *err = "unknown mode '" + m + "' (paths, threads, seed, messages, rekey, gcm, all)";
          return false;
        }
        opt->modes.push_back(m);
      }
      if (opt->modes.empty()) {
        *err = "--mode needs a value";
        return false;
      }
    } else if (a == "--filter") {
      try {
        opt->filter.emplace(value, std::regex::ECMAScript);
        opt->filter_text = value;
      } catch (const std::regex_error& e) {
        *err = "bad --filter regex: " + std::string(e.what());
        return false;
      }
    } else if (a == "--sizes") {
      opt->sizes.clear();
      for (const auto& s : split(value, ',')) {
        size_t n;
        if (!parse_byte_count(s, &n) || n == 0 || n > (size_t(1) << 30)) {
          *err = "bad size '" + s + "' (1 .. 1g, k/m/g suffixes)";
          return false;
        }
        opt->sizes.push_back(n);
      }
    } else if (a == "--reps") {
      if (!parse_int(value, 1, 1000, &opt->reps)) return fail("bad --reps");
      opt->reps_given = true;
    } else if (a == "--large-reps") {
      if (!parse_int(value, 1, 1000, &opt->large_reps)) return fail("bad --large-reps");
    } else if (a == "--min-time") {
      if (!parse_seconds(value, 60, &opt->min_time)) return fail("bad --min-time (seconds, 0 .. 60)");
    } else if (a == "--max-cell-time") {
      if (!parse_seconds(value, 3600, &opt->max_cell_time))
        return fail("bad --max-cell-time (seconds, 0 .. 3600)");
    } else if (a == "--direction") {
      if (value != "encrypt" && value != "decrypt") return fail("--direction takes encrypt or decrypt");
      opt->decrypt = value == "decrypt";
      opt->direction_given = true;
    } else if (a == "--backends") {
      opt->backends = split(value, ',');
      for (const auto& b : opt->backends)
        if (b != "auto" && b != "ref" && b != "avx2" && b != "avx512" && b != "cuda")
          return fail("unknown back end '" + b + "'");
      if (opt->backends.empty()) return fail("--backends needs a value");
    } else if (a == "--threads") {
      if (!parse_int(value, 2, 1024, &opt->threads)) return fail("bad --threads (2 .. 1024)");
    } else if (a == "--mt-min-bytes") {
      if (!parse_byte_count(value, &opt->mt_min_bytes)) return fail("bad --mt-min-bytes");
    } else if (a == "--against") {
      if (value.empty()) return fail("--against needs an openssl program or runner");
      opt->against = value;
    } else if (a == "--seconds") {
      if (!parse_int(value, 1, 3600, &opt->seconds)) return fail("bad --seconds (whole seconds, 1 .. 3600)");
    } else {
      *err = "unknown option '" + a + "' (see --help)";
      return false;
    }
  }
  if (!opt->against.empty() && opt->mode_given)
    return fail("--against is a mode of its own: drop --mode");
  return true;
}

}  // namespace gpucrypto::bench
