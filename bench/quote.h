// A string in double quotes with \ and " escaped: the form OpenSSL config
// values (paths with '#', '$' or spaces survive the parser) and gnuplot
// strings both take.
#pragma once
#include <string>

namespace gpucrypto::bench {

inline std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '\\' || c == '"') q += '\\';
    q += c;
  }
  return q + "\"";
}

}  // namespace gpucrypto::bench
