#include "bench/report.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "bench/against.h"
#include "bench/harness.h"
#include "bench/quote.h"

namespace gpucrypto::bench {
namespace {

// Output files may name directories that do not exist yet.
void make_parent_dirs(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
}

std::string printf_string(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::vector<std::string> size_header(const std::vector<size_t>& sizes) {
  std::vector<std::string> h;
  for (size_t s : sizes) h.push_back(format_size(s));
  return h;
}

std::string samples_note(const ModeResult& m) {
  return "Median over samples taken round-robin across all rows; mode wall time " +
         printf_string("%.0f s", m.seconds) + ".";
}

std::string cycles_note(const ModeResult& m) {
  if (m.perf)
    return "Cycles: PMU core cycles of the calling thread (perf_event_open), user space.";
  if (std::isnan(m.core_hz)) return "Cycles: not available (no PMU access and no clock estimate).";
  return std::string("Cycles: ") + (m.cpu_time ? "thread CPU time" : "wall time") +
         " x estimated core clock " + printf_string("%.2f GHz", m.core_hz / 1e9) +
         " (dependent-add chain probe, median of " + std::to_string(m.hz_samples.size()) +
         " taken during the run); no PMU access.";
}

// How MB/s was timed and how much of a core the bench got.
std::string time_note(const ModeResult& m) {
  std::string s = m.cpu_time ? "MB/s per second of the calling thread's CPU time (as openssl speed; "
                               "--elapsed for wall-clock)."
                             : "MB/s per second of wall-clock time.";
  if (std::isfinite(m.cpu_share)) {
    s += " The bench thread ran " + printf_string("%.0f%%", 100 * m.cpu_share) +
         " of the wall time of its samples (median)";
    if (m.cpu_share >= 0.9) s += ".";
    else if (m.cpu_time)
      s += ": the machine is busy. CPU time leaves out the slices other processes took, not "
           "their effect on caches and memory bandwidth: rely on ratios.";
    else
      s += ": the machine is busy, so treat the figures as lower bounds and rely on ratios.";
  }
  return s;
}

const char* direction_of(const Row& r) { return r.decrypt ? "decrypt" : "encrypt"; }

// Grouped wide table: one row per implementation, one column per size; gcm
// mode (both directions in one run) adds a direction column.
Table wide_table(const ModeResult& m, const std::string& title, bool with_baseline,
                 bool (*keep)(const ModeResult&, const Row&),
                 std::string (*value)(const Row&, const Cell&)) {
  const bool with_direction = m.mode == "gcm";
  std::vector<std::string> header{"cipher", "impl"};
  if (with_direction) header.push_back("direction");
  if (with_baseline) header.push_back("compared with");
  for (auto& h : size_header(m.sizes)) header.push_back(h);
  Table t(title, header, int(header.size() - m.sizes.size()));
  std::string group;
  for (const Row& r : m.rows) {
    if (!keep(m, r)) continue;
    const std::string g = r.cipher + " " + direction_of(r);
    if (!group.empty() && g != group) t.add_gap();
    group = g;
    std::vector<std::string> cells{r.cipher, r.impl};
    if (with_direction) cells.push_back(direction_of(r));
    if (with_baseline) cells.push_back(m.rows[size_t(r.baseline)].label());
    for (size_t s : m.sizes) {
      const Cell* c = r.cell(s);
      cells.push_back(c != nullptr ? value(r, *c) : "-");
    }
    t.add_row(cells);
  }
  return t;
}

// What differs between the paths-style modes: the first table's title and
// what its note and the speed-up note say about the rows.
struct PathsText {
  std::string title, rows_note, baseline_title, baseline_note;
};

PathsText paths_text(const std::string& mode) {
  if (mode == "gcm")
    return {"GCM records (new IV + 13-byte AAD + update + final + 16-byte tag per message), "
            "MB/s, threads=1",
            "MB/s counts the payload bytes per message (not the AAD or the tag). Decryption "
            "sets the expected tag before the data and its final verifies it; the SM4-CTR "
            "yardstick streams (one context, update after update, as in paths).",
            "Speed-up vs the default provider (AES) or our streamed SM4-CTR (SM4-GCM) "
            "(throughput ratio)",
            "AES-128/192/256-GCM are compared with the default provider's same cipher. OpenSSL "
            "3.0 has no SM4-GCM: it is compared with our own SM4-CTR (backend auto, streamed), "
            "a yardstick for the cost of GHASH on top of the keystream (target: >= 0.7x), not a "
            "like-for-like claim."};
  const std::string ecb_note =
      "ECB processes the whole blocks in each size (RIJNDAEL-192: 4080 of 4096 bytes) and MB/s "
      "counts those; '-': less than one block.";
  const std::string baseline_title =
      "Speed-up vs the default provider (throughput ratio, >1 = ours faster)";
  const std::string baseline_note =
      "AES-128/192/256 and SM4 are compared with the default provider's same cipher and "
      "mode. SKINNY, RECTANGLE and RIJNDAEL have no default-provider counterpart: they are "
      "compared with the default AES-128 of the same mode, as a yardstick only.";
  if (mode == "messages")
    return {"Messages (new IV + update + final per message), MB/s, threads=1", ecb_note,
            baseline_title, baseline_note};
  if (mode == "rekey")
    return {"Re-keyed messages (new key + IV + update + final per message), MB/s, threads=1",
            ecb_note, baseline_title, baseline_note};
  return {"Throughput, MB/s (10^6 bytes/s), threads=1", ecb_note, baseline_title, baseline_note};
}

std::vector<Table> paths_tables(const ModeResult& m) {
  const PathsText text = paths_text(m.mode);
  std::vector<Table> out;
  out.push_back(wide_table(
      m, text.title, false, [](const ModeResult&, const Row&) { return true; },
      [](const Row&, const Cell& c) { return format_mbps(c.mbps); }));
  out.back().add_note(samples_note(m) + " " + time_note(m) + " " + text.rows_note);
  out.push_back(wide_table(
      m, "Cycles per byte", false, [](const ModeResult&, const Row&) { return true; },
      [](const Row&, const Cell& c) { return format_cpb(c.cpb); }));
  out.back().add_note(cycles_note(m));
  out.push_back(wide_table(
      m, text.baseline_title, true,
      [](const ModeResult&, const Row& r) { return r.baseline >= 0; },
      [](const Row&, const Cell& c) { return format_ratio(c.vs_baseline); }));
  out.back().add_note(text.baseline_note);
  out.push_back(wide_table(
      m, "Speed-up vs our ref back end (same cipher, same provider)", false,
      [](const ModeResult&, const Row& r) { return r.ref >= 0; },
      [](const Row&, const Cell& c) { return format_ratio(c.vs_ref); }));
  return out;
}

std::vector<Table> threads_tables(const ModeResult& m) {
  // Rows come in (1T, NT) pairs per cipher; the two probes' pairs are
  // recognised by their cipher names.
  const Row* probe1 = nullptr;
  const Row* probeN = nullptr;
  const Row* copy1 = nullptr;
  const Row* copyN = nullptr;
  int n = 2;
  for (const Row& r : m.rows) {
    if (r.provider == "gpucrypto") continue;
    const bool one = r.threads == 1;
    if (!one) n = r.threads;
    if (r.cipher == "xor-in-place") (one ? copy1 : copyN) = &r;
    else (one ? probe1 : probeN) = &r;
  }
  const std::string nt = std::to_string(n) + "T";
  const std::string probe = probe1 != nullptr ? probe1->cipher : std::string("?");
  auto mbps = [](const Row* r, size_t s) {
    const Cell* c = r != nullptr ? r->cell(s) : nullptr;
    return c != nullptr ? c->mbps : kNaN;
  };

  Table t("Thread scaling: threads=1 vs threads=" + std::to_string(n) + " (backend auto)",
          {"cipher", "size", "1T MB/s", nt + " MB/s", nt + "/1T", "compute probe " + nt + "/1T",
           "memory probe " + nt + "/1T"},
          2);
  std::string group;
  for (const Row& a : m.rows) {
    if (a.provider != "gpucrypto" || a.threads != 1) continue;
    const Row* b = nullptr;
    for (const Row& r : m.rows)
      if (r.provider == "gpucrypto" && r.cipher == a.cipher && r.threads != 1) b = &r;
    if (!group.empty()) t.add_gap();
    group = a.cipher;
    for (size_t s : m.sizes) {
      const double one = mbps(&a, s), many = mbps(b, s);
      t.add_row({a.cipher, format_size(s), format_mbps(one), format_mbps(many),
                 format_ratio(many / one), format_ratio(mbps(probeN, s) / mbps(probe1, s)),
                 format_ratio(mbps(copyN, s) / mbps(copy1, s))});
    }
  }
  t.add_note(
      "compute probe: the default provider's " + probe + " on " + std::to_string(n) +
      " threads with private buffers vs on one thread, measured in the same run: the scaling "
      "this machine gives to independent compute right now. Our " + nt + "/1T near the probe's "
      "means the split costs little; both below " + std::to_string(n) +
      ".00x mean the cores are shared (SMT siblings, other load) or memory bound. memory "
      "probe: in-place XOR over private buffers, n threads vs one (the ceiling for a "
      "memory-bound cipher).");
  Table p("Scaling probe and memory bandwidth reference",
          {"workload", "size", "1T MB/s", nt + " MB/s (sum)", nt + "/1T"}, 2);
  for (size_t s : m.sizes) {
    p.add_row({"default " + probe + " (private buffers)", format_size(s),
               format_mbps(mbps(probe1, s)), format_mbps(mbps(probeN, s)),
               format_ratio(mbps(probeN, s) / mbps(probe1, s))});
    p.add_row({"in-place XOR (private buffers)", format_size(s), format_mbps(mbps(copy1, s)),
               format_mbps(mbps(copyN, s)), format_ratio(mbps(copyN, s) / mbps(copy1, s))});
  }
  p.add_note("in-place XOR MB/s counts bytes passed over (read + write each once): a CTR "
             "cipher that reads and writes its buffer once cannot beat it beyond the caches. " +
             time_note(m));
  return {t, p};
}

std::vector<Table> seed_tables(const ModeResult& m) {
  std::vector<Table> out;
  std::vector<std::string> ciphers;
  for (const Row& r : m.rows)
    if (ciphers.empty() || ciphers.back() != r.cipher) ciphers.push_back(r.cipher);
  for (const auto& cipher : ciphers) {
    std::vector<const Row*> rows;
    for (const Row& r : m.rows)
      if (r.cipher == cipher) rows.push_back(&r);
    std::vector<std::string> header{"size"};
    for (const Row* r : rows) header.push_back(r->impl + " MB/s");
    for (const Row* r : rows)
      if (r->ref >= 0) header.push_back(r->impl + " x ref");
    Table t(cipher + ": throughput and speed-up vs ref", header, 1);
    for (size_t s : m.sizes) {
      std::vector<std::string> cells{format_size(s)};
      for (const Row* r : rows) {
        const Cell* c = r->cell(s);
        cells.push_back(c != nullptr ? format_mbps(c->mbps) : "-");
      }
      for (const Row* r : rows) {
        if (r->ref < 0) continue;
        const Cell* c = r->cell(s);
        cells.push_back(c != nullptr ? format_ratio(c->vs_ref) : "-");
      }
      t.add_row(cells);
    }
    out.push_back(std::move(t));
  }
  if (!out.empty()) out.back().add_note("threads=1. " + time_note(m));
  return out;
}

// --- JSON --------------------------------------------------------------------

std::string json_string(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += char(c);
    } else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += char(c);
    }
  }
  return o + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  return printf_string("%.6g", v);
}

template <class T, class F>
std::string json_array(const std::vector<T>& v, F f) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + f(v[i]);
  return s + "]";
}

// --- gnuplot -----------------------------------------------------------------

std::string find_gnuplot() {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(ss, dir, ':');) {
    const std::string p = (dir.empty() ? "." : dir) + "/gnuplot";
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Tick labels: "16", "4K", "16M" (the axis says bytes).
std::string short_size(size_t b) {
  std::string s = format_size(b);
  s = s.substr(0, s.find(' ')) + (s.find("KiB") != std::string::npos   ? "K"
                                  : s.find("MiB") != std::string::npos ? "M"
                                  : s.find("GiB") != std::string::npos ? "G"
                                                                       : "");
  return s;
}

std::string family_of(const std::string& cipher) { return cipher.substr(0, cipher.find('-')); }

bool is_mode(const std::string& cipher, const char* mode) {
  return cipher.size() > 4 && cipher.compare(cipher.size() - 3, 3, mode) == 0;
}

struct PlotLine {
  const Row* row;
  int column;  // in the data file
};

// A panel of a figure: its title and the rows it draws.
struct Panel {
  const char* title;
  bool (*has)(const Row&);
};

const Panel kModePanels[] = {{"ECB", [](const Row& r) { return is_mode(r.cipher, "ECB"); }},
                             {"CTR", [](const Row& r) { return is_mode(r.cipher, "CTR"); }}};
const Panel kDirectionPanels[] = {{"encrypt", [](const Row& r) { return !r.decrypt; }},
                                  {"decrypt", [](const Row& r) { return r.decrypt; }}};

// A cipher keeps its colour across the ECB and CTR panels (the mode is left
// out of the key); other names stay whole, so SM4-GCM and the SM4-CTR
// yardstick of the GCM figure differ. --against: one colour per cipher,
// shared by both providers (the dash tells them apart).
std::string colour_key(const ModeResult& m, const Row& r) {
  if (m.mode == "against") return r.cipher;
  const bool block_mode = is_mode(r.cipher, "ECB") || is_mode(r.cipher, "CTR");
  return r.provider + " " + (block_mode ? r.cipher.substr(0, r.cipher.size() - 4) : r.cipher);
}

// One figure: a data file (size + one column per row) and a script that
// draws the panels side by side, log-log, into SVG and PNG.
template <size_t N>
std::vector<std::string> plot_figure(const std::string& gnuplot, const std::string& base,
                                     const std::string& title, const ModeResult& m,
                                     const std::vector<const Row*>& rows,
                                     const Panel (&panel_set)[N], bool png_cairo) {
  make_parent_dirs(base);
  std::ofstream dat(base + ".dat");
  dat << "# size";
  for (const Row* r : rows) dat << "\t" << r->label() << (r->decrypt ? " decrypt" : "");
  dat << "\n";
  for (size_t s : m.sizes) {
    dat << s;
    for (const Row* r : rows) {
      const Cell* c = r->cell(s);
      dat << "\t" << (c != nullptr && std::isfinite(c->mbps) ? json_number(c->mbps) : "NaN");
    }
    dat << "\n";
  }
  dat.close();

  // Colour = cipher (same in both panels), dash = implementation (dotted
  // ref, dashed avx2, solid avx512, dash-dot default provider), so every
  // line stays distinct even in the 6-cipher RIJNDAEL figure.
  std::string body =
      "set linetype 1 lc rgb '#1f77b4'\nset linetype 2 lc rgb '#d62728'\n"
      "set linetype 3 lc rgb '#2ca02c'\nset linetype 4 lc rgb '#ff7f0e'\n"
      "set linetype 5 lc rgb '#9467bd'\nset linetype 6 lc rgb '#8c564b'\n"
      "set linetype 7 lc rgb '#e377c2'\nset linetype 8 lc rgb '#17becf'\n"
      "set linetype 9 lc rgb '#bcbd22'\nset linetype 10 lc rgb '#7f7f7f'\n"
      "set linetype 11 lc rgb '#000000'\nset linetype 12 lc rgb '#aec7e8'\n"
      "set linetype cycle 12\n"
      "set datafile missing \"NaN\"\nset logscale xy\nset grid\n"
      "set offsets graph 0.04, graph 0.04, 0, 0\n"
      "set ylabel \"MB/s (1 MB = 10^6 bytes)\"\n"
      "set key outside below Left reverse font \",9\" maxrows 12\nset xtics (";
  for (size_t i = 0; i < m.sizes.size(); ++i)
    body += (i ? ", " : "") + quoted(short_size(m.sizes[i])) + " " + std::to_string(m.sizes[i]);
  body += ")\n";
  auto has_data = [&](const Row* r) {
    for (size_t s : m.sizes)
      if (const Cell* c = r->cell(s); c != nullptr && std::isfinite(c->mbps)) return true;
    return false;
  };
  std::map<std::string, int> colour;
  std::vector<std::string> panels;
  size_t panel_lines = 0;
  for (const Panel& panel : panel_set) {
    std::string plot;
    size_t lines = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row* r = rows[i];
      // gnuplot rejects a plot whose points are all undefined.
      if (!panel.has(*r) || !has_data(r)) continue;
      int dt = 1, pt = 7;
      if (r->provider == "default") dt = 4, pt = 6;
      else if (r->impl == "ref") dt = 3, pt = 1;
      else if (r->impl == "avx2") dt = 2, pt = 2;
      else if (r->impl != "avx512") pt = 5;
      ++lines;
      const int lt = colour.emplace(colour_key(m, *r), int(colour.size()) % 12 + 1).first->second;
      plot += std::string(plot.empty() ? "plot " : ", \\\n     ") + quoted(base + ".dat") +
              " using 1:" + std::to_string(i + 2) + " with linespoints lt " + std::to_string(lt) +
              " dt " + std::to_string(dt) + " pt " + std::to_string(pt) + " lw 1.5 title " +
              quoted(r->label());
    }
    panel_lines = std::max(panel_lines, lines);
    if (!plot.empty())
      panels.push_back(std::string("set title \"") + panel.title + "\"\n" + plot + "\n");
  }
  if (panels.empty()) return {};
  body += "set multiplot layout 1," + std::to_string(panels.size()) + " title " + quoted(title) +
          "\n";
  for (const auto& p : panels) body += p;
  body += "unset multiplot\n";

  // Room under the panels for the key (up to 12 rows per column).
  const int height = int(560 + 18 * std::min<size_t>(panel_lines, 12));
  std::vector<std::string> written;
  struct Term {
    const char* ext;
    std::string spec;
  };
  const Term terms[] = {
      {"svg", "svg size 1400," + std::to_string(height) + " dynamic noenhanced background \"white\""},
      {"png", (png_cairo ? "pngcairo" : "png") + std::string(" size 1400,") +
                  std::to_string(height) + " noenhanced background \"white\""}};
  for (const Term& t : terms) {
    const std::string out = base + "." + t.ext;
    const std::string script = base + "." + t.ext + ".gp";
    std::ofstream gp(script);
    gp << "set terminal " << t.spec << "\nset output " << quoted(out) << "\n" << body;
    gp.close();
    const std::string cmd = shell_quote(gnuplot) + " " + shell_quote(script) + " 2>&1";
    if (std::system(cmd.c_str()) == 0) written.push_back(out);
    else std::fprintf(stderr, "warning: gnuplot failed on %s\n", script.c_str());
  }
  return written;
}

}  // namespace

std::string format_size(size_t b) {
  if (b >= (size_t(1) << 30) && b % (size_t(1) << 30) == 0) return std::to_string(b >> 30) + " GiB";
  if (b >= (size_t(1) << 20) && b % (size_t(1) << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= 1024 && b % 1024 == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " B";
}

std::string format_mbps(double v) {
  if (!std::isfinite(v)) return "-";
  return printf_string(v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
}

std::string format_cpb(double v) {
  if (!std::isfinite(v)) return "-";
  return printf_string(v < 1 ? "%.3f" : v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
}

std::string format_ratio(double v) {
  if (!std::isfinite(v)) return "-";
  // Two significant digits below 0.1 (0.0017x), not a useless "0.00x".
  return printf_string(v < 0.1 ? "%.2gx" : v < 10 ? "%.2fx" : v < 100 ? "%.1fx" : "%.0fx", v);
}

std::vector<Table> mode_tables(const ModeResult& m) {
  if (m.mode == "against" || m.mode == "against-kem") return against_tables(m);
  if (m.mode == "paths" || m.mode == "messages" || m.mode == "rekey" || m.mode == "gcm")
    return paths_tables(m);
  if (m.mode == "threads") return threads_tables(m);
  return seed_tables(m);
}

std::string header_text(const RunInfo& info, bool md) {
  const char* b = md ? "- " : "  ";
  std::string s = md ? "## gpucrypto-bench results\n\n" : "gpucrypto-bench\n";
  s += b + std::string("date: ") + info.date + "\n";
  s += b + std::string("cpu: ") + info.host_cpu + " (" + std::to_string(info.online_cpus) +
       " online)\n";
  s += b + std::string("openssl: ") + info.openssl + "\n";
  s += b + std::string("module: ") + info.module_path + "\n";
  if (!info.buildinfo.empty()) s += b + std::string("provider: ") + info.buildinfo + "\n";
  if (!info.method.empty()) {
    s += b + std::string("method: ") + info.method + "\n";
  } else {
    s += b + std::string("cycles: ") + info.cycles_source + "\n";
    s += b + std::string("samples: median of ") + std::to_string(info.reps) + " (" +
         std::to_string(info.large_reps) + " from 16 MiB up; fewer where they would exceed " +
         printf_string("%g", info.max_cell_time) + " s per cell), each >= " +
         printf_string("%g", info.min_time) +
         " s of back-to-back EVP_EncryptUpdate (--direction decrypt: EVP_DecryptUpdate) calls "
         "(messages, gcm: whole messages, see the tables), rows alternating round-robin\n";
  }
  s += b + std::string("command: ") + (md ? "`" + info.command_line + "`" : info.command_line) + "\n";
  for (const auto& n : info.notes) s += b + std::string("note: ") + n + "\n";
  return s;
}

void write_markdown(const std::string& path, const RunInfo& info,
                    const std::vector<ModeResult>& modes, const std::vector<std::string>& plots) {
  make_parent_dirs(path);
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << header_text(info, true) << "\n";
  for (const ModeResult& m : modes) {
    f << "## Mode: " << m.mode << "\n\n";
    for (const Table& t : mode_tables(m)) f << t.markdown();
  }
  const auto dir = std::filesystem::absolute(path).parent_path();
  for (const auto& p : plots) {
    if (p.size() < 4 || p.compare(p.size() - 4, 4, ".svg") != 0) continue;
    const auto rel = std::filesystem::absolute(p).lexically_relative(dir).string();
    f << "![" << std::filesystem::path(p).stem().string() << "](" << rel << ")\n\n";
  }
}

void write_json(const std::string& path, const RunInfo& info, const std::vector<ModeResult>& modes) {
  make_parent_dirs(path);
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << "{\n  \"tool\": \"gpucrypto-bench\",\n"
    << "  \"date\": " << json_string(info.date) << ",\n"
    << "  \"cpu\": " << json_string(info.host_cpu) << ",\n"
    << "  \"online_cpus\": " << info.online_cpus << ",\n"
    << "  \"openssl\": " << json_string(info.openssl) << ",\n"
    << "  \"module\": " << json_string(info.module_path) << ",\n"
    << "  \"buildinfo\": " << json_string(info.buildinfo) << ",\n"
    << "  \"cycles_source\": " << json_string(info.cycles_source) << ",\n"
    << "  \"method\": " << json_string(info.method) << ",\n"
    << "  \"command_line\": " << json_string(info.command_line) << ",\n"
    << "  \"reps\": " << info.reps << ",\n  \"large_reps\": " << info.large_reps << ",\n"
    << "  \"min_time_s\": " << json_number(info.min_time) << ",\n"
    << "  \"max_cell_time_s\": " << json_number(info.max_cell_time) << ",\n"
    << "  \"notes\": " << json_array(info.notes, json_string) << ",\n"
    << "  \"modes\": [";
  for (size_t mi = 0; mi < modes.size(); ++mi) {
    const ModeResult& m = modes[mi];
    const bool ops = m.unit == "ops/s";
    const bool against = m.mode.rfind("against", 0) == 0;
    f << (mi ? "," : "") << "\n    {\n      \"mode\": " << json_string(m.mode) << ",\n"
      << "      \"seconds\": " << json_number(m.seconds) << ",\n"
      << "      \"unit\": " << json_string(m.unit) << ",\n"
      << "      \"perf_cycles\": " << (m.perf ? "true" : "false") << ",\n"
      << "      \"time_basis\": " << (m.cpu_time ? "\"thread cpu\"" : "\"wall\"") << ",\n"
      << "      \"cpu_share\": " << json_number(m.cpu_share) << ",\n"
      << "      \"core_ghz_estimate\": " << json_number(m.core_hz / 1e9) << ",\n"
      << "      \"sizes\": " << json_array(m.sizes, [](size_t s) { return std::to_string(s); })
      << ",\n      \"rows\": [";
    for (size_t ri = 0; ri < m.rows.size(); ++ri) {
      const Row& r = m.rows[ri];
      auto label_of = [&](int i) { return i < 0 ? std::string("null") : json_string(m.rows[size_t(i)].label()); };
      f << (ri ? "," : "") << "\n        {\"cipher\": " << json_string(r.cipher)
        << ", \"impl\": " << json_string(r.impl) << ", \"provider\": " << json_string(r.provider)
        // --against: our configuration is the target openssl's (see buildinfo),
        // KEM rows have no direction and nothing counts cycles.
        << ", \"backend\": "
        << (r.provider == "gpucrypto" && !against ? json_string(r.settings.backend) : "null")
        << ", \"threads\": " << (against ? std::string("null") : std::to_string(r.threads))
        << ", \"direction\": " << (ops ? std::string("null") : json_string(direction_of(r)))
        << ", \"baseline\": " << label_of(r.baseline)
        << ", \"ref\": " << label_of(r.ref) << ", \"cycles\": "
        << (against ? std::string("null")
                    : json_string(r.perf_cycles ? "perf" : "time x core clock estimate"))
        << ", \"time_basis\": " << (r.cpu_time ? "\"thread cpu\"" : "\"wall\"")
        << ",\n         \"cells\": [";
      bool first = true;
      for (const auto& [size, c] : r.cells) {
        if (c.samples.empty()) continue;
        f << (first ? "" : ",") << "\n          {\"size\": " << size << ", \"iters\": " << c.iters
          << (ops ? ", \"ops_per_s\": " : ", \"mb_per_s\": ") << json_number(c.mbps)
          << ", \"cycles_per_byte\": " << json_number(c.cpb)
          << ", \"vs_baseline\": " << json_number(c.vs_baseline)
          << ", \"vs_ref\": " << json_number(c.vs_ref)
          << ", \"vs_baseline_min\": " << json_number(c.spread_lo)
          << ", \"vs_baseline_max\": " << json_number(c.spread_hi) << ", \"sample_seconds\": "
          << json_array(c.samples, [](const Sample& s) { return json_number(s.seconds); })
          << ", \"sample_cpu_seconds\": "
          << json_array(c.samples, [](const Sample& s) { return json_number(s.cpu_seconds); })
          << ", \"sample_cycles\": "
          << json_array(c.samples, [](const Sample& s) { return json_number(s.cycles); })
          << (ops ? ", \"ops_per_sample\": " : ", \"bytes_per_sample\": ")
          << uint64_t(c.samples[0].bytes);
        // --against: each openssl speed run counts its own calls.
        if (against)
          f << (ops ? ", \"sample_ops\": " : ", \"sample_bytes\": ")
            << json_array(c.samples, [](const Sample& s) { return json_number(s.bytes); });
        f << "}";
        first = false;
      }
      f << "]}";
    }
    f << "\n      ]\n    }";
  }
  f << "\n  ]\n}\n";
  if (!f) throw std::runtime_error("error writing " + path);
}

std::vector<std::string> write_plots(const std::string& prefix,
                                     const std::vector<ModeResult>& modes, std::string* why) {
  const std::string gnuplot = find_gnuplot();
  if (gnuplot.empty()) {
    *why = "gnuplot not found in PATH (apt-get install gnuplot-nox); plots skipped";
    return {};
  }
  const bool cairo =
      std::system((shell_quote(gnuplot) + " -e 'set terminal pngcairo' >/dev/null 2>&1").c_str()) == 0;
  std::vector<std::string> written;
  auto add = [&](const std::vector<std::string>& files) {
    written.insert(written.end(), files.begin(), files.end());
  };
  for (const ModeResult& m : modes) {
    if (m.mode == "paths") {
      std::vector<const Row*> defaults;
      std::vector<std::string> families;
      for (const Row& r : m.rows) {
        if (r.provider == "default") defaults.push_back(&r);
        else if (families.empty() || families.back() != family_of(r.cipher))
          families.push_back(family_of(r.cipher));
      }
      std::set<std::string> seen;
      for (const auto& fam : families) {
        if (!seen.insert(fam).second) continue;
        std::vector<const Row*> rows;
        for (const Row& r : m.rows)
          if (r.provider == "gpucrypto" && family_of(r.cipher) == fam) rows.push_back(&r);
        rows.insert(rows.end(), defaults.begin(), defaults.end());
        std::string lower;
        for (char c : fam) lower += char(std::tolower(static_cast<unsigned char>(c)));
        add(plot_figure(gnuplot, prefix + "-" + lower,
                        fam + ": MB/s vs bytes per EVP_EncryptUpdate call (threads=1; dash-dot: default provider)",
                        m, rows, kModePanels, cairo));
      }
    } else if (m.mode == "seed") {
      std::vector<const Row*> rows;
      for (const Row& r : m.rows) rows.push_back(&r);
      add(plot_figure(gnuplot, prefix + "-seed", "SKINNY: MB/s vs bytes per EVP_EncryptUpdate call (ref, avx2, avx512: threads=1)", m,
                      rows, kModePanels, cairo));
    } else if (m.mode == "against") {
      // One figure per key size (AES-128, ..., SM4): every mode, both
      // providers, encrypt and decrypt panels.
      std::vector<std::string> families;
      for (const Row& r : m.rows) {
        const std::string fam = r.cipher.substr(0, r.cipher.rfind('-'));
        if (std::find(families.begin(), families.end(), fam) == families.end())
          families.push_back(fam);
      }
      for (const auto& fam : families) {
        std::vector<const Row*> rows;
        for (const Row& r : m.rows)
          if (r.cipher.substr(0, r.cipher.rfind('-')) == fam) rows.push_back(&r);
        std::string lower;
        for (char c : fam) lower += char(std::tolower(static_cast<unsigned char>(c)));
        add(plot_figure(gnuplot, prefix + "-against-" + lower,
                        fam + " inside openssl speed -evp: MB/s vs bytes per call (solid: "
                        "gpucrypto, dash-dot: default provider)",
                        m, rows, kDirectionPanels, cairo));
      }
    } else if (m.mode == "gcm") {
      // What an application gets (backend auto) against the default
      // provider and the SM4-CTR yardstick; the back ends are in the tables.
      std::vector<const Row*> rows;
      for (const Row& r : m.rows)
        if (r.provider == "default" || r.impl == "auto" || !is_mode(r.cipher, "GCM"))
          rows.push_back(&r);
      add(plot_figure(gnuplot, prefix + "-gcm",
                      "GCM: MB/s vs bytes per message (new IV + 13-byte AAD + update + final + "
                      "tag; backend auto, threads=1; dash-dot: default provider; SM4-CTR: our "
                      "streamed yardstick)",
                      m, rows, kDirectionPanels, cairo));
    }
  }
  return written;
}

}  // namespace gpucrypto::bench
