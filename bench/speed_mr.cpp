#include "bench/speed_mr.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace gpucrypto::bench {
namespace {

std::vector<std::string> split_colon(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string p; std::getline(ss, p, ':');) f.push_back(p);
  return f;
}

bool to_double(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return *end == '\0' || *end == '\r';
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    out.push_back(l);
  }
  return out;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") + 1 - b);
}

bool is_oid(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789.") == std::string::npos;
}

}  // namespace

std::map<size_t, SpeedCipherResult> parse_speed_cipher(const std::string& out,
                                                       const std::string& err) {
  std::vector<size_t> sizes;
  std::vector<double> rates;
  for (const auto& l : lines_of(out)) {
    if (l.rfind("+H:", 0) == 0) {
      sizes.clear();
      auto f = split_colon(l);
      for (size_t i = 1; i < f.size(); ++i) sizes.push_back(size_t(std::strtoull(f[i].c_str(), nullptr, 10)));
    } else if (l.rfind("+F:", 0) == 0) {
      // +F:index:NAME:r1:... ; the name has no ':' in practice, but take
      // the rates from the end to be safe.
      auto f = split_colon(l);
      rates.clear();
      if (f.size() < 3 + sizes.size()) continue;
      for (size_t i = f.size() - sizes.size(); i < f.size(); ++i) {
        double v;
        if (!to_double(f[i], &v)) {
          rates.clear();
          break;
        }
        rates.push_back(v);
      }
    }
  }
  std::map<size_t, SpeedCipherResult> res;
  if (sizes.empty() || rates.size() != sizes.size()) return res;
  for (size_t i = 0; i < sizes.size(); ++i) res[sizes[i]].bytes_per_s = rates[i];
  // +R lines follow the +DT line of their size, in +H order.
  size_t k = 0;
  for (const auto& l : lines_of(err)) {
    if (l.rfind("+R:", 0) != 0 || k >= sizes.size()) continue;
    auto f = split_colon(l);
    double c, s;
    if (f.size() >= 4 && to_double(f[1], &c) && to_double(f.back(), &s)) {
      res[sizes[k]].count = c;
      res[sizes[k]].seconds = s;
    }
    ++k;
  }
  return res;
}

SpeedKemResult parse_speed_kem(const std::string& out, const std::string& err) {
  SpeedKemResult r;
  for (const auto& l : lines_of(out)) {
    if (l.rfind("+F9:", 0) != 0) continue;
    auto f = split_colon(l);
    if (f.size() < 5) continue;
    bool ok = true;
    for (int i = 0; i < 3; ++i) ok = ok && to_double(f[f.size() - 3 + size_t(i)], &r.per_s[i]);
    r.ok = ok;
  }
  for (const auto& l : lines_of(err)) {
    for (int i = 0; i < 3; ++i) {
      const std::string tag = "+R" + std::to_string(15 + i) + ":";
      if (l.rfind(tag, 0) != 0) continue;
      auto f = split_colon(l);
      double c, s;
      if (f.size() >= 4 && to_double(f[1], &c) && to_double(f.back(), &s)) {
        r.count[i] = c;
        r.seconds[i] = s;
      }
    }
  }
  return r;
}

std::vector<std::vector<std::string>> parse_list_algorithms(const std::string& out,
                                                            const std::string& provider) {
  std::vector<std::vector<std::string>> algs;
  const std::string at = " @ " + provider;
  for (const auto& raw : lines_of(out)) {
    const std::string l = trim(raw);
    const size_t p = l.rfind(at);
    if (p == std::string::npos || p + at.size() != l.size()) continue;
    std::string names = trim(l.substr(0, p));
    if (names.size() >= 2 && names.front() == '{' && names.back() == '}')
      names = names.substr(1, names.size() - 2);
    std::vector<std::string> v;
    std::stringstream ss(names);
    for (std::string n; std::getline(ss, n, ',');)
      if (!trim(n).empty()) v.push_back(trim(n));
    if (!v.empty()) algs.push_back(v);
  }
  return algs;
}

std::string display_name(const std::vector<std::string>& names) {
  std::string best;
  for (const auto& n : names) {
    if (is_oid(n) || n.rfind("id-", 0) == 0 || n.find('-') == std::string::npos) continue;
    best = n;
    break;
  }
  if (best.empty()) {
    for (const auto& n : names)
      if (!is_oid(n)) return n;
    return names.empty() ? std::string() : names.front();
  }
  bool lower = true;
  for (char c : best) lower = lower && !std::isupper(static_cast<unsigned char>(c));
  if (lower)
    for (char& c : best) c = char(std::toupper(static_cast<unsigned char>(c)));
  return best;
}

}  // namespace gpucrypto::bench
