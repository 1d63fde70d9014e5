// Byte counts as configuration files and command lines write them: a decimal
// number with an optional k/m/g suffix (powers of 1024, either case); with
// `iec_units` also B, KiB, MiB, GiB (the bench's tables print those). False
// for anything else or an overflow. Header-only, plain C++ (not for ISA files).
#pragma once
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <string>

namespace gpucrypto {

inline bool parse_byte_count(const std::string& s, size_t* out, bool iec_units = false) {
  if (s.empty() || s[0] < '0' || s[0] > '9') return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0) return false;
  const std::string suffix(end);
  unsigned shift = 0;
  const auto is = [&](const char* a, const char* b, const char* iec) {
    return suffix == a || suffix == b || (iec_units && suffix == iec);
  };
  if (suffix.empty() || (iec_units && suffix == "B")) shift = 0;
  else if (is("k", "K", "KiB")) shift = 10;
  else if (is("m", "M", "MiB")) shift = 20;
  else if (is("g", "G", "GiB")) shift = 30;
  else return false;
  if (shift != 0 && v > (~0ull >> shift)) return false;
  *out = size_t(v << shift);
  return true;
}

}  // namespace gpucrypto
