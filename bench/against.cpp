// --against: both providers inside another OpenSSL's `openssl speed`, one
// child process per (operation, sizes, provider, round), rounds alternating
// which provider runs first. See bench/README.md.
#include "bench/against.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "bench/harness.h"
#include "bench/options.h"
#include "bench/providers.h"
#include "bench/report.h"
#include "bench/spawn.h"
#include "bench/speed_mr.h"

namespace gpucrypto::bench {
namespace {

// openssl speed's default sizes (3.0 and 3.5 alike) plus 1 MiB, which
// takes an invocation of its own (-bytes 1048576).
const std::vector<size_t> kAgainstSizes{16, 64, 256, 1024, 8192, 16384, size_t(1) << 20};
const std::vector<size_t> kSpeedDefaultSizes{16, 64, 256, 1024, 8192, 16384};
const char* const kKemOps[3] = {"keygen", "encaps", "decaps"};
const char* const kProviders[2] = {"gpucrypto", "default"};  // row order within a pair
constexpr int kDefaultRounds = 3;

using Args = std::vector<std::string>;

Args operator+(Args a, const Args& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The last non-empty lines of a program's stderr, joined, for a message.
std::string last_lines(const std::string& s, size_t n) {
  std::vector<std::string> lines;
  size_t b = 0;
  while (b < s.size()) {
    size_t e = s.find('\n', b);
    if (e == std::string::npos) e = s.size();
    std::string l = s.substr(b, e - b);
    // openssl speed's progress lines are no explanation.
    if (!l.empty() && l[0] != '+' && l.rfind("You have chosen", 0) != 0) lines.push_back(l);
    b = e + 1;
  }
  if (lines.size() > n) lines.erase(lines.begin(), lines.end() - long(n));
  std::string o;
  for (const auto& l : lines) o += (o.empty() ? "" : " | ") + l;
  return o;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Target {
  Args argv;            // how to run openssl: the program, or a runner + "openssl"
  std::string version;  // `openssl version`
  bool kem_speed = false;  // `openssl speed -help` knows -kem-algorithms (3.5)
};

// A path to an executable file is one word (spaces and all); anything else
// is split like a shell command prefix. It is an openssl program if
// `PREFIX version` says "OpenSSL ...", else a runner if `PREFIX openssl
// version` does.
Target probe_target(const std::string& spec) {
  Args words;
  struct stat st {};
  if (stat(spec.c_str(), &st) == 0 && S_ISREG(st.st_mode)) words = {spec};
  else if (!split_command(spec, &words) || words.empty())
    throw std::runtime_error("--against '" + spec + "': empty, or an unterminated quote");
  std::string tried;
  for (bool runner : {false, true}) {
    Target t;
    t.argv = runner ? words + Args{"openssl"} : words;
    const Args cmd = t.argv + Args{"version"};
    const SpawnResult r = spawn_capture(cmd);
    tried += "\n  " + command_text(cmd) + ": " +
             (r.exit_code == 0 ? first_line(r.out) : r.error + " " + last_lines(r.err, 1));
    if (r.exit_code != 0 || r.out.rfind("OpenSSL ", 0) != 0) continue;
    t.version = first_line(r.out);
    const SpawnResult h = spawn_capture(t.argv + Args{"speed", "-help"});
    t.kem_speed = (h.out + h.err).find("-kem-algorithms") != std::string::npos;
    return t;
  }
  throw std::runtime_error("--against '" + spec +
                           "' is neither an openssl program nor a runner taking 'openssl ...'; "
                           "tried:" + tried);
}

Args provider_args(const std::string& provider, const std::string& module_dir) {
  return provider == "gpucrypto" ? Args{"-provider-path", module_dir, "-provider", "gpucrypto"}
                                 : Args{"-provider", "default"};
}

// `openssl list KIND` of one provider alone: each algorithm's names.
std::vector<std::vector<std::string>> list_algorithms(const Target& t, const std::string& kind,
                                                      const std::string& provider,
                                                      const std::string& module_dir) {
  const Args cmd = t.argv + Args{"list", kind} + provider_args(provider, module_dir);
  const SpawnResult r = spawn_capture(cmd);
  if (r.exit_code != 0)
    throw std::runtime_error(command_text(cmd) + ": " + r.error + " " + last_lines(r.err, 3));
  return parse_list_algorithms(r.out, provider);
}

// The algorithms of ours that the default provider has under one of their
// names, by our display name.
std::vector<std::string> common_algorithms(const std::vector<std::vector<std::string>>& ours,
                                           const std::vector<std::vector<std::string>>& theirs) {
  std::set<std::string> names;
  for (const auto& a : theirs)
    for (const auto& n : a) names.insert(lower(n));
  std::vector<std::string> out;
  for (const auto& a : ours) {
    bool hit = false;
    for (const auto& n : a) hit = hit || names.count(lower(n)) != 0;
    if (hit) out.push_back(display_name(a));
  }
  std::sort(out.begin(), out.end(), cipher_name_less);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// vendor, model name, family/model/stepping of the first CPU.
std::string cpu_identity() {
  std::ifstream f("/proc/cpuinfo");
  std::map<std::string, std::string> v;
  for (std::string line; std::getline(f, line) && !line.empty();) {
    const size_t c = line.find(':');
    if (c == std::string::npos) continue;
    std::string k = line.substr(0, c);
    while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.pop_back();
    v.emplace(k, c + 2 <= line.size() ? line.substr(c + 2) : "");
  }
  auto get = [&](const char* k) { return v.count(k) != 0 ? v[k] : std::string("?"); };
  return get("model name") + " (" + get("vendor_id") + ", family " + get("cpu family") +
         ", model " + get("model") + ", stepping " + get("stepping") + ")";
}

std::string provider_buildinfo(const Target& t, const std::string& module_dir) {
  const SpawnResult r =
      spawn_capture(t.argv + Args{"list", "-providers", "-verbose"} + provider_args("gpucrypto", module_dir));
  for (const char* key : {"build info: ", "buildinfo: "}) {
    const size_t p = r.out.find(key);
    if (p != std::string::npos) {
      const size_t b = p + std::string(key).size();
      return r.out.substr(b, r.out.find('\n', b) - b);
    }
  }
  return {};
}

// One openssl speed invocation per provider and round.
struct Job {
  ModeResult* m;
  std::string name;            // cipher or KEM, as passed to openssl speed
  bool kem = false;
  bool decrypt = false;
  std::vector<size_t> sizes;   // ciphers: the sizes this invocation measures
  bool default_sizes = false;  // ... which are speed's default list (no -bytes)
  size_t row = 0;              // first row: ours; +1 default (KEMs: +2 per op)
  double expected_s = 0;       // for the time estimate

  Args args() const {
    if (kem) return {"-kem-algorithms", name};
    Args a{"-evp", name};
    if (decrypt) a.push_back("-decrypt");
    if (!default_sizes) a = a + Args{"-bytes", std::to_string(sizes.front())};
    return a;
  }
};

// Per-round rates of a row and size (NaN: that invocation failed), to pair
// ours and the default provider's round by round.
using Rates = std::map<std::pair<const Row*, size_t>, std::vector<double>>;

void add_sample(Row* r, size_t key, double rate, double count, double seconds, double units,
                Rates* rates, int round) {
  Cell& c = r->cells[key];
  if (count < 0 || seconds <= 0) {  // no +R line: the nominal time
    seconds = 1;
    count = rate / units;
  }
  c.samples.push_back({seconds, kNaN, kNaN, count * units});
  auto& v = (*rates)[{r, key}];
  v.resize(size_t(round) + 1, kNaN);
  v[size_t(round)] = rate;
}

// Medians, ratios and the min-max of the paired per-round ratios.
void summarise(ModeResult* m, const Rates& rates, double scale) {
  auto rates_of = [&](const Row& r, size_t key) {
    auto it = rates.find({&r, key});
    return it == rates.end() ? std::vector<double>{} : it->second;
  };
  for (Row& r : m->rows)
    for (auto& [key, c] : r.cells) {
      std::vector<double> ok;
      for (double v : rates_of(r, key))
        if (std::isfinite(v)) ok.push_back(v);
      c.mbps = median(ok) / scale;
      c.reps = int(ok.size());
    }
  for (Row& r : m->rows) {
    if (r.baseline < 0) continue;
    const Row& d = m->rows[size_t(r.baseline)];
    for (auto& [key, c] : r.cells) {
      const Cell* dc = d.cell(key);
      if (dc == nullptr || c.samples.empty()) continue;
      c.vs_baseline = c.mbps / dc->mbps;
      const auto a = rates_of(r, key), b = rates_of(d, key);
      for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        if (!std::isfinite(a[i]) || !std::isfinite(b[i]) || b[i] <= 0) continue;
        const double q = a[i] / b[i];
        c.spread_lo = std::isfinite(c.spread_lo) ? std::min(c.spread_lo, q) : q;
        c.spread_hi = std::isfinite(c.spread_hi) ? std::max(c.spread_hi, q) : q;
      }
    }
  }
}

Row make_row(const std::string& name, int provider, bool decrypt) {
  Row r;
  r.cipher = name;
  r.impl = kProviders[provider];
  r.provider = kProviders[provider];
  r.decrypt = decrypt;
  return r;
}

std::string minutes(double s) {
  char b[32];
  if (s < 90) std::snprintf(b, sizeof b, "%.0f s", s);
  else std::snprintf(b, sizeof b, "%.0f min", s / 60);
  return b;
}

}  // namespace

std::vector<ModeResult> run_against(const Options& opt, RunInfo* info) {
  const auto module_dir = std::filesystem::absolute(opt.module_dir);
  const auto module = module_dir / "gpucrypto.so";
  if (!std::filesystem::exists(module))
    throw std::runtime_error(module.string() +
                             " not found: build the gpucrypto target or pass --module-dir");
  info->module_path = module.string();
  const Target t = probe_target(opt.against);
  const int rounds = opt.reps_given ? opt.reps : kDefaultRounds;
  info->reps = info->large_reps = rounds;
  info->host_cpu = cpu_identity();
  info->openssl = t.version + " (run as: " + command_text(t.argv) + ")";
  info->buildinfo = provider_buildinfo(t, module_dir.string());

  // Operation names are matched case-insensitively (openssl's are).
  std::optional<std::regex> filter;
  if (!opt.filter_text.empty())
    filter.emplace(opt.filter_text, std::regex::ECMAScript | std::regex::icase);
  auto wanted = [&](const std::string& n) { return !filter || std::regex_search(n, *filter); };

  std::vector<ModeResult> out(2);
  ModeResult& ciphers = out[0];
  ModeResult& kems = out[1];
  ciphers.mode = "against";
  kems.mode = "against-kem";
  ciphers.sizes = opt.sizes.empty() ? kAgainstSizes : opt.sizes;
  std::sort(ciphers.sizes.begin(), ciphers.sizes.end());
  ciphers.sizes.erase(std::unique(ciphers.sizes.begin(), ciphers.sizes.end()), ciphers.sizes.end());

  const std::string dir = module_dir.string();
  std::vector<std::string> cipher_names, kem_names;
  for (const auto& c : common_algorithms(list_algorithms(t, "-cipher-algorithms", "gpucrypto", dir),
                                         list_algorithms(t, "-cipher-algorithms", "default", dir)))
    if (wanted(c)) cipher_names.push_back(c);
  if (t.kem_speed) {
    for (const auto& k : common_algorithms(list_algorithms(t, "-kem-algorithms", "gpucrypto", dir),
                                           list_algorithms(t, "-kem-algorithms", "default", dir)))
      if (wanted(k)) kem_names.push_back(k);
  } else {
    info->notes.push_back("this openssl speed has no -kem-algorithms (OpenSSL < 3.5): no KEM rows");
  }
  if (opt.list) {
    std::printf("%s\nciphers in both providers%s:\n", t.version.c_str(), filter ? " (filtered)" : "");
    for (const auto& c : cipher_names) std::printf("  %s\n", c.c_str());
    std::printf("KEMs in both providers%s:%s\n", filter ? " (filtered)" : "",
                t.kem_speed ? "" : " (none: this openssl speed has no -kem-algorithms)");
    for (const auto& k : kem_names) std::printf("  %s\n", k.c_str());
    return {};
  }

  // Sizes: speed's default list in one invocation when all of it is wanted,
  // every other size with -bytes.
  std::vector<std::vector<size_t>> groups;
  const bool all_defaults =
      std::includes(ciphers.sizes.begin(), ciphers.sizes.end(), kSpeedDefaultSizes.begin(),
                    kSpeedDefaultSizes.end());
  if (all_defaults) groups.push_back(kSpeedDefaultSizes);
  for (size_t s : ciphers.sizes)
    if (!all_defaults || !std::binary_search(kSpeedDefaultSizes.begin(), kSpeedDefaultSizes.end(), s))
      groups.push_back({s});

  std::vector<bool> directions;
  if (!opt.direction_given || !opt.decrypt) directions.push_back(false);
  if (!opt.direction_given || opt.decrypt) directions.push_back(true);

  std::vector<Job> jobs;
  for (const auto& c : cipher_names)
    for (bool dec : directions) {
      const size_t row = ciphers.rows.size();
      for (int p = 0; p < 2; ++p) ciphers.rows.push_back(make_row(c, p, dec));
      ciphers.rows[row].baseline = int(row + 1);
      for (const auto& g : groups) {
        Job j{&ciphers, c, false, dec, g, g.size() > 1, row, 0};
        j.expected_s = double(opt.seconds) * double(g.size());
        jobs.push_back(j);
      }
    }
  for (const auto& k : kem_names) {
    const size_t row = kems.rows.size();
    for (const char* op : kKemOps)
      for (int p = 0; p < 2; ++p) {
        kems.rows.push_back(make_row(k + " " + op, p, false));
        if (p == 0) kems.rows.back().baseline = int(kems.rows.size());
      }
    Job j{&kems, k, true, false, {}, false, row, 3.0 * opt.seconds};
    jobs.push_back(j);
  }
  if (jobs.empty())
    throw std::runtime_error("--against: nothing to measure (filter '" + opt.filter_text +
                             "'; ciphers and KEMs in both providers: see --list)");

  double expected = 0;
  for (const Job& j : jobs) expected += 2 * rounds * (j.expected_s + 0.1);
  // The host's own runs load the default provider alone: with ours loaded
  // too, OpenSSL 3.5's hybrid KEMs fetch their ML-KEM half with no property
  // query and got ours (its SecP256r1MLKEM768 keygen then ran at ~2.3x its
  // own rate).
  const Args speed{"speed", "-elapsed", "-seconds", std::to_string(opt.seconds), "-mr"};
  const Args provider_run[2] = {
      speed + Args{"-provider-path", dir, "-provider", "gpucrypto", "-provider", "default",
                   "-propquery", "provider=gpucrypto"},
      speed + Args{"-provider", "default", "-propquery", "provider=default"}};
  info->method =
      "inside `" + command_text(t.argv + provider_run[0]) +
      " -evp CIPHER [-decrypt] [-bytes N]` (KEMs: `-kem-algorithms NAME`) for ours, and `" +
      command_text(t.argv + provider_run[1]) +
      " ...` for the host's default provider alone (so that its hybrids compose its own ML-KEM); " +
      std::to_string(rounds) +
      (rounds == 1 ? " round" : " rounds, each") + " running every operation with both providers back to back (which one first "
      "alternates); cells are medians, the spread is the min-max of the per-round ours/default "
      "ratios";
  info->notes.push_back(
      "our provider runs with its configuration as loaded by this openssl (buildinfo above; "
      "GPUCRYPTO_* variables in the environment apply): with threads > 1, calls of mt_min_bytes "
      "and more are split across threads, and -elapsed counts wall-clock time");
  if (t.kem_speed && kem_names.empty() && !filter)
    info->notes.push_back("no KEM is implemented by both providers");
  std::fputs(header_text(*info, false).c_str(), stdout);
  std::string names;
  for (const auto& n : cipher_names) names += (names.empty() ? "" : " ") + n;
  for (const auto& n : kem_names) names += (names.empty() ? "" : " ") + n;
  std::printf("  operations in both providers%s: %s\n", filter ? " (filtered)" : "", names.c_str());
  std::printf("  plan: %zu ciphers x %zu directions x %zu sizes, %zu KEMs, %d round%s: %zu "
              "openssl speed runs, about %s\n\n",
              cipher_names.size(), directions.size(), ciphers.sizes.size(), kem_names.size(), rounds,
              rounds == 1 ? "" : "s", jobs.size() * 2 * size_t(rounds), minutes(expected).c_str());
  std::fflush(stdout);

  Rates rates;
  const bool tty = isatty(STDERR_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  double expected_done = 0;
  size_t done = 0, failed = 0;
  const size_t total = jobs.size() * 2 * size_t(rounds);
  std::set<std::string> failure_notes;
  for (int round = 0; round < rounds; ++round) {
    for (size_t ji = 0; ji < jobs.size(); ++ji) {
      const Job& j = jobs[ji];
      const bool ours_first = (size_t(round) + ji) % 2 == 0;
      for (int q = 0; q < 2; ++q) {
        const int p = ours_first ? q : 1 - q;
        const Args cmd = t.argv + provider_run[p] + j.args();
        const auto t0 = std::chrono::steady_clock::now();
        const SpawnResult r = spawn_capture(cmd);
        j.m->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        bool ok = false;
        if (j.kem) {
          const SpeedKemResult k = parse_speed_kem(r.out, r.err);
          ok = r.exit_code == 0 && k.ok;
          for (int o = 0; ok && o < 3; ++o)
            add_sample(&j.m->rows[j.row + 2 * size_t(o) + size_t(p)], 0, k.per_s[o], k.count[o],
                       k.seconds[o], 1, &rates, round);
        } else {
          const auto res = parse_speed_cipher(r.out, r.err);
          ok = r.exit_code == 0;
          for (size_t s : j.sizes) ok = ok && res.count(s) != 0;
          for (size_t s : j.sizes) {
            if (!ok) break;
            const SpeedCipherResult& c = res.at(s);
            add_sample(&j.m->rows[j.row + size_t(p)], s, c.bytes_per_s, c.count, c.seconds,
                       double(s), &rates, round);
          }
        }
        ++done;
        if (!ok) {
          ++failed;
          std::string why = r.error.empty() ? "no result in its output" : r.error;
          const std::string detail = last_lines(r.err, 2);
          if (!detail.empty()) why += ": " + detail;
          failure_notes.insert("failed: `" + command_text(cmd) + "` (" + why + ")");
        }
        expected_done += j.expected_s + 0.1;
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double left = (expected - expected_done) * elapsed / std::max(expected_done, 1e-9);
        std::string what = j.name;
        if (!j.kem)
          what += std::string(j.decrypt ? " decrypt " : " encrypt ") + format_size(j.sizes.front()) +
                  (j.sizes.size() > 1 ? "..." + format_size(j.sizes.back()) : "");
        std::fprintf(stderr, "%s[against %zu/%zu] round %d: %s, %s%s (about %s left)%s",
                     tty ? "\r\033[K" : "", done, total, round + 1, what.c_str(), kProviders[p],
                     ok ? "" : " FAILED", minutes(std::max(left, 0.0)).c_str(), tty ? "" : "\n");
      }
    }
  }
  if (tty) std::fputs("\r\033[K", stderr);
  for (const auto& n : failure_notes) info->notes.push_back(n);
  if (failed == total)
    throw std::runtime_error("every openssl speed run failed; the first: " + *failure_notes.begin());
  summarise(&ciphers, rates, 1e6);
  summarise(&kems, rates, 1);
  kems.unit = "ops/s";
  out.erase(std::remove_if(out.begin(), out.end(), [](const ModeResult& m) { return m.rows.empty(); }),
            out.end());
  return out;
}

// --- tables ------------------------------------------------------------------

namespace {

std::string fixed(double v, int digits) {
  if (!std::isfinite(v)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

std::string spread_text(const Cell& c) {
  if (!std::isfinite(c.spread_lo)) return "-";
  if (c.spread_lo == c.spread_hi) return fixed(c.spread_lo, 2);
  return fixed(c.spread_lo, 2) + "-" + fixed(c.spread_hi, 2);
}

// "1.02 (4134/4050, 0.98-1.05)"
std::string cell_text(const Cell& ours, const Cell& theirs) {
  std::string s = fixed(ours.vs_baseline, 2) + " (" + format_mbps(ours.mbps) + "/" +
                  format_mbps(theirs.mbps);
  if (std::isfinite(ours.spread_lo) && ours.spread_lo != ours.spread_hi) s += ", " + spread_text(ours);
  return s + ")";
}

// Every cell below 1.0, with its spread.
std::string below_note(const std::vector<std::string>& below, size_t cells) {
  if (cells == 0) return "No cell has a result.";
  if (below.empty()) return "Below 1.0: none of the " + std::to_string(cells) + " cells.";
  std::string s = "Below 1.0: " + std::to_string(below.size()) + " of " + std::to_string(cells) +
                  " cells: ";
  for (size_t i = 0; i < below.size(); ++i) s += (i ? "; " : "") + below[i];
  return s + ".";
}

}  // namespace

std::vector<Table> against_tables(const ModeResult& m) {
  std::vector<Table> out;
  std::vector<std::string> below;
  size_t cells = 0;
  auto note_cell = [&](const std::string& what, const Cell& c) {
    if (!std::isfinite(c.vs_baseline)) return;
    ++cells;
    if (c.vs_baseline < 1.0)
      below.push_back(what + " " + fixed(c.vs_baseline, 3) + " [" + spread_text(c) + "]");
  };
  if (m.mode == "against") {
    std::vector<std::string> header{"operation", "direction"};
    for (size_t s : m.sizes) header.push_back(format_size(s));
    Table t("ours / default inside openssl speed -evp: ratio (ours MB/s / default MB/s, spread)",
            header, 2);
    std::string group;
    for (const Row& r : m.rows) {
      if (r.baseline < 0) continue;
      const Row& d = m.rows[size_t(r.baseline)];
      if (!group.empty() && group != r.cipher) t.add_gap();
      group = r.cipher;
      const char* dir = r.decrypt ? "decrypt" : "encrypt";
      std::vector<std::string> row{r.cipher, dir};
      for (size_t s : m.sizes) {
        const Cell* c = r.cell(s);
        const Cell* dc = d.cell(s);
        if (c == nullptr || dc == nullptr) {
          row.push_back("-");
          continue;
        }
        row.push_back(cell_text(*c, *dc));
        note_cell(r.cipher + " " + dir + " " + format_size(s), *c);
      }
      t.add_row(row);
    }
    t.add_note("Each cell: median MB/s of ours / median MB/s of the default provider (>1: ours "
               "faster), then both medians (10^6 bytes per second of wall-clock time) and, with "
               "more than one round, the lowest and highest ratio of a round (ours and default "
               "run back to back). '-': no result (see the notes in the header).");
    t.add_note(below_note(below, cells));
    out.push_back(std::move(t));
  } else if (m.mode == "against-kem") {
    Table t("ours / default inside openssl speed -kem-algorithms: operations per second",
            {"KEM", "operation", "ours/default", "ours ops/s", "default ops/s", "spread"}, 2);
    std::string group;
    for (const Row& r : m.rows) {
      if (r.baseline < 0) continue;
      const Row& d = m.rows[size_t(r.baseline)];
      const size_t sp = r.cipher.rfind(' ');
      const std::string kem = r.cipher.substr(0, sp), op = r.cipher.substr(sp + 1);
      if (!group.empty() && group != kem) t.add_gap();
      group = kem;
      const Cell* c = r.cell(0);
      const Cell* dc = d.cell(0);
      if (c == nullptr || dc == nullptr) {
        t.add_row({kem, op, "-", c ? format_mbps(c->mbps) : "-", dc ? format_mbps(dc->mbps) : "-", "-"});
        continue;
      }
      t.add_row({kem, op, fixed(c->vs_baseline, 2), format_mbps(c->mbps), format_mbps(dc->mbps),
                 spread_text(*c)});
      note_cell(r.cipher, *c);
    }
    t.add_note("ours/default: ratio of the median operations per second (>1: ours faster); "
               "spread: the lowest and highest ratio of a round.");
    t.add_note(below_note(below, cells));
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace gpucrypto::bench
