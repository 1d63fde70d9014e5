// Command-line options of gpucrypto-bench.
#pragma once
#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace gpucrypto::bench {

struct Options {
  std::vector<std::string> modes{"paths"};  // paths, threads, seed, messages, gcm (run order)
  std::string filter_text;                   // empty: every cipher
  std::optional<std::regex> filter;
  std::vector<size_t> sizes;                 // empty: each mode's default sizes
  int reps = 5;                              // timed samples per cell (median taken)
  int large_reps = 3;                        // cap on reps for sizes >= kLargeSize
  double min_time = 0.02;                    // seconds per sample, at least one call
  double max_cell_time = 1.0;                // seconds of samples per (row, size), soft
  std::string json_path, markdown_path, plot_prefix;
  std::string module_dir;                    // holds gpucrypto.so
  std::vector<std::string> backends{"ref", "avx2", "avx512"};
  int threads = 0;                           // threads mode: the parallel count (0: auto)
  size_t mt_min_bytes = 0;                   // threads mode: provider mt_min_bytes
  bool list = false;                         // list the ciphers found and exit
  bool elapsed = false;                      // paths/seed: divide by wall time, not CPU time
  bool decrypt = false;                      // --direction decrypt: EVP_DecryptUpdate rows
  // --against: an openssl program or a runner prefix; empty: not that mode.
  std::string against;
  int seconds = 1;                           // --against: openssl speed -seconds
  bool reps_given = false, direction_given = false, mode_given = false;
};

inline constexpr size_t kLargeSize = size_t(16) << 20;

// Parses argv into *opt. Returns false with a message in *err (or an empty
// message after printing --help).
bool parse_options(int argc, char** argv, Options* opt, std::string* err);

// "16", "4k", "4KiB", "1m", "16MiB" -> bytes (powers of 1024).
bool parse_byte_count(const std::string& s, size_t* out);

}  // namespace gpucrypto::bench
