// Turning measurements into tables (console and Markdown), JSON and gnuplot
// plots.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "bench/table.h"

namespace gpucrypto::bench {

struct ModeResult;

// What the reader needs to judge the numbers.
struct RunInfo {
  std::string date;          // UTC, ISO 8601
  std::string host_cpu;      // /proc/cpuinfo model name
  unsigned online_cpus = 0;
  std::string openssl;       // OpenSSL_version(OPENSSL_VERSION)
  std::string module_path;
  std::string buildinfo;     // the provider's buildinfo (auto back end)
  std::string cycles_source; // one sentence: PMU or time x estimated clock
  std::string command_line;
  int reps = 0, large_reps = 0;
  double min_time = 0;
  double max_cell_time = 0;
  std::vector<std::string> notes;
  // --against: how the numbers were taken (replaces the cycles and samples
  // lines of the header).
  std::string method;
};

std::string format_size(size_t bytes);  // "16 B", "4 KiB", "16 MiB"
std::string format_mbps(double v);
std::string format_cpb(double v);
std::string format_ratio(double v);     // "3.41x", "-" when unknown

// The tables of one mode, in print order.
std::vector<Table> mode_tables(const ModeResult& m);

std::string header_text(const RunInfo& info, bool markdown);

void write_markdown(const std::string& path, const RunInfo& info,
                    const std::vector<ModeResult>& modes, const std::vector<std::string>& plots);
void write_json(const std::string& path, const RunInfo& info, const std::vector<ModeResult>& modes);

// Writes PREFIX-<name>.svg/.png per family (paths) and PREFIX-seed.*;
// returns the files written. Empty with *why set when gnuplot is missing.
std::vector<std::string> write_plots(const std::string& prefix,
                                     const std::vector<ModeResult>& modes, std::string* why);

}  // namespace gpucrypto::bench
