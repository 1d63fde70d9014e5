// Parsing what `openssl speed -mr` and `openssl list -...-algorithms` print
// (OpenSSL 3.0 and 3.5 formats; see bench/README.md, "--against").
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace gpucrypto::bench {

// One size of an `openssl speed -mr -evp CIPHER` run.
struct SpeedCipherResult {
  double bytes_per_s = 0;  // the +F line
  double count = -1;       // the +R line's calls and seconds (-1: absent)
  double seconds = -1;
};

// "+H:16:64:..." (stdout) names the sizes, "+F:n:NAME:r1:r2:..." (stdout)
// gives bytes per second per size, "+R:count:NAME:seconds" (stderr, one per
// size in +H order) the calls made. Empty if there is no +H/+F pair.
std::map<size_t, SpeedCipherResult> parse_speed_cipher(const std::string& out,
                                                       const std::string& err);

// One KEM of an `openssl speed -mr -kem-algorithms NAME` run (3.5):
// "+F9:n:keygen/s:encaps/s:decaps/s" (stdout) and "+R15/16/17:count:NAME:s"
// (stderr). ok is false without a +F9 line.
struct SpeedKemResult {
  bool ok = false;
  double per_s[3] = {0, 0, 0};  // keygen, encaps, decaps
  double count[3] = {-1, -1, -1}, seconds[3] = {-1, -1, -1};
};
SpeedKemResult parse_speed_kem(const std::string& out, const std::string& err);

// The "Provided" lines of `openssl list -cipher-algorithms` (or -kem-...):
// "  { OID, name1, name2 } @ provider" or "  NAME @ provider"; one entry per
// algorithm, all its names, for lines of `provider` only.
std::vector<std::vector<std::string>> parse_list_algorithms(const std::string& out,
                                                            const std::string& provider);

// The name to show and pass to openssl speed: the first that is not an
// OID, does not start with "id-" and has a '-' ({SM4, SM4-CBC} -> SM4-CBC,
// {SM4-OFB, SM4-OFB128} -> SM4-OFB), else the first that is not an OID
// (X25519MLKEM768); an all-lowercase one upper-cased ("aes-128-gcm" ->
// "AES-128-GCM").
std::string display_name(const std::vector<std::string>& names);

}  // namespace gpucrypto::bench
